/**
 * `RunTray`: the tray of background runs (`useAgentToolEvents().unboundRuns`, or any runs): a disclosure
 * button with a count of active runs, a list of runs with status, progress, milestones, elapsed time, a
 * stall notice and Cancel / Open / Dismiss, and a polite live region that says when a run ends. Its run
 * parts are the ones `AgentToolRun` uses, named for the tray.
 */
import type {
  RunElapsedProps,
  RunMilestonesProps,
  RunProgressProps,
  RunStatusProps,
} from "../agent-tool-run/run-parts.tsx";
import { Dismiss, DrillIn, Stalled } from "./tray-actions.tsx";
import { Announcer } from "./tray-announcer.tsx";
import { ClearFinished } from "./tray-cleanup.tsx";
import { Link } from "./tray-focus.tsx";
import { Badge, Empty, Item, List, Trigger } from "./tray-list.tsx";
import { runTrayParts as trayParts } from "./tray-parts.tsx";
import { Root } from "./tray-root.tsx";
import { Input, Interrupted, Reconnect, Retry, Summary } from "./tray-run-details.tsx";

export { type RunTrayActionProps, type RunTrayStalledProps, useRunTrayDismiss } from "./tray-actions.tsx";
export type { RunTrayAnnouncerProps } from "./tray-announcer.tsx";
export { type RunTrayClearFinishedProps, useRunTrayClearFinished } from "./tray-cleanup.tsx";
export { focusRunInTray, type RunTrayLinkProps, runTrayItemId } from "./tray-focus.tsx";
export {
  type RunTrayBadgeProps,
  type RunTrayEmptyProps,
  type RunTrayItemProps,
  type RunTrayItemState,
  type RunTrayListProps,
  type RunTrayTriggerProps,
  useRunTrayItem,
} from "./tray-list.tsx";
export { type RunTrayAction, type RunTrayAgent, type RunTrayRootProps, useRunTray } from "./tray-root.tsx";
export type {
  RunTrayInputProps,
  RunTrayInterruptedProps,
  RunTrayRecoveryProps,
  RunTraySummaryProps,
} from "./tray-run-details.tsx";

/** Props of `RunTray.Status`. */
export type RunTrayStatusProps = RunStatusProps;
/** Props of `RunTray.Progress`. */
export type RunTrayProgressProps = RunProgressProps;
/** Props of `RunTray.Milestones`. */
export type RunTrayMilestonesProps = RunMilestonesProps;
/** Props of `RunTray.Elapsed`. */
export type RunTrayElapsedProps = RunElapsedProps;

/**
 * The tray of background runs.
 *
 * @example
 * ```tsx
 * const agent = useAgent({ agent: "ChatAgent" });
 * const { store } = useAgentToolEvents({ agent });
 * // The store's background runs; its cancels and times are shared with every AgentToolRun of `store`.
 * <RunTray.Root store={store} onDrillIn={openChildChat} stallAfterMs={30_000}>
 *   <RunTray.Trigger>
 *     Background runs <RunTray.Badge />
 *   </RunTray.Trigger>
 *   <RunTray.List>
 *     <RunTray.Item>
 *       <RunTray.Icon /><RunTray.Title /> <RunTray.Input /> <RunTray.Status /> <RunTray.Elapsed />
 *       <RunTray.Progress><Progress.Indicator className="bar" /></RunTray.Progress>
 *       <RunTray.Message /> <RunTray.Milestones /> <RunTray.Stalled /> <RunTray.Error />
 *       <RunTray.Summary /> <RunTray.Interrupted />
 *       <RunTray.Cancel /> <RunTray.Retry /> <RunTray.Reconnect /> <RunTray.DrillIn /> <RunTray.Dismiss />
 *     </RunTray.Item>
 *   </RunTray.List>
 *   <RunTray.ClearFinished />
 *   <RunTray.Empty />
 *   <RunTray.Announcer />
 * </RunTray.Root>
 * ```
 */
export const RunTray = {
  Root,
  Trigger,
  Badge,
  List,
  Item,
  Icon: trayParts.Icon,
  Title: trayParts.Title,
  Status: trayParts.Status,
  Progress: trayParts.RunProgress,
  Phase: trayParts.Phase,
  Message: trayParts.Message,
  Milestones: trayParts.Milestones,
  Milestone: trayParts.Milestone,
  Error: trayParts.ErrorPart,
  Failure: trayParts.Failure,
  Elapsed: trayParts.Elapsed,
  Stalled,
  Input,
  Summary,
  Interrupted,
  Cancel: trayParts.Cancel,
  Retry,
  Reconnect,
  DrillIn,
  Dismiss,
  ClearFinished,
  Link,
  Empty,
  Announcer,
};
