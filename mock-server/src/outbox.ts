/**
 * What the Node server writes to one socket. Frames queue for the rest of the current macrotask and go out
 * together, in order, as one buffer and one socket write instead of a write per frame. A client that stops reading must not grow the server without end: once what waits
 * for it (written, but not taken by the kernel: `bufferedAmount`) passes `maxBufferedBytes`, it is dropped.
 */
import type { WebSocket } from "ws";

/** Default `maxBufferedBytes`: far above what a reading client ever has pending, far below a memory problem. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 << 20;

/** The close code a dropped slow client sees (1008, policy violation), when it reads again. */
export const SLOW_CLIENT_CLOSE = 1008;

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

/** One socket's outgoing frames: batched per macrotask, bounded by `max` bytes pending. */
export class Outbox {
  private queue: string[] = [];
  private queuedBytes = 0;
  private scheduled = false;
  private dropped = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly max: number,
    /** Called once when the client is dropped for not reading, with the bytes that were pending. */
    private readonly onOverflow: (pending: number) => void,
  ) {}

  /** Queues one text frame; a no-op once the socket is closing or the client was dropped. */
  send(text: string): void {
    if (this.dropped || this.ws.readyState !== this.ws.OPEN) return;
    this.queue.push(text);
    // UTF-16 length: a lower bound of the UTF-8 bytes, and exact for the ASCII JSON the mock sends.
    this.queuedBytes += text.length;
    // A burst over the limit is written now rather than at the end of the task: a reading client takes it,
    // and only what the kernel refuses (`bufferedAmount`) counts as unread.
    if (this.queuedBytes + this.ws.bufferedAmount > this.max) {
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
    this.queue = [];
    this.queuedBytes = 0;
    if (this.dropped || this.ws.readyState !== this.ws.OPEN) return;
    const socket = (this.ws as unknown as { _socket?: { write(b: Buffer): boolean } })._socket;
    if (!socket) {
      for (const text of batch) this.ws.send(text);
      return;
    }
    // One buffer, one write: per-frame writes (or a corked writev of two pieces a frame) snowball under
    // load, as a writev the kernel cannot take at once leaves the socket busy and the next batch larger.
    socket.write(encodeTextFrames(batch));
    if (this.ws.bufferedAmount > this.max) this.overflow();
  }

  private overflow(): void {
    const pending = this.ws.bufferedAmount;
    this.dropped = true;
    this.queue = [];
    this.queuedBytes = 0;
    this.onOverflow(pending);
    // The close frame waits behind everything unread; a client that reads again sees it, the rest are cut.
    this.ws.close(SLOW_CLIENT_CLOSE, "Client too slow: too many bytes unread");
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }
}
