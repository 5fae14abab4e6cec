/**
 * The resume handshake of one instance (docs/protocol.md#resume-handshake): a socket asks whether a stream is running for it
 * (`cf_agent_stream_resume_request`, or is offered one unasked), ACKs the offer, and gets the stream's stored
 * chunks as replay before it sees live chunks. It also keeps what a late ACK may ask for: the recently ended
 * streams and a turn that errored while nobody was connected.
 */
import type { ServerFrame } from "@runboard/protocol";
import type { ChatStream } from "./chat-stream.ts";
import type { MockConnection } from "./connection.ts";

const MAX_RECENT_STREAMS = 16;

/** What the handshake reads from its instance. */
export interface ResumeContext {
  isConnected(conn: MockConnection): boolean;
  send(conn: MockConnection, frame: ServerFrame): void;
  /** The stream running now, and the socket a continuation was offered to. */
  live(): { stream: ChatStream; owner?: MockConnection } | undefined;
  /** The stream a probe from `conn` should wait for: its pending continuation, or the next queued turn. */
  pendingId(conn: MockConnection): string | undefined;
  /** Ends an orphaned live stream once a socket has been given its replay. */
  finishOrphan(): void;
}

/** Offers, probes, ACKs and the streams a late ACK can still get. */
export class ResumeHandshake {
  /** Sockets offered the live stream that have not ACKed: live chunks skip them until their replay. */
  readonly awaitingAck = new Set<MockConnection>();
  /** Sockets whose probe was answered `stream_pending`: offered the next stream when it starts. */
  private readonly parked = new Set<MockConnection>();
  private readonly recent = new Map<string, ChatStream>();
  /** A turn that errored while nobody was connected (docs/protocol.md#resume-handshake, rule C). */
  private terminalRecord?: ChatStream;

  constructor(private readonly ctx: ResumeContext) {}

  /** An unsolicited offer (no probeId): on connect while a stream runs, and when a waited-for stream starts. */
  offer(conn: MockConnection, id: string) {
    this.awaitingAck.add(conn);
    this.ctx.send(conn, { type: "cf_agent_stream_resuming", id });
  }

  /** A socket's probe. */
  request(conn: MockConnection, probeId: string | undefined) {
    const { ctx } = this;
    const probe = probeId === undefined ? {} : { probeId };
    const live = ctx.live();
    if (live) {
      if (live.stream.continuation && live.owner && live.owner !== conn && ctx.isConnected(live.owner)) {
        ctx.send(conn, { type: "cf_agent_stream_resume_none", reason: "continuation-owned", ...probe });
        return;
      }
      // Sent even if the connect-time offer already went out: no server-side dedupe (#1733).
      this.awaitingAck.add(conn);
      ctx.send(conn, { type: "cf_agent_stream_resuming", id: live.stream.id, ...probe });
      return;
    }
    // Rule B: a continuation is pending for this socket (or for one that left); rule D: a queued turn.
    const pendingId = ctx.pendingId(conn);
    if (pendingId) {
      this.parked.add(conn);
      ctx.send(conn, { type: "cf_agent_stream_pending", id: pendingId, ...probe });
      return;
    }
    if (this.terminalRecord) {
      ctx.send(conn, { type: "cf_agent_stream_resuming", id: this.terminalRecord.id, ...probe });
      return;
    }
    ctx.send(conn, { type: "cf_agent_stream_resume_none", reason: "idle", ...probe });
  }

  /** A socket's ACK of stream `id`: the replay, and how the stream stands. */
  ack(conn: MockConnection, id: string) {
    const { ctx } = this;
    this.awaitingAck.delete(conn);
    const type = "cf_agent_use_chat_response";
    const replay = (s: ChatStream) => {
      const cont = s.continuation ? { continuation: true } : {};
      s.chunks.forEach((body, seq) => {
        ctx.send(conn, { body, done: false, id, type, ...cont, replay: true, seq });
      });
      return cont;
    };
    const live = ctx.live()?.stream;
    if (live?.id === id) {
      const cont = replay(live);
      if (live.status === "orphaned") {
        ctx.send(conn, { body: "", done: true, id, type, ...cont, replay: true });
        ctx.finishOrphan();
      } else {
        ctx.send(conn, { body: "", done: false, id, type, ...cont, replay: true, replayComplete: true });
      }
      return;
    }
    if (live) return; // A different stream is active: no frame (docs/protocol.md#resume-handshake, ACK rule 2).
    if (this.terminalRecord?.id === id) {
      const s = this.terminalRecord;
      replay(s);
      ctx.send(conn, { body: s.errorText ?? "Error", done: true, error: true, id, type });
      return;
    }
    const done = this.recent.get(id);
    if (done) {
      const cont = replay(done);
      ctx.send(conn, { body: "", done: true, id, type, ...cont, replay: true });
      return;
    }
    ctx.send(conn, { body: "", done: true, id, type, replay: true });
  }

  /** A stream starts: the socket that answered its gate and every parked probe are offered it. */
  streamStarting(id: string, owner: MockConnection | undefined) {
    this.terminalRecord = undefined;
    if (owner && this.ctx.isConnected(owner)) this.parked.add(owner);
    // They see it only after their ACK (docs/protocol.md#resume-handshake).
    for (const c of this.parked) if (this.ctx.isConnected(c)) this.offer(c, id);
    this.parked.clear();
  }

  /** The live stream ended (or was retired): nobody awaits an ACK for it any more. */
  streamEnded() {
    this.awaitingAck.clear();
  }

  /** Keeps an ended stream for a late ACK. */
  remember(stream: ChatStream) {
    this.recent.set(stream.id, stream);
    if (this.recent.size > MAX_RECENT_STREAMS) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** An errored stream nobody saw end: the next probe is offered it (docs/protocol.md#resume-handshake, rule C). */
  keepTerminal(stream: ChatStream) {
    this.terminalRecord = stream;
  }

  /** The non-authoritative release of parked sockets: `resume_none` with no reason and no probeId. */
  releaseParked() {
    for (const c of this.parked)
      if (this.ctx.isConnected(c)) this.ctx.send(c, { type: "cf_agent_stream_resume_none" });
    this.parked.clear();
  }

  /** The history was cleared: no stream of it can be resumed. */
  reset() {
    this.recent.clear();
    this.terminalRecord = undefined;
    this.releaseParked();
  }

  /** A socket left. */
  forget(conn: MockConnection) {
    this.awaitingAck.delete(conn);
    this.parked.delete(conn);
  }
}
