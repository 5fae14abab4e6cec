/**
 * The parts of one run, written once: icon, title, status, progress, phase, message, milestones, elapsed
 * time, error and cancel. Each is a part hook (`useRunTitle(props, names)` renders the part); `AgentToolRun`
 * and `RunTray` name them with one-line components (`AgentToolRun.Title`, `RunTray.Title`) that differ only
 * in display name and error text. They read the run scope `AgentToolRun.Root` or a `RunTray` item provides.
 */
import type { AgentToolMilestone } from "@runboard/protocol";
import {
  omittedMilestonesText,
  runIcon,
  runTitle,
  TRAY_STATUS_LABELS,
  type TrayStatus,
} from "@runboard/protocol/view";
import { type ComponentType, createContext, type ReactElement, type ReactNode, useContext } from "react";
import {
  type ActionButtonProps,
  type ActionButtonState,
  dataFlag,
  formatElapsed,
  type PrimitiveProps,
  renderPart,
  useNow,
  warnOnce,
} from "../primitives/index.ts";
import { Progress, type ProgressRootProps } from "../progress/progress.tsx";
import { isoDuration } from "./format.ts";
import { type RunScopeValue, useRunScope } from "./run-scope.ts";

/** Props of the Icon part. */
export type RunIconProps = PrimitiveProps<"span">;
/** Props of the Title part. */
export type RunTitleProps = PrimitiveProps<"span">;
/** Props of the Phase part. */
export type RunPhaseProps = PrimitiveProps<"span">;
/** Props of the Message part. */
export type RunMessageProps = PrimitiveProps<"span">;
/** Props of the Error part. */
export type RunErrorProps = PrimitiveProps<"p">;
/** Props of the Cancel part. */
export type RunCancelProps = ActionButtonProps;
/** Props of the Progress part: `Progress.Root`'s, the run coming from the scope. */
export type RunProgressProps = Omit<ProgressRootProps, "run">;

/** Props of the Status part. */
export interface RunStatusProps extends PrimitiveProps<"span"> {
  /** Words per status, merged over the defaults (Running, Cancelling…, Completed, Failed, Cancelled, Interrupted). */
  labels?: Partial<Record<TrayStatus, string>>;
}

/** Props of the Milestones part. */
export interface RunMilestonesProps extends Omit<PrimitiveProps<"ul">, "children"> {
  /**
   * One entry per milestone, in the child's order, rendered inside that milestone's scope: nodes, or a
   * function of the milestone. Default: the namespace's `Milestone` part.
   */
  children?: ReactNode | ((milestone: AgentToolMilestone) => ReactNode);
}

/** Props of the Milestone part. */
export interface RunMilestoneProps extends PrimitiveProps<"li"> {
  /** The milestone to show; default the one of the surrounding `Milestones` entry. */
  milestone?: AgentToolMilestone;
}

/** Props of the Elapsed part. */
export interface RunElapsedProps extends PrimitiveProps<"time"> {
  /** Start time (epoch ms) when the app knows better than this client's first sight of the run. */
  startedAt?: number;
  /** End time (epoch ms), likewise. */
  endedAt?: number;
  /** Formats the elapsed milliseconds. Default `1:05`. */
  format?: (ms: number) => string;
}

interface MilestoneScope {
  milestone: AgentToolMilestone;
  current: boolean;
}
const MilestoneContext = createContext<MilestoneScope | null>(null);
MilestoneContext.displayName = "RunMilestoneContext";

/** Where a run part belongs: its namespace (`RunTray`), the part providing the run scope, and a setup hint. */
export interface RunPartNames {
  ns: string;
  /** The part that must surround it (`RunTray.List`, `AgentToolRun.Root`). */
  root: string;
  /** Completes the dev warning of a Cancel with nothing to call. */
  cancelHint: string;
}

const useScope = (names: RunPartNames, part: string): RunScopeValue =>
  useRunScope(`${names.ns}.${part}`, names.root);

/** The Icon part: the server's icon (`agentTool({ icon })`), decorative; nothing without one. */
export function useRunIcon(props: RunIconProps, names: RunPartNames): ReactElement | null {
  const icon = runIcon(useScope(names, "Icon").run);
  if (icon === undefined && props.children === undefined) return null;
  return renderPart("span", {
    "data-rb-part": `${names.ns}.Icon`,
    "aria-hidden": true,
    children: icon,
    ...props,
  });
}

/** The Title part: the display name (`agentTool({ displayName })`), falling back to the agent type. */
export function useRunTitle(props: RunTitleProps, names: RunPartNames): ReactElement {
  const { run, titleId } = useScope(names, "Title");
  return renderPart("span", {
    "data-rb-part": `${names.ns}.Title`,
    id: titleId,
    children: runTitle(run),
    ...props,
  });
}

/**
 * The Status part: the status in words; `data-status` includes `cancelling`. In a run card it is a polite
 * `role="status"`, so the run's end is spoken; in a tray `RunTray.Announcer` speaks endings instead.
 */
export function useRunStatus({ labels, ...props }: RunStatusProps, names: RunPartNames): ReactElement {
  const { status, liveStatus } = useScope(names, "Status");
  return renderPart("span", {
    "data-rb-part": `${names.ns}.Status`,
    role: liveStatus ? "status" : undefined,
    "data-status": status,
    children: labels?.[status] ?? TRAY_STATUS_LABELS[status],
    ...props,
  });
}

/** The Progress part: `Progress.Root` for the run (named `<name> progress`); default child an indicator. */
export function useRunProgress({ children, ...props }: RunProgressProps, names: RunPartNames): ReactElement {
  const { run } = useScope(names, "Progress");
  return (
    <Progress.Root run={run} data-rb-part={`${names.ns}.Progress`} {...props}>
      {children ?? <Progress.Indicator />}
    </Progress.Root>
  );
}

/** The Phase part: the latest progress phase (`reading`); nothing without one. */
export function useRunPhase(props: RunPhaseProps, names: RunPartNames): ReactElement | null {
  const phase = useScope(names, "Phase").run.progress?.phase;
  if (!phase && props.children === undefined) return null;
  return renderPart("span", { "data-rb-part": `${names.ns}.Phase`, children: phase, ...props });
}

/** The Message part: the latest progress message (`Reading 2 sources`), as text; nothing without one. */
export function useRunMessage(props: RunMessageProps, names: RunPartNames): ReactElement | null {
  const message = useScope(names, "Message").run.progress?.message;
  if (!message && props.children === undefined) return null;
  return renderPart("span", { "data-rb-part": `${names.ns}.Message`, children: message, ...props });
}

/**
 * The Milestones part: reached milestones as chips (`<ul>` named `<name> milestones`, `data-count`), in the
 * child's order, one entry each (default `Item`, the namespace's Milestone part); nothing before the first.
 * When the run no longer keeps its earliest milestones (`omittedMilestones`), a first entry counts them
 * (`data-status="omitted"`, `data-count`, "N earlier milestones").
 */
export function useRunMilestones(
  { children, ...props }: RunMilestonesProps,
  names: RunPartNames,
  Item: ComponentType,
): ReactElement | null {
  const { run } = useScope(names, "Milestones");
  if (run.milestones.length === 0) return null;
  const list = [...run.milestones].sort((a, b) => a.sequence - b.sequence);
  const omitted = run.omittedMilestones ?? 0;
  return renderPart("ul", {
    "data-rb-part": `${names.ns}.Milestones`,
    "aria-label": `${runTitle(run)} milestones`,
    "data-count": list.length,
    children: [
      omitted > 0 ? (
        <li key="omitted" data-rb-part={`${names.ns}.Milestone`} data-status="omitted" data-count={omitted}>
          {omittedMilestonesText(omitted)}
        </li>
      ) : null,
      ...list.map((milestone, i) => (
        <MilestoneContext.Provider
          key={milestone.sequence}
          value={{ milestone, current: i === list.length - 1 }}
        >
          {children === undefined ? (
            <Item />
          ) : typeof children === "function" ? (
            children(milestone)
          ) : (
            children
          )}
        </MilestoneContext.Provider>
      )),
    ],
    ...props,
  });
}

/** The Milestone part: one chip (`<li>`), `data-name`, `data-status="reached"`, `data-current` on the latest. */
export function useRunMilestone(
  { milestone: own, ...props }: RunMilestoneProps,
  names: RunPartNames,
): ReactElement {
  const entry = useContext(MilestoneContext);
  const milestone = own ?? entry?.milestone;
  if (!milestone)
    throw new Error(
      `<${names.ns}.Milestone> must be rendered inside <${names.ns}.Milestones>, or be given a milestone.`,
    );
  return renderPart("li", {
    "data-rb-part": `${names.ns}.Milestone`,
    "data-name": milestone.name,
    "data-status": "reached",
    "data-current": dataFlag(entry?.milestone === milestone && entry.current),
    children: milestone.name,
    ...props,
  });
}

/**
 * The Elapsed part: time since this client first saw the run running, as `<time dateTime="PT…">`; ticks
 * each second on the shared clock while running and stops when the run ends. Nothing when the start is
 * unknown (a run first seen finished), nor before the page has mounted (a server render, hydration): the
 * time is the browser's.
 */
export function useRunElapsed(
  { startedAt, endedAt, format = formatElapsed, ...props }: RunElapsedProps,
  names: RunPartNames,
): ReactElement | null {
  const scope = useScope(names, "Elapsed");
  const start = startedAt ?? scope.startedAt;
  const end = endedAt ?? (scope.run.status === "running" ? null : scope.endedAt);
  const now = useNow(1000, start !== null && end === null);
  const until = end ?? now;
  if (start === null || until === null) return null;
  const ms = Math.max(0, until - start);
  return renderPart("time", {
    "data-rb-part": `${names.ns}.Elapsed`,
    dateTime: isoDuration(ms),
    "data-status": scope.run.status,
    children: format(ms),
    ...props,
  });
}

/** The Error part: the error of a run that failed, was interrupted or was cancelled with a reason; nothing otherwise. */
export function useRunError(props: RunErrorProps, names: RunPartNames): ReactElement | null {
  const { run } = useScope(names, "Error");
  if (run.status === "running" || run.status === "completed" || !run.error) return null;
  return renderPart("p", {
    "data-rb-part": `${names.ns}.Error`,
    "data-status": run.status,
    children: run.error,
    ...props,
  });
}

/**
 * The Cancel part's state, for `createActionButton`: named "Cancel <name>"; disabled when the cancel cannot
 * be sent (not running, already on its way, nothing to call). `data-cancelling` while it is on its way.
 */
export function useRunCancel(names: RunPartNames): ActionButtonState {
  const scope = useScope(names, "Cancel");
  if (!scope.canSendCancel)
    warnOnce(`${names.ns}.Cancel:config`, `${names.ns}.Cancel has nothing to call: ${names.cancelHint}`);
  return {
    action: scope.cancel,
    label: "Cancel",
    // The visible word starts the name, so speech commands ("click Cancel") still find it.
    attributes: {
      "aria-label": `Cancel ${runTitle(scope.run)}`,
      "data-cancelling": dataFlag(scope.cancelling),
    },
  };
}
