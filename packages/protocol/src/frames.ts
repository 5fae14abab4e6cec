/**
 * Wire frames of the Cloudflare Agents protocols, both directions.
 *
 * This module is the single source of truth for frame shapes: the client, the mock server and the tests
 * import these types. Message and chunk types come from the AI SDK (`ai`); nothing here redeclares them.
 * Shapes follow the reference implementation and, where they differ, what the real server sends
 * (recorded transcripts in `test-support/fixtures/real-server/`).
 */
import type { UIMessage } from "ai";

/** Frame `type` strings, named once so no module spells them twice. */
export const FrameType = {
  identity: "cf_agent_identity",
  state: "cf_agent_state",
  stateError: "cf_agent_state_error",
  mcpServers: "cf_agent_mcp_servers",
  rpc: "rpc",
  chatRequest: "cf_agent_use_chat_request",
  chatResponse: "cf_agent_use_chat_response",
  chatMessages: "cf_agent_chat_messages",
  chatClear: "cf_agent_chat_clear",
  chatRequestCancel: "cf_agent_chat_request_cancel",
  messageUpdated: "cf_agent_message_updated",
  toolResult: "cf_agent_tool_result",
  toolApproval: "cf_agent_tool_approval",
  chatRecovering: "cf_agent_chat_recovering",
  streamResumeRequest: "cf_agent_stream_resume_request",
  streamResuming: "cf_agent_stream_resuming",
  streamResumeAck: "cf_agent_stream_resume_ack",
  streamResumeNone: "cf_agent_stream_resume_none",
  streamPending: "cf_agent_stream_pending",
  agentToolEvent: "agent-tool-event",
  session: "cf_agent_session",
  sessionError: "cf_agent_session_error",
} as const;

/** Any frame `type` string this package knows. */
export type KnownFrameType = (typeof FrameType)[keyof typeof FrameType];

// ───────────────────────────── generic agent frames ─────────────────────────────

/** Server → client, on connect: who this connection talks to. AIChatAgent adds `stateFollows: true`. */
export interface IdentityFrame {
  type: "cf_agent_identity";
  name: string;
  agent: string;
  stateFollows?: boolean;
}

/** Both directions: the agent's whole state. A client frame is applied and broadcast to the others. */
export interface StateFrame<State = unknown> {
  type: "cf_agent_state";
  state: State;
}

/** Server → client: a client state update was refused (readonly connection, validation). */
export interface StateErrorFrame {
  type: "cf_agent_state_error";
  error: string;
}

/**
 * The MCP SDK's own shapes inside the MCP list (capabilities, tools, prompts, resources), passed through as the
 * server sent them and not checked here: `any` beyond the fields named, so the list can be handed to code
 * typed with the official `MCPServersState` (docs/protocol.md#mcp-servers).
 */
// biome-ignore lint/suspicious/noExplicitAny: the MCP SDK's types, which this package does not depend on
type McpPassThrough = any;

/** One MCP server as the agent reports it. */
export interface McpServer {
  name: string;
  server_url: string;
  auth_url: string | null;
  state: "authenticating" | "connecting" | "connected" | "discovering" | "ready" | "failed";
  /** Why it failed, or null. */
  error: string | null;
  instructions: string | null;
  /** What the server declared it supports (the MCP SDK's `ServerCapabilities`), null until it connected. */
  capabilities: { [capability: string]: McpPassThrough } | null;
}

/** A tool an MCP server exposes (the MCP SDK's `Tool`), with the id of that server. */
export interface McpTool {
  serverId: string;
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: McpPassThrough };
  [field: string]: McpPassThrough;
}

/** A prompt an MCP server exposes (the MCP SDK's `Prompt`), with the id of that server. */
export interface McpPrompt {
  serverId: string;
  name: string;
  description?: string;
  [field: string]: McpPassThrough;
}

/** A resource an MCP server exposes (the MCP SDK's `Resource`), with the id of that server. */
export interface McpResource {
  serverId: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  [field: string]: McpPassThrough;
}

/** The agent's MCP servers and what they expose, as the official `MCPServersState`. */
export interface McpServersState {
  servers: Record<string, McpServer>;
  tools: McpTool[];
  prompts: McpPrompt[];
  resources: McpResource[];
}

/** Server → client, on connect and on change. */
export interface McpServersFrame {
  type: "cf_agent_mcp_servers";
  mcp: McpServersState;
}

/** Client → server: call a `@callable()` method. */
export interface RpcRequestFrame {
  type: "rpc";
  id: string;
  method: string;
  args: unknown[];
}

/** Server → client: an RPC answer. `done: false` is a streaming chunk; a success without `done` is final. */
export type RpcResponseFrame =
  | { type: "rpc"; id: string; success: true; result?: unknown; done?: boolean }
  | { type: "rpc"; id: string; success: false; error: string };

/** Server → client: experimental memory session status. */
export interface SessionFrame {
  type: "cf_agent_session";
  phase: "idle" | "compacting";
  tokenEstimate: number;
  tokenThreshold: number | null;
  [extra: string]: unknown;
}

/** Server → client: experimental memory session failure. */
export interface SessionErrorFrame {
  type: "cf_agent_session_error";
  error: string;
}

// ───────────────────────────── chat frames ─────────────────────────────

/** The JSON object carried (as a string) in `cf_agent_use_chat_request.init.body`. */
export interface ChatRequestBody<Message extends UIMessage = UIMessage> {
  messages: Message[];
  trigger: "submit-message" | "regenerate-message";
  clientTools?: ClientToolSchema[];
  [extra: string]: unknown;
}

/** A client-executed tool announced to the server. */
export interface ClientToolSchema {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** Client → server: a new user turn or a regenerate. `init.body` is a JSON string, not an object. */
export interface ChatRequestFrame {
  type: "cf_agent_use_chat_request";
  id: string;
  init: { method: "POST"; body: string };
}

/**
 * Server → client: one frame of a chat stream. `body` is a JSON-encoded `UIMessageChunk`, `""` for control
 * frames, or plain error text when `error` is set. `seq` is sent by current servers; it is not relied on.
 */
export interface ChatResponseFrame {
  type: "cf_agent_use_chat_response";
  id: string;
  body: string;
  done: boolean;
  error?: boolean;
  continuation?: boolean;
  replay?: boolean;
  replayComplete?: boolean;
  seq?: number;
  /** On terminal frames: ids of the trailing user messages the originating request carried. */
  messageIds?: string[];
  /** On terminal frames (Think always; AIChatAgent only when not completed): how the request ended. */
  outcome?: ChatTurnOutcome;
}

/** How a chat request ended. Absent on the wire means `error` if an error frame was seen, else `completed`. */
export type ChatTurnOutcome = "completed" | "error" | "aborted" | "skipped" | "recovering";

/** Both directions: a full transcript. Think adds `connect: true` to the snapshot it pushes on connect. */
export interface ChatMessagesFrame<Message extends UIMessage = UIMessage> {
  type: "cf_agent_chat_messages";
  messages: Message[];
  connect?: boolean;
}

/** Both directions: clear the history. The server echoes it to the other connections only. */
export interface ChatClearFrame {
  type: "cf_agent_chat_clear";
}

/** Client → server: stop the server turn whose request id is `id`. */
export interface ChatRequestCancelFrame {
  type: "cf_agent_chat_request_cancel";
  id: string;
}

/** Server → client: a tool result or approval was applied to one message. */
export interface MessageUpdatedFrame<Message extends UIMessage = UIMessage> {
  type: "cf_agent_message_updated";
  message: Message;
}

/** Client → server: a client tool's output (or a custom denial with `state: "output-error"`). */
export interface ToolResultFrame {
  type: "cf_agent_tool_result";
  toolCallId: string;
  toolName: string;
  output: unknown;
  state?: "output-available" | "output-error";
  errorText?: string;
  autoContinue?: boolean;
  clientTools?: ClientToolSchema[];
}

/** Client → server: a human's decision. Keyed by `toolCallId`, not by the approval id. */
export interface ToolApprovalFrame {
  type: "cf_agent_tool_approval";
  toolCallId: string;
  approved: boolean;
  autoContinue?: boolean;
}

/** Server → client: advisory durable-recovery status. */
export interface ChatRecoveringFrame {
  type: "cf_agent_chat_recovering";
  recovering: boolean;
  id?: string;
}

/** Client → server: "is there a stream for me?". */
export interface StreamResumeRequestFrame {
  type: "cf_agent_stream_resume_request";
  probeId?: string;
}

/** Server → client: stream `id` can be resumed; ACK to receive it. `probeId` only when answering a probe. */
export interface StreamResumingFrame {
  type: "cf_agent_stream_resuming";
  id: string;
  probeId?: string;
}

/** Client → server: send me the replay of stream `id`. */
export interface StreamResumeAckFrame {
  type: "cf_agent_stream_resume_ack";
  id: string;
}

/** Why the server has nothing to resume. Only a correlated `idle` is authoritative. */
export type StreamResumeNoneReason = "idle" | "continuation-owned";

/** Server → client: nothing to resume for this connection. */
export interface StreamResumeNoneFrame {
  type: "cf_agent_stream_resume_none";
  reason?: StreamResumeNoneReason;
  probeId?: string;
}

/** Server → client: a turn is accepted but its stream has not started; keep waiting. */
export interface StreamPendingFrame {
  type: "cf_agent_stream_pending";
  id?: string;
  probeId?: string;
}

// ───────────────────────────── agent-tool events ─────────────────────────────

/** Why a child run was sealed as `interrupted`. */
export type AgentToolInterruptReason =
  | "no-progress"
  | "window-exceeded"
  | "not-tailable"
  | "inspect-timeout"
  | "inspect-failed"
  | "recovery-deadline"
  | "budget-exceeded";

/** How a run is shown: `agentTool({ displayName, icon, display })`. */
export interface AgentToolDisplay {
  name?: string;
  icon?: string;
  [key: string]: unknown;
}

/** One event of a child (sub-agent) run. */
export type AgentToolEvent =
  | {
      kind: "started";
      runId: string;
      agentType: string;
      inputPreview?: unknown;
      order: number;
      display?: AgentToolDisplay;
    }
  | {
      kind: "chunk";
      runId: string;
      body: string;
      /** Set on a chunk the child could not store (too large): it is never replayed and dedupes on this id. */
      unstoredId?: string;
    }
  | { kind: "finished"; runId: string; summary: string }
  | { kind: "error"; runId: string; error: string }
  | { kind: "aborted"; runId: string; reason?: string }
  | {
      kind: "interrupted";
      runId: string;
      error: string;
      reason?: AgentToolInterruptReason;
      childStillRunning?: boolean;
    };

/** The kind of an agent-tool event. */
export type AgentToolEventKind = AgentToolEvent["kind"];

/** Server → client: an event of a child run, broadcast by the parent agent. */
export interface AgentToolEventFrame {
  type: "agent-tool-event";
  parentToolCallId?: string;
  /** Per-run ordinal. Not unique: progress and milestone chunks reuse the next stored chunk's number. */
  sequence: number;
  /** Present on connect-time replay frames only. */
  replay?: true;
  event: AgentToolEvent;
}

// ───────────────────────────── unions ─────────────────────────────

/** Every frame a server sends that this package understands. */
export type ServerFrame =
  | IdentityFrame
  | StateFrame
  | StateErrorFrame
  | McpServersFrame
  | RpcResponseFrame
  | SessionFrame
  | SessionErrorFrame
  | ChatResponseFrame
  | ChatMessagesFrame
  | ChatClearFrame
  | MessageUpdatedFrame
  | ChatRecoveringFrame
  | StreamResumingFrame
  | StreamResumeNoneFrame
  | StreamPendingFrame
  | AgentToolEventFrame;

/** Every frame a client sends. */
export type ClientFrame =
  | StateFrame
  | RpcRequestFrame
  | ChatRequestFrame
  | ChatMessagesFrame
  | ChatClearFrame
  | ChatRequestCancelFrame
  | ToolResultFrame
  | ToolApprovalFrame
  | StreamResumeRequestFrame
  | StreamResumeAckFrame;

/** Narrow a frame union by its `type`. */
export type FrameOfType<F extends { type: string }, T extends F["type"]> = Extract<F, { type: T }>;
