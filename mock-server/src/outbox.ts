/**
 * What the Node server writes to one socket. Frames queue for the rest of the current macrotask and go out
 * together, in order, as one buffer and one socket write instead of a write per frame. A client that stops
 * reading must not grow the server without end: once what waits for it (written, but not taken by the kernel:
 * `bufferedAmount`) passes `maxBufferedBytes`, it is dropped. Many clients that stop reading must not either:
 * once what waits for all of them together passes `maxTotalBufferedBytes`, the ones holding the most are
 * dropped (`OutboxBudget`; mock-server/README.md#limits).
 */
import type { WebSocket } from "ws";

/** Default `maxBufferedBytes`: far above what a reading client ever has pending, far below a memory problem. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 << 20;

/** Default `maxTotalBufferedBytes`: a few slow clients at the per-socket cap, far from a memory problem. */
export const DEFAULT_MAX_TOTAL_BUFFERED_BYTES = 64 << 20;

/** The close code a dropped slow client sees (1008, policy violation), when it reads again. */
export const SLOW_CLIENT_CLOSE = 1008;

/**
 * The close code a client sees when it was dropped because all clients together had too many bytes unread
 * (1013, try again later): transient, so a client that reads again reconnects, as after a restart.
 */
export const SERVER_BUSY_CLOSE = 1013;

/** Why a client was dropped: its own unread bytes, or its share of everyone's. */
export type DropReason = "slow" | "total";

/** How long a dropped client gets to read its close frame before its socket and buffers are freed. */
const CLOSE_GRACE_MS = 1000;

/**
 * Unmasked, final text frames (RFC 6455 §5.2: server frames are never masked), back to back in one buffer.
 * `ws` writes the same bytes for `send(text)` when compression is off, as it is on this server.
 */
export function encodeTextFrames(texts: readonly string[]): Buffer {
  const lengths = texts.map((t) => Buffer.byteLength(t));
  const headerOf = (n: number) => (n < 126 ? 2 : n < 65_536 ? 4 : 10);
  let total = 0;
  for (const n of lengths) total += headerOf(n) + n;
  const buf = Buffer.allocUnsafe(total);
  let at = 0;
  texts.forEach((text, i) => {
    const n = lengths[i] ?? 0;
    buf[at++] = 0x81; // FIN + text opcode
    if (n < 126) buf[at++] = n;
    else if (n < 65_536) {
      buf[at++] = 126;
      buf.writeUInt16BE(n, at);
      at += 2;
    } else {
      buf[at++] = 127;
      buf.writeBigUInt64BE(BigInt(n), at);
      at += 8;
    }
    at += buf.write(text, at, "utf8");
  });
  return buf;
}

/**
 * The bytes waiting across every socket of one server, and the cap on them. When a write leaves the total
 * over the cap, the sockets already dropped and still closing are freed first (oldest first), then the open
 * sockets holding the most are dropped (close 1013) until the open ones are under the cap. A dropped socket
 * keeps what it holds until its grace second ends or the total passes the cap again, so what all sockets hold
 * stays below twice the cap even when every client stops reading.
 */
export class OutboxBudget {
  private readonly open = new Set<Outbox>();
  /** Dropped, not yet freed, oldest first. */
  private readonly closing = new Set<Outbox>();
  /** Bytes queued and not yet written, across every outbox (kept as a sum: a send checks it each time). */
  queued = 0;

  constructor(readonly max: number) {}

  /** Bytes waiting across every socket, closing ones included: queued, plus written and not taken by the kernel. */
  held(): number {
    let n = 0;
    for (const o of this.open) n += o.pending;
    for (const o of this.closing) n += o.pending;
    return n;
  }

  /** A new socket's outbox. */
  add(o: Outbox): void {
    this.open.add(o);
  }

  /** An outbox's client was dropped: what it holds still counts until it is freed. */
  dropped(o: Outbox): void {
    this.open.delete(o);
    this.closing.add(o);
  }

  /** An outbox's socket is gone, and its bytes with it. */
  remove(o: Outbox): void {
    this.open.delete(o);
    this.closing.delete(o);
  }

  /** After a write that left bytes waiting: brings the total back under the cap (see the class comment). */
  enforce(): void {
    let total = this.held();
    if (total <= this.max) return;
    for (const o of [...this.closing]) {
      total -= o.pending;
      o.free();
      if (total <= this.max) return;
    }
    const byHeld = [...this.open].map((o) => [o, o.pending] as const).sort((a, b) => b[1] - a[1]);
    for (const [o, n] of byHeld) {
      if (total <= this.max || n === 0) return;
      total -= n;
      o.drop("total");
    }
  }
}

/** One socket's outgoing frames: batched per macrotask, bounded by `max` bytes pending and by the budget. */
export class Outbox {
  private queue: string[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  private dropped = false;
  private freed = false;
  private grace: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly max: number,
    private readonly budget: OutboxBudget,
    /** Called once when the client is dropped for not reading, with the bytes that were pending. */
    private readonly onDrop: (reason: DropReason, pending: number) => void,
  ) {
    budget.add(this);
    ws.once("close", () => this.release());
  }

  /** Bytes this socket holds: queued, plus written and not yet taken by the kernel. */
  get pending(): number {
    return this.freed ? 0 : this.queuedBytes + this.ws.bufferedAmount;
  }

  /** Queues one text frame; a no-op once the socket is closing or the client was dropped. */
  send(text: string): void {
    if (this.dropped || this.ws.readyState !== this.ws.OPEN) return;
    this.queue.push(text);
    // UTF-16 length: a lower bound of the UTF-8 bytes, and exact for the ASCII JSON the mock sends.
    this.queuedBytes += text.length;
    this.budget.queued += text.length;
    // A burst over a limit is written now rather than at the end of the task: a reading client takes it,
    // and only what the kernel refuses (`bufferedAmount`) counts as unread.
    if (this.queuedBytes + this.ws.bufferedAmount > this.max || this.budget.queued > this.budget.max) {
      this.flush();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes everything queued, as one buffer. Closes and terminations call it first, to keep order. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.unqueue();
    if (this.dropped || this.ws.readyState !== this.ws.OPEN) return;
    const socket = (this.ws as unknown as { _socket?: { write(b: Buffer): boolean } })._socket;
    if (!socket) {
      for (const text of batch) this.ws.send(text);
      return;
    }
    // One buffer, one write: per-frame writes (or a corked writev of two pieces a frame) snowball under
    // load, as a writev the kernel cannot take at once leaves the socket busy and the next batch larger.
    socket.write(encodeTextFrames(batch));
    const unread = this.ws.bufferedAmount;
    if (unread > this.max) this.drop("slow");
    else if (unread > 0) this.budget.enforce();
  }

  /**
   * Drops the client: nothing more is queued for it, and the close frame waits behind everything unread, so a
   * client that reads again sees it; its socket and buffers are freed a second later (or sooner, `free`).
   */
  drop(reason: DropReason): void {
    if (this.dropped) return;
    const pending = this.pending;
    this.dropped = true;
    this.unqueue();
    this.budget.dropped(this);
    this.onDrop(reason, pending);
    if (reason === "slow") this.ws.close(SLOW_CLIENT_CLOSE, "Client too slow: too many bytes unread");
    else this.ws.close(SERVER_BUSY_CLOSE, "Server busy: too many bytes unread across clients");
    this.grace = setTimeout(() => this.free(), CLOSE_GRACE_MS);
    this.grace.unref();
  }

  /** Cuts the socket now (no close handshake) and lets its buffers go. */
  free(): void {
    this.ws.terminate();
    this.release();
  }

  private unqueue() {
    this.budget.queued -= this.queuedBytes;
    this.queue = [];
    this.queuedBytes = 0;
  }

  private release() {
    if (this.freed) return;
    this.unqueue();
    this.freed = true;
    clearTimeout(this.grace);
    this.budget.remove(this);
  }
}
