/**
 * `useAgent`: the official hook's options and return shape over an `AgentClient`. The object it returns is
 * the client itself (send, addEventListener, call, stub, setState, reconnect, close), re-rendering the
 * component when its status, identity, state or MCP list change. The socket opens in an effect: a server
 * render, or a render React discards, opens nothing.
 */
import {
  AgentClient,
  type AgentClientOptions,
  type AgentErrorEvent,
  type TypedAgentCall,
  type TypedAgentStub,
  toAgentErrorEvent,
} from "@runboard/client";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useLatest, useOwned } from "./lifetime.ts";

/**
 * The options of `useAgent`: the official `agents/react` hook's, over `AgentClientOptions` (the address,
 * `query`, reconnect options and callbacks). A change of the address (`agent`, `name`, `host`, `path`,
 * `basePath`, `sub`, `protocol`, a static `query`, `queryDeps`, `enabled`) makes a new connection; callbacks
 * and an async `query` function are read fresh on each use, so inline functions are fine.
 */
export interface UseAgentOptions<State = unknown>
  extends Omit<AgentClientOptions<State>, "host" | "lazy" | "onError"> {
  /** Host with optional port. Default: the page's own host (`localhost` on the server). */
  host?: string;
  /** Recreate the connection (and re-run an async `query`) when these change. */
  queryDeps?: unknown[];
  /** The socket opened (also after each reconnect). */
  onOpen?: (e: Event) => void;
  /** The socket closed (reconnecting or not), with its code and reason. */
  onClose?: (e: CloseEvent) => void;
  /**
   * Errors, each an `Event` as the official hook passes them (so `(event: Event) => …` handlers fit), with
   * `error` and `message`: the socket's `error` events, and the kit's own reports (malformed frames, RPC
   * replies nobody waits for, exceptions thrown by `message` listeners, a terminal close). Nothing is thrown
   * into the app.
   */
  onError?: (event: AgentErrorEvent) => void;
  /** Every frame except RPC replies, as the official hook. */
  onMessage?: (e: MessageEvent) => void;
  /** `false` keeps the socket closed (partysocket's `enabled`); turning it on connects. */
  enabled?: boolean;
  /** Accepted for drop-in compatibility: agents always route under `/agents`, as upstream forces. */
  prefix?: string;
  /** Accepted for drop-in compatibility (partysocket option without effect here). */
  disableNameValidation?: boolean;
  /** Accepted for drop-in compatibility (partysocket option without effect here). */
  transferEnqueuedMessages?: boolean;
}

/**
 * What `useAgent<AgentClass, State>` returns: the connection, with `call` and `stub` typed from the agent class
 * (its own methods whose arguments and result travel as JSON), as the official hook types them.
 */
export type TypedAgentClient<AgentT, State = unknown> = Omit<AgentClient<State>, "call" | "stub"> & {
  /** Calls one of the agent's methods: its arguments checked, its result promised. */
  call: TypedAgentCall<AgentT>;
  /** `agent.stub.method(...args)` ≡ `agent.call("method", [...args])`. */
  stub: TypedAgentStub<AgentT>;
};

type QueryFunction = Extract<AgentClientOptions["query"], (...args: never[]) => unknown>;

const clientLifecycle = {
  start: (c: AgentClient<never, never>) => c.connect(),
  dispose: (c: AgentClient<never, never>) => c.close(),
};

/**
 * Connects to an agent instance, as `agents/react`'s `useAgent` does (same options, same returned object),
 * and returns the connection: pass it to `useAgentChat` and `useAgentToolEvents`, call its methods
 * (`agent.stub.method(...)`, `agent.call`), read and set `agent.state`. The component re-renders when the
 * connection's status, identity, state or MCP list change; callbacks are always the latest ones given.
 *
 * The socket opens in an effect, so a server render or a render React discards opens nothing; StrictMode's
 * double mount keeps one connection. New options (a rotated token in `query`, `enabled`) make a new connection
 * that takes over the old one's waiting calls; calls and `setState` made through an older returned object act
 * on the current connection, and when the agent itself changed (`agent`, `name`, `basePath`, …) the waiting
 * calls reject with "Call discarded: the agent address changed before the request could be sent", as the
 * official hook's. Deliberate differences from the official hook: bad frames and terminal closes go to
 * `onError` instead of being thrown or only logged; calls are never handed to a socket that is not open; a
 * `setState` made before the server's initial state is sent after it (upstream's is overwritten by it);
 * `prefix`, `disableNameValidation` and `transferEnqueuedMessages` are accepted without effect; the
 * `capnweb` transport is refused (see the README of `@runboard/react`).
 *
 * The type arguments are the official ones: `useAgent<State>` types `state` and `setState`;
 * `useAgent<AgentClass, State>` also types `call` and `stub` from the agent class (`import type` it from the
 * server code), or from an interface with `state` and the methods.
 *
 * @example
 * ```tsx
 * import type { CounterAgent, CounterState } from "../server";
 *
 * function Counter() {
 *   const agent = useAgent<CounterAgent, CounterState>({
 *     agent: "CounterAgent",
 *     name: "room-1",
 *     onError: (e) => console.warn(e.message),
 *   });
 *   return (
 *     <button type="button" onClick={() => agent.stub.increment(1)}>
 *       {agent.status}: {agent.state?.counter}
 *     </button>
 *   );
 * }
 * ```
 */
export function useAgent<State = unknown>(options: UseAgentOptions<State>): AgentClient<State>;
/**
 * Connects to an agent instance, with `call` and `stub` typed from the agent class `AgentT` (its own methods
 * whose arguments and result travel as JSON: names, arguments and promised results are checked) and `state` /
 * `setState` typed by `State`, as the official `useAgent<AgentT, State>`. See the one-argument form.
 */
export function useAgent<AgentT extends { get state(): State }, State>(
  options: UseAgentOptions<State>,
): TypedAgentClient<AgentT, State>;
export function useAgent<
  State = unknown,
  Methods extends Record<string, (...args: never[]) => unknown> = Record<
    string,
    (...args: never[]) => unknown
  >,
>(options: UseAgentOptions<State>): AgentClient<State, Methods> {
  const latest = useLatest(options);
  const host = options.host ?? (typeof location === "undefined" ? "localhost" : location.host);
  // The connection depends on where it points; callbacks are read through the latest ref instead.
  const key = JSON.stringify([
    options.agent,
    options.name,
    host,
    options.path,
    options.basePath,
    options.sub,
    options.protocol,
    typeof options.query === "function" ? "fn" : options.query,
    options.queryDeps,
    options.enabled !== false,
  ]);
  const client = useOwned(
    key,
    () => {
      const c = new AgentClient<State, Methods>({
        ...latest.current,
        host,
        lazy: true,
        // The latest `query` function is asked each time (a token refreshed by the app is used).
        ...(typeof latest.current.query === "function"
          ? {
              query: () => (latest.current.query as QueryFunction)(),
            }
          : {}),
        onStateUpdate: (s, src) => latest.current.onStateUpdate?.(s, src),
        onStateUpdateError: (e) => latest.current.onStateUpdateError?.(e),
        onIdentity: (name, agent) => latest.current.onIdentity?.(name, agent),
        onMcpUpdate: (m) => latest.current.onMcpUpdate?.(m),
        onError: (e) => latest.current.onError?.(toAgentErrorEvent(e)),
        onConnectionError: (e) => latest.current.onConnectionError?.(e),
        shouldReconnectOnClose: (e) => latest.current.shouldReconnectOnClose?.(e) ?? true,
        // Only when given: without it the client warns about an instance change, as the official hook does.
        ...(latest.current.onIdentityChange
          ? {
              onIdentityChange: (...a: [string, string, string, string]) =>
                latest.current.onIdentityChange?.(...a),
            }
          : {}),
        startClosed: latest.current.startClosed === true || latest.current.enabled === false,
      });
      c.addEventListener("open", (e) => latest.current.onOpen?.(e));
      c.addEventListener("close", (e) => latest.current.onClose?.(e));
      // The socket's own errors reach `onError` too, as on the official hook.
      c.addEventListener("error", (e) => latest.current.onError?.(toAgentErrorEvent(e)));
      c.addEventListener("message", (e) => latest.current.onMessage?.(e));
      return c;
    },
    clientLifecycle as unknown as {
      start: (c: AgentClient<State, Methods>) => void;
      dispose: (c: AgentClient<State, Methods>) => void;
    },
  );
  // The connection a new address replaced hands over to this one: its waiting calls move here (or reject when
  // the agent changed), and an older object the app still holds calls through this one, as the official
  // hook's do (docs/protocol.md#reconnecting). Before the old one is closed, which `useOwned` defers a tick.
  const previous = useRef<AgentClient<State, Methods> | null>(null);
  useEffect(() => {
    const prev = previous.current;
    previous.current = client;
    if (prev && prev !== client) prev.handOverTo(client);
  }, [client]);
  useSyncExternalStore(client.subscribe, client.getVersion, client.getVersion);
  return client;
}
