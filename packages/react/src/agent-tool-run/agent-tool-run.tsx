/**
 * `AgentToolRun`: a child (sub-agent) run shown beside the tool call that spawned it. A disclosure
 * (WAI-ARIA): the trigger's `aria-expanded` / `aria-controls` point at the content, which holds the child's
 * own transcript, rendered through the app's part renderer so it looks like the parent's. The run parts
 * (title, status, progress, milestones, elapsed time, error, cancel) are the ones `RunTray` items use.
 */
import { DrillIn, Reconnect, Retry } from "./actions.tsx";
import { AgentType, Input, Interrupted, Summary, Transcript } from "./details.tsx";
import { Content, Header, Trigger } from "./disclosure.tsx";
import { agentToolRunParts as run } from "./named-parts.tsx";
import { Result, ResultText, ResultToggle } from "./result.tsx";
import { Root } from "./root.tsx";
import type { RunElapsedProps, RunMilestonesProps, RunProgressProps, RunStatusProps } from "./run-parts.tsx";
import { AllowedTools, Blocked, CutByAgent, Model, Prompt } from "./sync-parts.tsx";

export type { AgentToolRunActionProps } from "./actions.tsx";
export type {
  AgentToolRunAgentTypeProps,
  AgentToolRunInputProps,
  AgentToolRunInterruptedProps,
  AgentToolRunSummaryProps,
  AgentToolRunTranscriptProps,
} from "./details.tsx";
export type {
  AgentToolRunContentProps,
  AgentToolRunHeaderProps,
  AgentToolRunTriggerProps,
} from "./disclosure.tsx";
export type { RunFailureProps } from "./failure-part.tsx";
export type { FollowFrom, NestedRuns } from "./follow.ts";
export type {
  AgentToolRunResultProps,
  AgentToolRunResultTextProps,
  AgentToolRunResultToggleProps,
} from "./result.tsx";
export {
  type AgentToolRunRootProps,
  type RunAction,
  type RunActionProps,
  type RunsSource,
  useAgentToolRunContext,
} from "./root.tsx";
export { useRunCancel, useRunDrillIn, useRunReconnect, useRunRetry } from "./run-hooks.ts";
export type {
  RunCancelProps,
  RunElapsedProps,
  RunErrorProps,
  RunIconProps,
  RunMessageProps,
  RunMilestoneProps,
  RunMilestonesProps,
  RunPhaseProps,
  RunProgressProps,
  RunStatusProps,
  RunTitleProps,
} from "./run-parts.tsx";
export type {
  AgentToolRunAllowedToolsProps,
  AgentToolRunBlockedProps,
  AgentToolRunCutByAgentProps,
  AgentToolRunModelProps,
  AgentToolRunPromptProps,
} from "./sync-parts.tsx";

/** Props of `AgentToolRun.Status`. */
export type AgentToolRunStatusProps = RunStatusProps;
/** Props of `AgentToolRun.Elapsed`. */
export type AgentToolRunElapsedProps = RunElapsedProps;
/** Props of `AgentToolRun.Progress`. */
export type AgentToolRunProgressProps = RunProgressProps;
/** Props of `AgentToolRun.Milestones`. */
export type AgentToolRunMilestonesProps = RunMilestonesProps;

/**
 * A child run beside the tool call that spawned it.
 *
 * @example
 * ```tsx
 * const { store, runsByToolCallId } = useAgentToolEvents({ agent });
 * const renderPart = (part: Part) =>
 *   isToolUIPart(part)
 *     ? getRunsForToolCall({ runsByToolCallId }, part).map((r) => (
 *         <AgentToolRun.Root key={r.runId} store={store} runId={r.runId} onDrillIn={setDrilled}>
 *           <AgentToolRun.Header>
 *             <AgentToolRun.Icon /> <AgentToolRun.Title /> <AgentToolRun.Status /> <AgentToolRun.Elapsed />
 *             <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
 *           </AgentToolRun.Header>
 *           <AgentToolRun.Progress />
 *           <AgentToolRun.Content>
 *             <AgentToolRun.Transcript>{renderPart}</AgentToolRun.Transcript>
 *             <AgentToolRun.Result />
 *             <AgentToolRun.Failure />
 *           </AgentToolRun.Content>
 *           <AgentToolRun.Cancel />
 *         </AgentToolRun.Root>
 *       ))
 *     : <Text part={part} />;
 * ```
 */
export const AgentToolRun = {
  Root,
  Header,
  Icon: run.Icon,
  Title: run.Title,
  AgentType,
  Status: run.Status,
  Elapsed: run.Elapsed,
  Progress: run.RunProgress,
  Phase: run.Phase,
  Message: run.Message,
  Milestones: run.Milestones,
  Milestone: run.Milestone,
  Trigger,
  Content,
  Transcript,
  Input,
  Summary,
  Result,
  ResultText,
  ResultToggle,
  Error: run.ErrorPart,
  Failure: run.Failure,
  Interrupted,
  Cancel: run.Cancel,
  Retry,
  Reconnect,
  DrillIn,
  Prompt,
  AllowedTools,
  Model,
  Blocked,
  CutByAgent,
};
