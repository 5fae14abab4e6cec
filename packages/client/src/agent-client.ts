/**
 * One connection to one agent instance: partysocket's reconnecting WebSocket on the official URL, plus the
 * generic frames every agent speaks (identity, state, MCP list, RPC; docs/protocol.md#generic-frames). Chat and agent-tool
 * stores listen to the same `message` events, so one connection serves all of them.
 */
import {
  type AgentAddress,
  agentHttpUrl,
  agentUrl,
  encodeSetState,
  kebabAgentName,
  type McpServersState,
} from "@runboard/protocol";
import { WebSocket as ReconnectingWebSocket } from "partysocket";
import {
  AGENT_THREAD_KEY,
  type AgentClientOptions,
  AgentConnectionError,
  type CallOptions,
  type ConnectionStatus,
  isTerminalCloseCode,
  SOCKET_ADDRESS_PENDING,
} from "./agent-client-types.ts";
import {
  agentKey,
  bindOwn,
  definedOnly,
  freshConnect,
  HELD_STATE_FALLBACK_MS,
  readyGate,
} from "./agent-connection-state.ts";
import { type AgentStub, createStub, RpcCalls, randomId } from "./agent-rpc.ts";
import { loadWsPackage, needsWsPackage } from "./default-websocket.ts";
import { readFrame } from "./frame-source.ts";

export * from "./agent-client-types.ts";
export type { AgentStub } from "./agent-rpc.ts";

type Query = NonNullable<AgentAddress["query"]>;
type Listener = (event: Event) => void;

/** The events `addEventListener` delivers, typed as the socket's (and partysocket's) are. */
export interface AgentSocketEventMap {
  /** A frame (RPC replies excepted). */
  message: MessageEvent;
  /** The socket opened (also after each reconnect). */
  open: Event;
  /** The socket closed (reconnecting or not). */
  close: CloseEvent;
  /** The socket failed. */
  error: Event;
}
type AnyMethods = Record<string, (...args: never[]) => unknown>;

/**
 * A connection to one agent instance, as the official `agents/client` `AgentClient`: partysocket's
 * reconnecting WebSocket on the official URL, the agent's state (`state`, `setState`), its identity and MCP
 * list, RPC (`call`, `stub`), and the socket's events for the chat and run stores that share it. With
 * `lazy: true` constructing one does no IO (no socket, timer or browser global), so it can be made during a
 * server render; `connect()` then opens the socket. `AgentClientOptions` says how it differs from upstream's.
 *
 * @example
 * ```ts
 * const client = new AgentClient<{ counter: number }, { increment(by: number): number }>({
 *   agent: "CounterAgent",
 *   name: "room-1",
 *   host: location.host,
 * });
 * const next = await client.stub.increment(2);
 * const chat = new ChatSession({ agent: client });
 * ```
 */
export class AgentClient<State = unknown, Methods extends AnyMethods = AnyMethods> {
  /**
   * The agent class, kebab-cased as on the wire (`"chat-agent"` for `ChatAgent`; the last class of a `sub`
   * chain), then as the server's identity frame says, as on the official object.
   */
  agent: string;
  /**
   * The instance name (`default` when none was given; the last name of a `sub` chain), then as the server's
   * identity frame says: with a custom `basePath` the server picks the instance and this is where the app
   * learns its name, as on the official object.
   */
  name: string;
  /** Connection id (`_pk`), stable across reconnects like partysocket's. */
  readonly id: string;
  /**
   * Which instance the server last said this is (`cf_agent_identity`); undefined until it says. Kept across
   * closes; `identified` says whether the current connection has said it.
   */
  identity: { name: string; agent: string } | undefined;
  /**
   * True once the server has said who this instance is on the current connection (after its initial state,
   * when the identity frame says one follows), false again on every close: as on the official object.
   */
  identified = false;
  /** The agent's state, as last received or set here; undefined until the first. */
  state: State | undefined;
  /** The agent's MCP servers, as last received. */
  mcp: McpServersState | undefined;
  /** Set when the server closed with a terminal code; reconnecting stops until `reconnect()`. */
  error: AgentConnectionError | null = null;
  private socket: ReconnectingWebSocket | undefined;
  /** Frames sent before `connect()`, handed to the socket once it exists (it buffers them until open). */
  private early: string[] = [];
  private readonly rpc = new RpcCalls({
    openSocket: () => (this.socket?.readyState === 1 ? this.socket : undefined),
    closedForGood: () => this.closedForGood,
    defaultTimeout: () => this.options.defaultCallTimeout ?? 30_000,
    onError: (e) => this.options.onError?.(e),
  });
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly address: AgentAddress;
  private readonly watchers = new Set<() => void>();
  private version = 0;
  /** `ready`: one promise per identification, replaced on a close once it has resolved. */
  private readyGate = readyGate();
  /**
   * Where the current connection is in the server's connect frames (docs/protocol.md#connect-frames): an
   * identity frame saying `stateFollows` waits for that state, and a `setState` waits until the initial
   * state is in (`framesIn`).
   */
  private connecting = freshConnect();
  /** A `setState` made before the initial state arrived, sent once it has been applied. */
  private heldState: { state: State } | undefined;
  private heldTimer: ReturnType<typeof setTimeout> | undefined;
  /** The connection that replaced this one (`handOverTo`): calls and `setState` made here go there. */
  private successor: AgentClient<State, Methods> | undefined;

  constructor(private readonly options: AgentClientOptions<State>) {
    bindOwn(this, ["call", "setState", "getHttpUrl"]);
    this.id = options.id ?? randomId();
    const { query, ...rest } = options;
    this.address = {
      ...rest,
      ...(typeof query === "function" || query === undefined ? {} : { query }),
      pk: this.id,
    };
    const leaf = options.sub?.at(-1);
    this.agent = kebabAgentName(leaf?.agent ?? options.agent);
    this.name = leaf ? leaf.name : options.name || "default";
    if (!options.lazy) this.connect();
  }

  /**
   * Opens the connection (once; later calls do nothing). Hooks call it from an effect, never during render.
   * With `startClosed` the socket is made but stays closed until `reconnect()`.
   */
  connect(): void {
    if (this.socket || this.loadingWebSocket) return;
    const impl = this.options.WebSocket ?? (needsWsPackage() ? undefined : "global");
    if (impl !== undefined) {
      this.open(impl === "global" ? undefined : impl);
      return;
    }
    // Node without a usable global WebSocket (Node 20, or jsdom's, whose events Node rejects): the `ws`
    // package, loaded only here so browser bundles never see it.
    this.loadingWebSocket = loadWsPackage().then(
      (ws) => {
        this.loadingWebSocket = undefined;
        if (!this.socket && !this.closedForGood) this.open(ws);
      },
      () => {
        this.loadingWebSocket = undefined;
        this.options.onError?.(
          new Error(
            "No WebSocket that works here: install the `ws` package (npm i -D ws) or pass `WebSocket` to the client",
          ),
        );
      },
    );
  }

  private loadingWebSocket: Promise<void> | undefined;

  private open(WebSocketImpl: unknown): void {
    const options = this.options;
    const { query } = options;
    const { minDelayMs, maxDelayMs } = options.reconnect ?? {};
    const maxRetries = options.maxRetries ?? options.reconnect?.maxRetries;
    if (options.transport === "capnweb")
      options.onError?.(new Error('transport "capnweb" is not supported; using the cf-websocket transport'));
    const url =
      typeof query === "function"
        ? async () => agentUrl({ ...this.address, query: await this.resolveQuery() })
        : () => agentUrl(this.address);
    const minReconnectionDelay = options.minReconnectionDelay ?? minDelayMs;
    const maxReconnectionDelay = options.maxReconnectionDelay ?? maxDelayMs;
    const socket = new ReconnectingWebSocket(url, options.protocols, {
      ...(WebSocketImpl ? { WebSocket: WebSocketImpl } : {}),
      ...definedOnly({
        minReconnectionDelay,
        maxReconnectionDelay,
        maxRetries,
        reconnectionDelayGrowFactor: options.reconnectionDelayGrowFactor,
        minUptime: options.minUptime,
        connectionTimeout: options.connectionTimeout,
        maxEnqueuedMessages: options.maxEnqueuedMessages,
        debug: options.debug,
        debugLogger: options.debugLogger,
      }),
      startClosed: options.startClosed === true || this.closedForGood,
      shouldReconnectOnClose: (e) => this.classifyClose(e as unknown as CloseEvent, maxRetries),
    });
    this.socket = socket;
    socket.addEventListener("message", (e) => this.onMessage(e as MessageEvent));
    socket.addEventListener("open", (e) => {
      this.error = null;
      this.closedForGood = false;
      if (this.socket) this.rpc.flush(this.socket);
      // A server that sends no connect frames (protocol messages off) never says the initial state is in: a
      // held `setState` then goes out after a while rather than never.
      if (this.heldState) this.armHeldStateFallback();
      this.touch();
      this.emit("open", e);
    });
    socket.addEventListener("close", (e) => this.onClose(e as unknown as CloseEvent));
    socket.addEventListener("error", (e) => this.emit("error", e as unknown as Event));
    const early = this.early;
    this.early = [];
    for (const frame of early) socket.send(frame);
    this.touch();
  }

  /** Notified when status, identity, state or the MCP list change (for `useSyncExternalStore`). */
  subscribe = (fn: () => void): (() => void) => {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  };

  /** Changes whenever a `subscribe` listener is notified. */
  getVersion = (): number => this.version;

  private touch() {
    this.version++;
    for (const fn of [...this.watchers]) fn();
  }

  /**
   * Resolves once the instance is identified on the current connection (the official object's `ready`): when
   * the server sends its state on connect, only after that state has been applied. The same promise until a
   * close after it resolved replaces it, so it can be awaited again after a reconnect.
   */
  get ready(): Promise<void> {
    return this.readyGate.promise;
  }

  /** partysocket's flag: whether the socket reconnects after a close (false once closed for good or disabled). */
  get shouldReconnect(): boolean {
    if (this.socket) return this.socket.shouldReconnect;
    return this.loadingWebSocket !== undefined && !this.closedForGood;
  }

  /** The official object's name for `error`. */
  get connectionError(): AgentConnectionError | null {
    return this.error;
  }

  /** The sub-agent chain this connection addresses, root first (empty for a top-level agent). */
  get path(): ReadonlyArray<{ agent: string; name: string }> {
    return this.options.sub ?? [];
  }

  /** See `AGENT_THREAD_KEY`: the thread this connection addresses, for `useAgentChat`'s key. */
  get [AGENT_THREAD_KEY](): string {
    const o = this.options;
    const sub = (o.sub ?? []).map((s) => [kebabAgentName(s.agent), s.name]);
    return JSON.stringify([
      o.host,
      o.basePath ?? null,
      o.path ?? null,
      kebabAgentName(o.agent),
      o.name || "default",
      sub,
    ]);
  }

  /** `connecting` until the socket opens, `closed` after a close (reconnecting or not). */
  get status(): ConnectionStatus {
    const s = this.readyState;
    return s === 1 ? "open" : s === 0 ? "connecting" : "closed";
  }

  private queryCache: { value: Query; at: number } | undefined;
  /** The async query's last answer: the cache is dropped on each close, the address stays known. */
  private lastQuery: Query | undefined;

  private async resolveQuery(): Promise<Query> {
    const ttl = this.options.cacheTtl ?? 5 * 60_000;
    const c = this.queryCache;
    if (c && Date.now() - c.at < ttl) return c.value;
    const value = await (this.options.query as () => Query | Promise<Query>)();
    const wasPending = this.addressPending;
    this.queryCache = { value, at: Date.now() };
    this.lastQuery = value;
    // The address is known now: hooks re-render, and `useAgentChat` can load the transcript with the token.
    if (wasPending) this.touch();
    return value;
  }

  /** WebSocket-style ready state (0–3), for code written against the official object. */
  get readyState(): number {
    if (this.socket) return this.socket.readyState;
    return this.closedForGood || this.options.startClosed ? 3 : 0;
  }

  /** True until an async `query` has resolved once: the address (with its token) is not known yet. */
  get addressPending(): boolean {
    return typeof this.options.query === "function" && this.lastQuery === undefined;
  }

  /** `addressPending`, under the symbol the official object uses (so `useAgentChat` reads either). */
  get [SOCKET_ADDRESS_PENDING](): boolean {
    return this.addressPending;
  }

  /**
   * The agent's HTTP URL (`…/get-messages` with `path`), with the query but without the connection id. `""`
   * while the address is pending, as the official object answers, so nothing is fetched without the token.
   */
  getHttpUrl(path?: string): string {
    if (this.addressPending) return "";
    return agentHttpUrl({ ...this.address, ...(this.lastQuery ? { query: this.lastQuery } : {}) }, path);
  }

  /** Sends a raw text frame; buffered while connecting. */
  send(data: string): void {
    if (this.socket) this.socket.send(data);
    else this.early.push(data);
  }

  /**
   * Optimistic, like the official client: applied and reported at once, never acknowledged. Until the
   * server's initial state has been applied on the current connection, the frame is held and sent right
   * after it (the latest `setState` only): sent earlier, the server would take it and then this client would
   * take the older initial state over it, and the two would disagree from then on (an official bug).
   */
  setState(state: State): void {
    if (this.successor) {
      this.successor.setState(state);
      return;
    }
    this.state = state;
    this.sendOrHold(state);
    this.options.onStateUpdate?.(state, "client");
    this.touch();
  }

  /**
   * Calls a `@callable()` method. Rejects with the server's error message, on timeout, when the socket it
   * went out on closes, or when the client closes for good. A call made while the socket is down waits
   * for the next open instead (the official client keeps untransmitted calls across a reconnect).
   */
  call<T = unknown>(method: string, args: unknown[] = [], options: CallOptions = {}): Promise<T> {
    if (this.successor) return this.successor.call<T>(method, args, options);
    return this.rpc.call<T>(method, args, options);
  }

  /**
   * Hands this connection over to `next`, which replaces it (what `useAgent` does when its options change):
   * from then on `call`, `stub` and `setState` made on this object act on `next`, as an older object of the
   * official hook acts on the hook's current socket. Calls that have not gone out yet move to `next` and go
   * out when it opens; when `next` reaches another agent (host, `basePath`, class, name, sub-agent chain or
   * `path` changed) they reject with "Call discarded: the agent address changed before the request could be
   * sent" instead (docs/protocol.md#reconnecting). For the same agent, `next` starts from what this one
   * knew (state, identity, MCP list) and a held `setState` moves with it. Calls already sent reject when
   * this connection is closed, as on any close.
   */
  handOverTo(next: AgentClient<State, Methods>): void {
    if (next === this || this.successor) return;
    this.successor = next;
    const sameAgent = agentKey(this.options) === agentKey(next.options);
    this.rpc.handOverUnsent(
      next.rpc,
      sameAgent ? undefined : "Call discarded: the agent address changed before the request could be sent",
    );
    if (!sameAgent) return;
    next.state ??= this.state;
    next.mcp ??= this.mcp;
    if (!next.identity && this.identity) {
      next.identity = this.identity;
      next.name = this.name;
      next.agent = this.agent;
    }
    const held = this.heldState;
    this.heldState = undefined;
    this.clearHeldStateFallback();
    if (held && !next.heldState) {
      next.state = held.state;
      next.sendOrHold(held.state);
    }
    next.touch();
  }

  /** `client.stub.increment(2)` ≡ `client.call("increment", [2])`. */
  readonly stub: AgentStub<Methods> = createStub<Methods>((method, args) => this.call(method, args));

  /**
   * Listens to the socket: every `message` (except RPC replies, as the official client), and each `open`,
   * `close` and `error`, across reconnects. All listeners get the same event object.
   */
  addEventListener<K extends keyof AgentSocketEventMap>(
    type: K,
    fn: (event: AgentSocketEventMap[K]) => void,
  ): void {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    set.add(fn as Listener);
  }

  /** Stops listening. */
  removeEventListener<K extends keyof AgentSocketEventMap>(
    type: K,
    fn: (event: AgentSocketEventMap[K]) => void,
  ): void {
    this.listeners.get(type)?.delete(fn as Listener);
  }

  /** Closes and connects again (also after a terminal close). */
  reconnect(): void {
    this.error = null;
    this.closedForGood = false;
    if (this.socket) this.socket.reconnect();
    else {
      this.connect();
      if (this.options.startClosed) (this.socket as ReconnectingWebSocket | undefined)?.reconnect();
    }
  }

  /** Closes for good; pending calls reject, and calls made until the next `reconnect()` reject at once. */
  close(code?: number, reason?: string): void {
    this.closedForGood = true;
    this.clearHeldStateFallback();
    this.rpc.rejectSent(true);
    this.early = [];
    this.socket?.close(code, reason);
  }

  private emit(type: string, event: Event) {
    for (const fn of [...(this.listeners.get(type) ?? [])]) {
      try {
        fn(event);
      } catch (e) {
        // A listener's bug must not stop the others or the connection.
        this.options.onError?.(e instanceof Error ? e : new Error(String(e)));
      }
    }
  }

  private onMessage(event: MessageEvent) {
    // The stores listening to this connection are handed this same event object, so they read this parse.
    const parsed = readFrame(event, this.options.maxFrameBytes);
    if (parsed.kind === "error") {
      this.options.onError?.(new Error(parsed.reason));
      // An oversized frame is dropped unparsed: an app's `onMessage` would otherwise parse it. (A frame too
      // deep still goes on, so the chat or run store it belongs to reports it too, from this same parse.)
      if (parsed.limit === "size") return;
    }
    if (parsed.kind === "frame") {
      const f = parsed.frame;
      switch (f.type) {
        case "cf_agent_identity": {
          // The state the identity announces comes next: the instance counts as identified (and `ready`
          // resolves) once it has been applied, as on the official object (docs/protocol.md#identity).
          if (f.stateFollows === true && !this.connecting.stateSeen) {
            this.connecting.pendingIdentity = { name: f.name, agent: f.agent };
            break;
          }
          // No state follows: the connect frames have said all they say about the state.
          this.initialStateIn();
          this.applyIdentity(f.name, f.agent);
          break;
        }
        case "cf_agent_state":
          this.state = f.state as State;
          try {
            this.options.onStateUpdate?.(this.state, "server");
          } finally {
            this.connecting.stateSeen = true;
            this.initialStateIn();
            const pending = this.connecting.pendingIdentity;
            this.connecting.pendingIdentity = undefined;
            if (pending) this.applyIdentity(pending.name, pending.agent);
          }
          break;
        case "cf_agent_state_error":
          this.options.onStateUpdateError?.(f.error);
          break;
        case "cf_agent_mcp_servers":
          this.mcp = f.mcp;
          // The last of the connect frames: a server that sent no identity has no initial state coming.
          this.initialStateIn();
          this.options.onMcpUpdate?.(f.mcp);
          break;
        case "rpc":
          // The server answers after its connect frames: none that is still to come carries the state.
          this.initialStateIn();
          this.rpc.receive(f);
          return; // RPC replies are the caller's, not the app's message stream (as the official client)
      }
      if (f.type === "cf_agent_identity" || f.type === "cf_agent_state" || f.type === "cf_agent_mcp_servers")
        this.touch();
    }
    this.emit("message", event);
  }

  private applyIdentity(name: string, agent: string) {
    const before = this.identity;
    this.identity = { name, agent };
    this.name = name;
    this.agent = agent;
    this.identified = true;
    this.readyGate.resolve();
    if (before && (before.name !== name || before.agent !== agent)) {
      if (this.options.onIdentityChange)
        this.options.onIdentityChange(before.name, name, before.agent, agent);
      else
        console.warn(
          `[runboard] The agent instance changed on reconnect (${before.agent}/${before.name} → ${agent}/${name}); pass onIdentityChange to handle it.`,
        );
    }
    this.options.onIdentity?.(name, agent);
  }

  /**
   * The server's initial state (or its absence) is known on this connection: `setState` goes out at once
   * from now on, and one held until now goes out after that state, so the app's update is the last word on
   * both sides. The app hears it again, since the server's state was reported in between.
   */
  private initialStateIn() {
    if (this.connecting.framesIn) return;
    this.connecting.framesIn = true;
    this.clearHeldStateFallback();
    const held = this.heldState;
    if (!held) return;
    this.heldState = undefined;
    this.state = held.state;
    this.send(encodeSetState(held.state));
    this.options.onStateUpdate?.(held.state, "client");
  }

  /** Sends a `setState` frame, or holds it until the initial state is in (the latest one held wins). */
  private sendOrHold(state: State) {
    if (this.connecting.framesIn) {
      this.send(encodeSetState(state));
      return;
    }
    this.heldState = { state };
    if (this.socket?.readyState === 1) this.armHeldStateFallback();
  }

  private armHeldStateFallback() {
    if (this.heldTimer !== undefined) return;
    this.heldTimer = setTimeout(() => {
      this.heldTimer = undefined;
      if (this.socket?.readyState === 1) this.initialStateIn();
    }, HELD_STATE_FALLBACK_MS);
  }

  private clearHeldStateFallback() {
    if (this.heldTimer !== undefined) clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
  }

  /** Whether to reconnect; a refusal that ends reconnecting is remembered so the close reports an error. */
  private finalClose = false;
  /** Set by `close()` and by a close that ends reconnecting; cleared by `reconnect()` and on open. */
  private closedForGood = false;
  private classifyClose(event: CloseEvent, maxRetries: number | undefined): boolean {
    const reconnect =
      !isTerminalCloseCode(event.code) && (this.options.shouldReconnectOnClose?.(event) ?? true);
    // partysocket asks before counting the next attempt, so retryCount still counts the one that just closed.
    const retriesSpent = (this.socket?.retryCount ?? 0) >= (maxRetries ?? Number.POSITIVE_INFINITY);
    this.finalClose = this.socket?.shouldReconnect !== false && (!reconnect || retriesSpent);
    return reconnect;
  }

  private onClose(event: CloseEvent) {
    // A token in the query may be why the server closed: fetch a fresh one for the next attempt.
    this.queryCache = undefined;
    // Calls that went out on this socket cannot be answered on the next one: the server forgets them with
    // the connection. Calls still waiting to go out keep waiting, unless no next socket is coming.
    const final = this.finalClose || this.closedForGood;
    this.rpc.rejectSent(final);
    // The next connection says again who this is and sends its state again (docs/protocol.md#reconnecting).
    this.identified = false;
    if (this.readyGate.resolved) this.readyGate = readyGate();
    this.connecting = freshConnect();
    this.clearHeldStateFallback();
    if (this.finalClose) {
      this.closedForGood = true;
      this.finalClose = false;
      this.error = new AgentConnectionError(event.code, event.reason, event.wasClean !== false);
      this.options.onError?.(this.error);
      this.options.onConnectionError?.(this.error);
    }
    this.touch();
    this.emit("close", event as unknown as Event);
  }
}
