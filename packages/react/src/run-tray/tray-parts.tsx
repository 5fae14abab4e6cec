/** The shared run parts of `AgentToolRun` (`run-parts.tsx`) as `RunTray` names them: `RunTray.Title`, … */

import {
  type RunCancelProps,
  type RunElapsedProps,
  type RunErrorProps,
  type RunIconProps,
  type RunMessageProps,
  type RunMilestoneProps,
  type RunMilestonesProps,
  type RunPartNames,
  type RunPhaseProps,
  type RunProgressProps,
  type RunStatusProps,
  type RunTitleProps,
  useRunCancel,
  useRunElapsed,
  useRunError,
  useRunIcon,
  useRunMessage,
  useRunMilestone,
  useRunMilestones,
  useRunPhase,
  useRunProgress,
  useRunStatus,
  useRunTitle,
} from "../agent-tool-run/run-parts.tsx";
import { createActionButton } from "../primitives/index.ts";

const names: RunPartNames = {
  ns: "RunTray",
  root: "RunTray.List",
  cancelHint: "pass onCancel, or agent (useAgent()) to RunTray.Root.",
};

/** `RunTray.Icon`: The server's icon (`agentTool({ icon })`), decorative; nothing without one. */
export function Icon(props: RunIconProps) {
  return useRunIcon(props, names);
}
Icon.displayName = "RunTray.Icon";

/** `RunTray.Title`: The display name (`agentTool({ displayName })`), falling back to the agent type. */
export function Title(props: RunTitleProps) {
  return useRunTitle(props, names);
}
Title.displayName = "RunTray.Title";

/** `RunTray.Status`: The status in words; `data-status` includes `cancelling`. */
export function Status(props: RunStatusProps) {
  return useRunStatus(props, names);
}
Status.displayName = "RunTray.Status";

/** `RunTray.Progress`: The run's progress bar (`Progress.Root` for the run); default child an indicator. */
export function RunProgress(props: RunProgressProps) {
  return useRunProgress(props, names);
}
RunProgress.displayName = "RunTray.Progress";

/** `RunTray.Phase`: The latest progress phase; nothing without one. */
export function Phase(props: RunPhaseProps) {
  return useRunPhase(props, names);
}
Phase.displayName = "RunTray.Phase";

/** `RunTray.Message`: The latest progress message, as text; nothing without one. */
export function Message(props: RunMessageProps) {
  return useRunMessage(props, names);
}
Message.displayName = "RunTray.Message";

/** `RunTray.Milestones`: Reached milestones as chips (`<ul>`), one `Milestone` entry each; nothing before the first. */
export function Milestones(props: RunMilestonesProps) {
  return useRunMilestones(props, names, Milestone);
}
Milestones.displayName = "RunTray.Milestones";

/** `RunTray.Milestone`: One milestone chip (`<li>`): `data-name`, `data-status="reached"`, `data-current` on the latest. */
export function Milestone(props: RunMilestoneProps) {
  return useRunMilestone(props, names);
}
Milestone.displayName = "RunTray.Milestone";

/** `RunTray.Elapsed`: Time since this client first saw the run running, as `<time dateTime>`; ticks while it runs. */
export function Elapsed(props: RunElapsedProps) {
  return useRunElapsed(props, names);
}
Elapsed.displayName = "RunTray.Elapsed";

/** `RunTray.Error`: The error of a run that did not complete, as text; nothing otherwise. */
export function ErrorPart(props: RunErrorProps) {
  return useRunError(props, names);
}
ErrorPart.displayName = "RunTray.Error";

/** `RunTray.Cancel`: cancels the run, named "Cancel <name>"; disabled when the cancel cannot be sent. */
export const Cancel = createActionButton<RunCancelProps>("RunTray.Cancel", () => useRunCancel(names));
