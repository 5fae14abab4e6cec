/**
 * The types of the chat store: its options (the official `useAgentChat` options), its snapshot, and the
 * socket-like object it talks through.
 */
import type { UIMessage } from "ai";
import type { ChatSchemas } from "./chat-schemas.ts";
import type { ClientTool } from "./client-tools.ts";

/** Anything with a WebSocket-like surface: an `AgentClient`, the official `useAgent` result, a test double. */
export interface ChatAgentLike {
  send(data: string): void;
  addEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  removeEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  readonly readyState?: number;
  /** The agent's HTTP URL. The official object's takes no argument and carries the connection id (`_pk`). */
  getHttpUrl?: (path?: string) => string;
  /** The agent class and instance, handed to `getInitialMessages`. */
  readonly agent?: string;
  readonly name?: string;
}

/** What loading the transcript gave: the messages, or why there are none. Never a rejection. */
export interface TranscriptResult<M extends UIMessage = UIMessage> {
  messages?: M[];
  error?: Error;
}

export type ChatStatus = "ready" | "submitted" | "streaming" | "error";

export interface ChatSnapshot<M extends UIMessage = UIMessage> {
  messages: readonly M[];
  status: ChatStatus;
  error: Error | undefined;
  /** This tab's own turn is streaming, or any other stream is (`status === "streaming" || isServerStreaming`). */
  isStreaming: boolean;
  /** A stream this tab did not start is live: another tab's turn, a continuation, a server turn. */
  isServerStreaming: boolean;
  /** A tool result or approval was sent and its continuation has not ended. */
  isToolContinuation: boolean;
  /** The server said it is recovering an interrupted turn (`cf_agent_chat_recovering`). */
  isRecovering: boolean;
  /** Messages waiting to be sent (`experimental_queue`), in sending order. */
  experimental_queuedMessages: readonly M[];
}

export interface ToolCallInfo {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface AddToolOutputOptions {
  toolCallId: string;
  toolName?: string;
  output?: unknown;
  /** `output-error` sends a custom denial or failure with `errorText`. */
  state?: "output-available" | "output-error";
  errorText?: string;
}

export interface ChatSessionOptions<M extends UIMessage = UIMessage> extends ChatSchemas {
  agent: ChatAgentLike;
  /** The chat's id, returned as `id`. Default: a random one. */
  id?: string;
  /** Ids for the messages this tab creates. */
  generateId?: () => string;
  /** Accepted so an app can switch imports; the agent's socket is always the transport here. */
  transport?: unknown;
  /**
   * Checked after a tool result or an approval is added and after a response ends: when it returns true the
   * transcript is sent again as a new request (AI SDK `sendAutomaticallyWhen`). Mind that the server already
   * continues on its own unless `autoContinueAfterToolResult` is false.
   */
  sendAutomaticallyWhen?: (options: { messages: M[] }) => boolean | PromiseLike<boolean>;
  /**
   * Queue messages sent while a response runs or while the assistant waits for a tool result or approval,
   * and send them one at a time after each response (AI SDK `experimental_queue`).
   */
  experimental_queue?: boolean;
  /**
   * Initial transcript, called with the agent, the instance name and the agent's HTTP URL (without the
   * connection id), as the official hook does. Default: `GET <url>/get-messages`; an HTTP failure is reported
   * through `onError` and counts as no transcript. Not called while the agent's address is pending (an async
   * `query` still resolving). `null` skips it. Also used to read the transcript again after a reconnect finds
   * that a stream this tab was showing ended while it was away.
   */
  getInitialMessages?: null | ((options: { agent?: string; name?: string; url?: string }) => Promise<M[]>);
  /** Starting messages, before any fetch. */
  messages?: M[];
  /** Probe for a stream to resume on mount and after reconnects. Default true. */
  resume?: boolean;
  /** Extra request body fields: an object or a (possibly async) function of nothing. */
  body?: Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  prepareSendMessagesRequest?: (options: {
    /** The connection's id (`_pk`), as upstream passes it. */
    id: string;
    messages: readonly M[];
    trigger: "submit-message" | "regenerate-message";
    body: Record<string, unknown>;
  }) => { body?: Record<string, unknown> } | Promise<{ body?: Record<string, unknown> }>;
  /** Client tools; those with `execute` are announced as `clientTools` and run automatically. */
  tools?: Record<string, ClientTool>;
  onToolCall?: (options: {
    toolCall: ToolCallInfo;
    addToolOutput: (o: Omit<AddToolOutputOptions, "toolName">) => void;
  }) => void | Promise<void>;
  /** Send `autoContinue` with tool results so the server continues the turn. Default true. */
  autoContinueAfterToolResult?: boolean;
  /**
   * Tools whose calls wait for a human and never run automatically. Default: the `tools` without `execute`.
   * @deprecated As upstream: declare `needsApproval` on the server's tools instead.
   */
  toolsRequiringConfirmation?: string[];
  /**
   * With `autoContinueAfterToolResult: false`, `addToolResult` sends the follow-up request only once every
   * call of `toolsRequiringConfirmation` in the last message is answered (true, the default), or after each
   * result (false).
   * @deprecated As upstream: send the follow-up yourself with `sendMessage`.
   */
  autoSendAfterAllConfirmationsResolved?: boolean;
  /**
   * Accepted for compatibility. Tools with `execute` run automatically here whether or not it is set
   * (upstream needs it when there is no `onToolCall`).
   * @deprecated As upstream: use `onToolCall`.
   */
  experimental_automaticToolResolution?: boolean;
  /** Also cancel the server turn on a generic abort (`dispose`). Default false, as upstream (#1484). */
  cancelOnClientAbort?: boolean;
  /** Send `setMessages` to the server. Default true (Think ignores it). */
  syncMessagesToServer?: boolean;
  /** `data-*` chunks, transient ones included. */
  onData?: (part: { type: string; id?: string; data: unknown; transient?: boolean }) => void;
  /** A response ended (not stopped): the message it wrote, the transcript, and how it ended, as AI SDK's. */
  onFinish?: (options: {
    message: M | undefined;
    messages: M[];
    isAbort: boolean;
    isDisconnect: boolean;
    isError: boolean;
  }) => void;
  /** Wire errors, turn errors, tool failures. Never thrown into the app. */
  onError?: (error: Error) => void;
  /**
   * Once per chat request that ends (this tab's, another tab's, a server turn, or one replayed on reconnect),
   * with the user message ids it carried: settle optimistic sends by the ids the client minted.
   */
  onTurnEnd?: (event: {
    requestId: string;
    messageIds?: string[];
    outcome: "completed" | "error" | "aborted" | "skipped";
    error?: string;
    replay: boolean;
  }) => void;
  /** Sent with the `get-messages` request. */
  credentials?: RequestCredentials;
  headers?: HeadersInit;
  /** The official option names for `throttleMs` (`false`: every change). */
  throttle?: number | false;
  experimental_throttle?: number;
  /**
   * Minimum time between notifications to subscribers. Default: one animation frame in browsers, none
   * elsewhere. `0` notifies on every change.
   */
  throttleMs?: number;
}
