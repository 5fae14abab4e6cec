/**
 * The chat store behind `useAgentChat`: the transcript (`MessageList`), the resume handshake (`ResumeMachine`),
 * and the socket IO that joins them. Pure rules live in `@runboard/protocol`. This class is the public face;
 * the work is done by one module per side, sharing a `ChatCore`: requests and the queue (`chat-turns.ts`),
 * incoming frames (`chat-intake.ts`), resume (`chat-resume.ts`), the transcript (`chat-transcript.ts`) and
 * tools (`chat-tools.ts`). Options and behaviour follow the official `useAgentChat` (docs/protocol.md#chat, docs/protocol.md#tools).
 */
import type { UIMessage } from "ai";
import { ChatBranches } from "./chat-branches.ts";
import { ChatCore, nanoid } from "./chat-core.ts";
import { ChatIntake } from "./chat-intake.ts";
import { ResumeDriver } from "./chat-resume.ts";
import { ToolAnswers } from "./chat-tools.ts";
import { TranscriptSync } from "./chat-transcript.ts";
import { ChatTurns } from "./chat-turns.ts";
import type {
  AddToolOutputOptions,
  ChatAgentLike,
  ChatRequestOptions,
  ChatSessionOptions,
  ChatSnapshot,
  SendMessageInput,
  TranscriptResult,
} from "./chat-types.ts";

export { agentBaseUrl, chatThreadKey, isAddressPending } from "./chat-transcript.ts";
export type {
  AddToolOutputOptions,
  ChatAgentLike,
  ChatRequestOptions,
  ChatSessionOptions,
  ChatSnapshot,
  ChatStatus,
  SendMessageInput,
  ToolCallInfo,
  TranscriptResult,
} from "./chat-types.ts";

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

/**
 * The chat store behind `useAgentChat`, usable without React: the official `@cloudflare/ai-chat` chat over an
 * agent's socket (an `AgentClient` or the official `useAgent` object), with streaming, resume after
 * reconnect, tool approvals, client tools and several tabs on one thread. `getSnapshot()` and `subscribe()`
 * fit `useSyncExternalStore` (or any store adapter); the actions are the hook's. It never throws into the
 * app: errors go to `onError`. See `ChatSessionOptions` for the options and the deliberate differences.
 *
 * @example
 * ```ts
 * const client = new AgentClient({ agent: "ChatAgent", name: "room-1", host: location.host });
 * const chat = new ChatSession({ agent: client, onError: console.warn });
 * chat.subscribe(() => render(chat.getSnapshot().messages));
 * await chat.sendMessage({ text: "hello" });
 * // later
 * chat.dispose();
 * client.close();
 * ```
 */
export class ChatSession<M extends UIMessage = UIMessage> {
  private readonly core: ChatCore<M>;
  private readonly resume: ResumeDriver<M>;
  private readonly transcript: TranscriptSync<M>;
  private readonly tools: ToolAnswers<M>;
  private readonly turns: ChatTurns<M>;
  private readonly intake: ChatIntake<M>;
  private readonly branches: ChatBranches<M>;
  private listening: ChatAgentLike | undefined;
  /** The chat's id (the `id` option, or a random one). */
  readonly id: string;

  /**
   * Makes the store. With `attach` (the default) it starts listening to the agent and loads the transcript at
   * once; `false` makes it without any IO, timer or listener until `attach()` (the hooks do that in an effect,
   * so a server render or a render React discards leaves nothing behind).
   */
  constructor(options: ChatSessionOptions<M>, attach = true) {
    const c = new ChatCore(options);
    this.core = c;
    this.resume = new ResumeDriver(c);
    this.transcript = new TranscriptSync(c);
    this.tools = new ToolAnswers(c);
    this.turns = new ChatTurns(c);
    this.intake = new ChatIntake(c);
    this.branches = new ChatBranches(c);
    c.sides = {
      resume: this.resume,
      transcript: this.transcript,
      tools: this.tools,
      turns: this.turns,
      branches: this.branches,
    };
    this.id = options.id ?? `chat-${nanoid(12)}`;
    if (attach) this.attach();
  }

  /** Starts listening to the agent, loads the transcript (unless seeded) and asks for a stream to resume. */
  attach(): void {
    const c = this.core;
    if (c.attached || c.disposed) return;
    c.attached = true;
    warnDeprecatedOptions(c.options);
    this.listen(c.options.agent);
    // Mounted on a socket that is already open: that open is not a reconnect (#1784), but it is this socket.
    if (c.options.agent.readyState === 1) c.rm.handle({ type: "socket-open" });
    void this.transcript.loadOnAttach().then(() => {
      if (c.disposed) return;
      this.branches.hydrate();
      // Tool calls a loaded transcript left waiting (a reload while a client tool was pending) run once, as
      // soon as the transcript is shown, as upstream runs them: not after the probe below is answered, a round
      // trip later (or its 5 s timeout). A continuation their answer asks for while that probe is in flight
      // gets a probe of its own once it settles (docs/protocol.md#tool-continuations).
      void this.tools.runClientTools();
      if (c.options.resume !== false) void this.resumeStream();
    });
  }

  private listen(agent: ChatAgentLike) {
    this.listening = agent;
    agent.addEventListener("message", this.intake.onMessage);
    agent.addEventListener("open", this.resume.onOpen);
    agent.addEventListener("close", this.resume.onClose);
  }

  private unlisten(agent: ChatAgentLike) {
    if (this.listening === agent) this.listening = undefined;
    agent.removeEventListener("message", this.intake.onMessage);
    agent.removeEventListener("open", this.resume.onOpen);
    agent.removeEventListener("close", this.resume.onClose);
  }

  /**
   * Takes the app's latest options: callbacks, `tools`, `body`, `prepareSendMessagesRequest` and the rest are
   * read from them at the moment they are used, so nothing goes stale. The hook calls it on every render. A
   * different `agent` object (a token rotation) is listened to from now on, as a new socket.
   */
  setOptions(next: ChatSessionOptions<M>): void {
    this.core.options = next;
    if (this.core.attached && !this.hookManaged) this.followAgent();
  }

  /**
   * Moves the listeners to `options.agent` when it is a different object than the one listened to (a token
   * rotation gives a new socket for the same thread): the transcript stays, nothing is fetched again. The hook
   * calls it from an effect; `setOptions` calls it itself for direct users.
   */
  followAgent(): void {
    const next = this.core.options.agent;
    const before = this.listening;
    if (!before || next === before || this.core.disposed) return;
    // As upstream: the transcript and the stream state stay; the new socket's own connect offers bring any
    // live stream, and must be ACKed on it even when the old socket had ACKed that stream.
    this.unlisten(before);
    this.core.rm.handle({ type: "socket-replaced" });
    this.listen(next);
  }

  /** Set by the hook, which moves the listeners in an effect rather than during render. */
  hookManaged = false;

  /**
   * Uses a transcript loaded before `attach()` (the hook's Suspense path) as if it had just been fetched. No
   * notification is scheduled: nothing subscribes before the component mounts.
   */
  seedTranscript(result: TranscriptResult<M>): void {
    this.transcript.seed(result);
  }

  /** Whether `attach()` would load a transcript now: not attached or seeded yet, not opted out, address known. */
  get wantsInitialTranscript(): boolean {
    return this.transcript.wantsInitial;
  }

  /** Loads the transcript the way `attach()` would, without applying it (the hook caches it for Suspense). */
  loadInitialTranscript(): Promise<TranscriptResult<M>> {
    return this.transcript.loadInitial();
  }

  /**
   * Loads the transcript that `attach()` skipped while the agent's address was pending (an async `query`
   * still resolving). The hook calls it after each render; without a skipped load it does nothing.
   */
  loadWhenAddressReady(): void {
    this.transcript.loadWhenAddressReady();
  }

  /** The current state: messages, status, error and the streaming flags (a new object on each change). */
  getSnapshot = (): ChatSnapshot<M> => this.core.store.getState();

  /** Calls `fn` after each published change; returns the function that stops it. */
  subscribe = (fn: () => void): (() => void) => this.core.store.subscribe(fn);

  // ───────────────────────────── actions ─────────────────────────────

  /**
   * Publishes what an app action changed at once (after its synchronous part; `result` is what it returned),
   * not on the next animation frame: the official hook shows `setMessages` and the other actions in the same
   * React batch. Streamed chunks stay coalesced (`throttleMs`).
   */
  private published<T>(result: T): T {
    this.core.changed.flush();
    return result;
  }

  /**
   * Sends a user message and starts a turn, as the AI SDK's `sendMessage`: `{ text, files?, metadata? }`
   * (files as a `FileList`, read into data URLs, or as file parts, placed before the text), or a whole message
   * (a missing `id` is generated, a missing `role` is the user's). With `messageId` it edits: that user message
   * is replaced and everything after it dropped. Without a message it sends the transcript as it is. `options`
   * are the request's (`body` reaches the server). Resolves once the request is sent; problems (an unknown
   * `messageId`, an unreadable file) go to `onError`.
   */
  sendMessage(message?: SendMessageInput<M>, options: ChatRequestOptions = {}): Promise<void> {
    return this.published(this.turns.sendMessage(message, options));
  }

  /** Drops a queued message before it is sent (`experimental_queue`). */
  experimental_removeQueuedMessage(id: string): void {
    this.published(this.turns.removeQueued(id));
  }

  /** Stops the running response and sends this queued message next; the rest follow it. */
  experimental_sendQueuedMessageNow(id: string): Promise<void> {
    return this.published(this.turns.sendQueuedNow(id));
  }

  /** Clears `error` (and an `error` status) without sending anything. */
  clearError(): void {
    this.published(this.turns.clearError());
  }

  /**
   * Asks for an answer again, as the AI SDK's `regenerate`: the assistant message `messageId` (default: the last
   * message) and everything after it are dropped, and the transcript before it is sent as a regenerate; a user
   * message named stays and is answered again. An unknown id goes to `onError`. On Think the earlier answer
   * stays as a sibling: with `getBranches`, the user message's answers are read again when this turn ends
   * (`branches`).
   */
  regenerate(options: { messageId?: string } & ChatRequestOptions = {}): Promise<void> {
    return this.published(
      this.turns.regenerate(options, (user) => this.branches.regenerated(this.core.localRequest, user)),
    );
  }

  /**
   * Shows sibling answer `index` (0-based, oldest first) in place of the answer `messageId` (an id in
   * `branches`). A view of this tab: Think has no frame to make an older answer the active path, and the next
   * turn continues from the newest (docs/protocol.md#branches). False when there is no such answer.
   */
  selectBranch(messageId: string, index: number): boolean {
    const branch = this.getSnapshot().branches.get(messageId);
    return this.published(branch ? this.branches.select(branch.userMessageId, index) : false);
  }

  /** Reads the sibling answers of a user message again (`getBranches`). */
  refreshBranches(userMessageId: string): Promise<void> {
    return this.branches.load(userMessageId, true);
  }

  /** Stops whatever stream is live: this tab's turn, a continuation, a resumed or observed stream. */
  stop(): void {
    this.published(this.turns.stop());
  }

  /** Clears the transcript here, on the server and in the other tabs. */
  clearHistory(): void {
    this.published(this.turns.clearHistory());
  }

  /** Replaces the transcript (and tells the server, unless `syncMessagesToServer` is false). */
  setMessages(next: M[] | ((prev: readonly M[]) => M[])): void {
    this.published(this.turns.setMessages(next));
  }

  /** A client tool's result (or a custom denial with `state: "output-error"`). */
  addToolOutput(o: AddToolOutputOptions): void {
    this.published(this.tools.addToolOutput(o));
  }

  /**
   * The official hook's older name for a tool result, kept for apps that switch imports. Unlike
   * `addToolOutput` it also sends the follow-up request itself when `autoContinueAfterToolResult` is false.
   * @deprecated As upstream: use `addToolOutput`.
   */
  addToolResult(o: { tool: string; toolCallId: string; output: unknown }): void {
    this.published(this.tools.addToolResult(o));
  }

  /** A human's decision on an approval request. `id` is the approval id; the wire carries the tool call id. */
  addToolApprovalResponse(o: { id: string; approved: boolean; reason?: string }): void {
    this.published(this.tools.addToolApprovalResponse(o));
  }

  /**
   * Asks the server for a stream to resume. Resolves once the resume is over, as the official hook's: with
   * undefined when there is none, or with the stream's id once it has ended. A call while one is in flight
   * returns the same promise.
   */
  resumeStream(): Promise<string | undefined> {
    return this.resume.resumeStream();
  }

  /** Detaches from the socket. Server work goes on (unless `cancelOnClientAbort`). */
  dispose(): void {
    const c = this.core;
    if (c.disposed) return;
    if (c.options.cancelOnClientAbort) this.resume.run(c.rm.handle({ type: "stop" }), false);
    // As upstream's unmount: this tab's own request in flight ends for the app with `onFinish({ isAbort })`.
    c.abortOwn();
    c.disposed = true;
    if (this.listening) this.unlisten(this.listening);
    this.resume.clearTimers();
  }
}
