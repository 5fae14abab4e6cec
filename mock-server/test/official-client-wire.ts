/**
 * A `ws` WebSocket that records every text frame the official client sends and receives, so a test can
 * read the exact wire conversation PartySocket had (across reconnects: one entry per socket).
 */
import { WebSocket as WS } from "ws";

export interface WireFrame {
  /** Which socket of this client (0 = first, 1 = after the first reconnect, …). */
  socket: number;
  dir: "in" | "out" | "open" | "close";
  raw: string;
  /** ms since the log's first socket was created. */
  at: number;
}

/** What PartySocket constructs: `new WebSocket(url)` or `new WebSocket(url, protocols)`. */
export type WebSocketClass = new (url: string | URL, protocols?: string | string[]) => WS;

/** Makes a WebSocket class for PartySocket whose sockets append to `log`. */
export function recordingWebSocket(log: WireFrame[]): WebSocketClass {
  let sockets = 0;
  const t0 = Date.now();
  const at = () => Date.now() - t0;
  return class RecordingWebSocket extends WS {
    readonly index = sockets++;
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.on("message", (data: unknown, isBinary: boolean) => {
        if (!isBinary) log.push({ socket: this.index, dir: "in", raw: String(data), at: at() });
      });
      this.on("open", () => log.push({ socket: this.index, dir: "open", raw: "", at: at() }));
      this.on("close", (code: number) =>
        log.push({ socket: this.index, dir: "close", raw: String(code), at: at() }),
      );
    }
    override close(...args: Parameters<WS["close"]>) {
      log.push({ socket: this.index, dir: "close", raw: `client ${args[0] ?? ""}`, at: at() });
      super.close(...args);
    }
    override send(data: unknown, ...rest: unknown[]) {
      if (typeof data === "string") log.push({ socket: this.index, dir: "out", raw: data, at: at() });
      // biome-ignore lint/suspicious/noExplicitAny: forwards ws's overloads unchanged.
      (super.send as any)(data, ...rest);
    }
  };
}
