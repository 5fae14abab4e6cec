/**
 * The types of the chat store: its options (the official `useAgentChat` options), its snapshot, and the
 * socket-like object it talks through.
 */
import type { CompactionSummary, MessageBranch, SessionStatus } from "@runboard/protocol";
import type { ChatOnDataCallback, ChatOnFinishCallback, CreateUIMessage, FileUIPart, UIMessage } from "ai";
import type { ChatSchemas } from "./chat-schemas.ts";
import type { ClientTool } from "./client-tools.ts";

/**
 * Anything with a WebSocket-like surface the chat can talk through: an `AgentClient`, the object the official
 * `useAgent` returns, or a test double.
 */
export interface ChatAgentLike {
  /** Sends one text frame (buffered by the connection while it reconnects). */
  send(data: string): void;
  /** Listens to the socket's frames, opens and closes. */
  addEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  /** Stops listening. */
  removeEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  /** WebSocket ready state; `1` when the store attaches means the socket is already open. */
  readonly readyState?: number;
  /** The agent's HTTP URL. The official object's takes no argument and carries the connection id (`_pk`). */
  getHttpUrl?: (path?: string) => string;
  /** The agent class, handed to `getInitialMessages`. */
  readonly agent?: string;
  /** The agent instance, handed to `getInitialMessages`. */
  readonly name?: string;
}

/** What loading the transcript gave: the messages, or why there are none. Never a rejection. */
export interface TranscriptResult<M extends UIMessage = UIMessage> {
  /** The transcript, when one was loaded. */
  messages?: M[];
  /** Why loading failed (also reported through `onError`). */
  error?: Error;
}

/**
 * The chat's status, as the AI SDK's `useChat`: `submitted` from a request of this tab until its first
 * content chunk, `streaming` while it delivers, `error` after this tab's own turn failed, `ready` otherwise.
 */
export type ChatStatus = "ready" | "submitted" | "streaming" | "error";

/** What `ChatSession.getSnapshot()` returns (and `useAgentChat` spreads into its result). */
export interface ChatSnapshot<M extends UIMessage = UIMessage> {
  /** The transcript; a message that did not change keeps its identity. */
  messages: readonly M[];
  /** See `ChatStatus`. Other tabs' and the server's streams do not change it (see `isServerStreaming`). */
  status: ChatStatus;
  /** This tab's last turn error, until the next request or `clearError()`. */
  error: Error | undefined;
  /** This tab's own turn is streaming, or any other stream is (`status === "streaming" || isServerStreaming`). */
  isStreaming: boolean;
  /** A stream this tab did not start is live: another tab's turn, a continuation, a server turn. */
  isServerStreaming: boolean;
  /** A tool result or approval was sent and its continuation has not ended. */
  isToolContinuation: boolean;
  /** The server said it is recovering an interrupted turn (`cf_agent_chat_recovering`). */
  isRecovering: boolean;
  /**
   * The stream this tab did not start, while `isServerStreaming` (the first live one): `server` for a turn the
   * agent started itself (a detached run's notify, a recovery, an injected message's reply), `another-tab` for
   * a user's turn sent elsewhere (another tab, or this page before a reload). Runboard addition.
   */
  serverStream: { id: string; source: "server" | "another-tab" } | undefined;
  /**
   * The server gave up recovering an interrupted turn: the error it ended the recovery with, until the next
   * request of this tab, a new recovery or a clear (docs/protocol.md#recovering). Runboard addition.
   */
  recoveryGaveUp: { requestId: string; reason: string } | undefined;
  /** The memory session's last `cf_agent_session` status (docs/protocol.md#compaction). Runboard addition. */
  session: SessionStatus | undefined;
  /** `session.phase === "compacting"`. Runboard addition. */
  isCompacting: boolean;
  /** What in the transcript is compacted (summaries, shortened tool outputs), or undefined. Runboard addition. */
  compaction: CompactionSummary | undefined;
  /**
   * Think's response branches (docs/protocol.md#branches), by the id of each shown answer that has siblings:
   * its position, the count and the siblings' ids. Empty without the `getBranches` option. Runboard addition.
   */
  branches: ReadonlyMap<string, MessageBranch>;
  /** Messages waiting to be sent (`experimental_queue`), in sending order. */
  experimental_queuedMessages: readonly M[];
}

/**
 * What `sendMessage` takes, as the AI SDK's `Chat.sendMessage`: text and/or files (a `FileList`, read as data
 * URLs, or file parts), or a whole message (`id` and `role` optional: a new id, the user's role). `metadata`
 * goes on the user message. `messageId` edits: the user message with that id is replaced and everything after
 * it is dropped before the request goes out (what each host then stores: docs/protocol.md#edits).
 */
export type SendMessageInput<M extends UIMessage = UIMessage> =
  | (CreateUIMessage<M> & { text?: never; files?: never; messageId?: string })
  | {
      text: string;
      files?: FileList | FileUIPart[];
      metadata?: M["metadata"];
      parts?: never;
      messageId?: string;
    }
  | { files: FileList | FileUIPart[]; metadata?: M["metadata"]; parts?: never; messageId?: string };

/**
 * Per-request options of `sendMessage` and `regenerate` (AI SDK `ChatRequestOptions`). `body` is merged over
 * the chat's `body` and what `prepareSendMessagesRequest` returned. `headers` and `metadata` are accepted and
 * not sent: the request travels on the agent's socket, which has no headers, and the official transport drops
 * both too (docs/protocol.md#edits).
 */
export interface ChatRequestOptions {
  /** Extra fields of this request's body. */
  body?: object;
  /** Accepted for compatibility; a socket frame has no headers. */
  headers?: Record<string, string> | Headers;
  /** Accepted for compatibility; request metadata is not sent on the socket. */
  metadata?: unknown;
}

/**
 * What `prepareSendMessagesRequest` is called with (the official type, under its name). Upstream's HTTP fields
 * (`requestMetadata`, `credentials`, `headers`, `api`) are in the type and never set: the request travels on
 * the agent's socket.
 */
export interface PrepareSendMessagesRequestOptions<M extends UIMessage = UIMessage> {
  /** The connection's id (`_pk`), as upstream passes it. */
  id: string;
  /** The transcript the request carries. Read it; the chat owns it. */
  messages: M[];
  /** A new user turn, or a regenerate. */
  trigger: "submit-message" | "regenerate-message";
  /** The message an edit replaced or a regenerate started from (`messageId` of the call), as upstream. */
  messageId?: string;
  /** Not set here (an HTTP transport's request metadata). */
  requestMetadata?: unknown;
  /** The body so far (`body` and `clientTools`). */
  body?: Record<string, unknown>;
  /** Not set here (an HTTP transport's). */
  credentials?: RequestCredentials;
  /** Not set here (an HTTP transport's). */
  headers?: HeadersInit;
  /** Not set here (an HTTP transport's). */
  api?: string;
}

/**
 * What `prepareSendMessagesRequest` returns (the official type, under its name): `body` is merged into the
 * request; `headers`, `credentials` and `api` are accepted and have no effect on a socket.
 */
export interface PrepareSendMessagesRequestResult {
  /** Fields merged over the request's body. */
  body?: Record<string, unknown>;
  /** No effect: a socket frame has no headers. */
  headers?: HeadersInit;
  /** No effect on a socket. */
  credentials?: RequestCredentials;
  /** No effect on a socket. */
  api?: string;
}

/** A chat request that ended, as `onTurnEnd` gets it (the official `ChatTurnEndEvent`). */
export interface ChatTurnEndEvent {
  /** The request's id. */
  requestId: string;
  /** The ids of the trailing user messages the request carried, when the server says. */
  messageIds?: string[];
  /** How it ended. */
  outcome: "completed" | "error" | "aborted" | "skipped";
  /** The error text, with `outcome: "error"`. */
  error?: string;
  /** The end was replayed to this tab on (re)connect. */
  replay: boolean;
}

/** A tool call handed to `onToolCall`. */
export interface ToolCallInfo {
  /** The call's id, to answer it with `addToolOutput`. */
  toolCallId: string;
  /** The tool's name (for `dynamic-tool` parts, their `toolName`). */
  toolName: string;
  /** The arguments the model gave. */
  input: unknown;
}

/** `onToolCall` (the official `OnToolCallCallback`): a tool call waiting for input, and how to answer it. */
export type OnToolCallCallback = (options: {
  /** The call to answer. */
  toolCall: ToolCallInfo;
  /** Answers it (or denies it with `state: "output-error"`). */
  addToolOutput: (o: Omit<AddToolOutputOptions, "toolName">) => void;
}) => void | Promise<void>;

/** What `addToolOutput` sends for one tool call. */
export interface AddToolOutputOptions {
  /** The call answered. */
  toolCallId: string;
  /** The tool's name; read from the transcript when omitted. */
  toolName?: string;
  /** The tool's result (with `state: "output-available"`, the default). */
  output?: unknown;
  /** `output-error` sends a custom denial or failure with `errorText`; the turn does not continue. */
  state?: "output-available" | "output-error";
  /** Why the call failed or was denied. Default: "Tool execution denied by user", as the server's own. */
  errorText?: string;
}

/**
 * The options of `useAgentChat` (and of a `ChatSession` made directly): the official
 * `@cloudflare/ai-chat/react` hook's, with the same names and meanings, so an app switches by changing its
 * imports. Callbacks and options are read at the moment they are used, so passing new ones on each render is
 * fine (`id`, `messages`, `resume` and the throttle options count when the chat is made). Where the kit
 * deliberately differs, the option says so (see also the README of `@runboard/react`).
 *
 * @example
 * ```ts
 * const chat = new ChatSession({
 *   agent, // an AgentClient, or the official useAgent's object
 *   body: () => ({ timezone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
 *   tools: { localTime: { description: "The user's local time", execute: () => new Date().toString() } },
 *   onError: (e) => console.warn(e.message),
 * });
 * ```
 */
export interface ChatSessionOptions<M extends UIMessage = UIMessage> extends ChatSchemas {
  /**
   * The connection to chat over: `useAgent`'s result, the official `useAgent`'s, or any `ChatAgentLike`. A
   * new object for the same thread (a rotated token) keeps the chat and only moves the listeners.
   */
  agent: ChatAgentLike;
  /** The chat's id, returned as `id`. Default: a random one. */
  id?: string;
  /**
   * Reads the sibling answers of a user message (Think keeps earlier answers when regenerating), e.g.
   * `(id) => agent.call("getResponseVersions", [id])` around `session.getBranches(id)`
   * (docs/protocol.md#branches). Called for the newest user messages after the transcript loads and after each
   * regenerate of this tab; what it returns is checked, a malformed result reported once. Runboard addition.
   */
  getBranches?: (userMessageId: string) => Promise<unknown>;
  /** Ids for the user messages this tab creates. Default: `user-` and 10 random characters. */
  generateId?: () => string;
  /** Accepted so an app can switch imports; the agent's socket is always the transport here. */
  transport?: unknown;
  /**
   * Checked after a tool result or an approval is added and after a response ends: when it returns true the
   * transcript is sent again as a new request (AI SDK `sendAutomaticallyWhen`). Mind that the server already
   * continues on its own unless `autoContinueAfterToolResult` is false. What it throws is reported through
   * `onError`.
   */
  sendAutomaticallyWhen?: (options: { messages: M[] }) => boolean | PromiseLike<boolean>;
  /**
   * Queue messages sent while a response runs or while the assistant waits for a tool result or approval,
   * and send them one at a time after each response (AI SDK `experimental_queue`). Stopping or an error
   * pauses the queue until the user sends again; see `experimental_queuedMessages`.
   */
  experimental_queue?: boolean;
  /**
   * Initial transcript, called with the agent, the instance name and the agent's HTTP URL (without the
   * connection id), as the official hook does. Default: `GET <url>/get-messages`; an HTTP failure is reported
   * through `onError` and counts as no transcript (upstream only logs it). Not called while the agent's
   * address is pending (an async `query` still resolving). `null` skips it. Also used to read the transcript
   * again after a reconnect finds that a stream this tab was showing ended while it was away.
   */
  getInitialMessages?: null | ((options: { agent: string; name: string; url?: string }) => Promise<M[]>);
  /** Starting messages, shown before the transcript loads. */
  messages?: M[];
  /**
   * Probe for a stream to resume on mount and after reconnects. Default true. With false, as upstream, a
   * stream of another tab shown here ends when the socket closes (`isServerStreaming` clears).
   */
  resume?: boolean;
  /** Extra request body fields: an object or a (possibly async) function of nothing, read per request. */
  body?: Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  /**
   * Changes a request's body before it is sent: what it returns in `body` is merged over `body` and the
   * client tool schemas. A callback that throws fails the turn (reported through `onError`).
   */
  prepareSendMessagesRequest?: (
    options: PrepareSendMessagesRequestOptions<M>,
  ) => PrepareSendMessagesRequestResult | Promise<PrepareSendMessagesRequestResult>;
  /**
   * Client tools. Those with `execute` are announced to the server as `clientTools` and run in the page
   * when the model calls them, once per call, without `experimental_automaticToolResolution` (upstream needs
   * it); a tool that throws answers its call with `output-error`. Those without `execute` wait for a human.
   */
  tools?: Record<string, ClientTool>;
  /**
   * Called once for each tool call that waits for input (also one left waiting in a loaded transcript);
   * answer it with `addToolOutput`. Wins over a tool's `execute`. What it throws is reported through
   * `onError` (upstream rethrows into React) and the call stays the app's to answer.
   */
  onToolCall?: OnToolCallCallback;
  /** Send `autoContinue` with tool results and approvals so the server continues the turn. Default true. */
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
  /**
   * Each `data-*` chunk, transient ones included, typed by the message type's data parts as the AI SDK's. What
   * it throws is reported through `onError`.
   */
  onData?: ChatOnDataCallback<M>;
  /**
   * A response ended (not stopped): the message it wrote (an empty assistant message when it wrote none), the
   * transcript, and how it ended, as the AI SDK's (`finishReason` is not known here: undefined). Called
   * before `onTurnEnd`.
   */
  onFinish?: ChatOnFinishCallback<M>;
  /**
   * Wire errors, turn errors, transcript load failures, tool failures and exceptions thrown by the app's own
   * callbacks. Nothing is thrown into the app.
   */
  onError?: (error: Error) => void;
  /**
   * Once per chat request that ends (this tab's, another tab's, a server turn, or one replayed on reconnect),
   * with the user message ids it carried: settle optimistic sends by the ids the client minted.
   */
  onTurnEnd?: (event: ChatTurnEndEvent) => void;
  /** Credentials mode of the `get-messages` request. */
  credentials?: RequestCredentials;
  /** Headers of the `get-messages` request. */
  headers?: HeadersInit;
  /** The official option name for `throttleMs` (`false`: every change). */
  throttle?: number | false;
  /** The AI SDK's name for `throttleMs`. */
  experimental_throttle?: number;
  /**
   * Minimum time between notifications to subscribers. Default: one animation frame in browsers, none
   * elsewhere; the end of a stream, and what an app action (`setMessages`, `sendMessage`, …) changes, are
   * published at once. `0` notifies on every change.
   */
  throttleMs?: number;
}
