/** The transport-neutral side of a client socket: the Node server and the MSW adapter both provide one. */
export interface MockConnection {
  /** Unique per socket, for logs and the controller. */
  readonly id: string;
  /** Sends one text frame. Must not throw when the socket is already closed. */
  send(text: string): void;
  /** Closes cleanly with a code the client sees. */
  close(code: number, reason: string): void;
  /** Drops the socket without a close handshake (the client sees 1006). */
  terminate(): void;
}

let next = 0;
/** Connection ids for logs: `c1`, `c2`, … */
export const connectionId = () => `c${++next}`;
