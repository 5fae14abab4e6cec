/**
 * The types of a connection to an agent: its options (the official `useAgent` / `AgentClient` options), the
 * RPC call options, and the error it gives up with.
 */
import type { AgentAddress, McpServersState } from "@runboard/protocol";

/** `connecting` until the socket opens, `closed` after a close (reconnecting or not). */
export type ConnectionStatus = "connecting" | "open" | "closed";

/** Why the connection gave up: the server refused it with a terminal close code. */
export class AgentConnectionError extends Error {
  override readonly name = "AgentConnectionError";
  constructor(
    /** The WebSocket close code (1008, or 4000–4999). */
    readonly code: number,
    /** The close reason the server gave. */
    readonly reason: string,
    /** Whether the close handshake completed (the socket's `CloseEvent.wasClean`), as on the official error. */
    readonly wasClean: boolean = true,
  ) {
    // The official hook's message, word for word: apps show it or match on it.
    super(`Agent connection closed: ${reason || `WebSocket closed with code ${code}`}`);
  }
}

/** Streaming RPC callbacks (the official `StreamOptions`). */
export interface StreamCallbacks {
  /** Each streamed chunk (`done: false` replies). */
  onChunk?: (chunk: unknown) => void;
  /** The final result. */
  onDone?: (result: unknown) => void;
  /** The server's error message, or the timeout's. */
  onError?: (error: string) => void;
}

/**
 * Streaming callbacks and a timeout after which the call rejects. Both official forms are accepted: the
 * callbacks themselves, or `{ stream, timeout }`.
 */
export interface CallOptions extends StreamCallbacks {
  /** The streaming callbacks, in the official `{ stream, timeout }` form. */
  stream?: StreamCallbacks;
  /**
   * Rejects the call if no final answer arrives in time (ms). Default: `defaultCallTimeout` for plain calls,
   * none for streaming ones (as the official client).
   */
  timeout?: number;
  /** Older name of `timeout`. */
  timeoutMs?: number;
}

/** The official reconnect options (partysocket's), under their names; unset ones keep partysocket's defaults. */
export interface ReconnectOptions {
  /** Delay before the first reconnect attempt (ms). */
  minReconnectionDelay?: number;
  /** Longest delay between attempts (ms). Default 10 s. */
  maxReconnectionDelay?: number;
  /** How much the delay grows per attempt. Default 1.3. */
  reconnectionDelayGrowFactor?: number;
  /** How long a connection must stay open to count as stable and reset the backoff (ms). */
  minUptime?: number;
  /** How long one attempt may take before it is abandoned (ms). */
  connectionTimeout?: number;
  /** Attempts before reconnecting stops for good (then `onConnectionError`). Default: no limit. */
  maxRetries?: number;
  /** Frames kept while the socket is down, sent on the next open. Default: no limit. */
  maxEnqueuedMessages?: number;
  /** Log partysocket's reconnect decisions. */
  debug?: boolean;
  /** Where `debug` logs go. Default: `console.log`. */
  debugLogger?: (...args: unknown[]) => void;
}

type Query = NonNullable<AgentAddress["query"]>;

/**
 * The options of `AgentClient` (and of `useAgent`): the official `agents/client` `AgentClient` / `useAgent`
 * options with the same names and meanings. The address fields (`agent`, `name`, `host`, `path`, `basePath`,
 * `sub`, `protocol`) build the official URL, so a connection made here reaches the same instance. Deliberate
 * differences: bad frames and terminal closes are reported through `onError` instead of thrown or logged;
 * a `setState` made before the server's initial state is sent after it instead of being overwritten by it;
 * the `capnweb` transport is refused; `lazy` makes the client without any IO.
 *
 * @example
 * ```ts
 * const client = new AgentClient<{ counter: number }>({
 *   agent: "ChatAgent",
 *   name: "room-1",
 *   host: "my-worker.example.workers.dev",
 *   query: async () => ({ token: await getToken() }),
 *   onStateUpdate: (state) => console.log(state.counter),
 * });
 * ```
 */
export interface AgentClientOptions<State = unknown>
  extends Omit<AgentAddress, "pk" | "query">,
    ReconnectOptions {
  /**
   * Query parameters, or an async function returning them (auth tokens). The result is cached for
   * `cacheTtl` ms and dropped on every disconnect, so a reconnect fetches a fresh token.
   */
  query?: Query | (() => Query | Promise<Query>);
  /** How long an async `query` result is reused. Default 5 minutes. */
  cacheTtl?: number;
  /**
   * WebSocket implementation. Default: the global one; in Node when there is none (Node 20) or it is jsdom's
   * (which fails under Node), the `ws` package if it is installed.
   */
  WebSocket?: unknown;
  /** Reconnect backoff, short form; the `ReconnectOptions` names win. Defaults: partysocket's. */
  reconnect?: { minDelayMs?: number; maxDelayMs?: number; maxRetries?: number };
  /** Connection id (`_pk`). Default: a random UUID. */
  id?: string;
  /** WebSocket subprotocols. */
  protocols?: string | string[];
  /** Return false to stop reconnecting after this close. Terminal codes (1008, 4000–4999) stop regardless. */
  shouldReconnectOnClose?: (event: CloseEvent) => boolean;
  /** Timeout of calls without streaming callbacks. Default 30 s, as the official client. */
  defaultCallTimeout?: number;
  /** Reconnecting stopped for good (a terminal code, `shouldReconnectOnClose`, or `maxRetries` spent). */
  onConnectionError?: (error: AgentConnectionError) => void;
  /**
   * Only `"cf-websocket"` (the default) is spoken here; the experimental `"capnweb"` transport is refused
   * through `onError` and the socket is used instead.
   */
  transport?: "cf-websocket" | "capnweb";
  /** The agent's state changed: from the server (any connection's update), or by this client's `setState`. */
  onStateUpdate?: (state: State, source: "server" | "client") => void;
  /** The server refused a `setState` (a readonly connection, a failed validation). */
  onStateUpdateError?: (error: string) => void;
  /** The server said which instance this is (`name`, kebab-case `agent`), as the official callback. */
  onIdentity?: (name: string, agent: string) => void;
  /** The instance changed across a reconnect (server-side routing). Without it a warning is logged. */
  onIdentityChange?: (oldName: string, newName: string, oldAgent: string, newAgent: string) => void;
  /** The agent's MCP servers and what they expose, on connect and on each change. */
  onMcpUpdate?: (mcp: McpServersState) => void;
  /**
   * Malformed frames from the wire, RPC replies nobody waits for (also warned about in the console, as
   * upstream), exceptions thrown by `message` listeners, and terminal connection errors. Nothing is thrown
   * into the app.
   */
  onError?: (error: Error) => void;
  /**
   * The largest frame accepted from the server, in bytes (UTF-8 for text). A larger frame is dropped before it
   * is parsed and reported once through `onError` with its size and the limit (never its content); the
   * connection stays open. (Frames nested more than 1,000 levels deep are refused before parsing too.) Default `DEFAULT_MAX_FRAME_BYTES`, 16 MiB.
   */
  maxFrameBytes?: number;
  /** Start without connecting; call `reconnect()` to connect. */
  startClosed?: boolean;
  /**
   * Make the client without any IO (no socket, timer or browser global) until `connect()` is called. The
   * hooks use it so that a server render or a render React throws away never opens a connection.
   * Default false: the constructor connects.
   */
  lazy?: boolean;
}

/**
 * Set while the connection's address is not known yet (an async `query` still resolving): `getHttpUrl()` then
 * returns `""`. The official hook marks its socket with the same registered symbol, so either object can be
 * handed to `useAgentChat`.
 */
export const SOCKET_ADDRESS_PENDING: unique symbol = Symbol.for(
  "cloudflare.agents.socketAddressPending",
) as never;

/**
 * On an `AgentClient`: which thread it addresses, read from its options (host, `basePath`, `path`, agent class,
 * instance name, sub-agents), never from the query, the credentials or the server's identity frame (which
 * renames the instance when the server picks it). `useAgentChat` keys its chat on it, as the official hook
 * keys its chat on the official object's `path` and route options.
 */
export const AGENT_THREAD_KEY: unique symbol = Symbol.for("runboard.agentThreadKey") as never;

/** Close codes after which reconnecting cannot help: policy (1008) and application codes (4000–4999). */
export const isTerminalCloseCode = (code: number): boolean => code === 1008 || (code >= 4000 && code <= 4999);
