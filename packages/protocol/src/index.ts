/**
 * `@runboard/protocol`: wire types, frame parsing and encoding, URL building and the pure reducers for the
 * Cloudflare Agents chat (`cf_agent_*`) and sub-agent (`agent-tool-event`) protocols. No IO, timers, DOM or
 * React. The wording and rules the components show are in `@runboard/protocol/view`; helix-agents runs in
 * `@runboard/protocol/helix`. Every name here is listed in `api/exports.json`: growing this list is a reviewed
 * change (`npm run exports:update`).
 */
export { agentAddressKey } from "./address-key.ts";
export type { AgentToolFailure } from "./agent-tool-failure.ts";
export { type AgentToolFailureParse, parseAgentToolFailure } from "./agent-tool-failure-parse.ts";
export type {
  AgentToolMilestone,
  AgentToolRun,
  AgentToolRunPart,
  AgentToolRunProgress,
  AgentToolRunState,
  AgentToolRunStatus,
} from "./agent-tool-run-state.ts";
export { AgentToolRunsReducer } from "./agent-tool-runs.ts";
export {
  type AgentToolApplyResult,
  type AgentToolRunsOptions as AgentToolRunsReducerOptions,
  type AgentToolRunsState,
  DEFAULT_MAX_MILESTONES,
} from "./agent-tool-runs-support.ts";
export {
  type ChatApprovalEntry,
  chatApprovalEntries,
  chatStatus,
  settledToolCallIds,
} from "./approvals/chat.ts";
export type { DescriptorInfo, ThinkActionDescriptor } from "./approvals/descriptor.ts";
export {
  classifyExecutionAnswer,
  type ExecutionAnswer,
  type ExecutionRecord,
  executionStatus,
  fullArgumentsOf,
  type PausedExecution,
  readPendingApproval,
  type ThinkPendingApproval,
  type ThinkPendingExecution,
  type TranscriptExecution,
  transcriptExecutions,
} from "./approvals/execution.ts";
export {
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalRequest,
  type ApprovalRisk,
  type ApprovalSource,
  type ApprovalState,
  type ApprovalStatus,
  approvalState,
  type ClaimedDecision,
  type ClaimPhase,
} from "./approvals/request.ts";
export {
  defaultWorkflowSelect,
  isAlreadyDecidedError,
  type WorkflowApprovalItem,
  type WorkflowApprovalState,
  type WorkflowItem,
  type WorkflowStateShape,
  type WorkflowStatusInput,
  workflowItemId,
  workflowItems,
  workflowStatus,
} from "./approvals/workflow.ts";
export { applyBranches, type BranchEntry, type MessageBranch, readBranchVersions } from "./branches.ts";
export { isToolPart, type Part } from "./chunk-applier.ts";
export {
  type CompactedMarks,
  type CompactionSummary,
  compactionOfCounts,
  countCompaction,
  readSessionStatus,
  type SessionStatus,
} from "./compaction.ts";
export {
  type ChatRequestBodyInput,
  encodeChatClear,
  encodeChatMessages,
  encodeChatRequest,
  encodeClientFrame,
  encodeRpcRequest,
  encodeSetState,
  encodeStreamResumeAck,
  encodeToolApproval,
  encodeToolResult,
  type ToolApprovalFields,
  type ToolResultFields,
} from "./encode.ts";
export { DEFAULT_MAX_FRAME_BYTES } from "./frame-limits.ts";
export {
  type AgentToolDisplay,
  type AgentToolEvent,
  type AgentToolEventFrame,
  type AgentToolEventKind,
  type AgentToolInterruptReason,
  type ChatClearFrame,
  type ChatMessagesFrame,
  type ChatRecoveringFrame,
  type ChatRequestBody,
  type ChatRequestCancelFrame,
  type ChatRequestFrame,
  type ChatResponseFrame,
  type ChatTurnOutcome,
  type ClientFrame,
  type ClientToolSchema,
  type FrameOfType,
  FrameType,
  type IdentityFrame,
  type KnownFrameType,
  type McpPrompt,
  type McpResource,
  type McpServer,
  type McpServersFrame,
  type McpServersState,
  type McpTool,
  type MessageUpdatedFrame,
  type RpcRequestFrame,
  type RpcResponseFrame,
  type ServerFrame,
  type SessionErrorFrame,
  type SessionFrame,
  type StateErrorFrame,
  type StateFrame,
  type StreamPendingFrame,
  type StreamResumeAckFrame,
  type StreamResumeNoneFrame,
  type StreamResumeNoneReason,
  type StreamResumeRequestFrame,
  type StreamResumingFrame,
  type ToolApprovalFrame,
  type ToolResultFrame,
} from "./frames.ts";
export type {
  LiveViewHandOff,
  LiveViewMode,
  LiveViewSession,
  LiveViewTarget,
  LiveViewUrlHandOff,
} from "./live-view/session.ts";
export {
  type ChunkOutcome,
  MessageList,
  type MessageListOptions,
  publishedChanges,
  type StreamFrameFlags,
} from "./message-list.ts";
export {
  type ChunkResult,
  type FrameError,
  type FrameLimits,
  messageShape,
  type ParseResult,
  parseChunkBody,
  parseClientFrame,
  parseServerFrame,
  type UnknownFrame,
} from "./parse.ts";
export { redactUrl } from "./redact-url.ts";
export {
  MAX_OTHER_LIVE_STREAMS,
  type ResponseRoute,
  type ResumeCommand,
  type ResumeInput,
  ResumeMachine,
  type ResumeMachineOptions,
  type StreamOrigin,
} from "./resume-machine.ts";
export {
  parseSyncAgentTool,
  type SyncAgentToolCall,
  type SyncAgentToolRun,
  syncAgentToolRun,
} from "./sync-agent-tool.ts";
export {
  type ClassifiableMessage,
  classifySyntheticMessage,
  type SyntheticMessage,
} from "./synthetic-messages.ts";
export {
  approvalIdOf,
  findToolCallIdForApproval,
  getToolApproval,
  getToolCallId,
  getToolInput,
  getToolName,
  getToolOutput,
  getToolPartState,
  isToolUIPart,
  type PendingInteraction,
  type PendingInteractionOptions,
  type ToolApproval,
  type ToolPartLike,
  type ToolPartState,
} from "./tool-parts.ts";
export {
  type AgentAddress,
  agentHttpUrl,
  agentUrl,
  getMessagesUrl,
  kebabAgentName,
  type SubAgentStep,
} from "./url.ts";
