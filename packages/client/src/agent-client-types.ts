/**
 * The types of a connection to an agent: its options (the official `useAgent` / `AgentClient` options), the
 * RPC call options, and the error it gives up with.
 */
import type { AgentAddress, McpServersState } from "@runboard/protocol";

export type ConnectionStatus = "connecting" | "open" | "closed";

/** Why the connection gave up: the server refused it with a terminal close code. */
export class AgentConnectionError extends Error {
  override readonly name = "AgentConnectionError";
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`Agent connection closed with ${code}${reason ? `: ${reason}` : ""}`);
  }
}

/** Streaming RPC callbacks (the official `StreamOptions`). */
export interface StreamCallbacks {
  onChunk?: (chunk: unknown) => void;
  onDone?: (result: unknown) => void;
  onError?: (error: string) => void;
}

/**
 * Streaming callbacks and a timeout after which the call rejects. Both official forms are accepted: the
 * callbacks themselves, or `{ stream, timeout }`.
 */
export interface CallOptions extends StreamCallbacks {
  stream?: StreamCallbacks;
  /** Rejects the call if no final answer arrives in time. Default: `defaultCallTimeout` for plain calls,
   * none for streaming ones (as the official client). */
  timeout?: number;
  /** Older name of `timeout`. */
  timeoutMs?: number;
}

/** The official reconnect options (partysocket's), under their names. */
export interface ReconnectOptions {
  minReconnectionDelay?: number;
  maxReconnectionDelay?: number;
  reconnectionDelayGrowFactor?: number;
  minUptime?: number;
  connectionTimeout?: number;
  maxRetries?: number;
  maxEnqueuedMessages?: number;
  debug?: boolean;
  debugLogger?: (...args: unknown[]) => void;
}

type Query = NonNullable<AgentAddress["query"]>;

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
  /** Reconnect backoff, short form. Defaults: 1 s growing ×1.3 up to 10 s, retrying forever (partysocket's). */
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
  onStateUpdate?: (state: State, source: "server" | "client") => void;
  onStateUpdateError?: (error: string) => void;
  /** The server said which instance this is (`name`, kebab-case `agent`), as the official callback. */
  onIdentity?: (name: string, agent: string) => void;
  /** The instance changed across a reconnect (server-side routing). Without it a warning is logged. */
  onIdentityChange?: (oldName: string, newName: string, oldAgent: string, newAgent: string) => void;
  onMcpUpdate?: (mcp: McpServersState) => void;
  /** Malformed frames from the wire and terminal connection errors. Never throws into the app. */
  onError?: (error: Error) => void;
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

/** Close codes after which reconnecting cannot help: policy (1008) and application codes (4000–4999). */
export const isTerminalCloseCode = (code: number): boolean => code === 1008 || (code >= 4000 && code <= 4999);
