/**
 * The client side of the chat resume handshake (docs/protocol.md#resume-handshake, docs/protocol.md#tool-continuations) as a pure state machine.
 *
 * Inputs are server frames and local intents; outputs are commands (frames to send, timers to arm or cancel,
 * streams that started or ended). The machine never reads a clock or sets a timer: the caller arms the timers
 * it is told to and feeds back `timeout` inputs, and supplies probe ids through `createId`.
 *
 * Guarantees:
 * - one probe operation in flight; asking again while one is in flight returns the same probe;
 * - one `stream_resume_ack` per socket per stream id for the two offers of a live stream (once on connect,
 *   once in answer to the probe; #1733), and one more only for an offer answering a probe sent after that
 *   ACK (the server holds the socket out of the stream until it ACKs that offer: a stream ACKed, ended here,
 *   and offered again as live);
 * - no probe goes out while a stream this socket ACKed is live: the server would answer with that stream and
 *   stop sending it to this socket until a second ACK (docs/protocol.md#probe-after-ack). A `resume` is
 *   answered with that stream at once; a probe that waits for a continuation or a stale stream goes out
 *   when it ends;
 * - a probe is re-sent with the same id after a real close→open edge (#1914); a first open is not a reconnect;
 * - only a correlated `resume_none` with `reason: "idle"` tears down streams (#1963);
 * - every `cf_agent_use_chat_response` is routed: accepted for a known stream, accepted as an observed stream
 *   (another tab, a server-initiated turn), or ignored with a reason (a replay nobody asked for, a stray `done`
 *   for a stream that is unknown or already ended: docs/protocol.md#stray-done);
 * - an awaited tool continuation ends with any `resume_none` to its own probe (`continuation-owned`: another
 *   socket's answer started it, and this one sees it as another's), or with that probe's timeout;
 * - a probe answered `stream_pending {id}` settles with nothing when that turn's `done` or error arrives
 *   without an offer (it ran unseen here), and so does the continuation this client awaited;
 * - with `resume: false` a socket close ends the streams this client only watched (another tab's, the
 *   server's), as upstream's observer is cleared then; the next open probes once, without acknowledging.
 * - at most `MAX_OTHER_LIVE_STREAMS` live streams this client did not request are kept: a stream that never
 *   ends costs nothing once it is past the cap (docs/protocol.md#stream-cap), and no input costs more than
 *   the live streams there are.
 */
import type {
  ChatResponseFrame,
  ClientFrame,
  StreamPendingFrame,
  StreamResumeNoneFrame,
  StreamResumingFrame,
} from "./frames.ts";

/** How this client came to be receiving a stream. */
export type StreamOrigin = "local" | "resumed" | "observed";

/** Probe timeout before any answer (ms). */
export const RESUME_PROBE_TIMEOUT_MS = 5_000;
/** Probe timeout after the server said a turn is pending (ms). */
export const RESUME_PENDING_TIMEOUT_MS = 60_000;
/**
 * How many live streams this client did not request (observed or resumed) it keeps at once. A server runs one
 * turn at a time per chat, so more means streams whose `done` never came (a buggy or hostile server, abandoned
 * streams): past the cap the one heard of least recently is dropped (`stream-ended`, reason `dropped`; its
 * message stays as it was, its later chunks are ignored), so the work per frame and the memory stay bounded
 * (docs/protocol.md#stream-cap).
 */
export const MAX_OTHER_LIVE_STREAMS = 32;

/** What the machine is told. */
export type ResumeInput =
  | { type: "socket-open" }
  | { type: "socket-close" }
  /**
   * The app handed over another connection for the same thread (a new agent object): not a reconnect (no
   * probe), but its ACKs are its own.
   */
  | { type: "socket-replaced" }
  /** Ask the server whether there is a stream to resume (mount, public `resumeStream`). */
  | { type: "resume" }
  /** This client sent `cf_agent_use_chat_request` with this id. */
  | { type: "local-request"; id: string }
  /** A tool result or approval was sent with `autoContinue`: a continuation stream will be offered. */
  | { type: "expect-continuation" }
  /** The user pressed stop: cancel whatever stream is live. */
  | { type: "stop" }
  /** History was cleared (locally or by another tab). */
  | { type: "clear" }
  | { type: "timeout"; probeId: string }
  | { type: "frame"; frame: StreamResumingFrame | StreamResumeNoneFrame | StreamPendingFrame };

/** What the machine asks its caller to do or tells it happened. */
export type ResumeCommand =
  | { type: "send"; frame: ClientFrame }
  | { type: "arm-timer"; probeId: string; ms: number }
  | { type: "cancel-timer"; probeId: string }
  | {
      type: "probe-settled";
      probeId: string;
      outcome: "stream" | "none" | "timeout" | "superseded";
      streamId?: string;
    }
  | { type: "stream-started"; streamId: string; origin: StreamOrigin }
  | {
      type: "stream-ended";
      streamId: string;
      /**
       * `closed`: with `resume: false`, a watched stream cut by a socket close (it is not resumed). `dropped`:
       * past `MAX_OTHER_LIVE_STREAMS`, the stream heard of least recently is no longer followed.
       */
      reason: "done" | "error" | "idle" | "cleared" | "closed" | "dropped";
    };

/** Where a chat response frame goes. A refused frame can still settle a probe (`commands`). */
export type ResponseRoute =
  | { accept: true; origin: StreamOrigin; commands: ResumeCommand[] }
  | { accept: false; reason: string; commands?: ResumeCommand[] };

/** Options of the machine. */
export interface ResumeMachineOptions {
  /** Makes probe ids. Tests pass a counter; clients pass a random id. */
  createId: () => string;
  /**
   * `false` mirrors the official `resume: false`: offers are not acknowledged except for a tool continuation
   * this client asked for, or while a probe asked by a `resume` input (the app's `resumeStream()`) is in
   * flight. Default true.
   */
  resume?: boolean;
}

interface ActiveStream {
  origin: StreamOrigin;
  /** Socket epoch on which this client last received or acknowledged the stream. */
  epoch: number;
}

/** The resume handshake state machine. */
export class ResumeMachine {
  private epoch = 0;
  private closedSinceOpen = false;
  /** Streams this socket ACKed, with when (in the order of what this client sent: see `sent`). */
  private acked = new Map<string, number>();
  /**
   * The probe: asked by this client; `sent` once its frame went out (one is held while an ACKed stream is
   * live), `sentAt` when (see `sent`); `pendingId`: the turn a `stream_pending` answer named; `asked`: a
   * `resume` input asked for it (mount, the app's `resumeStream()`), not the machine itself (a reconnect, a
   * continuation).
   */
  private probe:
    | { id: string; sent: boolean; sentAt?: number; pendingId?: string; asked?: boolean }
    | undefined;
  /** Counts the probes and ACKs this client sent, to order an ACK against a probe. */
  private sent = 0;
  /**
   * With `resume: false`: a socket closed while a stream was live, so the next open probes once (the answer
   * is never acknowledged), as upstream's idle probe.
   */
  private probeOnOpen = false;
  /** Whether the socket is open: a request made while it is not goes out on the next one. */
  private socketOpen = false;
  /** Live streams, in the order they started (see `track` and `untrack`: nothing else changes it). */
  private readonly streams = new Map<string, ActiveStream>();
  /** Live streams this client did not request, least recently heard of first (at most `MAX_OTHER_LIVE_STREAMS`). */
  private readonly others = new Set<string>();
  /** What `activeStreams` returns until the streams change. */
  private activeView: ReadonlyMap<string, StreamOrigin> | undefined;
  private readonly ended = new Set<string>();
  private expectingContinuation = false;
  /**
   * The probe that was already in flight when the continuation became expected: its answer describes the
   * server before it saw the tool answer, so it cannot offer the continuation; once it settles without one,
   * a probe of its own asks for it.
   */
  private continuationAfterProbe: string | undefined;
  private continuationId: string | undefined;
  private readonly createId: () => string;
  private readonly resumeEnabled: boolean;

  constructor(options: ResumeMachineOptions) {
    this.createId = options.createId;
    this.resumeEnabled = options.resume ?? true;
  }

  /** The probe in flight, if any. */
  get probeId(): string | undefined {
    return this.probe?.id;
  }

  /** True while a stream not started by this client's own request is live (`isServerStreaming`). */
  get isServerStreaming(): boolean {
    for (const s of this.streams.values()) if (s.origin !== "local") return true;
    return false;
  }

  /** True between sending a tool result/approval with auto-continue and the end of its continuation. */
  get isToolContinuation(): boolean {
    return this.expectingContinuation || this.continuationId !== undefined;
  }

  /** The stream carrying the tool continuation this client waits for, once it was offered. */
  get continuationStream(): string | undefined {
    return this.continuationId;
  }

  /**
   * Ids of live streams and how each was joined, in the order they started. The same map object while they
   * are the same: the chat store reads it several times per published snapshot (once per animation frame), so
   * a read costs nothing until a stream starts or ends.
   */
  get activeStreams(): ReadonlyMap<string, StreamOrigin> {
    this.activeView ??= new Map([...this.streams].map(([id, s]) => [id, s.origin]));
    return this.activeView;
  }

  /** Feeds one input; returns what to do. */
  handle(input: ResumeInput): ResumeCommand[] {
    switch (input.type) {
      case "socket-open":
        return this.onOpen();
      case "socket-close":
        this.closedSinceOpen = true;
        this.socketOpen = false;
        // Acknowledgements belong to a socket; the next one must ACK again to get a replay.
        this.acked = new Map();
        return this.resumeEnabled ? [] : this.closeWithoutResume();
      case "socket-replaced":
        // The server offers a live stream to the new socket on connect and sends it nothing of that stream until
        // it ACKs, whatever the old socket had ACKed.
        this.acked = new Map();
        return [];
      case "resume": {
        const out = this.startProbe("ask");
        if (this.probe) this.probe.asked = true;
        return out;
      }
      case "local-request":
        this.ended.delete(input.id);
        // A new turn from this client: a continuation it still waited for is no longer its to wait for (if
        // it comes, it is offered like any stream).
        this.expectingContinuation = false;
        // Sent while no socket is open, the request leaves on the next one: it belongs to that socket's epoch
        // (an idle answer to a probe queued before it must not end it).
        this.track(input.id, { origin: "local", epoch: this.socketOpen ? this.epoch : -1 });
        return [{ type: "stream-started", streamId: input.id, origin: "local" }];
      case "expect-continuation":
        this.expectingContinuation = true;
        // Only a probe that has gone out can be answered before the continuation existed (a held one is sent
        // later, after it).
        if (this.probe?.sent) this.continuationAfterProbe = this.probe.id;
        return this.startProbe("wait");
      case "stop":
        // The continuation is no longer awaited (upstream clears `isToolContinuation` on stop); its stream, if
        // it has started, is cancelled with the others below.
        this.expectingContinuation = false;
        this.continuationId = undefined;
        return [...this.streams.keys()].map((id) => ({
          type: "send" as const,
          frame: { type: "cf_agent_chat_request_cancel" as const, id },
        }));
      case "clear": {
        const out: ResumeCommand[] = [...this.streams.keys()].map((id) => ({
          type: "stream-ended" as const,
          streamId: id,
          reason: "cleared" as const,
        }));
        for (const id of [...this.streams.keys()]) {
          this.untrack(id);
          this.remember(id);
        }
        this.expectingContinuation = false;
        this.continuationId = undefined;
        out.push(...this.sendHeldProbe());
        return out;
      }
      case "timeout":
        if (this.probe?.id !== input.probeId) return [];
        // No offer in time: the continuation is not coming to this client (unless it was expected only
        // after this probe went out).
        if (!this.answerPredatesContinuation()) this.expectingContinuation = false;
        return this.settle("timeout");
      case "frame":
        return this.onFrame(input.frame);
    }
  }

  /** Decides whether a chat response frame belongs to a stream this client shows, and updates stream state. */
  route(frame: ChatResponseFrame): ResponseRoute {
    const id = frame.id;
    const active = this.streams.get(id);
    const commands: ResumeCommand[] = [];
    let origin: StreamOrigin;
    if (active) {
      // Replayed frames are only wanted when this socket asked for them; a replay that races a socket
      // change would otherwise be applied on top of the live copy.
      if (frame.replay && !this.acked.has(id))
        return { accept: false, reason: "replay not acknowledged on this socket" };
      active.epoch = this.epoch;
      origin = active.origin;
      this.heard(id);
    } else if (this.acked.has(id) && !(this.ended.has(id) && !frame.replay && (frame.done || frame.error))) {
      // Acknowledged offer whose stream had already ended locally (a replay of a completed or failed turn).
      // Not the bare `done` that follows an error frame: that stream ended here with the error.
      origin = "resumed";
      this.ended.delete(id);
      commands.push(
        { type: "stream-started", streamId: id, origin },
        ...this.track(id, { origin, epoch: this.epoch }),
      );
    } else if (frame.replay) {
      return { accept: false, reason: "replay not acknowledged on this socket" };
    } else if (this.ended.has(id)) {
      return { accept: false, reason: "stream already ended" };
    } else if (frame.done || frame.error) {
      // The turn a probe was told is pending ended without being offered here: it ran unseen, and the probe
      // (a continuation's too) would otherwise wait out the 60 s pending timer with `status` "submitted".
      if (this.probe?.pendingId === id) {
        this.expectingContinuation = false;
        return { accept: false, reason: "the pending turn ended unseen", commands: this.settle("none") };
      }
      return { accept: false, reason: "terminal frame for an unknown stream" };
    } else {
      origin = "observed";
      commands.push(
        { type: "stream-started", streamId: id, origin },
        ...this.track(id, { origin, epoch: this.epoch }),
      );
    }
    if (frame.done || frame.error) commands.push(...this.end(id, frame.error ? "error" : "done"));
    return { accept: true, origin, commands };
  }

  // ───────────── internals ─────────────

  private onOpen(): ResumeCommand[] {
    this.epoch++;
    this.socketOpen = true;
    for (const s of this.streams.values()) if (s.epoch === -1) s.epoch = this.epoch;
    if (!this.closedSinceOpen) return [];
    this.closedSinceOpen = false;
    // The probe went out on a socket that is gone (or was held on it): ask again on this one, with the same
    // id. A new socket has ACKed nothing yet, so nothing holds it back.
    if (this.probe) return this.sendProbe();
    const probeOnOpen = this.probeOnOpen;
    this.probeOnOpen = false;
    return this.resumeEnabled || this.isToolContinuation || this.streams.size > 0 || probeOnOpen
      ? this.startProbe("ask")
      : [];
  }

  /**
   * A socket closed under `resume: false`: the streams this client only watched (observed, or offered and not
   * asked for) are not resumed, so they end here and `isServerStreaming` clears, as upstream's observer does
   * on close. Its own turns and the continuation it asked for stay. The next open probes once when anything
   * was live, as upstream's idle probe.
   */
  private closeWithoutResume(): ResumeCommand[] {
    if (this.streams.size > 0 || this.isToolContinuation) this.probeOnOpen = true;
    const out: ResumeCommand[] = [];
    for (const [id, s] of [...this.streams])
      if (s.origin !== "local" && id !== this.continuationId) out.push(...this.end(id, "closed"));
    return out;
  }

  /**
   * Starts the probe. While a stream this socket ACKed is live, the server answers a probe with that stream
   * and puts this socket back in its waiting set: it sends it no live chunk of that stream until a second
   * ACK, which this client never sends (one ACK per socket per stream), so the stream would stop here mid-way
   * (docs/protocol.md#probe-after-ack). Then the answer is known: `ask` (mount, `resumeStream()`) settles
   * with that stream at once, as the server's offer would; `wait` (a continuation, a stale stream) holds the
   * probe until that stream ends, since only then can the server say something new. `wait` also waits for
   * this client's own turn (see `ownLiveStream`).
   */
  private startProbe(kind: "ask" | "wait"): ResumeCommand[] {
    if (this.probe) return [];
    this.probe = { id: this.createId(), sent: false };
    const live = this.ackedLiveStream();
    if (kind === "ask") return live === undefined ? this.sendProbe() : this.settle("stream", live);
    return live === undefined && this.ownLiveStream() === undefined ? this.sendProbe() : [];
  }

  private sendProbe(): ResumeCommand[] {
    const probe = this.probe;
    if (!probe) return [];
    probe.sent = true;
    probe.sentAt = ++this.sent;
    return [
      { type: "send", frame: { type: "cf_agent_stream_resume_request", probeId: probe.id } },
      { type: "arm-timer", probeId: probe.id, ms: RESUME_PROBE_TIMEOUT_MS },
    ];
  }

  /** The probe in flight went out before the continuation was expected (see `continuationAfterProbe`). */
  private answerPredatesContinuation(): boolean {
    return this.probe !== undefined && this.continuationAfterProbe === this.probe.id;
  }

  /** Sends a held probe once no stream this socket ACKed, and no turn it requested, is live. */
  private sendHeldProbe(): ResumeCommand[] {
    if (!this.probe || this.probe.sent || this.ackedLiveStream() !== undefined) return [];
    if (this.ownLiveStream() !== undefined) return [];
    return this.sendProbe();
  }

  /**
   * This client's own turn, requested on this socket and still streaming to it. A continuation's probe waits
   * for its end: the server answers a probe with the live stream, so the socket would have to ACK its own
   * turn and be sent it again from the start, and the replayed approval request took back a decision already
   * shown (a card read "Denied.", then "Denying…" again). Upstream probes for a continuation only once the
   * turn before it has finished (docs/protocol.md#tool-continuations).
   */
  private ownLiveStream(): string | undefined {
    for (const [id, s] of this.streams) if (s.origin === "local" && s.epoch === this.epoch) return id;
    return undefined;
  }

  /** The latest live stream this socket ACKed, if any. */
  private ackedLiveStream(): string | undefined {
    let live: string | undefined;
    for (const id of this.acked.keys()) if (this.streams.has(id)) live = id;
    return live;
  }

  private settle(outcome: "stream" | "none" | "timeout", streamId?: string): ResumeCommand[] {
    if (!this.probe) return [];
    const id = this.probe.id;
    this.probe = undefined;
    const out: ResumeCommand[] = [
      { type: "cancel-timer", probeId: id },
      { type: "probe-settled", probeId: id, outcome, ...(streamId === undefined ? {} : { streamId }) },
    ];
    if (this.continuationAfterProbe === id) {
      this.continuationAfterProbe = undefined;
      // Still waited for (the answer was not an offer of it): now ask for the continuation itself.
      if (this.expectingContinuation && this.continuationId === undefined)
        out.push(...this.startProbe("wait"));
    }
    return out;
  }

  private onFrame(frame: StreamResumingFrame | StreamResumeNoneFrame | StreamPendingFrame): ResumeCommand[] {
    switch (frame.type) {
      case "cf_agent_stream_resuming":
        return this.onOffer(frame);
      case "cf_agent_stream_resume_none": {
        // A reply to an older probe says nothing about now.
        if (frame.probeId !== undefined && frame.probeId !== this.probe?.id) return [];
        // An idle answer to a probe sent before the tool answer says nothing of the continuation: `settle` asks
        // for it again.
        const predates = this.answerPredatesContinuation();
        const out = this.settle("none");
        // Any other answer to the probe that asked for the continuation ends the wait, as upstream's continuation
        // ends with its `resumeStream()`: `continuation-owned` means it streams for the socket whose answer
        // started it (this one sees it as another's), a bare one that it was dropped. Nothing else would end it,
        // since the probe's timer is gone (docs/protocol.md#tool-continuations).
        if (!predates) this.expectingContinuation = false;
        if (frame.reason === "idle" && frame.probeId !== undefined) {
          // The only authoritative "nothing is streaming": streams we still think are live ended unseen.
          for (const [id, s] of this.streams) {
            if (s.origin === "local" && (s.epoch === this.epoch || s.epoch === -1)) continue;
            out.push(...this.end(id, "idle"));
          }
          if (!predates) {
            this.expectingContinuation = false;
            this.continuationId = undefined;
          }
        }
        return out;
      }
      case "cf_agent_stream_pending":
        // A held probe has no timer to stretch: it is armed when the probe goes out.
        if (!this.probe?.sent || (frame.probeId !== undefined && frame.probeId !== this.probe.id)) return [];
        if (frame.id !== undefined) this.probe.pendingId = frame.id;
        return [
          { type: "cancel-timer", probeId: this.probe.id },
          { type: "arm-timer", probeId: this.probe.id, ms: RESUME_PENDING_TIMEOUT_MS },
        ];
    }
  }

  private onOffer(frame: StreamResumingFrame): ResumeCommand[] {
    const id = frame.id;
    const out: ResumeCommand[] = [];
    const ackedAt = this.acked.get(id);
    // The server puts a socket back in its pending-resume set with every offer and leaves that set out of the
    // stream until it ACKs (docs/protocol.md#resume-handshake). The answer to a probe sent after this socket's
    // ACK is such an offer: without a second ACK the rest of the stream would never arrive. No probe goes out
    // while an ACKed stream is live here, so this is a stream this client had already ended (cleared, or cut
    // by its error frame) that the server still has live. An answer to a probe sent before the ACK (the
    // reconnect order: probe, ACK of the connect offer) was read before the ACK, which already took the socket
    // out of the set.
    const sentAt = this.probe?.sentAt;
    const again =
      ackedAt !== undefined &&
      frame.probeId !== undefined &&
      frame.probeId === this.probe?.id &&
      sentAt !== undefined &&
      ackedAt < sentAt;
    if (ackedAt !== undefined && !again) {
      // The duplicate offer: settle a probe waiting for it, never ACK it twice. A continuation this client
      // waits for is that stream, already being received (another tab's decision started it first).
      if (this.expectingContinuation) {
        this.expectingContinuation = false;
        if (this.streams.has(id)) this.continuationId = id;
      }
      return this.settle("stream", id);
    }
    // With `resume: false` a stream is still taken when the app asked for it (`resumeStream()`), as upstream's.
    const wanted =
      this.resumeEnabled ||
      this.expectingContinuation ||
      this.probe?.asked === true ||
      this.streams.get(id)?.origin === "local";
    if (!wanted && !again) return this.settle("none");
    this.acked.set(id, ++this.sent);
    this.ended.delete(id);
    if (this.expectingContinuation) {
      this.expectingContinuation = false;
      this.continuationId = id;
    }
    const existing = this.streams.get(id);
    if (existing) {
      existing.epoch = this.epoch;
      this.heard(id);
    } else
      out.push(
        { type: "stream-started", streamId: id, origin: "resumed" },
        ...this.track(id, { origin: "resumed", epoch: this.epoch }),
      );
    // The caller must attach its listener before sending, so the ACK goes last.
    out.push(...this.settle("stream", id));
    out.push({ type: "send", frame: { type: "cf_agent_stream_resume_ack", id } });
    return out;
  }

  private end(id: string, reason: "done" | "error" | "idle" | "closed"): ResumeCommand[] {
    const own = this.ownLiveStream() === id;
    if (!this.untrack(id)) return [];
    this.remember(id);
    if (this.continuationId === id) this.continuationId = undefined;
    const out: ResumeCommand[] = [{ type: "stream-ended", streamId: id, reason }];
    // A continuation asked for during this client's own turn is asked for once that turn is done; a turn that
    // fails instead gives it up, as upstream's pending continuation is reset when its status turns "error".
    if (own && reason === "error" && this.probe?.sent === false && this.expectingContinuation) {
      this.expectingContinuation = false;
      out.push(...this.settle("none"));
      return out;
    }
    // A stream not heard of since the socket changed may have died with the old one (the agent restarted
    // and recovered the turn under another id: found by the fault suites, the spinner never stopped). The
    // reconnect's probe was answered with the stream that just ended, so ask again: the server answers idle
    // (ending it), or offers it, or says it is queued.
    let stale = false;
    for (const s of this.streams.values()) if (s.epoch !== this.epoch && s.epoch !== -1) stale = true;
    if (reason !== "idle" && reason !== "closed" && stale) out.push(...this.startProbe("wait"));
    out.push(...this.sendHeldProbe());
    return out;
  }

  /**
   * Starts following a stream. One this client did not request counts against `MAX_OTHER_LIVE_STREAMS`: past
   * it, the one heard of least recently is dropped, so a server that never ends its streams cannot make every
   * later frame (and `activeStreams`) cost more (docs/protocol.md#stream-cap).
   */
  private track(id: string, stream: ActiveStream): ResumeCommand[] {
    this.others.delete(id);
    this.streams.set(id, stream);
    this.activeView = undefined;
    if (stream.origin === "local") return [];
    this.others.add(id);
    if (this.others.size <= MAX_OTHER_LIVE_STREAMS) return [];
    const oldest = this.others.values().next().value as string;
    this.untrack(oldest);
    this.remember(oldest);
    if (this.continuationId === oldest) this.continuationId = undefined;
    // A probe held for the stream just dropped no longer waits for it.
    return [{ type: "stream-ended", streamId: oldest, reason: "dropped" }, ...this.sendHeldProbe()];
  }

  /** A frame of a stream this client did not request: it is the most recently heard of now. */
  private heard(id: string): void {
    if (!this.others.delete(id)) return;
    this.others.add(id);
  }

  private untrack(id: string): boolean {
    if (!this.streams.delete(id)) return false;
    this.others.delete(id);
    this.activeView = undefined;
    return true;
  }

  /** An ended (or dropped) stream: its late frames are ignored, for the most recent 256 ids. */
  private remember(id: string): void {
    this.ended.add(id);
    // Keep the set of ended ids bounded: only recent ids can still have frames in flight.
    if (this.ended.size > 256) this.ended.delete(this.ended.values().next().value as string);
  }
}
