/**
 * RPC over an agent connection: calls of `@callable()` methods, their answers (final, streamed, failed),
 * timeouts, calls that wait for the socket to open, and the typed `stub`. The connection hands this the
 * socket's opens and closes and the `rpc` frames it receives.
 */
import { encodeRpcRequest, type RpcResponseFrame } from "@runboard/protocol";
import type { CallOptions, StreamCallbacks } from "./agent-client-types.ts";
import type { AgentStub } from "./agent-methods.ts";

export type { AgentStub } from "./agent-methods.ts";

/** A random id: a UUID where the platform has one. */
export const randomId = (): string =>
  typeof crypto?.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** What the calls need from their connection. */
export interface RpcConnection {
  /** The socket, when it is open (a call is never handed to a socket that is not). */
  openSocket(): { send(data: string): void } | undefined;
  /** The connection was closed for good: new calls reject at once. */
  closedForGood(): boolean;
  /** Timeout of calls without streaming callbacks. */
  defaultTimeout(): number;
  /** Where a reply nobody waits for is reported. */
  onError(error: Error): void;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The call's streaming callbacks (none for a plain call). */
  options: StreamCallbacks;
  /** The call's timeout, if it has one. */
  timer?: ReturnType<typeof setTimeout>;
  /** The calls that hold it now (a replaced connection hands its waiting calls to the next one). */
  owner: RpcCalls;
  /** The frame, until it has gone out on an open socket; `undefined` once sent. */
  unsent?: string;
}

// Property probes JS engines and test tools make on any object; the stub must not turn them into RPC.
const NOT_METHODS = new Set([
  "toJSON",
  "then",
  "catch",
  "finally",
  "valueOf",
  "toString",
  "constructor",
  "prototype",
  "$$typeof",
  "@@toStringTag",
  "asymmetricMatch",
  "nodeType",
]);

/** `stub.increment(2)` ≡ `call("increment", [2])`. */
export function createStub<Methods>(
  call: (method: string, args: unknown[]) => Promise<unknown>,
): AgentStub<Methods> {
  return new Proxy({} as AgentStub<Methods>, {
    get: (_t, prop) => {
      if (typeof prop !== "string" || NOT_METHODS.has(prop)) return undefined;
      return (...args: unknown[]) => call(prop, args);
    },
  });
}

/** The RPC calls of one connection that have not been answered yet. */
export class RpcCalls {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly connection: RpcConnection) {}

  /** See `AgentClient.call`. */
  call<T = unknown>(method: string, args: unknown[] = [], options: CallOptions = {}): Promise<T> {
    const id = randomId();
    if (this.connection.closedForGood()) return Promise.reject(new Error("Connection closed"));
    return new Promise<T>((resolve, reject) => {
      const stream =
        options.stream ?? (options.onChunk || options.onDone || options.onError ? options : undefined);
      const p: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        options: stream ?? {},
        owner: this,
      };
      const timeout =
        options.timeout ?? options.timeoutMs ?? (stream ? undefined : this.connection.defaultTimeout());
      if (timeout) {
        p.timer = setTimeout(() => {
          p.owner.pending.delete(id);
          const message = `RPC call to ${method} timed out after ${timeout}ms`;
          stream?.onError?.(message);
          reject(new Error(message));
        }, timeout);
      }
      this.pending.set(id, p);
      const frame = encodeRpcRequest(id, method, args);
      // Never handed to a socket that is not open: a call rejected while it waits must not run later.
      const socket = this.connection.openSocket();
      if (socket) socket.send(frame);
      else p.unsent = frame;
    });
  }

  /** The socket opened: calls made while it was down go out now. */
  flush(socket: { send(data: string): void }): void {
    for (const p of this.pending.values()) {
      if (p.unsent === undefined) continue;
      socket.send(p.unsent);
      p.unsent = undefined;
    }
  }

  /**
   * Rejects the calls that went out (their socket closed, and the server forgets them with it), and with
   * `unsentToo` also those still waiting to go out (no next socket is coming).
   */
  rejectSent(unsentToo: boolean): void {
    for (const [id, p] of this.pending) {
      if (!unsentToo && p.unsent !== undefined) continue;
      this.fail(id, p, "Connection closed");
    }
  }

  /**
   * The connection is being replaced by `next`'s (docs/protocol.md#reconnecting): calls still waiting to go
   * out move there and go out when its socket opens, timeouts running on; with `rejectWith` they reject
   * with that message instead (the new connection reaches another agent, which the caller did not ask).
   */
  handOverUnsent(next: RpcCalls, rejectWith?: string): void {
    for (const [id, p] of this.pending) {
      if (p.unsent === undefined) continue;
      if (rejectWith !== undefined) {
        this.fail(id, p, rejectWith);
        continue;
      }
      this.pending.delete(id);
      p.owner = next;
      next.pending.set(id, p);
      const socket = next.connection.openSocket();
      if (socket) {
        socket.send(p.unsent);
        p.unsent = undefined;
      }
    }
  }

  /** Rejects a call, telling its streaming callbacks too (as the official clients do). */
  private fail(id: string, p: Pending, message: string) {
    this.settle(id);
    p.reject(new Error(message));
    p.options.onError?.(message);
  }

  /** Settles the call an `rpc` frame answers. */
  receive(f: RpcResponseFrame): void {
    const p = this.pending.get(f.id);
    if (!p) {
      // A reply for a call that timed out, was rejected by a close, or was never made here: nothing to settle,
      // but the app hears of it (a server answering the wrong ids is worth knowing about), and the console
      // says so in the official clients' words (docs/protocol.md#rpc).
      console.warn(
        `[runboard] Discarded an RPC response with no matching pending call (id "${f.id}"). The call likely timed out or was rejected when its connection closed before the response arrived.`,
      );
      this.connection.onError(new Error(`rpc reply for unknown call id ${JSON.stringify(f.id)}: ignored`));
      return;
    }
    if (f.success === false) {
      this.settle(f.id);
      p.options.onError?.(f.error);
      p.reject(new Error(f.error));
      return;
    }
    if ("done" in f && f.done === false) {
      p.options.onChunk?.(f.result);
      return;
    }
    this.settle(f.id);
    p.options.onDone?.(f.result);
    p.resolve(f.result);
  }

  private settle(id: string) {
    const p = this.pending.get(id);
    if (p?.timer) clearTimeout(p.timer);
    this.pending.delete(id);
  }
}
