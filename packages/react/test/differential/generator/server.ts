/**
 * A model of the AIChatAgent server for the generator: what it can legally send given its state. It answers
 * what a hook sends (requests, cancels, probes, ACKs, tool results, approvals, transcripts, clears) as the
 * real server does (docs/protocol.md#chat-frames and the sections it links), and plays the events a test
 * asks for (stream chunks, errors, another tab's turn or answer or transcript or clear, a server-started
 * turn, a reconnect's connect frames). One instance per run and side; each room (agent instance) keeps its
 * own transcript. Frames go to the hook's sockets (the Driver's `FakeAgent`s) that are open on that room.
 *
 * Server answers to client frames are delivered on a later task (`setTimeout(0)`), as a real server's are;
 * events a step asks for are delivered at once, inside that step.
 */
import type { UIMessage } from "ai";
import type { Driver, FakeAgent } from "../harness.ts";
import {
  type Chunk,
  findLast,
  findLastIndex,
  type Gate,
  type Kind,
  kindOf,
  PROMPTS,
  StoredMessage,
  serverTurn,
  type Turn,
  turn,
} from "./recorded.ts";

type Frame = Record<string, unknown>;

/** A socket as the server knows it: a connection lives from one open to its close. */
interface Conn {
  socket: FakeAgent;
  gen: number;
}

/** The stream the server is producing (at most one at a time; other turns wait in the queue). */
interface Live {
  id: string;
  origin: "self" | "other" | "server" | "continuation";
  /** This tab's connection that asked (its own turn), or the owner of a continuation. */
  requester?: Conn | "other";
  continuation: boolean;
  chunks: Chunk[];
  /** How many chunks the server has produced (sent to every socket not waiting for an ACK). */
  sent: number;
  message: StoredMessage;
  /** Index of the message in the transcript while streaming (continuations), or -1 (new message). */
  index: number;
  messageIds?: string[];
  turn?: Turn;
}

/** A turn accepted but not started: another stream is live. */
type Queued =
  | { kind: "turn"; id: string; requester: Conn; messageIds?: string[]; turn: Turn }
  | { kind: "continuation"; id: string; owner: Conn | "other"; chunks: { replayed: Chunk[]; live: Chunk[] } };

/** One agent instance: its transcript and streams. */
export class Room {
  stored: UIMessage[] = [];
  live: Live | undefined;
  readonly queue: Queued[] = [];
  /** Tool calls a turn stopped at, by tool call id. */
  readonly gates = new Map<string, { gate: Gate; turn: Turn }>();
  /** Streams that ended, for an ACK that comes late (ACK rule 4). */
  readonly completed = new Map<string, { frames: Frame[] }>();
  /** Sockets offered the live stream that have not ACKed (they get none of its chunks). */
  readonly waiting = new Set<FakeAgent>();
  /** Sockets parked on a continuation that has not started. */
  readonly parked = new Set<FakeAgent>();

  constructor(readonly name: string) {}

  /** The pending (not started) continuation, if any. */
  get pendingContinuation(): Extract<Queued, { kind: "continuation" }> | undefined {
    return this.queue.find((q): q is Extract<Queued, { kind: "continuation" }> => q.kind === "continuation");
  }

  /** Nothing is streaming or waiting to stream. */
  get idle(): boolean {
    return this.live === undefined && this.queue.length === 0;
  }

  /** The tool part a human or the app could answer now: the last assistant message's first waiting part. */
  openGate(): { toolCallId: string; kind: "approval" | "client"; approvalId?: string } | undefined {
    const last = findLast(this.stored, (m) => m.role === "assistant");
    for (const p of (last?.parts ?? []) as Record<string, unknown>[]) {
      if (p.state === "approval-requested")
        return {
          toolCallId: p.toolCallId as string,
          kind: "approval",
          approvalId: (p.approval as { id?: string } | undefined)?.id,
        };
      if (p.state === "input-available") return { toolCallId: p.toolCallId as string, kind: "client" };
    }
    return undefined;
  }
}

const ERROR_TEXT = "Model overloaded";

/** The server, for one run of one side. */
export class ServerModel {
  private readonly rooms = new Map<string, Room>();
  private readonly gens = new WeakMap<FakeAgent, number>();
  private turns = 0;
  private continuations = 0;
  private others = 0;
  /** A short log of what the server did, for a failure report. */
  readonly log: string[] = [];

  constructor(private readonly d: Driver) {}

  room(name: string): Room {
    let r = this.rooms.get(name);
    if (!r) {
      r = new Room(name);
      this.rooms.set(name, r);
    }
    return r;
  }

  /** The room of the hook's current socket. */
  get current(): Room {
    return this.room(this.d.agent.name);
  }

  /** Sets what a room holds before the run (served by `get-messages`). */
  seed(name: string, messages: UIMessage[]): void {
    const r = this.room(name);
    r.stored = clone(messages);
    this.publish(r);
  }

  // ── sockets ──

  private gen(s: FakeAgent): number {
    return this.gens.get(s) ?? 0;
  }

  private conn(s: FakeAgent): Conn {
    return { socket: s, gen: this.gen(s) };
  }

  private present(c: Conn | "other" | undefined): boolean {
    if (c === "other") return true;
    return c !== undefined && c.socket.readyState === 1 && this.gen(c.socket) === c.gen;
  }

  private same(a: Conn | "other" | undefined, s: FakeAgent): boolean {
    return a !== undefined && a !== "other" && a.socket === s && a.gen === this.gen(s);
  }

  /** The open sockets on a room. */
  private sockets(r: Room): FakeAgent[] {
    return this.d.sockets().filter((s) => s.name === r.name && s.readyState === 1);
  }

  private send(s: FakeAgent, f: Frame): void {
    if (s.readyState !== 1) return;
    this.d.deliver(s, JSON.stringify(f));
  }

  /**
   * A frame to every open socket of the room but `except`, and but the sockets offered the live stream that
   * have not ACKed it: AIChatAgent's `_broadcastChatMessage` leaves out its pending-resume set for every chat
   * frame, chunks, updates and transcripts alike. A stream's end clears that set first (`_afterStreamFinished`),
   * so its last transcript and terminal reach everyone.
   */
  private broadcast(r: Room, f: Frame, except: (s: FakeAgent) => boolean = () => false): void {
    for (const s of this.sockets(r)) if (!except(s) && !r.waiting.has(s)) this.send(s, f);
  }

  /** Answers on a later task, to a socket still open on the same connection. */
  private later(s: FakeAgent, fn: () => void): void {
    const g = this.gen(s);
    setTimeout(() => {
      if (s.readyState === 1 && this.gen(s) === g) fn();
    }, 0);
  }

  /** The socket closed: its connection ends (the server forgets its offers and parking). */
  closed(s: FakeAgent): void {
    this.gens.set(s, this.gen(s) + 1);
    for (const r of this.rooms.values()) {
      r.waiting.delete(s);
      r.parked.delete(s);
    }
  }

  /**
   * A new connection: the connect frames (docs/protocol.md#connect-frames), on a later task but before any
   * answer to what the client sends once it sees the socket open.
   */
  connected(s: FakeAgent): void {
    const g = this.gen(s);
    setTimeout(() => {
      if (s.readyState === 1 && this.gen(s) === g) this.connectFrames(s);
    }, 0);
  }

  private connectFrames(s: FakeAgent): void {
    const r = this.room(s.name);
    if (r.live) {
      // A live stream is offered first, before identity; the socket gets none of its chunks until it ACKs.
      this.send(s, { type: "cf_agent_stream_resuming", id: r.live.id });
      r.waiting.add(s);
    }
    this.send(s, { type: "cf_agent_identity", name: r.name, agent: "chat-agent", stateFollows: true });
    this.send(s, { type: "cf_agent_state", state: { counter: 0 } });
    this.send(s, {
      mcp: { prompts: [], resources: [], servers: {}, tools: [] },
      type: "cf_agent_mcp_servers",
    });
  }

  // ── what the hook sends ──

  /** A frame the hook sent on `s` (already recorded by the Driver). */
  sees(s: FakeAgent, f: Frame): void {
    const r = this.room(s.name);
    this.log.push(`${r.name} < ${String(f.type)}`);
    switch (f.type) {
      case "cf_agent_use_chat_request":
        this.request(r, s, f);
        return;
      case "cf_agent_chat_request_cancel":
        this.later(s, () => this.cancel(r, String(f.id)));
        return;
      case "cf_agent_stream_resume_request":
        this.later(s, () => this.probe(r, s, typeof f.probeId === "string" ? f.probeId : undefined));
        return;
      case "cf_agent_stream_resume_ack":
        this.later(s, () => this.ack(r, s, String(f.id)));
        return;
      case "cf_agent_tool_result":
        this.later(s, () => this.toolResult(r, s, f));
        return;
      case "cf_agent_tool_approval":
        this.later(s, () => this.approval(r, s, f));
        return;
      case "cf_agent_chat_messages":
        this.later(s, () => this.persist(r, (f.messages as UIMessage[]) ?? [], s));
        return;
      case "cf_agent_chat_clear":
        this.later(s, () => this.clear(r, s));
        return;
      default:
        return;
    }
  }

  /** A chat request: stored (stale rows dropped when it only names stored ones), then played or queued. */
  private request(r: Room, s: FakeAgent, f: Frame): void {
    const init = f.init as { method?: string; body?: string } | undefined;
    if (init?.method !== "POST" || !init.body) return;
    let body: { messages?: UIMessage[] };
    try {
      body = JSON.parse(init.body) as { messages?: UIMessage[] };
    } catch {
      return;
    }
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const id = String(f.id);
    const requester = this.conn(s);
    const trailingUsers: string[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "user"; i--)
      trailingUsers.unshift(messages[i]?.id as string);
    const lastUser = findLast(messages, (m) => m.role === "user");
    const text = (lastUser?.parts ?? [])
      .map((p) => (p.type === "text" ? (p as { text: string }).text : ""))
      .join(" ");
    const kind: Kind = kindOf(text);
    this.later(s, () => {
      this.persist(r, messages, s, true);
      this.turns++;
      r.queue.push({
        kind: "turn",
        id,
        requester,
        ...(trailingUsers.length ? { messageIds: trailingUsers } : {}),
        turn: turn(kind, this.turns, id),
      });
      this.startNext(r);
    });
  }

  /**
   * Stores `messages` as AIChatAgent's `persistMessages` does: each one upserted in place (new ones appended);
   * with `deleteStale` (a chat request) rows it lacks are deleted when it names only stored rows (a
   * regenerate or an edit truncates). The list is broadcast to every other socket.
   */
  private persist(r: Room, messages: UIMessage[], from: FakeAgent | "other", deleteStale = false): void {
    const prior = new Set(r.stored.map((m) => m.id));
    for (const m of messages) {
      const i = r.stored.findIndex((x) => x.id === m.id);
      if (i >= 0) r.stored[i] = clone(m);
      else r.stored.push(clone(m));
    }
    if (deleteStale && messages.every((m) => prior.has(m.id))) {
      const keep = new Set(messages.map((m) => m.id));
      r.stored = r.stored.filter((m) => keep.has(m.id));
    }
    this.publish(r);
    this.broadcast(r, { messages: clone(messages), type: "cf_agent_chat_messages" }, (x) => x === from);
  }

  /** What `get-messages` answers for the room: the stored rows (a message still streaming is not one). */
  private publish(r: Room): void {
    this.d.serve(clone(r.stored), { room: r.name });
  }

  /** Starts the next queued turn or continuation when nothing is live. */
  private startNext(r: Room): void {
    if (r.live) return;
    const q = r.queue[0];
    if (!q) return;
    if (q.kind === "continuation") {
      // The continuation waits until the tool batch is complete: no part of the last assistant message
      // waits for an answer any more (docs/protocol.md#parallel-tool-calls).
      if (r.openGate()) return;
      r.queue.shift();
      const index = findLastIndex(r.stored, (m) => m.role === "assistant");
      const last = r.stored[index];
      r.live = {
        id: q.id,
        origin: "continuation",
        requester: q.owner,
        continuation: true,
        chunks: [...q.chunks.replayed, ...q.chunks.live],
        sent: 0,
        message: new StoredMessage(last?.id ?? `assistant_c_${q.id}`, (last?.parts ?? []) as never),
        index,
      };
      // Parked sockets are offered the stream (without a probe id) and get it once they ACK.
      for (const s of [...r.parked]) {
        this.send(s, { type: "cf_agent_stream_resuming", id: q.id });
        r.waiting.add(s);
      }
      r.parked.clear();
      // What the server produced before any ACK could arrive: the replayed part.
      this.produce(r, q.chunks.replayed.length);
      return;
    }
    r.queue.shift();
    r.live = {
      id: q.id,
      origin: "self",
      requester: q.requester,
      continuation: false,
      chunks: q.turn.chunks,
      sent: 0,
      message: new StoredMessage(q.turn.messageId),
      index: -1,
      ...(q.messageIds ? { messageIds: q.messageIds } : {}),
      turn: q.turn,
    };
  }

  private frame(l: Live, c: Chunk, seq: number, replay = false): Frame {
    return {
      body: JSON.stringify(c),
      done: false,
      id: l.id,
      type: "cf_agent_use_chat_response",
      ...(replay ? { replay: true } : {}),
      seq,
      ...(l.continuation ? { continuation: true } : {}),
    };
  }

  /** Produces the live stream's next `n` chunks, to every socket not waiting for an ACK. */
  private produce(r: Room, n: number): void {
    const l = r.live;
    if (!l) return;
    for (let i = 0; i < n && l.sent < l.chunks.length; i++) {
      const c = l.chunks[l.sent] as Chunk;
      l.message.apply(c);
      const f = this.frame(l, c, l.sent);
      l.sent++;
      this.broadcast(r, f);
    }
  }

  /** The terminal frame of the live stream, with what every terminal carries. */
  private terminal(l: Live, extra: Frame = {}): Frame {
    return {
      body: "",
      done: true,
      id: l.id,
      type: "cf_agent_use_chat_response",
      ...extra,
      ...(l.messageIds ? { messageIds: l.messageIds } : {}),
      ...(l.continuation ? { continuation: true } : {}),
    };
  }

  /** Stores the streamed message (a new one is appended, a continued one replaced in place). */
  private store(r: Room, l: Live): void {
    const m = l.message.message();
    if (m.parts.length === 0) return;
    const at = l.index >= 0 ? l.index : r.stored.findIndex((x) => x.id === m.id);
    if (at >= 0) r.stored[at] = m;
    else r.stored.push(m);
    this.publish(r);
  }

  /** The live stream has produced everything: stored, the transcript to everyone but the requester, done. */
  private finish(r: Room, extra: Frame = {}): void {
    const l = r.live;
    if (!l) return;
    r.waiting.clear();
    this.store(r, l);
    const requester = l.origin === "self" ? l.requester : undefined;
    this.broadcast(r, { messages: clone(r.stored), type: "cf_agent_chat_messages" }, (s) =>
      this.same(requester as Conn | undefined, s),
    );
    if (l.turn?.gate) r.gates.set(l.turn.gate.toolCallId, { gate: l.turn.gate, turn: l.turn });
    this.end(r, this.terminal(l, extra));
  }

  /** Ends the live stream with `terminal`: to every socket (waiting ones included), recorded for late ACKs. */
  private end(r: Room, terminal: Frame): void {
    const l = r.live;
    if (!l) return;
    r.waiting.clear();
    this.broadcast(r, terminal);
    r.completed.set(l.id, {
      frames: [
        ...l.chunks.slice(0, l.sent).map((c, i) => this.frame(l, c, i, true)),
        { ...terminal, replay: true },
      ],
    });
    r.waiting.clear();
    r.live = undefined;
    this.startNext(r);
  }

  /** `cf_agent_chat_request_cancel`: the live turn is aborted; its partial answer is kept. */
  private cancel(r: Room, id: string): void {
    const l = r.live;
    if (l?.id === id) {
      r.waiting.clear();
      this.store(r, l);
      const requester =
        l.origin === "self" ? l.requester : l.origin === "continuation" ? l.requester : undefined;
      this.broadcast(r, { messages: clone(r.stored), type: "cf_agent_chat_messages" }, (s) =>
        this.same(requester, s),
      );
      this.end(r, this.terminal(l, { outcome: "aborted" }));
      return;
    }
    const i = r.queue.findIndex((q) => q.id === id);
    if (i < 0) return;
    const [q] = r.queue.splice(i, 1);
    if (q?.kind === "continuation") this.releaseParked(r);
    else
      this.broadcast(r, { body: "", done: true, id, type: "cf_agent_use_chat_response", outcome: "aborted" });
  }

  /** Parked sockets learn that the turn they waited for will not stream (a bare `resume_none`). */
  private releaseParked(r: Room): void {
    for (const s of r.parked) this.send(s, { type: "cf_agent_stream_resume_none" });
    r.parked.clear();
  }

  /** `cf_agent_stream_resume_request` (docs/protocol.md#resume-handshake, rules A, A', B, E). */
  private probe(r: Room, s: FakeAgent, probeId: string | undefined): void {
    const p = probeId ? { probeId } : {};
    const l = r.live;
    if (l) {
      if (
        l.continuation &&
        l.requester !== undefined &&
        !this.same(l.requester, s) &&
        this.present(l.requester)
      )
        this.send(s, { type: "cf_agent_stream_resume_none", reason: "continuation-owned", ...p });
      else {
        this.send(s, { type: "cf_agent_stream_resuming", id: l.id, ...p });
        r.waiting.add(s);
      }
      return;
    }
    const c = r.pendingContinuation;
    if (c && (this.same(c.owner, s) || !this.present(c.owner))) {
      r.parked.add(s);
      this.send(s, { type: "cf_agent_stream_pending", id: c.id, ...p });
      return;
    }
    this.send(s, { type: "cf_agent_stream_resume_none", reason: "idle", ...p });
  }

  /** `cf_agent_stream_resume_ack` (ACK rules 1, 2, 4, 5). */
  private ack(r: Room, s: FakeAgent, id: string): void {
    r.waiting.delete(s);
    const l = r.live;
    if (l?.id === id) {
      for (let i = 0; i < l.sent; i++) this.send(s, this.frame(l, l.chunks[i] as Chunk, i, true));
      this.send(s, {
        body: "",
        done: false,
        id: l.id,
        type: "cf_agent_use_chat_response",
        replay: true,
        replayComplete: true,
        ...(l.continuation ? { continuation: true } : {}),
      });
      return;
    }
    if (l) return;
    const done = r.completed.get(id);
    if (done) {
      for (const f of done.frames) this.send(s, f);
      return;
    }
    this.send(s, { body: "", done: true, id, type: "cf_agent_use_chat_response", replay: true });
  }

  /** The message holding a tool call: the streaming one first, then the stored ones. */
  private toolPart(
    r: Room,
    toolCallId: string,
  ): { part: Record<string, unknown>; message: () => UIMessage; commit: () => void } | undefined {
    const l = r.live;
    if (l) {
      const part = (l.message.parts as Record<string, unknown>[]).find((p) => p.toolCallId === toolCallId);
      if (part) return { part, message: () => l.message.message(), commit: () => {} };
    }
    for (let i = 0; i < r.stored.length; i++) {
      const m = r.stored[i] as UIMessage;
      const part = (m.parts as unknown as Record<string, unknown>[]).find((p) => p.toolCallId === toolCallId);
      if (part)
        return {
          part,
          message: () => clone(m),
          commit: () => this.publish(r),
        };
    }
    return undefined;
  }

  /** `cf_agent_tool_result` (docs/protocol.md#client-tools). */
  private toolResult(r: Room, s: FakeAgent, f: Frame): void {
    this.answer(r, this.conn(s), String(f.toolCallId), {
      kind: "result",
      output: f.output,
      error: f.state === "output-error",
      errorText: typeof f.errorText === "string" ? f.errorText : undefined,
      autoContinue: f.autoContinue === true,
    });
  }

  /** `cf_agent_tool_approval` (docs/protocol.md#approvals). */
  private approval(r: Room, s: FakeAgent, f: Frame): void {
    this.answer(r, this.conn(s), String(f.toolCallId), {
      kind: "approval",
      approved: f.approved === true,
      autoContinue: f.autoContinue === true,
    });
  }

  /** Applies an answer to a tool part, tells every socket, and schedules the continuation it asks for. */
  private answer(
    r: Room,
    owner: Conn | "other",
    toolCallId: string,
    a:
      | { kind: "result"; output: unknown; error: boolean; errorText?: string; autoContinue: boolean }
      | { kind: "approval"; approved: boolean; autoContinue: boolean },
  ): void {
    const found = this.toolPart(r, toolCallId);
    let changed = false;
    if (found) {
      const p = found.part;
      if (
        a.kind === "result" &&
        ["input-available", "approval-requested", "approval-responded"].includes(p.state as string)
      ) {
        if (a.error)
          Object.assign(p, {
            state: "output-error",
            errorText: a.errorText ?? "Tool execution denied by user",
          });
        else Object.assign(p, { state: "output-available", output: a.output, preliminary: false });
        changed = true;
      }
      if (a.kind === "approval" && ["input-available", "approval-requested"].includes(p.state as string)) {
        const approval = {
          ...((p.approval as object | undefined) ?? { id: toolCallId }),
          approved: a.approved,
        };
        Object.assign(p, { state: a.approved ? "approval-responded" : "output-denied", approval });
        changed = true;
      }
      if (changed) {
        found.commit();
        this.broadcast(r, { type: "cf_agent_message_updated", message: found.message() });
      }
    }
    if (!a.autoContinue || r.pendingContinuation) return;
    const g = r.gates.get(toolCallId);
    const script = g?.turn.continuation?.(
      a.kind === "approval" ? { approved: a.approved } : { output: a.output, error: a.error },
    ) ?? {
      replayed: [{ type: "start" }],
      live: turn("hello", ++this.turns, "x").chunks.filter((c) => c.type !== "start"),
    };
    this.continuations++;
    const id = `cont_${this.continuations}`;
    r.queue.push({ kind: "continuation", id, owner, chunks: script });
    if (owner !== "other") r.parked.add(owner.socket);
    r.gates.delete(toolCallId);
  }

  /** `cf_agent_chat_clear` from a socket (or another tab): everything goes; echoed to the other sockets. */
  private clear(r: Room, from: FakeAgent | "other"): void {
    r.stored = [];
    r.gates.clear();
    r.completed.clear();
    r.queue.length = 0;
    this.releaseParked(r);
    r.waiting.clear();
    this.publish(r);
    this.broadcast(r, { type: "cf_agent_chat_clear" }, (s) => s === from);
  }

  // ── events a step asks for ──

  /** The live stream produces `n` more chunks; when it has none left it ends. With nothing live, the next turn starts. */
  advance(n: number): string {
    const r = this.current;
    if (!r.live) {
      if (r.queue.length === 0) return "nothing to stream";
      this.startNext(r);
      return r.live ? `started ${(r.live as Live).id}` : "waiting for the tool batch";
    }
    const l = r.live;
    if (l.sent >= l.chunks.length) {
      this.finish(r);
      return `ended ${l.id}`;
    }
    this.produce(r, n);
    return `${l.id} at ${l.sent}/${l.chunks.length}`;
  }

  /** The live stream fails: an in-band error (then a bare done), or a thrown one (`error` with `done`). */
  fail(thrown: boolean): string {
    const r = this.current;
    const l = r.live;
    if (!l) return "nothing live";
    r.waiting.clear();
    this.store(r, l);
    if (thrown) this.end(r, this.terminal(l, { error: true, body: ERROR_TEXT }));
    else {
      this.broadcast(r, {
        error: true,
        body: ERROR_TEXT,
        done: false,
        id: l.id,
        type: "cf_agent_use_chat_response",
        ...(l.messageIds ? { messageIds: l.messageIds } : {}),
        ...(l.continuation ? { continuation: true } : {}),
      });
      this.end(r, this.terminal(l));
    }
    return `failed ${l.id}`;
  }

  /** Another tab sends a message (only while nothing streams): its user message, then its answer streams here. */
  otherTurn(kind: Kind): string {
    const r = this.current;
    if (!r.idle) return "busy";
    this.others++;
    const user: UIMessage = {
      id: `u-other-${this.others}`,
      role: "user",
      parts: [{ type: "text", text: PROMPTS[kind] }],
    };
    const messages = [...clone(r.stored), user];
    // The turn start: the incoming list to every socket but the sender, then once more from the persist step.
    this.broadcast(r, { messages: clone(messages), type: "cf_agent_chat_messages" });
    this.persist(r, messages, "other", true);
    this.turns++;
    const id = `other-${this.others}`;
    const t = turn(kind, this.turns, id);
    r.live = {
      id,
      origin: "other",
      requester: "other",
      continuation: false,
      chunks: t.chunks,
      sent: 0,
      message: new StoredMessage(t.messageId),
      index: -1,
      messageIds: [user.id],
      turn: t,
    };
    return `other tab asks ${kind}`;
  }

  /** The server starts a turn by itself (a background run's delivery): an injected message, then a stream. */
  serverTurn(): string {
    const r = this.current;
    if (!r.idle) return "busy";
    this.others++;
    const injected: UIMessage = {
      id: `detached-finish:run${this.others}:completed`,
      role: "user",
      parts: [{ type: "text", text: "Background task finished." }],
      metadata: { source: "detached-agent-tool" },
    } as UIMessage;
    r.stored.push(injected);
    this.publish(r);
    this.broadcast(r, { messages: clone(r.stored), type: "cf_agent_chat_messages" });
    const t = serverTurn(this.others);
    r.live = {
      id: `detached-delivery:${this.others}`,
      origin: "server",
      continuation: false,
      chunks: t.chunks,
      sent: 0,
      message: new StoredMessage(t.messageId),
      index: -1,
    };
    return "server turn";
  }

  /** Another tab answers the open approval or client tool (with `autoContinue`): the continuation is its own. */
  otherAnswer(approved: boolean): string {
    const r = this.current;
    const g = r.openGate();
    if (!g || r.live || r.pendingContinuation) return "nothing to answer";
    if (g.kind === "approval")
      this.answer(r, "other", g.toolCallId, { kind: "approval", approved, autoContinue: true });
    else
      this.answer(r, "other", g.toolCallId, {
        kind: "result",
        output: { lat: 1, lng: 2 },
        error: false,
        autoContinue: true,
      });
    return `other tab answers ${g.toolCallId}`;
  }

  /**
   * Another tab sends its transcript (`setMessages`): the stored rows with, while a stream is live, the
   * message as that tab shows it (a reply whose stream named no id is under that tab's own id), optionally
   * without the first two messages (a trimmed history). Stored and broadcast to this tab.
   */
  otherSnapshot(trim: boolean): string {
    const r = this.current;
    let messages = clone(r.stored);
    const l = r.live;
    if (l && l.sent > 0) {
      const m = l.message.message();
      const named =
        l.index >= 0 || l.chunks.some((c) => c.type === "start" && typeof c.messageId === "string");
      const shown = named ? m : { ...m, id: `other-local-${l.id}` };
      const at = l.index >= 0 ? l.index : messages.findIndex((x) => x.id === shown.id);
      if (at >= 0) messages[at] = shown;
      else messages.push(shown);
    }
    if (trim) messages = messages.slice(2);
    this.persist(r, messages, "other");
    return `other tab's transcript (${messages.length})`;
  }

  /** Another tab clears the history (only while nothing streams). */
  otherClear(): string {
    const r = this.current;
    if (r.live) return "busy";
    this.clear(r, "other");
    return "other tab cleared";
  }
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
