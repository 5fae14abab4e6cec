/**
 * The turn queue of one instance: one chat stream at a time, the others wait in order. A turn is played into
 * its stream (stored, applied to the persisted transcript, broadcast to every socket not waiting to ACK) and
 * ended with the host's terminal frames. Cancel, clear and eviction stop it the way the real server does.
 */
import type { ChatResponseFrame, MessageList, ServerFrame } from "@runboard/protocol";
import type { UIMessageChunk } from "ai";
import { ChatStream } from "./chat-stream.ts";
import type { MockConnection } from "./connection.ts";
import type { HostFlavour } from "./host-flavour.ts";
import type { ResumeHandshake } from "./resume.ts";
import type { ChildStep, Step, TurnContext } from "./script.ts";
import { Player } from "./turn.ts";
import type { PlayResult, TurnHost, TurnTools } from "./turn-host.ts";

/** What the queue needs from its instance. */
export interface TurnQueueContext {
  readonly flavour: HostFlavour;
  readonly transcript: MessageList;
  readonly resume: ResumeHandshake;
  readonly tools: TurnTools;
  /** Default delay before each chunk, in ms (before the server's delay scale). */
  readonly chunkDelayMs: number;
  readonly delayScale: number;
  isConnected(conn: MockConnection): boolean;
  /** Number of sockets connected now. */
  connectionCount(): number;
  send(conn: MockConnection, frame: ServerFrame): void;
  broadcast(frame: ServerFrame, except?: ReadonlySet<MockConnection> | MockConnection): void;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** The context of a turn that does not continue an earlier one. */
  context(): TurnContext;
  /** Where a stream's chunk bodies go besides its sockets (a child run's parent). */
  forwardChunk(body: string, stored: boolean): void;
}

/** A turn waiting to stream. */
export interface QueuedTurn {
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

/** The turn streaming now. */
export interface ActiveTurn {
  stream: ChatStream;
  abort: AbortController;
  owner?: MockConnection;
  player?: Player;
  ctx?: TurnContext;
  /** The history was cleared while it ran: it stops and leaves nothing in the transcript. */
  cleared?: boolean;
}

/** Options of a server-started turn. */
export interface ProgrammaticTurnOptions {
  id?: string;
  before?: () => void;
  continuation?: boolean;
  signal?: AbortSignal;
}

const RESPONSE = "cf_agent_use_chat_response";

/** The terminal frame of a queued turn that never streamed. */
const skipped = (q: QueuedTurn): ChatResponseFrame => ({
  body: "",
  done: true,
  id: q.id,
  type: RESPONSE,
  outcome: "skipped",
  ...(q.messageIds ? { messageIds: q.messageIds } : {}),
});

/** Turns of one instance, played one at a time. */
export class TurnQueue {
  private readonly queue: QueuedTurn[] = [];
  private active?: ActiveTurn;

  constructor(private readonly c: TurnQueueContext) {}

  /** The turn streaming now (an orphaned stream counts until it is ACKed or replaced). */
  get live(): ActiveTurn | undefined {
    return this.active;
  }

  /** A turn streams (an orphaned stream waiting for its ACK does not count) or waits in the queue. */
  get busy(): boolean {
    return this.queue.length > 0 || (this.active !== undefined && this.active.stream.status !== "orphaned");
  }

  /** Request id of the next queued turn. */
  get nextId(): string | undefined {
    return this.queue[0]?.id;
  }

  enqueue(t: QueuedTurn) {
    this.queue.push(t);
    // A stream restored after an eviction is not live: the next turn replaces it, as the real server's
    // ResumableStream.start() does, keeping the partial message.
    if (this.active?.stream.status === "orphaned") this.finishOrphan();
    else if (!this.active) void this.pump();
  }

  /**
   * Queues a server-started turn (detached delivery, resolved executions, a child run's own turn). Nobody
   * originated it, so every socket receives every frame. Resolves when its stream has ended.
   */
  runProgrammatic(
    steps: readonly (Step | ChildStep)[],
    opts: ProgrammaticTurnOptions = {},
  ): Promise<PlayResult> {
    return new Promise((done) => {
      this.enqueue({
        id: opts.id ?? this.c.flavour.serverRequestId(),
        continuation: opts.continuation === true,
        ...(opts.before ? { before: opts.before } : {}),
        run: (player, turn) => {
          opts.signal?.addEventListener("abort", () => turn.abort.abort(), { once: true });
          return player.play(steps);
        },
        onEnd: done,
      });
    });
  }

  /** `cf_agent_chat_request_cancel`: the live turn stops; a queued one is skipped. */
  cancel(id: string) {
    if (this.active?.stream.id === id) {
      this.active.abort.abort();
      return;
    }
    const i = this.queue.findIndex((q) => q.id === id);
    if (i < 0) return;
    const [q] = this.queue.splice(i, 1);
    if (q) this.c.broadcast(skipped(q));
    // Parked sockets carry over to the next turn; with none left they are released (no reason).
    if (!this.queue.length && !this.active) this.c.resume.releaseParked();
  }

  /**
   * As AIChatAgent's resetTurnState: the running turn stops and queued ones are skipped (their senders are
   * told), so nothing written before the clear comes back after it.
   */
  clear() {
    for (const q of this.queue.splice(0))
      if (q.originator && this.c.isConnected(q.originator)) this.c.send(q.originator, skipped(q));
    const live = this.active;
    if (live && live.stream.status !== "orphaned") {
      live.cleared = true;
      live.abort.abort();
    }
  }

  /** Eviction: queued turns are dropped (nothing persisted them). */
  dropQueued() {
    this.queue.length = 0;
  }

  /**
   * Eviction: the live turn stops. Its stream is orphaned (the next ACK replays and ends it), or, to be
   * recovered, retired at once: then what it had left to play is returned.
   */
  evict(recover: boolean): { rest: Step[]; ctx?: TurnContext } | undefined {
    const live = this.active;
    if (!live) return undefined;
    live.abort.abort();
    if (!recover) {
      live.stream.status = "orphaned";
      // Stop the player without ending the stream: it stays active until a client ACKs it.
      this.active = { stream: live.stream, abort: new AbortController() };
      return undefined;
    }
    const rest = live.player?.remaining() ?? [];
    live.stream.status = "aborted";
    this.c.transcript.endStream(live.stream.id);
    this.c.resume.remember(live.stream);
    this.active = undefined;
    this.c.resume.streamEnded();
    return { rest, ...(live.ctx ? { ctx: live.ctx } : {}) };
  }

  /** An orphaned stream was ACKed or replaced: it ends, keeping its partial message. */
  finishOrphan() {
    const live = this.active;
    if (!live) return;
    this.c.transcript.endStream(live.stream.id);
    this.c.resume.remember(live.stream);
    this.active = undefined;
    this.c.resume.streamEnded();
    this.snapshotAfter(live.stream);
    void this.pump();
  }

  private async pump() {
    for (let next = this.queue.shift(); next; next = this.active ? undefined : this.queue.shift()) {
      await this.runTurn(next);
    }
  }

  private async runTurn(q: QueuedTurn) {
    const { c } = this;
    q.before?.();
    const stream = new ChatStream(q.id, q.continuation, q.originator, q.messageIds);
    const turn: ActiveTurn = { stream, abort: new AbortController(), ...(q.owner ? { owner: q.owner } : {}) };
    this.active = turn;
    // Sockets waiting for this stream (the one that answered a gate, probes parked during the pre-stream
    // window) are offered it unsolicited, with no probeId, and see it only after their ACK (docs/protocol.md#resume-handshake).
    c.resume.streamStarting(q.id, q.owner);
    turn.ctx = q.ctx ?? c.context();
    const player = new Player(this.turnHost(turn, q.originator), turn.ctx);
    turn.player = player;
    const start = c.flavour.startChunks(q.continuation);
    this.emit(turn, start.wire, start.persisted);
    let result: PlayResult;
    try {
      result = await q.run(player, turn);
    } catch (e) {
      result = { kind: "error", message: e instanceof Error ? e.message : String(e), thrown: true };
    }
    if (turn.abort.signal.aborted && result.kind !== "error") result = { kind: "aborted" };
    // The end snapshot and `done` leave in a later tick than `finish`, as on the real server.
    await c.sleep(0);
    this.endTurn(turn, result);
    q.onEnd?.(result);
  }

  private turnHost(turn: ActiveTurn, originator?: MockConnection): TurnHost {
    const { c } = this;
    const { tools } = c;
    const { signal } = turn.abort;
    return {
      finishChunk: (reason) => c.flavour.finishChunk(reason),
      chunkDelayMs: c.chunkDelayMs,
      delayScale: c.delayScale,
      emit: (chunk) => this.emit(turn, chunk),
      emitTransient: (chunk) => this.emitTransient(turn, chunk),
      sleep: (ms) => c.sleep(ms, signal),
      signal,
      runChild: (spec, toolCallId) => tools.runChild(spec, toolCallId, signal),
      runDetached: (step) => tools.runDetached(step),
      gate: (g) => tools.gate(g),
      pause: (step, toolCallId, input) => tools.pause(step, toolCallId, input),
      liveView: (mode) => tools.liveView(mode),
      describe: (toolCallId, descriptor) => tools.describe(toolCallId, descriptor),
      setState: (update) => tools.setState(update),
      compact: (step) => tools.compact(step),
      evict: async (recover) => {
        tools.evict(recover);
        // The eviction aborts this turn; wait for it, so the player stops at this step.
        if (!signal.aborted) await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
      },
      closeOriginator: () => {
        if (originator) tools.dropConnection(originator);
      },
    };
  }

  /** Stores a chunk, applies it to the transcript and broadcasts it to every socket not waiting to ACK. */
  private emit(turn: ActiveTurn, chunk: Record<string, unknown>, persistedChunk = chunk) {
    if (this.active !== turn) return;
    const { c } = this;
    const { stream } = turn;
    const body = JSON.stringify(chunk);
    const seq = stream.store(body);
    // The persisted message keeps no finish metadata (seen in every recorded snapshot).
    const persisted = persistedChunk.type === "finish" ? { type: "finish" } : persistedChunk;
    c.transcript.applyChunk(stream.id, persisted as UIMessageChunk, {
      continuation: stream.continuation && c.flavour.continuationAppends,
    });
    c.broadcast(
      {
        body,
        done: false,
        id: stream.id,
        type: RESPONSE,
        ...(stream.continuation ? { continuation: true } : {}),
        seq,
      },
      c.resume.awaitingAck,
    );
    c.forwardChunk(body, true);
  }

  /** Broadcast only: agent-tool progress and milestones are never in the chunk store (docs/protocol.md#agent-tool-replay). */
  private emitTransient(turn: ActiveTurn, chunk: Record<string, unknown>) {
    if (this.active !== turn) return;
    const body = JSON.stringify(chunk);
    this.c.broadcast({ body, done: false, id: turn.stream.id, type: RESPONSE }, this.c.resume.awaitingAck);
    this.c.forwardChunk(body, false);
  }

  private endTurn(turn: ActiveTurn, result: PlayResult) {
    const { c } = this;
    const { stream } = turn;
    if (this.active !== turn) return;
    const cont = stream.continuation ? { continuation: true } : {};
    const mids = stream.messageIds ? { messageIds: stream.messageIds } : {};
    c.transcript.endStream(stream.id);
    this.active = undefined;
    c.resume.streamEnded();
    if (turn.cleared) {
      stream.status = "aborted";
      c.transcript.replaceAll([]);
      c.broadcast({
        body: "",
        done: true,
        id: stream.id,
        type: RESPONSE,
        ...cont,
        ...mids,
        outcome: "aborted",
      });
      void this.pump();
      return;
    }
    c.resume.remember(stream);
    if (result.kind === "error") {
      stream.status = "errored";
      stream.errorText = result.message;
      if (c.connectionCount() === 0) c.resume.keepTerminal(stream);
    }
    if (result.kind === "error" && result.thrown) {
      c.broadcast({
        body: result.message,
        done: true,
        error: true,
        id: stream.id,
        type: RESPONSE,
        ...cont,
        ...mids,
      });
    } else {
      if (result.kind === "error") {
        // In-band error chunk: not stored, sent as {error:true, done:false}, then a plain done (docs/protocol.md#chunk-bodies).
        c.broadcast({
          body: result.message,
          done: false,
          error: true,
          id: stream.id,
          type: RESPONSE,
          ...cont,
        });
      } else {
        stream.status = result.kind === "aborted" ? "aborted" : "completed";
      }
      this.snapshotAfter(stream);
      const outcome = c.flavour.terminalOutcome(result.kind);
      c.broadcast({
        body: "",
        done: true,
        id: stream.id,
        type: RESPONSE,
        ...cont,
        ...mids,
        ...(outcome ? { outcome } : {}),
      });
    }
    void this.pump();
  }

  /** End-of-turn snapshot, in the host's shape and to the host's audience. */
  private snapshotAfter(stream: ChatStream) {
    const { frame, skipOriginator } = this.c.flavour.endSnapshot(this.c.transcript.messages);
    this.c.broadcast(frame, skipOriginator ? stream.originator : undefined);
  }
}
