/**
 * What the Node server writes to one socket. Frames queue for the rest of the current macrotask and go out
 * together (one corked write per socket instead of a syscall per frame, which is what stalled the event loop
 * under load), in order. A client that stops reading must not grow the server without end: once what waits
 * for it (written, but not taken by the kernel: `bufferedAmount`) passes `maxBufferedBytes`, it is dropped.
 */
import type { WebSocket } from "ws";

/** Default `maxBufferedBytes`: far above what a reading client ever has pending, far below a memory problem. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 << 20;

/** The close code a dropped slow client sees (1008, policy violation), when it reads again. */
export const SLOW_CLIENT_CLOSE = 1008;

/** How long a dropped client gets to read its close frame before its socket and buffers are freed. */
const CLOSE_GRACE_MS = 1000;

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
    if (this.queuedBytes + this.ws.bufferedAmount > this.max) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes everything queued, as one corked batch. Closes and terminations call it first, to keep order. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    if (this.dropped || this.ws.readyState !== this.ws.OPEN) return;
    // `ws` keeps its net.Socket private; corking it turns the batch's frames into one write.
    const socket = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    socket?.cork();
    for (const text of batch) this.ws.send(text);
    socket?.uncork();
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
