/**
 * What the approval adapters need from a connection, and hooks that re-render on its status and state. Works
 * with an `AgentClient` (our `useAgent`), the official `useAgent` object, or a test double.
 */
import { parseServerFrame } from "@runboard/protocol";
import { useCallback, useRef, useSyncExternalStore } from "react";

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

/** True when the connection can carry a decision right now. */
export function isOpen(c: ApprovalConnection | undefined): boolean {
  if (!c) return true;
  if (typeof c.status === "string") return c.status === "open";
  return c.readyState === undefined || c.readyState === 1;
}

const noStateYet = () => undefined;

/** Subscribes to a connection's open/close (and its own notifications, when it has them). */
function watch(c: ApprovalConnection | undefined, fn: () => void, message = false): () => void {
  if (!c) return () => {};
  const offs: Array<() => void> = [];
  if (typeof c.subscribe === "function") {
    const off = c.subscribe(fn);
    offs.push(() => void off());
  }
  const types: Array<"open" | "close" | "message"> = message
    ? ["open", "close", "message"]
    : ["open", "close"];
  for (const t of types) {
    c.addEventListener(t, fn);
    offs.push(() => c.removeEventListener(t, fn));
  }
  return () => {
    for (const off of offs) off();
  };
}

/**
 * Whether the connection is open, re-rendering when it opens or closes. `override` wins when given. A server
 * has no open connection, and a page hydrating the server's HTML must render what the server did even if its
 * own connection opened early, so before mount a connection counts as not open (no connection at all stays
 * open: decisions then count as applied at once).
 */
export function useConnectionOpen(c: ApprovalConnection | undefined, override?: boolean): boolean {
  const subscribe = useCallback((fn: () => void) => watch(c, fn), [c]);
  const get = () => isOpen(c);
  const beforeMount = () => c === undefined;
  const open = useSyncExternalStore(subscribe, get, beforeMount);
  return override ?? open;
}

/**
 * The agent's state: `explicit` when given, else the object's own `state` (an `AgentClient` keeps it), else the
 * last `cf_agent_state` frame seen on the socket (the official object does not keep it). Before mount (a server
 * render, hydration) only `explicit` counts: the state comes over the connection, which a server does not have.
 */
export function useAgentState(c: CallableConnection, explicit?: unknown): unknown {
  const seen = useRef<{ value: unknown } | undefined>(undefined);
  const subscribe = useCallback(
    (fn: () => void) => {
      const onMessage = (e: Event) => {
        const parsed = parseServerFrame((e as MessageEvent).data);
        if (parsed.kind === "frame" && parsed.frame.type === "cf_agent_state") {
          seen.current = { value: parsed.frame.state };
          fn();
        }
      };
      const off = watch(c, fn);
      c.addEventListener("message", onMessage);
      return () => {
        off();
        c.removeEventListener("message", onMessage);
      };
    },
    [c],
  );
  const get = () => ("state" in c && c.state !== undefined ? c.state : seen.current?.value);
  const state = useSyncExternalStore(subscribe, get, noStateYet);
  return explicit !== undefined ? explicit : state;
}
