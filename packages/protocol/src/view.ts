/**
 * `@runboard/protocol/view`: the wording and rules the `@runboard/react` components show (labels,
 * announcements, status text, run display, the tray's rules, progress values, the milestone timeline,
 * approval text, Live View policy and refresh timing), as plain functions a store, a server render, a test or
 * another framework can call. No IO, timers, DOM or React. Listed in `api/exports.json`.
 */
export {
  AGENT_TOOL_FAILURE_REASON_TEXT,
  type AgentToolFailureStatus,
  type AgentToolFailureWords,
  describeAgentToolFailure,
  failureOfRunEnd,
} from "./agent-tool-failure.ts";
export { compareRuns } from "./agent-tool-runs-support.ts";
export { canApprove, canDeny, needsConfirmation } from "./approvals/request.ts";
export { approvalStatusText, formatArguments } from "./approvals/text.ts";
export { revealHiddenCharacters } from "./approvals/visible-text.ts";
export {
  type ChatStatusFlags,
  type ChatStatusState,
  compactionText,
  describeChatStatus,
} from "./chat-status-label.ts";
export { compactedMarks } from "./compaction.ts";
export { type DetachedDispatch, detachedDispatchOf } from "./detached-dispatch.ts";
export { agentEventLabel, isAgentEvent, messageText } from "./event-label.ts";
export {
  type FrameSource,
  reconcileSources,
  sessionSources,
  stableOrder,
} from "./live-view/frame-sources.ts";
export {
  defaultRefreshMargin,
  MIN_REFRESH_DELAY_MS,
  refreshDelay,
  retryDelay,
} from "./live-view/refresh-timing.ts";
export { parseLiveViewSession } from "./live-view/session.ts";
export {
  type FrameLoad,
  type LiveViewControl,
  type LiveViewState,
  type LiveViewTargetState,
  liveViewState,
  liveViewStatusText,
  targetState,
} from "./live-view/status.ts";
export { isBlankPage, isVisibleTarget, targetLabel, visibleTargets } from "./live-view/targets.ts";
export {
  checkLiveViewUrl,
  isLoopbackHost,
  type LiveViewEmbedContext,
  type LiveViewRefusal,
  type LiveViewUrlPolicy,
  type LiveViewUrlVerdict,
  type NormalizedLiveViewUrlPolicy,
  normalizeOrigins,
} from "./live-view/url-policy.ts";
export {
  type NormalizedFraction,
  normalizeFraction,
  type ProgressReading,
  type ProgressState,
  progressPercent,
  progressState,
  progressValueText,
} from "./progress-value.ts";
export {
  getRunsForToolCall,
  interruptReasonLabel,
  isRunFinished,
  observeRunTimes,
  RUN_STATUS_LABELS,
  type RunRecovery,
  type RunTimes,
  recoveryFor,
  runIcon,
  runTitle,
  type Truncated,
  truncateText,
  valueText,
} from "./run-display.ts";
export {
  activeCount,
  canCancel,
  canDismiss,
  endingsAnnouncement,
  isStalled,
  observeEndings,
  observeRun,
  runEndAnnouncement,
  settleCancelling,
  stallDueAt,
  stalledLabel,
  TRAY_STATUS_LABELS,
  type TrackedRun,
  type TrayStatus,
  trayStatus,
  visibleRuns,
  watchRunning,
  withCancelling,
  withDismissed,
} from "./run-tray-rules.ts";
export { SYNC_AGENT_TOOL_CUT_AT, SYNC_AGENT_TOOL_LIMIT, SYNC_AGENT_TOOL_NAME } from "./sync-agent-tool.ts";
export {
  milestoneAnnouncement,
  omittedMilestonesText,
  type TimelineItem,
  timelineItems,
  unseenMilestones,
} from "./timeline.ts";
export { toolValueText } from "./tool-parts.ts";
export {
  humanizeToolName,
  runSummaryText,
  type ToolStatus,
  type ToolStatusKind,
  type ToolStatusOptions,
  toolInputGist,
  toolStatus,
} from "./tool-status.ts";
