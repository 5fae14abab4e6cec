/**
 * One agent instance (a Durable Object on the real server): its sockets, state, transcript, chat streams,
 * resume handshake, gates and child runs. Every rule here cites what the real server was seen to do
 * (`reference/real-server.md`, the recorded transcripts) or the reference section it follows.
 */
import type { ClientFrame, ServerFrame } from "@runboard/protocol";
import { MessageList, messageShape } from "@runboard/protocol";
import type { UIMessage, UIMessageChunk } from "ai";
import { builtinCallable } from "./builtins.ts";
import { ChatStream } from "./chat-stream.ts";
import type { MockConnection } from "./connection.ts";
import * as ids from "./ids.ts";
import type { RunRegistry } from "./runs.ts";
import {
  type ChildRunSpec,
  type ChildStep,
  type MockAgentDefinition,
  matches,
  resolve,
  type Step,
  type TurnContext,
  text,
} from "./script.ts";
import { type Gate, type GateBatch, Player, type PlayResult, type TurnHost } from "./turn.ts";

/** Services the hub gives every instance. */
export interface InstanceServices {
  log(line: string): void;
  /** Multiplier applied to every scripted delay. */
  delayScale: number;
  /** Sends one frame to one socket (through the controller's faults). */
  deliver(conn: MockConnection, frame: ServerFrame | Record<string, unknown>): void;
  /** Sleeps `ms` scaled by the server's delay scale; resolves early when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  runs(inst: AgentInstance): RunRegistry;
  liveView(mode: "tab" | "devtools"): unknown;
}

/** A turn waiting to stream. */
interface QueuedTurn {
  id: string;
  originator?: MockConnection;
  messageIds?: string[];
  continuation: boolean;
  /** Plays into the new stream; returns how it ended. */
  run(player: Player, turn: ActiveTurn): Promise<PlayResult>;
  /** Before the stream starts (e.g. inject a notify message). */
  before?(): void;
  /** A continuation offered to the socket that answered the gate. */
  owner?: MockConnection;
  /** The turn's context when it continues an earlier one (tool outputs so far). */
  ctx?: TurnContext;
  /** Called once the stream has ended. */
  onEnd?(result: PlayResult): void;
}

interface ActiveTurn {
  stream: ChatStream;
  abort: AbortController;
  owner?: MockConnection;
  player?: Player;
  ctx?: TurnContext;
  /** The history was cleared while it ran: it stops and leaves nothing in the transcript. */
  cleared?: boolean;
}

const BUILTIN_METHODS = [
  "onChatMessage",
  "onConnect",
  "onMessage",
  "onStart",
  "setState",
  "saveMessages",
  "broadcast",
];
const MAX_RECENT_STREAMS = 16;
/** How long after an eviction the recovery continuation starts (scaled like every scripted delay). */
const RECOVERY_DELAY_MS = 500;

/** Trailing user message ids of a request's messages (what terminal frames carry as `messageIds`). */
function trailingUserIds(messages: readonly UIMessage[]): string[] | undefined {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") break;
    out.unshift(m.id);
  }
  return out.length ? out : undefined;
}

function lastUserText(messages: readonly UIMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
  return "";
}

export class AgentInstance {
  readonly conns = new Set<MockConnection>();
  state: unknown;
  readonly transcript = new MessageList();
  private active?: ActiveTurn;
  private readonly queue: QueuedTurn[] = [];
  private readonly pendingResume = new Set<MockConnection>();
  private readonly recent = new Map<string, ChatStream>();
  /** Sockets whose probe was answered `stream_pending`: offered the next stream when it starts. */
  private readonly parked = new Set<MockConnection>();
  /** A continuation inside its coalesce window, not yet queued. */
  private pendingContinuation?: { id: string; owner: MockConnection };
  /** Request id of a recovery continuation that is scheduled or running. */
  private recovering?: string;
  /** A turn that errored while nobody was connected (reference §3.7 rule C). */
  private terminalRecord?: ChatStream;
  private readonly gates = new Map<string, Gate>();
  /** Streams a socket asked to stop; their originator is not owed a snapshot. */
  readonly children = new Map<string, AgentInstance>();
  readonly runs: RunRegistry;
  /** Hooks for a child run: where its chunks go besides its own sockets. */
  forward?: (body: string, stored: boolean) => void;

  constructor(
    readonly def: MockAgentDefinition,
    readonly agent: string,
    readonly name: string,
    private readonly svc: InstanceServices,
  ) {
    this.state = structuredClone(def.initialState);
    this.runs = svc.runs(this);
  }

  get host(): ids.Host {
    return this.def.host;
  }

  get messages(): readonly UIMessage[] {
    return this.transcript.messages;
  }

  private send(conn: MockConnection, frame: ServerFrame | Record<string, unknown>) {
    this.svc.deliver(conn, frame);
  }

  /** Sends to every socket except `except`. */
  broadcast(frame: ServerFrame | Record<string, unknown>, except?: Set<MockConnection> | MockConnection) {
    for (const c of this.conns) {
      if (except instanceof Set ? except.has(c) : c === except) continue;
      this.send(c, frame);
    }
  }

  // ───────────────────────────── connect ─────────────────────────────

  connect(conn: MockConnection) {
    this.conns.add(conn);
    const hasState = this.state !== undefined;
    // Chat hosts wrap onConnect outside the base wrapper, so their chat frames come first (reference §2.1).
    const live = this.active?.stream;
    if (live) {
      this.pendingResume.add(conn);
      this.send(conn, { type: "cf_agent_stream_resuming", id: live.id });
    } else if (this.recovering && this.host === "ai-chat") {
      this.send(conn, { type: "cf_agent_chat_recovering", recovering: true, id: this.recovering });
    } else if (this.host === "think") {
      if (this.recovering)
        this.send(conn, { type: "cf_agent_chat_recovering", recovering: true, id: this.recovering });
      this.send(conn, {
        type: "cf_agent_chat_messages",
        messages: this.messages as UIMessage[],
        connect: true,
      });
    }
    this.send(conn, {
      type: "cf_agent_identity",
      name: this.name,
      agent: this.agent,
      ...(hasState ? { stateFollows: true } : {}),
    });
    if (hasState) this.send(conn, { type: "cf_agent_state", state: this.state });
    this.send(conn, {
      mcp: { prompts: [], resources: [], servers: {}, tools: [] },
      type: "cf_agent_mcp_servers",
    });
    this.runs.replayTo(conn);
  }

  disconnect(conn: MockConnection) {
    this.conns.delete(conn);
    this.pendingResume.delete(conn);
    this.parked.delete(conn);
  }

  // ───────────────────────────── frames ─────────────────────────────

  handle(conn: MockConnection, f: ClientFrame): void | Promise<void> {
    switch (f.type) {
      case "cf_agent_state":
        this.state = f.state;
        // The sender's own update is never echoed back (reference §2.2).
        this.broadcast({ state: f.state, type: "cf_agent_state" }, conn);
        return;
      case "rpc":
        return this.rpc(conn, f.id, f.method, f.args);
      case "cf_agent_use_chat_request":
        return this.chatRequest(conn, f.id, f.init.body);
      case "cf_agent_chat_request_cancel":
        return this.cancel(f.id);
      case "cf_agent_chat_clear":
        this.clear(conn);
        return;
      case "cf_agent_chat_messages":
        if (this.host === "think") {
          this.svc.log(
            `mock-server: ${this.agent}/${this.name}: Think ignores client cf_agent_chat_messages`,
          );
          return;
        }
        this.transcript.replaceAll(f.messages);
        this.broadcast({ messages: f.messages, type: "cf_agent_chat_messages" }, conn);
        return;
      case "cf_agent_stream_resume_request":
        return this.resumeRequest(conn, f.probeId);
      case "cf_agent_stream_resume_ack":
        return this.resumeAck(conn, f.id);
      case "cf_agent_tool_approval":
        return this.answerGate(conn, f.toolCallId, { approved: f.approved }, f.autoContinue !== false);
      case "cf_agent_tool_result":
        return this.toolResult(conn, f);
    }
  }

  // ───────────────────────────── RPC ─────────────────────────────

  private async rpc(conn: MockConnection, id: string, method: string, args: unknown[]) {
    // Own keys only: `toString` or `constructor` are not callables (an inherited member would answer).
    const own =
      this.def.callables && Object.hasOwn(this.def.callables, method)
        ? this.def.callables[method]
        : undefined;
    const spec = own ?? builtinCallable(this, method);
    if (!spec) {
      const exists = BUILTIN_METHODS.includes(method) || this.def.methods?.includes(method);
      const error = exists ? `Method ${method} is not callable` : `Method ${method} does not exist`;
      this.send(conn, { error, id, success: false, type: "rpc" });
      return;
    }
    const { fn, streaming } = typeof spec === "function" ? { fn: spec, streaming: false } : spec;
    let closed = false;
    const inst = this;
    const api = {
      name: this.name,
      get state() {
        return inst.state;
      },
      setState: (s: unknown) => this.setState(s),
      get messages() {
        return inst.messages;
      },
      send: (chunk: unknown) => {
        if (!streaming || closed) return;
        this.send(conn, { done: false, id, result: chunk, success: true, type: "rpc" });
      },
    };
    try {
      const result = await fn(api, ...args);
      closed = true;
      this.send(conn, {
        done: true,
        id,
        ...(result === undefined ? {} : { result }),
        success: true,
        type: "rpc",
      });
    } catch (e) {
      closed = true;
      const error = e instanceof Error ? e.message : "Unknown error occurred";
      this.send(conn, { error, id, success: false, type: "rpc" });
    }
  }

  /** Server-side setState: persisted, then broadcast to every socket, the caller included (reference §2.2). */
  setState(state: unknown) {
    this.state = state;
    this.broadcast({ state, type: "cf_agent_state" });
  }

  // ───────────────────────────── chat turns ─────────────────────────────

  private chatRequest(conn: MockConnection, id: string, rawBody: string) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody);
      if (!body || typeof body !== "object" || !Array.isArray(body.messages)) throw new Error("no messages");
      // Every element must be a message, or nothing of the request reaches the other sockets.
      for (const m of body.messages as unknown[]) if (messageShape(m)) throw new Error("bad message");
    } catch {
      // The real server logs and sends no response frame (reference §3.2).
      this.svc.log(`mock-server: ${this.agent}/${this.name}: chat request ${id} has no valid body; ignored`);
      return;
    }
    const {
      messages: incoming,
      trigger,
      clientTools: _c,
      ...custom
    } = body as {
      messages: UIMessage[];
      trigger?: string;
      clientTools?: unknown;
    };
    if (this.host === "ai-chat") {
      // Re-broadcast to the others, persist (stale rows deleted, which is how regenerate truncates), and the
      // persist broadcasts the merged list again: the observer transcript shows the user message twice.
      this.broadcast({ messages: incoming, type: "cf_agent_chat_messages" }, conn);
      this.transcript.replaceAll(this.reconcile(incoming));
      this.broadcast({ messages: this.messages, type: "cf_agent_chat_messages" }, conn);
    } else {
      // Think owns its transcript: it appends the new user messages, stamped with their channel.
      if (trigger === "regenerate-message") this.truncateAfterLastUser();
      const known = new Set(this.messages.map((m) => m.id));
      for (const m of incoming) {
        if (known.has(m.id) || m.role !== "user") continue;
        this.transcript.upsert({ ...m, metadata: { ...(m.metadata as object), channel: "web" } });
      }
      this.broadcast({ type: "cf_agent_chat_messages", messages: this.messages as UIMessage[] }, conn);
    }
    const ctx = this.context(custom);
    this.enqueue({
      id,
      originator: conn,
      messageIds: trailingUserIds(incoming),
      continuation: false,
      // Steps and the player share one context, so scripts see the request's extra body and earlier outputs.
      ctx,
      run: (player) => player.play(this.stepsFor(ctx)),
    });
  }

  /** Server-resolved assistant messages win over the client's stale copies (AIChatAgent's reconciler). */
  private reconcile(incoming: readonly UIMessage[]): UIMessage[] {
    const server = new Map(this.messages.map((m) => [m.id, m]));
    return incoming.map((m) => (m.role === "assistant" ? (server.get(m.id) ?? m) : m));
  }

  private truncateAfterLastUser() {
    const ms = this.messages;
    let i = ms.length - 1;
    while (i >= 0 && ms[i]?.role !== "user") i--;
    this.transcript.truncate(i + 1);
  }

  context(body: Record<string, unknown> = {}): TurnContext {
    return {
      userText: lastUserText(this.messages),
      body,
      outputs: {},
      state: this.state,
      messages: this.messages,
    };
  }

  private stepsFor(ctx: TurnContext): Step[] {
    for (const rule of this.def.turns ?? [])
      if (matches(rule.match, ctx.userText)) return resolve(rule.steps, ctx);
    return this.def.fallback ? resolve(this.def.fallback, ctx) : [text("I have no script for that.")];
  }

  /**
   * Queues a server-started turn (detached delivery, resolved executions, a child run's own turn). Nobody
   * originated it, so every socket receives every frame. Resolves when its stream has ended.
   */
  runProgrammatic(
    steps: readonly (Step | ChildStep)[],
    opts: { id?: string; before?: () => void; continuation?: boolean; signal?: AbortSignal } = {},
  ): Promise<PlayResult> {
    return new Promise((done) => {
      const q: QueuedTurn = {
        id: opts.id ?? ids.serverRequestId(this.host),
        continuation: opts.continuation === true,
        ...(opts.before ? { before: opts.before } : {}),
        run: (player, turn) => {
          opts.signal?.addEventListener("abort", () => turn.abort.abort(), { once: true });
          return player.play(steps);
        },
        onEnd: done,
      };
      this.enqueue(q);
    });
  }

  private enqueue(t: QueuedTurn) {
    this.queue.push(t);
    // A stream restored after an eviction is not live: the next turn replaces it, as the real server's
    // ResumableStream.start() does, keeping the partial message.
    if (this.active?.stream.status === "orphaned") this.finishOrphan();
    else if (!this.active) void this.pump();
  }

  private async pump() {
    for (let next = this.queue.shift(); next; next = this.active ? undefined : this.queue.shift()) {
      await this.runTurn(next);
    }
  }

  private async runTurn(q: QueuedTurn) {
    q.before?.();
    const stream = new ChatStream(q.id, q.continuation, q.originator, q.messageIds);
    const turn: ActiveTurn = { stream, abort: new AbortController(), ...(q.owner ? { owner: q.owner } : {}) };
    this.active = turn;
    this.terminalRecord = undefined;
    if (q.owner && this.conns.has(q.owner)) this.parked.add(q.owner);
    if (this.pendingContinuation?.id === q.id) this.pendingContinuation = undefined;
    // Sockets waiting for this stream (the one that answered a gate, probes parked during the pre-stream
    // window) are offered it unsolicited, with no probeId, and see it only after their ACK (reference §3.7).
    for (const c of this.parked) {
      if (!this.conns.has(c)) continue;
      this.pendingResume.add(c);
      this.send(c, { type: "cf_agent_stream_resuming", id: q.id });
    }
    this.parked.clear();
    turn.ctx = q.ctx ?? this.context();
    const player = new Player(this.turnHost(turn, q.originator), turn.ctx);
    turn.player = player;
    // Continuations: AIChatAgent strips `start.messageId` (#1235) and appends to the last assistant; Think
    // persists the continuation as a new assistant message (seen in think/pay.jsonl).
    const messageId = ids.assistantMessageId(this.host);
    const wireStart = q.continuation ? { type: "start" } : { type: "start", messageId };
    const serverStart = q.continuation && this.host === "think" ? { type: "start", messageId } : wireStart;
    this.emit(turn, wireStart, serverStart);
    let result: PlayResult;
    try {
      result = await q.run(player, turn);
    } catch (e) {
      result = { kind: "error", message: e instanceof Error ? e.message : String(e), thrown: true };
    }
    if (turn.abort.signal.aborted && result.kind !== "error") result = { kind: "aborted" };
    // The end snapshot and `done` leave in a later tick than `finish`, as on the real server.
    await this.svc.sleep(0);
    this.endTurn(turn, result);
    q.onEnd?.(result);
  }

  private turnHost(turn: ActiveTurn, originator?: MockConnection): TurnHost {
    const inst = this;
    return {
      host: this.host,
      chunkDelayMs: this.def.chunkDelayMs ?? 30,
      delayScale: this.svc.delayScale,
      emit: (chunk) => this.emit(turn, chunk),
      emitTransient: (chunk) => this.emitTransient(turn, chunk),
      sleep: (ms) => this.svc.sleep(ms, turn.abort.signal),
      signal: turn.abort.signal,
      runChild: (spec: ChildRunSpec, toolCallId: string) =>
        this.runs.runAwaited(spec, toolCallId, turn.abort.signal),
      runDetached: (step) => this.runs.runDetached(step),
      gate: (g) => {
        this.gates.set(g.toolCallId, g);
      },
      pause: (step, toolCallId, input) => this.runs.pause(step, toolCallId, input),
      liveView: (mode) => this.svc.liveView(mode),
      describe: (toolCallId, descriptor) => {
        this.updateToolPart(toolCallId, (p) => {
          p.approvalDescriptor = descriptor;
        });
      },
      setState: (update) => this.setState(update(this.state)),
      closeOriginator() {
        if (originator) {
          inst.disconnect(originator);
          originator.terminate();
        }
      },
    };
  }

  /** Stores a chunk, applies it to the transcript and broadcasts it to every socket not waiting to ACK. */
  private emit(turn: ActiveTurn, chunk: Record<string, unknown>, serverChunk = chunk) {
    if (this.active !== turn) return;
    const { stream } = turn;
    const body = JSON.stringify(chunk);
    const seq = stream.store(body);
    // The persisted message keeps no finish metadata (seen in every recorded snapshot), and Think persists a
    // continuation as a message of its own (think/pay.jsonl).
    const persisted = serverChunk.type === "finish" ? { type: "finish" } : serverChunk;
    this.transcript.applyChunk(stream.id, persisted as UIMessageChunk, {
      continuation: stream.continuation && this.host !== "think",
    });
    this.broadcast(
      {
        body,
        done: false,
        id: stream.id,
        type: "cf_agent_use_chat_response",
        ...(stream.continuation ? { continuation: true } : {}),
        seq,
      },
      this.pendingResume,
    );
    this.forward?.(body, true);
  }

  /** Broadcast only: agent-tool progress and milestones are never in the chunk store (reference §5.6). */
  private emitTransient(turn: ActiveTurn, chunk: Record<string, unknown>) {
    if (this.active !== turn) return;
    const body = JSON.stringify(chunk);
    this.broadcast(
      { body, done: false, id: turn.stream.id, type: "cf_agent_use_chat_response" },
      this.pendingResume,
    );
    this.forward?.(body, false);
  }

  private endTurn(turn: ActiveTurn, result: PlayResult) {
    const { stream } = turn;
    if (this.active !== turn) return;
    const cont = stream.continuation ? { continuation: true } : {};
    const mids = stream.messageIds ? { messageIds: stream.messageIds } : {};
    this.transcript.endStream(stream.id);
    if (turn.cleared) {
      this.active = undefined;
      this.pendingResume.clear();
      stream.status = "aborted";
      this.transcript.replaceAll([]);
      this.broadcast({
        body: "",
        done: true,
        id: stream.id,
        type: "cf_agent_use_chat_response",
        ...cont,
        ...mids,
        outcome: "aborted",
      });
      void this.pump();
      return;
    }
    this.active = undefined;
    this.pendingResume.clear();
    this.remember(stream);
    if (result.kind === "error" && result.thrown) {
      stream.status = "errored";
      stream.errorText = result.message;
      if (this.conns.size === 0) this.terminalRecord = stream;
      this.broadcast({
        body: result.message,
        done: true,
        error: true,
        id: stream.id,
        type: "cf_agent_use_chat_response",
        ...cont,
        ...mids,
      });
    } else {
      if (result.kind === "error") {
        // In-band error chunk: not stored, sent as {error:true, done:false}, then a plain done (reference §3.3).
        stream.status = "errored";
        stream.errorText = result.message;
        if (this.conns.size === 0) this.terminalRecord = stream;
        this.broadcast({
          body: result.message,
          done: false,
          error: true,
          id: stream.id,
          type: "cf_agent_use_chat_response",
          ...cont,
        });
      } else {
        stream.status = result.kind === "aborted" ? "aborted" : "completed";
      }
      this.snapshotAfter(stream);
      const outcome =
        result.kind === "aborted"
          ? "aborted"
          : result.kind === "error"
            ? this.host === "think"
              ? "error"
              : undefined
            : this.host === "think"
              ? "completed"
              : undefined;
      this.broadcast({
        body: "",
        done: true,
        id: stream.id,
        type: "cf_agent_use_chat_response",
        ...cont,
        ...mids,
        ...(outcome ? { outcome } : {}),
      });
    }
    void this.pump();
  }

  /** End-of-turn snapshot: AIChatAgent skips the originator (it has its own copy); Think sends it to all. */
  private snapshotAfter(stream: ChatStream) {
    const frame =
      this.host === "think"
        ? { type: "cf_agent_chat_messages", messages: this.messages }
        : { messages: this.messages, type: "cf_agent_chat_messages" };
    const except = this.host === "think" ? undefined : (stream.originator as MockConnection | undefined);
    this.broadcast(frame, except);
  }

  private remember(stream: ChatStream) {
    this.recent.set(stream.id, stream);
    if (this.recent.size > MAX_RECENT_STREAMS) this.recent.delete(this.recent.keys().next().value as string);
  }

  private cancel(id: string) {
    if (this.active?.stream.id === id) {
      this.active.abort.abort();
      return;
    }
    const i = this.queue.findIndex((q) => q.id === id);
    if (i >= 0) {
      const [q] = this.queue.splice(i, 1);
      this.broadcast({
        body: "",
        done: true,
        id,
        type: "cf_agent_use_chat_response",
        outcome: "skipped",
        ...(q?.messageIds ? { messageIds: q.messageIds } : {}),
      });
      // Parked sockets carry over to the next turn; with none left they are released (no reason).
      if (!this.queue.length && !this.active) this.releaseParked();
    }
  }

  /** The non-authoritative release of parked sockets: `resume_none` with no reason and no probeId. */
  private releaseParked() {
    for (const c of this.parked) if (this.conns.has(c)) this.send(c, { type: "cf_agent_stream_resume_none" });
    this.parked.clear();
  }

  private clear(conn: MockConnection) {
    // As AIChatAgent's resetTurnState: the running turn stops and queued ones are skipped (their senders are
    // told), so nothing written before the clear comes back after it.
    for (const q of this.queue.splice(0)) {
      if (q.originator && this.conns.has(q.originator))
        this.send(q.originator, {
          body: "",
          done: true,
          id: q.id,
          type: "cf_agent_use_chat_response",
          outcome: "skipped",
          ...(q.messageIds ? { messageIds: q.messageIds } : {}),
        });
    }
    const live = this.active;
    if (live && live.stream.status !== "orphaned") {
      live.cleared = true;
      live.abort.abort();
    }
    this.transcript.replaceAll([]);
    this.gates.clear();
    this.recent.clear();
    this.terminalRecord = undefined;
    this.pendingContinuation = undefined;
    this.releaseParked();
    // Echoed to the other sockets only (clear.jsonl).
    this.broadcast({ type: "cf_agent_chat_clear" }, conn);
  }

  // ───────────────────────────── gates ─────────────────────────────

  /** Finds the message holding a tool call and returns a copy with that part changed, persisted. */
  private updateToolPart(
    toolCallId: string,
    change: (part: Record<string, unknown>) => void,
    dropAfter = false,
  ): UIMessage | undefined {
    for (const m of this.messages) {
      const i = m.parts.findIndex((p) => (p as { toolCallId?: string }).toolCallId === toolCallId);
      if (i < 0) continue;
      // `dropAfter`: what the model wrote after a durable pause goes; the resumed turn writes it anew.
      const parts = dropAfter ? m.parts.slice(0, i + 1) : m.parts.slice();
      const part = { ...(parts[i] as Record<string, unknown>) };
      change(part);
      parts[i] = part as UIMessage["parts"][number];
      const updated = { ...m, parts };
      this.transcript.upsert(updated);
      return updated;
    }
    return undefined;
  }

  /** Rewrites a tool part's output (a resolved Think execution) and tells every socket. */
  updateToolOutput(toolCallId: string, output: unknown, options: { dropAfter?: boolean } = {}) {
    const updated = this.updateToolPart(
      toolCallId,
      (p) => {
        p.state = "output-available";
        p.output = output;
        p.preliminary = false;
      },
      options.dropAfter === true,
    );
    if (updated) this.broadcast({ type: "cf_agent_message_updated", message: updated });
  }

  /** Mints a Live View session on this server. */
  liveView(mode: "tab" | "devtools"): unknown {
    return this.svc.liveView(mode);
  }

  private answerGate(
    conn: MockConnection,
    toolCallId: string,
    answer: { approved: boolean },
    autoContinue: boolean,
  ) {
    const g = this.gates.get(toolCallId);
    if (g?.kind !== "approval") {
      this.svc.log(`mock-server: ${this.agent}/${this.name}: approval for unknown tool call; ignored`);
      return;
    }
    this.gates.delete(toolCallId);
    // A denial settles the part at once (`output-denied`), so the model gets a tool result (reference §4.4).
    const updated = this.updateToolPart(toolCallId, (p) => {
      p.state = answer.approved ? "approval-responded" : "output-denied";
      p.approval = { ...(p.approval as object), approved: answer.approved };
    });
    if (updated) this.broadcast({ type: "cf_agent_message_updated", message: updated });
    this.gateAnswered(conn, g, answer, autoContinue);
  }

  /** Records an answer; the batch continues once every parallel call in it is answered (reference §4.5). */
  private gateAnswered(
    conn: MockConnection,
    g: Gate,
    answer: { approved: boolean } | { toolResult: true },
    autoContinue: boolean,
  ) {
    const batch = g.batch ?? { gates: [g], answers: new Map(), autoContinue: false };
    batch.answers.set(g.toolCallId, answer);
    batch.autoContinue ||= autoContinue;
    if (batch.answers.size < batch.gates.length || !batch.autoContinue) return;
    this.continueAfter(conn, batch);
  }

  private toolResult(conn: MockConnection, f: Extract<ClientFrame, { type: "cf_agent_tool_result" }>) {
    const g = this.gates.get(f.toolCallId);
    // Only a part still waiting takes a result; one for a settled part is a silent no-op (reference §4.3).
    const waiting = this.messages.some((m) =>
      m.parts.some((p) => {
        const t = p as { toolCallId?: string; state?: string };
        return (
          t.toolCallId === f.toolCallId &&
          (t.state === "input-available" ||
            t.state === "approval-requested" ||
            t.state === "approval-responded")
        );
      }),
    );
    if (!waiting) {
      this.svc.log(
        `mock-server: ${this.agent}/${this.name}: tool result for a tool call that is not waiting; ignored`,
      );
      return;
    }
    const updated = this.updateToolPart(f.toolCallId, (p) => {
      if (f.state === "output-error") {
        p.state = "output-error";
        p.errorText = f.errorText ?? "Tool failed";
      } else {
        p.state = "output-available";
        p.output = f.output;
        p.preliminary = false;
      }
    });
    if (!updated) {
      this.svc.log(`mock-server: ${this.agent}/${this.name}: tool result for unknown tool call; ignored`);
      return;
    }
    this.broadcast({ type: "cf_agent_message_updated", message: updated });
    if (!g) return;
    this.gates.delete(f.toolCallId);
    g.ctx.outputs[g.toolName] = f.output;
    this.gateAnswered(conn, g, { toolResult: true }, f.autoContinue !== false);
  }

  private continueAfter(owner: MockConnection, batch: GateBatch) {
    const g = batch.gates[0] as Gate;
    const id = ids.serverRequestId(this.host);
    const think = this.host === "think";
    this.pendingContinuation = { id, owner };
    // A 50 ms coalesce window batches sibling results before the continuation starts (reference §3.8).
    void this.svc.sleep(50).then(() =>
      this.enqueue({
        id,
        continuation: true,
        owner,
        ctx: g.ctx,
        run: async (player) => {
          const rest = player.resolveBatch(batch);
          for (const gate of batch.gates) {
            const answer = batch.answers.get(gate.toolCallId);
            if (!think || !answer || !("approved" in answer) || !answer.approved) continue;
            // Think applies the executed output to the original message and announces it (think/pay.jsonl).
            const updated = this.updateToolPart(gate.toolCallId, (p) => {
              p.state = "output-available";
              p.output = gate.ctx.outputs[gate.toolName];
              p.preliminary = false;
            });
            if (updated) this.broadcast({ type: "cf_agent_message_updated", message: updated });
          }
          return player.play(rest);
        },
      }),
    );
  }

  // ───────────────────────────── resume ─────────────────────────────

  private resumeRequest(conn: MockConnection, probeId: string | undefined) {
    const probe = probeId === undefined ? {} : { probeId };
    const live = this.active;
    if (live) {
      if (live.stream.continuation && live.owner && live.owner !== conn && this.conns.has(live.owner)) {
        this.send(conn, { type: "cf_agent_stream_resume_none", reason: "continuation-owned", ...probe });
        return;
      }
      // Sent even if the connect-time offer already went out: no server-side dedupe (#1733).
      this.pendingResume.add(conn);
      this.send(conn, { type: "cf_agent_stream_resuming", id: live.stream.id, ...probe });
      return;
    }
    // Rule B: a continuation is pending for this socket (or for one that left); rule D: a queued turn.
    const pc = this.pendingContinuation;
    const pendingId = pc && (pc.owner === conn || !this.conns.has(pc.owner)) ? pc.id : this.queue[0]?.id;
    if (pendingId) {
      this.parked.add(conn);
      this.send(conn, { type: "cf_agent_stream_pending", id: pendingId, ...probe });
      return;
    }
    if (this.terminalRecord) {
      this.send(conn, { type: "cf_agent_stream_resuming", id: this.terminalRecord.id, ...probe });
      return;
    }
    this.send(conn, { type: "cf_agent_stream_resume_none", reason: "idle", ...probe });
  }

  private resumeAck(conn: MockConnection, id: string) {
    this.pendingResume.delete(conn);
    const base = { type: "cf_agent_use_chat_response", id };
    const replay = (s: ChatStream) => {
      const cont = s.continuation ? { continuation: true } : {};
      s.chunks.forEach((body, seq) => {
        this.send(conn, { body, done: false, id, type: base.type, ...cont, replay: true, seq });
      });
      return cont;
    };
    const live = this.active?.stream;
    if (live?.id === id) {
      const cont = replay(live);
      if (live.status === "orphaned") {
        this.send(conn, { body: "", done: true, id, type: base.type, ...cont, replay: true });
        this.finishOrphan();
      } else {
        this.send(conn, {
          body: "",
          done: false,
          id,
          type: base.type,
          ...cont,
          replay: true,
          replayComplete: true,
        });
      }
      return;
    }
    if (live) return; // A different stream is active: no frame (reference §3.7 ACK rule 2).
    if (this.terminalRecord?.id === id) {
      const s = this.terminalRecord;
      replay(s);
      this.send(conn, { body: s.errorText ?? "Error", done: true, error: true, id, type: base.type });
      return;
    }
    const done = this.recent.get(id);
    if (done) {
      const cont = replay(done);
      this.send(conn, { body: "", done: true, id, type: base.type, ...cont, replay: true });
      return;
    }
    this.send(conn, { body: "", done: true, id, type: base.type, replay: true });
  }

  // ───────────────────────────── restart ─────────────────────────────

  /**
   * Simulates an eviction: sockets drop, turns stop, and only what is persisted survives (transcript, state,
   * run records, the stream's stored chunks). A stream cut mid-way is orphaned: the next ACK replays it and
   * ends it with `{done:true, replay:true}`, and the partial message is kept (reference §3.7 ACK rule 1, #989).
   */
  restart(options: { recover?: boolean } = {}) {
    for (const c of [...this.conns]) {
      this.disconnect(c);
      c.close(1012, "Agent restarting");
    }
    this.queue.length = 0;
    this.gates.clear();
    this.runs.stopAll();
    const live = this.active;
    if (!live) return;
    live.abort.abort();
    if (options.recover) return this.recover(live);
    live.stream.status = "orphaned";
    // Stop the player without ending the stream: it stays active until a client ACKs it.
    this.active = { stream: live.stream, abort: new AbortController() };
  }

  /**
   * Durable recovery after an eviction (reference §3.9): the partial message is kept, `chat_recovering`
   * announces a recovery continuation, which finishes what the cut turn had left, then `recovering:false`.
   */
  private recover(live: ActiveTurn) {
    const rest = live.player?.remaining() ?? [];
    live.stream.status = "aborted";
    this.transcript.endStream(live.stream.id);
    this.remember(live.stream);
    this.active = undefined;
    this.pendingResume.clear();
    const id = ids.serverRequestId(this.host);
    this.recovering = id;
    void this.svc.sleep(RECOVERY_DELAY_MS).then(() =>
      this.enqueue({
        id,
        continuation: true,
        ...(live.ctx ? { ctx: live.ctx } : {}),
        run: (player) => player.play(rest),
        onEnd: () => {
          this.recovering = undefined;
          this.broadcast({ type: "cf_agent_chat_recovering", recovering: false, id });
        },
      }),
    );
  }

  private finishOrphan() {
    const live = this.active;
    if (!live) return;
    this.transcript.endStream(live.stream.id);
    this.remember(live.stream);
    this.active = undefined;
    this.pendingResume.clear();
    this.snapshotAfter(live.stream);
    void this.pump();
  }

  /** True while a turn streams (tests and the controller use it). */
  get streaming(): boolean {
    return this.active !== undefined;
  }
}
