/** The shared run parts (`run-parts.tsx`) as `AgentToolRun` names them: `AgentToolRun.Title`, … */
import { createActionButton } from "../primitives/index.ts";
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
} from "./run-parts.tsx";

const names: RunPartNames = {
  ns: "AgentToolRun",
  root: "AgentToolRun.Root",
  cancelHint:
    "pass onCancel, or agent (useAgent()) to AgentToolRun.Root, or runs (useAgentToolEvents({ agent }).store).",
};

/** `AgentToolRun.Icon`: The server's icon (`agentTool({ icon })`), decorative; nothing without one. */
export function Icon(props: RunIconProps) {
  return useRunIcon(props, names);
}
Icon.displayName = "AgentToolRun.Icon";

/** `AgentToolRun.Title`: The display name (`agentTool({ displayName })`), falling back to the agent type. */
export function Title(props: RunTitleProps) {
  return useRunTitle(props, names);
}
Title.displayName = "AgentToolRun.Title";

/** `AgentToolRun.Status`: The status in words; `data-status` includes `cancelling`. */
export function Status(props: RunStatusProps) {
  return useRunStatus(props, names);
}
Status.displayName = "AgentToolRun.Status";

/** `AgentToolRun.Progress`: The run's progress bar (`Progress.Root` for the run); default child an indicator. */
export function RunProgress(props: RunProgressProps) {
  return useRunProgress(props, names);
}
RunProgress.displayName = "AgentToolRun.Progress";

/** `AgentToolRun.Phase`: The latest progress phase; nothing without one. */
export function Phase(props: RunPhaseProps) {
  return useRunPhase(props, names);
}
Phase.displayName = "AgentToolRun.Phase";

/** `AgentToolRun.Message`: The latest progress message, as text; nothing without one. */
export function Message(props: RunMessageProps) {
  return useRunMessage(props, names);
}
Message.displayName = "AgentToolRun.Message";

/** `AgentToolRun.Milestones`: Reached milestones as chips (`<ul>`), one `Milestone` entry each; nothing before the first. */
export function Milestones(props: RunMilestonesProps) {
  return useRunMilestones(props, names, Milestone);
}
Milestones.displayName = "AgentToolRun.Milestones";

/** `AgentToolRun.Milestone`: One milestone chip (`<li>`): `data-name`, `data-status="reached"`, `data-current` on the latest. */
export function Milestone(props: RunMilestoneProps) {
  return useRunMilestone(props, names);
}
Milestone.displayName = "AgentToolRun.Milestone";

/** `AgentToolRun.Elapsed`: Time since this client first saw the run running, as `<time dateTime>`; ticks while it runs. */
export function Elapsed(props: RunElapsedProps) {
  return useRunElapsed(props, names);
}
Elapsed.displayName = "AgentToolRun.Elapsed";

/** `AgentToolRun.Error`: The error of a run that did not complete, as text; nothing otherwise. */
export function ErrorPart(props: RunErrorProps) {
  return useRunError(props, names);
}
ErrorPart.displayName = "AgentToolRun.Error";

/** `AgentToolRun.Cancel`: cancels the run, named "Cancel <name>"; disabled when the cancel cannot be sent. */
export const Cancel = createActionButton<RunCancelProps>("AgentToolRun.Cancel", () => useRunCancel(names));
