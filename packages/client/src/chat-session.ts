/**
 * The chat store behind `useAgentChat`: the transcript (`MessageList`), the resume handshake (`ResumeMachine`),
 * and the socket IO that joins them. Pure rules live in `@runboard/protocol`; this file only moves frames,
 * timers and callbacks. Options and behaviour follow the official `useAgentChat` (reference §3, §4).
 */
import {
  type ChatResponseFrame,
  encodeChatClear,
  encodeChatMessages,
  encodeChatRequest,
  encodeClientFrame,
  encodeToolApproval,
  encodeToolResult,
  FrameType,
  findToolCallIdForApproval,
  getToolName,
  isToolUIPart,
  MessageList,
  type ResumeCommand,
  ResumeMachine,
  type ServerFrame,
  type StreamOrigin,
  type ToolPartLike,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import { createStore, type StoreApi } from "zustand/vanilla";
import { SOCKET_ADDRESS_PENDING } from "./agent-client.ts";
import { AnswersInFlight } from "./answers-in-flight.ts";
import { ChatQueue } from "./chat-queue.ts";
import { type ChatSchemas, schemaViolation } from "./chat-schemas.ts";
import {
  type ClientTool,
  detectToolsRequiringConfirmation,
  extractClientToolSchemas,
} from "./client-tools.ts";
import { readChunk, readFrame } from "./frame-source.ts";
import { coalesce, type Notifier } from "./notify.ts";

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

const nanoid = (n = 8) => {
  const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(n))) s += a[b & 63];
  return s;
};

const DEPRECATED: Partial<Record<keyof ChatSessionOptions, string>> = {
  toolsRequiringConfirmation: "declare needsApproval on the server's tools instead",
  autoSendAfterAllConfirmationsResolved: "send the follow-up with sendMessage yourself",
  experimental_automaticToolResolution: "use onToolCall",
};
const warned = new Set<string>();
/** Once per option per page, as upstream does, so a re-rendering app does not flood the console. */
function warnDeprecatedOptions(options: object) {
  for (const [name, fix] of Object.entries(DEPRECATED)) {
    if ((options as Record<string, unknown>)[name] === undefined || warned.has(name)) continue;
    warned.add(name);
    console.warn(`[runboard] useAgentChat: '${name}' is deprecated; ${fix}.`);
  }
}

type ChatEvent = { type: "message" | "open" | "close"; data?: unknown };

/** The agent's address is not known yet (an async `query` still resolving), on our object or the official one. */
export function isAddressPending(agent: ChatAgentLike): boolean {
  return (agent as unknown as Record<symbol, unknown>)[SOCKET_ADDRESS_PENDING] === true;
}

/**
 * The agent's HTTP URL without the connection id (`_pk`), as the official hook hands it to
 * `getInitialMessages`; undefined while the address is pending or when the agent has no URL.
 */
export function agentBaseUrl(agent: ChatAgentLike): string | undefined {
  if (isAddressPending(agent)) return undefined;
  const raw = agent.getHttpUrl?.();
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    url.searchParams.delete("_pk");
    return url.toString();
  } catch {
    return undefined;
  }
}

/** The connection id (`_pk`) of our `AgentClient` (`id`) or of the official object (`_pk`). */
function connectionIdOf(agent: ChatAgentLike): string | undefined {
  const a = agent as { _pk?: unknown; id?: unknown };
  if (typeof a._pk === "string") return a._pk;
  return typeof a.id === "string" ? a.id : undefined;
}

function checkTranscript<M>(messages: unknown): M[] {
  if (!Array.isArray(messages)) throw new Error("the transcript is not a list of messages");
  return messages as M[];
}

/** Why loading failed, in words without the URL (it may carry a token). */
function loadError(e: unknown): Error {
  const reason = e instanceof Error ? e.message : String(e);
  return new Error(`Loading the transcript failed: ${reason}`, { cause: e });
}

/** The frame types this store handles, so the ones it reports when malformed. */
const CHAT_FRAME_TYPES = new Set<string>([
  FrameType.chatResponse,
  FrameType.chatMessages,
  FrameType.messageUpdated,
  FrameType.chatClear,
  FrameType.chatRecovering,
  FrameType.streamResuming,
  FrameType.streamResumeNone,
  FrameType.streamPending,
]);

/** The chat store. */
export class ChatSession<M extends UIMessage = UIMessage> {
  private readonly list: MessageList;
  private readonly rm: ResumeMachine;
  private readonly store: StoreApi<ChatSnapshot<M>>;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly probeWaiters = new Map<string, Array<(streamId: string | undefined) => void>>();
  /** This tab's own turn failed; `status` stays `"error"` until the next request or `clearError`. */
  private failed = false;
  private error: Error | undefined;
  private recovering = false;
  /** The request this tab is sending, until it ends. */
  private localRequest: string | undefined;
  /** Streams that delivered a frame here: `status` is `"streaming"` for this tab's own ones. */
  private readonly started = new Set<string>();
  /** Streams the user stopped: not counted in `status` while the server winds them down. */
  private readonly stopped = new Set<string>();
  /** Tool calls handed to `onToolCall` or `execute` (each once), and those whose callback has not returned. */
  private readonly handedOut = new Set<string>();
  private readonly toolCallsRunning = new Set<string>();
  private attached = false;
  /** A server transcript (a snapshot frame) arrived: a late initial load must not be merged over it. */
  private snapshotSeen = false;
  /** `attach()` skipped the load because the address was pending. */
  private loadWaitsForAddress = false;
  /** The transcript loaded before `attach()` (the hook's Suspense path). */
  private seeded: TranscriptResult<M> | undefined;
  private options: ChatSessionOptions<M>;
  /** Message id each live stream writes to, for snapshot protection. */
  private readonly streamMessage = new Map<string, string>();
  private disposed = false;
  private resyncing = false;
  private resyncAgain = false;
  /** The transcript must be read again once no stream is live here (see `resync`). */
  private resyncDue = false;
  private closedSinceOpen = false;
  /** Client tool calls this tab has answered, so a transcript read back never makes one run twice. */
  private readonly answered = new Set<string>();
  /** Approval decisions and tool outputs sent and not yet seen applied, to send again if a drop lost them. */
  private readonly inFlight = new AnswersInFlight();
  private readonly queue = new ChatQueue<M>();
  /** The chat's id (the `id` option, or a random one). */
  readonly id: string;
  private readonly onEvent = (e: Event) => this.receive(e as unknown as ChatEvent);
  private readonly onOpen = () => {
    // After a reconnect the transcript may have moved on unseen: turns that ended while the socket was down.
    if (this.closedSinceOpen) this.resyncDue = true;
    this.closedSinceOpen = false;
    this.run(this.rm.handle({ type: "socket-open" }));
  };
  private readonly onClose = () => {
    this.closedSinceOpen = true;
    this.inFlight.socketClosed();
    this.run(this.rm.handle({ type: "socket-close" }));
  };

  /**
   * Makes the store. With `attach` (the default) it starts listening to the agent and loads the transcript at
   * once; `false` makes it without any IO, timer or listener until `attach()` (the hooks do that in an effect,
   * so a server render or a render React discards leaves nothing behind).
   */
  constructor(options: ChatSessionOptions<M>, attach = true) {
    this.options = options;
    this.list = new MessageList(options.messages ?? []);
    this.id = options.id ?? `chat-${nanoid(12)}`;
    this.rm = new ResumeMachine({ createId: () => nanoid(8), resume: options.resume !== false });
    this.store = createStore<ChatSnapshot<M>>(() => this.compute());
    const throttle =
      options.throttleMs ??
      (options.throttle === false ? 0 : (options.throttle ?? options.experimental_throttle));
    this.changed = coalesce(throttle, () => {
      if (!this.disposed) this.store.setState(this.compute(), true);
    });
    if (attach) this.attach();
  }

  /** Starts listening to the agent, loads the transcript (unless seeded) and asks for a stream to resume. */
  attach(): void {
    if (this.attached || this.disposed) return;
    this.attached = true;
    warnDeprecatedOptions(this.options);
    this.listen(this.options.agent);
    // Mounted on a socket that is already open: that open is not a reconnect (#1784), but it is this socket.
    if (this.options.agent.readyState === 1) this.rm.handle({ type: "socket-open" });
    const seeded = this.seeded;
    const loaded = seeded ? Promise.resolve(this.reportLoad(seeded)) : this.hydrate();
    void loaded.then(async () => {
      if (this.disposed) return;
      // Tool calls a loaded transcript left waiting run once, as after a stream's end, once the probe for a
      // stream to resume is answered: their continuation needs a probe of its own, asked after that one.
      if (this.options.resume !== false) await this.resumeStream();
      void this.runClientTools();
    });
  }

  private listening: ChatAgentLike | undefined;

  private listen(agent: ChatAgentLike) {
    this.listening = agent;
    agent.addEventListener("message", this.onEvent);
    agent.addEventListener("open", this.onOpen);
    agent.addEventListener("close", this.onClose);
  }

  private unlisten(agent: ChatAgentLike) {
    if (this.listening === agent) this.listening = undefined;
    agent.removeEventListener("message", this.onEvent);
    agent.removeEventListener("open", this.onOpen);
    agent.removeEventListener("close", this.onClose);
  }

  /**
   * Takes the app's latest options: callbacks, `tools`, `body`, `prepareSendMessagesRequest` and the rest are
   * read from them at the moment they are used, so nothing goes stale. The hook calls it on every render. A
   * different `agent` object (a token rotation) is listened to from now on, as a new socket.
   */
  setOptions(next: ChatSessionOptions<M>): void {
    this.options = next;
    if (this.attached && !this.hookManaged) this.followAgent();
  }

  /**
   * Moves the listeners to `options.agent` when it is a different object than the one listened to (a token
   * rotation gives a new socket for the same thread): the transcript stays, nothing is fetched again. The hook calls it from an effect; `setOptions` calls it itself for direct users.
   */
  followAgent(): void {
    const next = this.options.agent;
    const before = this.listening;
    if (!before || next === before || this.disposed) return;
    // As upstream: the transcript and the stream state stay; the new socket's own connect offers bring any
    // live stream.
    this.unlisten(before);
    this.listen(next);
  }

  /** Set by the hook, which moves the listeners in an effect rather than during render. */
  hookManaged = false;

  /**
   * Uses a transcript loaded before `attach()` (the hook's Suspense path) as if it had just been fetched. No
   * notification is scheduled: nothing subscribes before the component mounts.
   */
  seedTranscript(result: TranscriptResult<M>): void {
    if (this.seeded || this.attached) return;
    this.seeded = result;
    if (result.messages) {
      this.list.replaceAll(result.messages);
      this.store.setState(this.compute(), true);
    }
  }

  /** Whether `attach()` would load a transcript now: not attached or seeded yet, not opted out, address known. */
  get wantsInitialTranscript(): boolean {
    const { getInitialMessages, agent } = this.options;
    if (this.attached || this.seeded || getInitialMessages === null || isAddressPending(agent)) return false;
    return getInitialMessages !== undefined || agentBaseUrl(agent) !== undefined;
  }

  /** Loads the transcript the way `attach()` would, without applying it (the hook caches it for Suspense). */
  loadInitialTranscript(): Promise<TranscriptResult<M>> {
    return this.loadTranscript().then(
      (messages) => (messages ? { messages } : {}),
      (e: unknown) => ({ error: loadError(e) }),
    );
  }

  private reportLoad(result: TranscriptResult<M>) {
    if (result.error) this.fail(result.error);
  }

  // ───────────────────────────── store ─────────────────────────────

  getSnapshot = (): ChatSnapshot<M> => this.store.getState();

  subscribe = (fn: () => void): (() => void) => this.store.subscribe(fn);

  /**
   * As the official hook: `submitted` from a request of this tab, a tool result or approval awaiting its
   * continuation, or a stream found by a resume probe, until its first content chunk; `streaming` while it
   * delivers. The wait for the answer to a resume probe stays `ready`, as upstream's. Streams of other tabs and of the server
   * show as `isServerStreaming` instead, and so do client tool calls still running here.
   */
  private currentStatus(): ChatStatus {
    if (this.failed) return "error";
    let waiting = this.localRequest !== undefined && !this.stopped.has(this.localRequest);
    for (const [id, origin] of this.rm.activeStreams) {
      if (!this.asked(id, origin) || this.stopped.has(id)) continue;
      if (this.started.has(id)) return "streaming";
      waiting = true;
    }
    return waiting || this.rm.isToolContinuation ? "submitted" : "ready";
  }

  /**
   * A stream this tab asked for: its own request, its tool continuation, or one a probe of its own found.
   * Others (another tab's turn, an offer nobody here asked for) show as `isServerStreaming`, as upstream's
   * observer does, and never hold `status`.
   */
  private asked(id: string, origin: StreamOrigin): boolean {
    if (origin === "local") return true;
    if (origin === "observed") return false;
    return this.probed.has(id) || this.rm.continuationStream === id;
  }

  /** Streams a probe of this tab was answered with. */
  private readonly probed = new Set<string>();

  private serverStreaming(): boolean {
    for (const [id, origin] of this.rm.activeStreams)
      if (!this.asked(id, origin) && !this.stopped.has(id)) return true;
    return this.hasPendingClientToolCalls();
  }

  /** A client tool call of the last message is running here, or will (its tool has `execute`). */
  private hasPendingClientToolCalls(): boolean {
    const last = this.list.messages.at(-1);
    if (last?.role !== "assistant") return false;
    const { tools } = this.options;
    if (!tools && this.toolCallsRunning.size === 0) return false;
    const confirm = this.confirmationTools();
    for (const p of last.parts) {
      if (!isToolUIPart(p) || p.state !== "input-available") continue;
      const name = getToolName(p as ToolPartLike);
      if (confirm.includes(name)) continue;
      if (this.toolCallsRunning.has((p as ToolPartLike).toolCallId) || tools?.[name]?.execute) return true;
    }
    return false;
  }

  private compute(): ChatSnapshot<M> {
    const isServerStreaming = this.serverStreaming();
    const status = this.currentStatus();
    return {
      messages: this.list.messages as readonly M[],
      status,
      error: this.error,
      isStreaming: status === "streaming" || isServerStreaming,
      isServerStreaming,
      isToolContinuation: this.rm.isToolContinuation,
      isRecovering: this.recovering,
      experimental_queuedMessages: this.queue.messages,
    };
  }

  /** Publishes the new state, at most once per frame (or per `throttleMs`). */
  private readonly changed: Notifier;

  private fail(error: Error, turnFailed = false) {
    if (turnFailed) {
      this.error = error;
      this.failed = true;
    }
    this.options.onError?.(error);
  }

  // ───────────────────────────── incoming ─────────────────────────────

  private receive(e: ChatEvent) {
    if (this.disposed || typeof e.data !== "string") return;
    // Parsed once per event, whoever asks first (the connection, this store, the run store).
    const parsed = readFrame(e);
    if (parsed.kind === "error") {
      // Only chat frames are ours to report; the connection reports the rest. (Matching the `cf_agent_` prefix
      // also took identity, state, MCP and session frames, so an app with one error handler heard those twice.)
      if (parsed.frameType !== undefined && CHAT_FRAME_TYPES.has(parsed.frameType))
        this.fail(new Error(parsed.reason));
      return;
    }
    if (parsed.kind !== "frame") return;
    this.frame(parsed.frame);
  }

  private frame(f: ServerFrame) {
    switch (f.type) {
      case "cf_agent_use_chat_response":
        return this.response(f);
      case "cf_agent_chat_messages":
        this.inFlight.seen(f.messages);
        this.snapshot(f.messages as M[]);
        return this.changed();
      case "cf_agent_message_updated":
        this.inFlight.seen([f.message]);
        this.list.applyMessageUpdated(f.message);
        return this.changed();
      case "cf_agent_chat_clear":
        this.inFlight.clear();
        this.list.replaceAll([]);
        this.run(this.rm.handle({ type: "clear" }));
        return this.changed();
      case "cf_agent_stream_resume_none": {
        // An authoritative idle that clears a continuation this tab was waiting for: it ran unseen.
        const waited = this.rm.isToolContinuation;
        const commands = this.rm.handle({ type: "frame", frame: f });
        if (waited && !this.rm.isToolContinuation) this.resyncDue = true;
        return this.run(commands);
      }
      case "cf_agent_stream_resuming":
      case "cf_agent_stream_pending":
        return this.run(this.rm.handle({ type: "frame", frame: f }));
      case "cf_agent_chat_recovering":
        this.recovering = f.recovering;
        return this.changed();
    }
  }

  private response(f: ChatResponseFrame) {
    const route = this.rm.route(f);
    if (!route.accept) {
      // The bare `done` after an error frame: the stream already ended, the turn ends now.
      if (f.done && !f.error && this.turnErrors.has(f.id)) this.turnEnded(f, "error");
      return;
    }
    // Read before the route's commands run: a terminal frame's `stream-ended` forgets the stream's message.
    const streamMessageId = this.streamMessage.get(f.id);
    this.run(route.commands, false);
    const own = f.id === this.localRequest;
    if (f.error) {
      if (own) this.queue.pause();
      this.list.endStream(f.id);
      this.streamMessage.delete(f.id);
      this.endLocal(f.id);
      // A turn this tab asked for (its own, a resumed one, a continuation) fails visibly, as upstream's
      // transport errors the stream; another tab's or the server's own turn fails there, not here.
      if (route.origin !== "observed")
        this.fail(new Error(f.body || "Stream error"), !this.stopped.has(f.id));
      // An error without `done` is followed by a bare `done` carrying the turn's message ids: the turn is
      // reported ended then, with this error.
      if (f.done) this.turnEnded(f, "error");
      else this.rememberTurnError(f.id, f.body);
      this.changed();
      return this.changed.flush();
    }
    if (f.body) {
      const parsed = readChunk(f);
      const violation =
        (this.options.dataPartSchemas || this.options.messageMetadataSchema) && parsed.kind === "chunk"
          ? schemaViolation(parsed.chunk, this.options)
          : undefined;
      if (parsed.kind === "error") this.fail(new Error(`chat stream ${f.id}: ${parsed.reason}`));
      else if (violation) this.fail(new Error(`chat stream ${f.id}: ${violation}`));
      else if (parsed.kind === "chunk") {
        // Upstream's status turns `streaming` at the first chunk with content, not at `start`/`start-step`.
        if (parsed.chunk.type !== "start" && parsed.chunk.type !== "start-step") this.started.add(f.id);
        const out = this.list.applyChunk(f.id, parsed.chunk, {
          continuation: f.continuation === true,
          replay: f.replay === true,
        });
        if (out.messageId) this.streamMessage.set(f.id, out.messageId);
        if (out.effect.kind === "data") {
          const part = { ...out.effect.part, transient: out.effect.transient };
          this.callApp("onData", () => this.options.onData?.(part));
        }
      }
    }
    if (f.done) {
      const messageId = this.streamMessage.get(f.id) ?? streamMessageId;
      this.list.endStream(f.id);
      this.streamMessage.delete(f.id);
      this.endLocal(f.id);
      const ended = () =>
        this.turnEnded(f, f.outcome === "aborted" || f.outcome === "skipped" ? f.outcome : "completed");
      if (f.outcome !== "aborted") {
        const message = this.list.messages.find((m) => m.id === messageId) as M | undefined;
        const finish = {
          message,
          messages: this.list.messages.slice() as M[],
          isAbort: false,
          isDisconnect: false,
          isError: false,
        };
        // As upstream: `onFinish` first, then `onTurnEnd`.
        this.callApp("onFinish", () => this.options.onFinish?.(finish));
        ended();
        void this.runClientTools().then(() => this.afterResponse());
      } else {
        ended();
        if (own) this.queue.pause();
      }
    }
    this.changed();
    // The end of a stream is shown at once, not on the next frame: nothing else is coming.
    if (f.done) this.changed.flush();
  }

  /** Errors of streams ended by an error frame without `done`, until their `done` comes (bounded). */
  private readonly turnErrors = new Map<string, string>();

  private rememberTurnError(id: string, body: string) {
    this.turnErrors.set(id, body);
    if (this.turnErrors.size > 256) this.turnErrors.delete(this.turnErrors.keys().next().value as string);
  }

  private turnEnded(f: ChatResponseFrame, outcome: "completed" | "error" | "aborted" | "skipped") {
    const earlier = this.turnErrors.get(f.id);
    this.turnErrors.delete(f.id);
    const error = f.error ? f.body : earlier;
    const event = {
      requestId: f.id,
      ...(f.messageIds ? { messageIds: f.messageIds } : {}),
      outcome: error !== undefined ? ("error" as const) : outcome,
      ...(error !== undefined ? { error } : {}),
      replay: f.replay === true,
    };
    this.callApp("onTurnEnd", () => this.options.onTurnEnd?.(event));
  }

  /**
   * Runs one of the app's callbacks. What it throws is reported through `onError` and goes no further: it must
   * not reach the socket's handler and stop the stream.
   */
  private callApp(name: string, fn: () => unknown): void {
    try {
      const r = fn();
      if (r && typeof (r as Promise<unknown>).then === "function")
        (r as Promise<unknown>).then(undefined, (e: unknown) => this.appFailed(name, e));
    } catch (e) {
      this.appFailed(name, e);
    }
  }

  private appFailed(name: string, e: unknown) {
    const error = e instanceof Error ? e : new Error(String(e));
    try {
      this.options.onError?.(new Error(`${name} threw: ${error.message}`, { cause: error }));
    } catch {
      // An onError that throws too has nowhere left to report to.
    }
  }

  /** A response ended: the next queued message goes out, or `sendAutomaticallyWhen` may send again. */
  private async afterResponse() {
    if (this.disposed || this.busy()) return;
    const next = this.queue.next();
    if (next) {
      this.list.upsert(next);
      await this.request("submit-message");
      return;
    }
    await this.autoSend();
  }

  private async autoSend() {
    const when = this.options.sendAutomaticallyWhen;
    if (!when || this.disposed || this.isRequesting()) return;
    let send = false;
    try {
      send = await when({ messages: this.list.messages.slice() as M[] });
    } catch (e) {
      this.appFailed("sendAutomaticallyWhen", e);
    }
    if (send) await this.request("submit-message");
  }

  /** A request of ours is running, or the assistant waits for a tool result or an approval. */
  private isRequesting(): boolean {
    const status = this.currentStatus();
    return status === "submitted" || status === "streaming";
  }

  private busy(): boolean {
    if (this.isRequesting()) return true;
    const last = this.list.messages.at(-1);
    return (
      last?.role === "assistant" &&
      last.parts.some(
        (p) => isToolUIPart(p) && (p.state === "input-available" || p.state === "approval-requested"),
      )
    );
  }

  private endLocal(id: string) {
    if (this.localRequest === id) this.localRequest = undefined;
  }

  /**
   * A full transcript from the server replaces ours, except that a message still streaming here is kept when
   * the snapshot lacks it or holds an older copy, unless a later assistant message follows it there: then the
   * server has already split the turn (Think persists continuations separately) and its version is right.
   */
  private snapshot(messages: M[]) {
    this.snapshotSeen = true;
    const next = messages.slice();
    const local = this.list.messages;
    for (const [streamId, id] of this.streamMessage) {
      const mineAt = local.findIndex((m) => m.id === id);
      const mine = local[mineAt];
      if (!mine) continue;
      const at = next.findIndex((m) => m.id === id);
      if (at < 0) {
        const renamed = this.serverCopyOf(mineAt, next);
        if (renamed) {
          // The server stored this reply under its own id (a reply without a `start` id, or renamed): one
          // message, the server's, which the rest of the stream now writes to.
          this.list.rebindStream(streamId, renamed.id);
          this.streamMessage.set(streamId, renamed.id);
        } else next.push(mine as M);
      } else {
        const laterAssistant = next.slice(at + 1).some((m) => m.role === "assistant");
        if (!laterAssistant && (next[at] as M).parts.length < mine.parts.length) next[at] = mine as M;
      }
    }
    this.list.replaceAll(next);
  }

  /**
   * The server's copy of the local assistant message at `mineAt`, when a snapshot holds it under another id:
   * the message before it here is there too, followed by an assistant message this tab does not know.
   */
  private serverCopyOf(mineAt: number, next: readonly M[]): M | undefined {
    const local = this.list.messages;
    if (local[mineAt]?.role !== "assistant") return undefined;
    const anchor = local[mineAt - 1];
    if (!anchor) return undefined;
    const a = next.findIndex((m) => m.id === anchor.id);
    const candidate = a < 0 ? undefined : next[a + 1];
    if (candidate?.role !== "assistant" || local.some((m) => m.id === candidate.id)) return undefined;
    return candidate;
  }

  /** Executes resume-machine commands. */
  private run(commands: ResumeCommand[], notify = true) {
    for (const c of commands) {
      switch (c.type) {
        case "send":
          this.options.agent.send(encodeClientFrame(c.frame));
          break;
        case "arm-timer":
          this.clearTimer(c.probeId);
          this.timers.set(
            c.probeId,
            setTimeout(() => this.run(this.rm.handle({ type: "timeout", probeId: c.probeId })), c.ms),
          );
          break;
        case "cancel-timer":
          this.clearTimer(c.probeId);
          break;
        case "probe-settled": {
          if (c.outcome === "stream" && c.streamId !== undefined) this.probed.add(c.streamId);
          const waiters = this.probeWaiters.get(c.probeId) ?? [];
          this.probeWaiters.delete(c.probeId);
          for (const w of waiters) w(c.outcome === "stream" ? c.streamId : undefined);
          break;
        }
        case "stream-started":
          if (c.origin !== "local") this.recovering = false;
          break;
        case "stream-ended":
          this.list.endStream(c.streamId);
          this.streamMessage.delete(c.streamId);
          this.started.delete(c.streamId);
          this.stopped.delete(c.streamId);
          this.probed.delete(c.streamId);
          this.endLocal(c.streamId);
          if (c.reason === "idle") this.resyncDue = true;
          break;
      }
    }
    this.maybeResync();
    if (notify) this.changed();
  }

  private clearTimer(probeId: string) {
    const t = this.timers.get(probeId);
    if (t) clearTimeout(t);
    this.timers.delete(probeId);
  }

  // ───────────────────────────── hydrate ─────────────────────────────

  private async hydrate() {
    if (this.addressPending()) {
      // Nothing is fetched without the address's token; `loadWhenAddressReady` runs it once it is known.
      this.loadWaitsForAddress = true;
      return;
    }
    const result = await this.loadInitialTranscript();
    if (this.disposed) return;
    this.reportLoad(result);
    if (!result.messages) return;
    if (this.list.length === 0 && this.streamMessage.size === 0) this.list.replaceAll(result.messages);
    else if (!this.snapshotSeen) {
      // Sent (or streamed) before the transcript came: keep that, with the older messages in front of it.
      const here = new Set(this.list.messages.map((m) => m.id));
      const missing = result.messages.filter((m) => !here.has(m.id));
      if (missing.length > 0) this.list.replaceAll([...missing, ...(this.list.messages as M[])]);
    }
    this.changed();
  }

  /**
   * Loads the transcript that `attach()` skipped while the agent's address was pending (an async `query`
   * still resolving). The hook calls it after each render; without a skipped load it does nothing.
   */
  loadWhenAddressReady(): void {
    if (!this.loadWaitsForAddress || this.disposed || this.addressPending()) return;
    this.loadWaitsForAddress = false;
    void this.hydrate().then(() => this.runClientTools());
  }

  private addressPending(): boolean {
    const { agent, getInitialMessages } = this.options;
    if (getInitialMessages === null) return false;
    return isAddressPending(agent);
  }

  /** The server's transcript: the app's `getInitialMessages`, else `GET …/get-messages`; none when opted out. */
  private async loadTranscript(): Promise<M[] | undefined> {
    const { getInitialMessages, agent } = this.options;
    if (getInitialMessages === null || isAddressPending(agent)) return undefined;
    const url = agentBaseUrl(agent);
    if (getInitialMessages) {
      const messages = await getInitialMessages({
        ...(agent.agent === undefined ? {} : { agent: agent.agent }),
        ...(agent.name === undefined ? {} : { name: agent.name }),
        ...(url === undefined ? {} : { url }),
      });
      return checkTranscript(messages);
    }
    if (!url) return undefined;
    const target = new URL(url);
    target.pathname = `${target.pathname.replace(/\/$/, "")}/get-messages`;
    const res = await fetch(target, {
      ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
      ...(this.options.headers ? { headers: this.options.headers } : {}),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
    const text = await res.text();
    return text.trim() ? checkTranscript(JSON.parse(text)) : [];
  }

  /**
   * Reads the transcript again once nothing is live here, when this tab may have missed part of it: after a
   * reconnect (AIChatAgent pushes no transcript on connect), or when an authoritative idle ended streams or a
   * continuation this tab was still waiting for. Their last chunks went to a socket that is gone, so the
   * messages they wrote were cut short here, or never arrived (found by the fault suites: a drop near the end
   * of a turn or of a tool continuation left the answer half written). The server persisted them whole.
   */
  private maybeResync() {
    if (!this.resyncDue || this.disposed) return;
    if (this.rm.probeId !== undefined || this.rm.activeStreams.size > 0 || this.rm.isToolContinuation) return;
    this.resyncDue = false;
    void this.resync();
  }

  /**
   * Applies the server's transcript as a snapshot. A transcript that changes meanwhile (a new turn) makes the
   * answer stale, so it is asked again, a few times at most. Client tools of a message that only arrived
   * this way run as after a stream's end.
   */
  private async resync() {
    if (this.resyncing) {
      this.resyncAgain = true;
      return;
    }
    this.resyncing = true;
    try {
      do {
        this.resyncAgain = false;
        await this.resyncOnce();
      } while (this.resyncAgain && !this.disposed);
    } catch (e) {
      this.fail(new Error(`Reloading the transcript failed: ${e instanceof Error ? e.message : String(e)}`));
    } finally {
      this.resyncing = false;
    }
  }

  private async resyncOnce() {
    for (let attempt = 0; attempt < 3 && !this.disposed; attempt++) {
      const before = this.list.messages;
      const messages = await this.loadTranscript();
      if (!messages || this.disposed) return;
      if (this.list.messages !== before) continue;
      this.snapshot(messages);
      this.resendLost(messages);
      this.changed();
      await this.runClientTools();
      return;
    }
  }

  /**
   * Sends again the answers a dropped socket lost, which the transcript just read shows still awaited. No
   * continuation is awaited for them: another tab's decision may reach the server first, which then ignores
   * this one, and a continuation waited for would never come. One that does come shows as a server stream.
   */
  private resendLost(messages: readonly M[]) {
    for (const [toolCallId, answer] of this.inFlight.lost(messages)) {
      this.patchToolPart(toolCallId, answer.patch);
      this.options.agent.send(answer.frame);
    }
  }

  // ───────────────────────────── actions ─────────────────────────────

  /** Sends a user message (text or a full message) and starts a turn. */
  async sendMessage(
    message: { text: string } | M,
    options: { body?: Record<string, unknown> } = {},
  ): Promise<void> {
    const id = this.options.generateId?.() ?? `user-${nanoid(10)}`;
    const m = (
      "role" in message ? message : { id, role: "user", parts: [{ type: "text", text: message.text }] }
    ) as M;
    if (this.options.experimental_queue) {
      if (this.busy()) {
        this.queue.add(m);
        this.changed();
        return;
      }
      this.queue.resume();
    }
    this.list.upsert(m);
    await this.request("submit-message", options.body);
  }

  /** Drops a queued message before it is sent (`experimental_queue`). */
  experimental_removeQueuedMessage(id: string): void {
    if (this.queue.remove(id)) this.changed();
  }

  /** Stops the running response and sends this queued message next; the rest follow it. */
  async experimental_sendQueuedMessageNow(id: string): Promise<void> {
    const m = this.queue.take(id);
    if (!m) return;
    if (this.isRequesting()) this.stop();
    this.queue.resume();
    this.list.upsert(m);
    await this.request("submit-message");
  }

  /** Clears `error` (and an `error` status) without sending anything. */
  clearError(): void {
    if (!this.error && !this.failed) return;
    this.error = undefined;
    this.failed = false;
    this.changed();
  }

  /** Asks for the last assistant message again. */
  async regenerate(options: { body?: Record<string, unknown> } = {}): Promise<void> {
    const ms = this.list.messages;
    let i = ms.length - 1;
    while (i >= 0 && ms[i]?.role !== "user") i--;
    this.queue.clear();
    this.list.truncate(i + 1);
    await this.request("regenerate-message", options.body);
  }

  private async request(trigger: "submit-message" | "regenerate-message", perCall?: Record<string, unknown>) {
    const id = nanoid(8);
    this.error = undefined;
    this.failed = false;
    this.localRequest = id;
    this.changed();
    try {
      const { body, prepareSendMessagesRequest, tools } = this.options;
      const extra: Record<string, unknown> = { ...(typeof body === "function" ? await body() : body) };
      const clientTools = extractClientToolSchemas(tools);
      if (clientTools) extra.clientTools = clientTools;
      const messages = this.list.messages as readonly M[];
      if (prepareSendMessagesRequest)
        Object.assign(
          extra,
          (
            await prepareSendMessagesRequest({
              // As upstream: the connection's id (`_pk`).
              id: connectionIdOf(this.options.agent) ?? id,
              messages,
              trigger,
              body: extra,
            })
          ).body,
        );
      const payload = { messages, trigger, ...extra, ...perCall };
      // Only now a stream: a body or prepare callback that fails must not leave one waiting forever.
      if (this.localRequest !== id || this.disposed || this.stopped.has(id)) {
        this.stopped.delete(id);
        this.endLocal(id);
        return;
      }
      this.run(this.rm.handle({ type: "local-request", id }), false);
      this.options.agent.send(encodeChatRequest(id, payload));
    } catch (e) {
      this.endLocal(id);
      this.fail(e instanceof Error ? e : new Error(String(e)), true);
    }
    this.changed();
  }

  /** Stops whatever stream is live: this tab's turn, a continuation, a resumed or observed stream. */
  stop(): void {
    this.queue.pause();
    // `status` is ready at once, as upstream's; the streams stay open here until the server ends them, so the
    // transcript keeps what the server stores.
    for (const id of this.rm.activeStreams.keys()) this.stopped.add(id);
    if (this.localRequest) this.stopped.add(this.localRequest);
    this.run(this.rm.handle({ type: "stop" }));
    this.changed();
  }

  /** Clears the transcript here, on the server and in the other tabs. */
  clearHistory(): void {
    this.queue.clear();
    this.list.replaceAll([]);
    this.run(this.rm.handle({ type: "clear" }));
    this.options.agent.send(encodeChatClear());
    this.changed();
  }

  /** Replaces the transcript (and tells the server, unless `syncMessagesToServer` is false). */
  setMessages(next: M[] | ((prev: readonly M[]) => M[])): void {
    const messages = typeof next === "function" ? next(this.list.messages as readonly M[]) : next;
    this.queue.clear();
    this.list.replaceAll(messages);
    if (this.options.syncMessagesToServer !== false) this.options.agent.send(encodeChatMessages(messages));
    this.changed();
  }

  /** A client tool's result (or a custom denial with `state: "output-error"`). */
  addToolOutput(o: AddToolOutputOptions): void {
    const part = this.findToolPart(o.toolCallId);
    if (!part) {
      this.fail(new Error(`addToolOutput: no tool call ${o.toolCallId} in the transcript`));
      return;
    }
    const error = o.state === "output-error";
    // The server's own default text for a denial without one (reference §4.3 step 4).
    const errorText = o.errorText ?? "Tool execution denied by user";
    this.patchToolPart(
      o.toolCallId,
      error ? { state: "output-error", errorText } : { state: "output-available", output: o.output },
    );
    // A denial or failure ends the turn there: upstream never auto-continues after `output-error` (§4.3).
    const autoContinue = !error && this.options.autoContinueAfterToolResult !== false;
    const clientTools = extractClientToolSchemas(this.options.tools);
    const frame = encodeToolResult({
      toolCallId: o.toolCallId,
      toolName: o.toolName ?? getToolName(part),
      output: o.output,
      ...(error ? { state: "output-error" as const, errorText } : {}),
      autoContinue,
      // The tools the server may call next, as with a request: the continuation is a new model step.
      ...(clientTools ? { clientTools } : {}),
    });
    this.answered.add(o.toolCallId);
    if (part.state === "input-available")
      this.inFlight.add(o.toolCallId, {
        frame,
        waiting: "input-available",
        patch: error ? { state: "output-error", errorText } : { state: "output-available", output: o.output },
      });
    this.options.agent.send(frame);
    if (autoContinue) this.run(this.rm.handle({ type: "expect-continuation" }));
    this.changed();
    void this.autoSend();
  }

  /**
   * The official hook's older name for a tool result, kept for apps that switch imports. Unlike
   * `addToolOutput` it also sends the follow-up request itself when `autoContinueAfterToolResult` is false.
   * @deprecated As upstream: use `addToolOutput`.
   */
  addToolResult(o: { tool: string; toolCallId: string; output: unknown }): void {
    const pendingBefore = this.pendingConfirmations();
    this.addToolOutput({ toolCallId: o.toolCallId, toolName: o.tool, output: o.output });
    if (this.options.autoContinueAfterToolResult !== false) return;
    const waitForAll = this.options.autoSendAfterAllConfirmationsResolved !== false;
    // Upstream counts the calls pending before this result, so a result for a call outside the set still sends.
    pendingBefore.delete(o.toolCallId);
    if (!waitForAll || pendingBefore.size === 0) void this.request("submit-message");
  }

  /** Calls in the last assistant message that wait for a human (`toolsRequiringConfirmation`). */
  private pendingConfirmations(): Set<string> {
    const ids = new Set<string>();
    const last = this.list.messages.at(-1);
    if (last?.role !== "assistant") return ids;
    const names = this.confirmationTools();
    for (const p of last.parts)
      if (isToolUIPart(p) && p.state === "input-available" && names.includes(getToolName(p as ToolPartLike)))
        ids.add((p as ToolPartLike).toolCallId);
    return ids;
  }

  private confirmationTools(): string[] {
    return this.options.toolsRequiringConfirmation ?? detectToolsRequiringConfirmation(this.options.tools);
  }

  /** A human's decision on an approval request. `id` is the approval id; the wire carries the tool call id. */
  addToolApprovalResponse(o: { id: string; approved: boolean; reason?: string }): void {
    const toolCallId = findToolCallIdForApproval(this.list.messages, o.id);
    if (!toolCallId) {
      this.fail(new Error(`addToolApprovalResponse: no approval ${o.id} in the transcript`));
      return;
    }
    const part = this.findToolPart(toolCallId);
    const patch = {
      state: "approval-responded",
      approval: {
        ...part?.approval,
        id: o.id,
        approved: o.approved,
        ...(o.reason ? { reason: o.reason } : {}),
      },
    };
    this.patchToolPart(toolCallId, patch);
    const autoContinue = this.options.autoContinueAfterToolResult !== false;
    const frame = encodeToolApproval({ toolCallId, approved: o.approved, autoContinue });
    if (part?.state === "approval-requested")
      this.inFlight.add(toolCallId, {
        frame,
        waiting: "approval-requested",
        approvalId: o.id,
        patch,
      });
    this.options.agent.send(frame);
    if (autoContinue) this.run(this.rm.handle({ type: "expect-continuation" }));
    this.changed();
    void this.autoSend();
  }

  /** Asks the server for a stream to resume; resolves with its id, or undefined when there is none. */
  resumeStream(): Promise<string | undefined> {
    this.run(this.rm.handle({ type: "resume" }));
    const probe = this.rm.probeId;
    if (!probe) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.probeWaiters.set(probe, [...(this.probeWaiters.get(probe) ?? []), resolve]);
    });
  }

  /** Detaches from the socket. Server work goes on (unless `cancelOnClientAbort`). */
  dispose(): void {
    if (this.disposed) return;
    if (this.options.cancelOnClientAbort) this.run(this.rm.handle({ type: "stop" }), false);
    this.disposed = true;
    if (this.listening) this.unlisten(this.listening);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  // ───────────────────────────── tools ─────────────────────────────

  private findToolPart(toolCallId: string): (ToolPartLike & { type: string }) | undefined {
    for (const m of this.list.messages)
      for (const p of m.parts)
        if (isToolUIPart(p) && (p as ToolPartLike).toolCallId === toolCallId)
          return p as ToolPartLike & { type: string };
    return undefined;
  }

  private patchToolPart(toolCallId: string, patch: Record<string, unknown>) {
    const msg = this.list.messages.find((m) =>
      m.parts.some((p) => (p as ToolPartLike).toolCallId === toolCallId),
    );
    if (!msg) return;
    this.list.upsert({
      ...msg,
      parts: msg.parts.map((p) =>
        (p as ToolPartLike).toolCallId === toolCallId ? ({ ...p, ...patch } as typeof p) : p,
      ),
    });
  }

  /**
   * Tool calls of the last assistant message still waiting for input go to `onToolCall`, or to the tool's own
   * `execute`, once each: after a stream ends and after a transcript is loaded (a call left waiting when the
   * page closed). Only when the transcript ends with that assistant message (a later user message means the
   * turn moved on) and nothing streams here. A tool that throws answers with `output-error`; an `onToolCall`
   * that throws is reported through `onError` and the call stays the app's to answer.
   */
  private async runClientTools() {
    if (this.disposed || !this.attached || this.isRequesting()) return;
    for (const [, origin] of this.rm.activeStreams) if (origin === "observed") return;
    const last = this.list.messages.at(-1);
    if (last?.role !== "assistant") return;
    const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    for (const p of last.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ToolPartLike;
      if (part.state !== "input-available" || this.answered.has(part.toolCallId)) continue;
      if (this.handedOut.has(part.toolCallId)) continue;
      this.handedOut.add(part.toolCallId);
      calls.push({ toolCallId: part.toolCallId, toolName: getToolName(part), input: part.input });
    }
    await Promise.all(calls.map((call) => this.runClientTool(call)));
  }

  private async runClientTool(call: { toolCallId: string; toolName: string; input: unknown }) {
    const { toolCallId, toolName } = call;
    const { onToolCall } = this.options;
    if (onToolCall) {
      this.toolCallsRunning.add(toolCallId);
      this.changed();
      try {
        await onToolCall({ toolCall: call, addToolOutput: (o) => this.addToolOutput({ ...o, toolName }) });
      } catch (e) {
        this.appFailed("onToolCall", e);
      } finally {
        this.toolCallsRunning.delete(toolCallId);
        this.changed();
      }
      return;
    }
    // A call a human must answer is never run for them, even when the tool has `execute`.
    if (this.confirmationTools().includes(toolName)) return;
    const execute = this.options.tools?.[toolName]?.execute;
    if (!execute) return;
    try {
      this.addToolOutput({ toolCallId, toolName, output: await execute(call.input) });
    } catch (e) {
      this.addToolOutput({
        toolCallId,
        toolName,
        state: "output-error",
        errorText: e instanceof Error ? e.message : String(e),
      });
    }
  }
}
