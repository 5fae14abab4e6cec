/**
 * A WebSocket stand-in for `AgentClient` (partysocket accepts any constructor through the `WebSocket` option),
 * so the fuzz test drives the real connection code: partysocket's event cloning, the client's frame parsing
 * and its listener fan-out to the chat and run stores. Delivery is synchronous, so a batch of frames is one
 * `act()` and one React commit.
 */

/** Every socket the client has opened, newest last; `FakeWebSocket.current` is the one in use. */
const sockets: FakeWebSocket[] = [];
/** Every frame the client sent, on any socket, oldest first. */
export const outbox: string[] = [];

/** The server side of one connection: what the client sent, and a way to push frames at it. */
export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;

  /** The socket the client uses now. */
  static get current(): FakeWebSocket | undefined {
    return sockets.at(-1);
  }

  /** Forgets every socket (between test sessions). */
  static reset(): void {
    sockets.length = 0;
    outbox.length = 0;
  }

  readyState = 0;
  binaryType: "blob" | "arraybuffer" = "blob";
  readonly bufferedAmount = 0;
  readonly extensions = "";
  readonly protocol = "";
  /** Frames the client sent on this socket, in order. */
  readonly sent: string[] = [];

  constructor(readonly url: string) {
    super();
    sockets.push(this);
    // A real socket opens on a later task; partysocket attaches its listeners right after constructing.
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    }, 0);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error("FakeWebSocket: send() while not open");
    this.sent.push(data);
    outbox.push(data);
  }

  close(code = 1000, reason = ""): void {
    if (this.readyState >= 2) return;
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason, wasClean: true }));
  }

  /** Server → client: one frame, delivered synchronously. */
  deliver(data: unknown): void {
    if (this.readyState !== 1) throw new Error("FakeWebSocket: deliver() while not open");
    this.dispatchEvent(new MessageEvent("message", { data }));
  }

  /** The server drops the connection (a transient close: the client reconnects). */
  drop(code = 1006): void {
    if (this.readyState >= 2) return;
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason: "dropped", wasClean: false }));
  }
}
