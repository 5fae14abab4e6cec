/**
 * The small pieces of `AgentClient`'s connection bookkeeping that need no instance: what a connection has heard
 * of the server's connect frames, the `ready` gate, which agent an address reaches, and the option filter.
 */
import { kebabAgentName } from "@runboard/protocol";
import type { AgentClientOptions } from "./agent-client-types.ts";

/** Drops undefined values, so partysocket's defaults apply to what the app did not set. */
export function definedOnly<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * How long a `setState` made before the server's initial state waits at most once the socket is open: a server
 * with protocol messages off sends no connect frames at all (docs/protocol.md#connect-frames).
 */
export const HELD_STATE_FALLBACK_MS = 3_000;

/** What a connection has heard of the server's connect frames so far (a fresh one per connection). */
export function freshConnect() {
  return {
    /** The initial state frame arrived on this connection. */
    stateSeen: false,
    /** An identity that said `stateFollows`, applied once that state is in. */
    pendingIdentity: undefined as { name: string; agent: string } | undefined,
    /** Nothing the server still sends on connect carries the state: `setState` goes out at once. */
    framesIn: false,
  };
}

/** A promise resolved once per connection, with whether it has been (`agent.ready`). */
export function readyGate() {
  let resolve!: () => void;
  const gate = {
    promise: new Promise<void>((r) => {
      resolve = r;
    }),
    resolved: false,
    resolve: () => {
      gate.resolved = true;
      resolve();
    },
  };
  return gate;
}

/** Which agent an address reaches (not how: query, protocol and connection id left out), as the official hook compares. */
export function agentKey(o: AgentClientOptions<never> | AgentClientOptions<unknown>): string {
  const sub = (o.sub ?? []).map((s) => [kebabAgentName(s.agent), s.name]);
  return JSON.stringify([
    o.host,
    o.basePath ?? null,
    kebabAgentName(o.agent),
    o.name || "default",
    sub,
    o.path ?? null,
  ]);
}

/**
 * Binds the named methods to `target`: the official hook's `call`, `setState` and `getHttpUrl` are closures, so
 * an app may take them off the object (`const { call, setState } = useAgent(…)`).
 */
export function bindOwn<T extends object>(target: T, names: readonly (keyof T & string)[]): void {
  for (const name of names) {
    const f = target[name];
    if (typeof f === "function") (target as Record<string, unknown>)[name] = f.bind(target);
  }
}
