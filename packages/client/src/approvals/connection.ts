/**
 * What the approval stores need from a connection. Works with an `AgentClient`, the object the official
 * `useAgent` returns, or a test double.
 */

/** A WebSocket-like connection: events, and a status or ready state. */
export interface ApprovalConnection {
  addEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  removeEventListener(type: "message" | "open" | "close", fn: (e: Event) => void): void;
  /** `AgentClient`: `"connecting" | "open" | "closed"`. */
  readonly status?: string;
  /** WebSocket-style ready state (1 is open), for objects without `status`. */
  readonly readyState?: number;
  /** `AgentClient`: notified when status or state change. */
  subscribe?: (fn: () => void) => () => void;
}

/** A connection that can call `@callable()` methods (an agent). */
export interface CallableConnection extends ApprovalConnection {
  call(method: string, args?: unknown[]): Promise<unknown>;
  /** The agent's state, where the object keeps it (`AgentClient` does). */
  readonly state?: unknown;
}

/** True when the connection can carry a decision right now (no connection at all counts as open). */
export function isOpen(c: ApprovalConnection | undefined): boolean {
  if (!c) return true;
  if (typeof c.status === "string") return c.status === "open";
  return c.readyState === undefined || c.readyState === 1;
}

/**
 * Calls `fn` when the connection opens or closes (and on its own notifications, when it has them).
 * Returns the unsubscribe.
 */
export function watchConnection(c: ApprovalConnection | undefined, fn: () => void): () => void {
  if (!c) return () => {};
  const offs: Array<() => void> = [];
  if (typeof c.subscribe === "function") {
    const off = c.subscribe(fn);
    offs.push(() => void off());
  }
  for (const t of ["open", "close"] as const) {
    c.addEventListener(t, fn);
    offs.push(() => c.removeEventListener(t, fn));
  }
  return () => {
    for (const off of offs) off();
  };
}
