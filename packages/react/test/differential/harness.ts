/**
 * Differential harness: one script, played once against the official `useAgentChat`
 * (`@cloudflare/ai-chat/react`) and once against ours, each on its own scripted socket, recording what an
 * app sees after every step (messages, status and flags, callbacks, frames sent, fetches, suspension,
 * errors). `compare` lists every difference in words, so a failing test reads as a bug list.
 *
 * Written without JSX so tsconfig.tests.json (which takes `packages/*\/test/**\/*.ts`) type-checks it.
 */
import { useAgentChat as useOfficialAgentChat } from "@cloudflare/ai-chat/react";
import { act, cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import {
  Component,
  type ErrorInfo,
  createElement as h,
  type ReactNode,
  StrictMode,
  Suspense,
  useEffect,
} from "react";
import { vi } from "vitest";
import { useAgentChat as useOurAgentChat } from "../../src/use-agent-chat.ts";
import { pending, resumeNone, resuming } from "./frames.ts";

export type Side = "official" | "ours";

/** Set on the object the official `useAgent` returns while its options address another agent. */
const ADDRESS_PENDING = Symbol.for("cloudflare.agents.socketAddressPending");

// ───────────────────────────── the socket ─────────────────────────────

/**
 * Looks like the object the official `useAgent` returns (a partysocket with the agent's address on it), and
 * satisfies our `ChatAgentLike`. Frames the hook sends are recorded; the test pushes server frames.
 */
type Listener = ((e: Event) => void) | { handleEvent(e: Event): void };

export class FakeAgent {
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 1;
  /** The kebab-case class name, as the official object carries it after `camelCaseToKebabCase`. */
  readonly agent = "chat-agent";
  readonly path: { agent: string; name: string }[];
  readonly partySocketOptions: Record<string, unknown>;
  connectionError: Error | null = null;
  identified = true;
  state: unknown;
  readonly _pk: string;
  /** Frames sent while the socket was down wait here, as partysocket buffers them. */
  private readonly buffered: string[] = [];
  onSend?: (data: string) => void;
  /** An exception a listener threw while handling an event (what a browser reports as uncaught). */
  onListenerError?: (e: unknown) => void;
  private readonly listeners = new Map<string, Set<Listener>>();

  /**
   * With `basePath` the socket routes as a custom-routed agent does (`useAgent({ basePath })`): every thread
   * has the URL `/<basePath>`, the thread travels in the query (`?thread=<name>`).
   */
  readonly basePath: string | undefined;
  /** False while the socket has no URL yet: `getHttpUrl()` answers `""` without the pending mark. */
  urlKnown = true;

  constructor(
    readonly host: string,
    public name: string,
    pk: string,
    o: { basePath?: string } = {},
  ) {
    this._pk = pk;
    this.basePath = o.basePath;
    this.path = [{ agent: "ChatAgent", name }];
    this.partySocketOptions = {
      host,
      prefix: "agents",
      party: "chat-agent",
      room: name,
      path: undefined,
      query: undefined,
      ...(o.basePath ? { basePath: o.basePath, query: { thread: name } } : {}),
    };
  }

  get _url(): string {
    if (this.basePath) return `ws://${this.host}/${this.basePath}?thread=${this.name}&_pk=${this._pk}`;
    return `ws://${this.host}/agents/chat-agent/${this.name}?_pk=${this._pk}`;
  }

  /** The official object's answer: the socket's own URL in http form (with `_pk`), `""` while re-addressing. */
  getHttpUrl = (): string =>
    this.addressPending || !this.urlKnown ? "" : this._url.replace("ws://", "http://");

  get addressPending(): boolean {
    return (this as unknown as Record<symbol, boolean>)[ADDRESS_PENDING] === true;
  }

  set addressPending(v: boolean) {
    (this as unknown as Record<symbol, boolean>)[ADDRESS_PENDING] = v;
  }

  send(data: string): void {
    if (this.readyState !== 1) {
      this.buffered.push(data);
      return;
    }
    this.onSend?.(data);
  }

  addEventListener(
    type: string,
    fn: Listener | null,
    options?: boolean | { once?: boolean; signal?: AbortSignal },
  ): void {
    if (!fn) return;
    const o = typeof options === "object" ? options : {};
    if (o.signal?.aborted) return;
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    const entry: Listener = o.once
      ? (e: Event) => {
          this.removeEventListener(type, entry);
          call(fn, e);
        }
      : fn;
    set.add(entry);
    o.signal?.addEventListener("abort", () => this.removeEventListener(type, entry), { once: true });
  }

  removeEventListener(type: string, fn: Listener | null): void {
    if (fn) this.listeners.get(type)?.delete(fn);
  }

  /**
   * Every listener sees the event, as on a real socket; one that throws is reported (a browser shows it as
   * an uncaught error) and the others still run.
   */
  dispatchEvent(e: Event): boolean {
    for (const fn of [...(this.listeners.get(e.type) ?? [])]) {
      try {
        call(fn, e);
      } catch (err) {
        this.onListenerError?.(err);
      }
    }
    return true;
  }

  /** Server → client, synchronously. */
  push(data: string): void {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }

  /** The link drops (a transient close, 1006), or the socket is closed (1000). */
  drop(code = 1006): void {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason: "", wasClean: code === 1000 }));
  }

  /** The socket reconnects: `open`, then what was buffered goes out. */
  reopen(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
    for (const d of this.buffered.splice(0)) this.onSend?.(d);
  }

  close(): void {
    this.readyState = 3;
  }

  reconnect(): void {}
}

const call = (fn: Listener, e: Event) => (typeof fn === "function" ? fn(e) : fn.handleEvent(e));

// ───────────────────────────── recording ─────────────────────────────

export interface View {
  messages: unknown[];
  status: string;
  error: string | undefined;
  isStreaming: boolean;
  isServerStreaming: boolean;
  isToolContinuation: boolean;
  isRecovering: boolean;
}

export interface Call {
  name: string;
  args: unknown;
}

export interface Step {
  label: string;
  /** The hook's state once the step settled; undefined while the hook has not rendered (suspended). */
  view: View | undefined;
  /** The Suspense fallback is showing now. */
  suspended: boolean;
  /** The fallback showed at some point during the step. */
  suspendedDuring: boolean;
  /** Distinct consecutive `status` values rendered during the step. */
  statusTrail: string[];
  calls: Call[];
  sent: unknown[];
  fetches: string[];
  /** Each `fetch` call as the app's `fetch` received it: the kind of its input, the URL and the init. */
  fetchArgs: FetchArgs[];
  errors: string[];
  warnings: string[];
  /** What the step did, in words (the generator's server events). */
  note?: string;
  /** The server's stored transcript of the thread shown, after the step (the generator's server model). */
  server?: unknown;
}

/** One call of `fetch`: `input` is `"string"`, `"URL"` or `"Request"`; the init's keys are all kept. */
export interface FetchArgs {
  input: string;
  url: string;
  init: unknown;
}

export const ACTIONS = [
  "sendMessage",
  "regenerate",
  "stop",
  "setMessages",
  "clearHistory",
  "addToolOutput",
  "addToolResult",
  "addToolApprovalResponse",
  "resumeStream",
  "clearError",
] as const;
export type ActionName = (typeof ACTIONS)[number];

/** What both hooks return, as far as these tests read it. */
export interface Chat {
  messages: UIMessage[];
  status: string;
  error: Error | undefined;
  isStreaming: boolean;
  isServerStreaming: boolean;
  isToolContinuation: boolean;
  isRecovering: boolean;
  sendMessage(m?: Record<string, unknown>, o?: Record<string, unknown>): Promise<void>;
  regenerate(o?: Record<string, unknown>): Promise<void>;
  stop(): unknown;
  setMessages(m: UIMessage[] | ((p: UIMessage[]) => UIMessage[])): void;
  clearHistory(): void;
  addToolOutput(o: {
    toolCallId: string;
    toolName?: string;
    output?: unknown;
    state?: "output-available" | "output-error";
    errorText?: string;
  }): unknown;
  addToolResult(o: { tool: string; toolCallId: string; output: unknown }): unknown;
  addToolApprovalResponse(o: { id: string; approved: boolean; reason?: string }): unknown;
  resumeStream(): Promise<unknown>;
  clearError(): void;
}

type Options = Record<string, unknown>;

/**
 * A server model that answers what the hook sends, instead of the Driver's built-in answers to probes (the
 * generator's, generator/server.ts).
 */
export interface ServerSide {
  /** A frame the hook sent on socket `a`. */
  sees(a: FakeAgent, frame: Record<string, unknown>): void;
  /** Socket `a` closed. */
  closed(a: FakeAgent): void;
  /** Socket `a` is about to open again (a reconnect). */
  connected(a: FakeAgent): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let runCounter = 0;

/** Drives one hook through a script and records each step. */
export class Driver {
  readonly steps: Step[] = [];
  readonly room: string;
  readonly host: string;
  agent: FakeAgent;
  /** Every agent this run used (a new one replaces the old on rotation). */
  private readonly agents: FakeAgent[] = [];
  latest: Chat | undefined;
  /** How often each action changed identity from one render to the next. */
  readonly identityChanges: Record<string, number> = {};
  private prevActions: Partial<Record<ActionName, unknown>> | undefined;
  private pendingCalls: Call[] = [];
  private pendingSent: unknown[] = [];
  private pendingFetches: string[] = [];
  private pendingFetchArgs: FetchArgs[] = [];
  private pendingErrors: string[] = [];
  private pendingWarnings: string[] = [];
  private trail: string[] = [];
  private activity = 0;
  /** Raw frames sent by the hook, parsed, oldest first (for scripts to answer requests and probes). */
  readonly sentRaw: Record<string, unknown>[] = [];
  /** Answer every resume probe with an authoritative idle, as a server with nothing live does. */
  autoIdle = true;
  fallbackShown = false;
  private fallbackDuring = false;
  private rerenderWith?: (o: Options) => void;
  private currentOptions: Options = {};
  private mountFlags: { strict?: boolean } = {};
  private readonly gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  /** The transcript `GET …/get-messages` answers (per room), and how. */
  readonly served = new Map<string, { status: number; body: string; gate?: string }>();
  private readonly ids = new IdCanon();
  private unmounted = false;
  /** Answers the hook's frames when set (else the built-in probe answers below). */
  server: ServerSide | undefined;
  /** Quiet rounds `settle` waits for (5 by default). */
  quietRounds = 5;

  constructor(readonly side: Side) {
    const n = ++runCounter;
    this.room = `room${n}`;
    this.host = `agents${n}.example`;
    this.agent = this.newAgent(this.room);
    // The placeholders `urls` writes are no client ids.
    this.ids.learn(JSON.stringify(["PK", "HOST", "ROOM"]));
  }

  /** A socket for `name` on this run's host (a new `_pk` each time, as a new connection has). */
  newAgent(name: string, o: { basePath?: string } = {}): FakeAgent {
    const a = new FakeAgent(this.host, name, `pk-${this.side}-${this.agents.length + 1}`, o);
    a.onSend = (data) => this.onSend(a, data);
    a.onListenerError = (e) => this.error("uncaught in a socket listener", e);
    this.agents.push(a);
    return a;
  }

  // ── recorders ──

  /** A callback that records its calls under `name`, then runs `impl`. */
  cb<A extends unknown[], R>(name: string, impl?: (...args: A) => R): (...args: A) => R {
    return (...args: A) => {
      this.pendingCalls.push({ name, args: this.recordArgs(name, args) });
      this.activity++;
      return impl?.(...args) as R;
    };
  }

  private recordArgs(name: string, args: unknown[]): unknown {
    const a = args[0] as Record<string, unknown> | undefined;
    if (a instanceof Error) return { error: a.message };
    // Ours hands prepareSendMessagesRequest the request id (the official: the connection's `_pk`).
    if (name.startsWith("prepareSendMessagesRequest") && typeof a?.id === "string" && a.id !== this.agent._pk)
      this.ids.name(a.id, "r");
    if (name.startsWith("onToolCall") && a && "toolCall" in a)
      return this.ids.canon(plain({ toolCall: a.toolCall }));
    return this.ids.canon(this.urls(plain(args.length === 1 ? a : args)));
  }

  private onSend(a: FakeAgent, data: string) {
    const f = JSON.parse(data) as Record<string, unknown>;
    this.sentRaw.push(f);
    const i = this.agents.indexOf(a);
    const normal = this.normalFrame(f) as Record<string, unknown>;
    this.pendingSent.push(i === this.agents.length - 1 && i === 0 ? normal : { socket: i + 1, ...normal });
    this.activity++;
    if (this.server) this.server.sees(a, f);
    else this.serverSees(a, f);
  }

  /** Every socket this run made, oldest first. */
  sockets(): readonly FakeAgent[] {
    return this.agents;
  }

  /** A server frame to socket `a`, now (its ids are the server's). */
  deliver(a: FakeAgent, frame: string): void {
    if (this.unmounted) return;
    this.ids.learn(frame);
    a.push(frame);
  }

  /**
   * The server's side of the handshake, as the real one answers (reference rules A–E): a probe gets
   * `stream_pending` while a tool continuation it owes is not streaming yet, `stream_resuming` once it is
   * (`continuation-owned` when another tab's socket owns it), and an authoritative idle otherwise (when `autoIdle`). A tool result or approval with `autoContinue`
   * makes a continuation pending (its id: `cont-N`).
   */
  private serverSees(a: FakeAgent, f: Record<string, unknown>) {
    if (
      (f.type === "cf_agent_tool_result" || f.type === "cf_agent_tool_approval") &&
      f.autoContinue === true &&
      !this.continuation
    )
      this.continuation = { id: `cont-${++this.continuations}`, streaming: false };
    if (f.type === "cf_agent_stream_resume_ack") this.acks.add(`${this.agents.indexOf(a)}:${f.id}`);
    if (f.type !== "cf_agent_stream_resume_request") return;
    const probe = f.probeId as string | undefined;
    const c = this.continuation;
    const answer = c
      ? c.streaming
        ? c.elsewhere
          ? resumeNone(probe, "continuation-owned")
          : resuming(c.id, probe)
        : pending(c.id, probe)
      : this.autoIdle
        ? resumeNone(probe, "idle")
        : undefined;
    if (!answer) return;
    setTimeout(() => {
      if (this.unmounted || a.readyState !== 1) return;
      this.ids.learn(answer);
      a.push(answer);
    }, 0);
  }

  /**
   * The tool continuation the server owes (after an auto-continued tool result or approval). `elsewhere`: it
   * belongs to another tab's socket (that tab's answer reached the server first), so a probe while it streams
   * is answered `continuation-owned` (rule A).
   */
  continuation: { id: string; streaming: boolean; elsewhere?: boolean } | undefined;
  private continuations = 0;
  private readonly acks = new Set<string>();

  /** Whether the current socket has ACKed stream `id` (the server only streams to sockets that did). */
  acked(id: string): boolean {
    return this.acks.has(`${this.agents.indexOf(this.agent)}:${id}`);
  }

  /** Request ids and probe ids are minted by the client: they become stable names; request bodies are parsed. */
  private normalFrame(f: Record<string, unknown>): unknown {
    const out: Record<string, unknown> = { ...f };
    if (typeof f.id === "string" && String(f.type).startsWith("cf_agent_")) this.ids.name(f.id, "r");
    if (f.type === "cf_agent_use_chat_request") {
      const init = f.init as { method: string; body: string };
      out.init = { method: init.method, body: JSON.parse(init.body) };
    }
    return this.ids.canon(this.urls(plain(out)));
  }

  /** `v` as the recording shows values: key order and undefined fields out, client ids named, URLs masked. */
  canonical<T>(v: T): T {
    return this.ids.canon(this.urls(plain(v)));
  }

  private urls<T>(v: T): T {
    const s = JSON.stringify(v);
    if (s === undefined) return v;
    let r = s;
    for (const a of this.agents) r = r.split(a._pk).join("PK");
    r = r.split(this.host).join("HOST");
    r = r.replace(new RegExp(`${this.room}(-\\w+)?`, "g"), (_m, suffix: string | undefined) =>
      suffix ? `ROOM${suffix}` : "ROOM",
    );
    return JSON.parse(r) as T;
  }

  // ── the hook ──

  private record(chat: Chat) {
    this.latest = chat;
    this.activity++;
    if (this.trail.at(-1) !== chat.status) this.trail.push(chat.status);
    const now: Partial<Record<ActionName, unknown>> = {};
    for (const k of ACTIONS) now[k] = chat[k];
    if (this.prevActions)
      for (const k of ACTIONS)
        if (now[k] !== this.prevActions[k]) this.identityChanges[k] = (this.identityChanges[k] ?? 0) + 1;
    this.prevActions = now;
  }

  private tree(options: Options): ReactNode {
    const probe = h(this.side === "official" ? OfficialProbe : OurProbe, { d: this, options });
    const fallback = h(Fallback, { d: this });
    const content = h(Suspense, { fallback }, h(Boundary, { d: this }, probe));
    return this.mountFlags.strict ? h(StrictMode, null, content) : content;
  }

  /** Options every run gets unless the script overrides them. */
  private defaults(): Options {
    return {
      agent: this.agent,
      throttle: false,
      onError: this.cb("onError"),
      onFinish: this.cb("onFinish"),
      onData: this.cb("onData"),
      onTurnEnd: this.cb("onTurnEnd"),
    };
  }

  private withDefaults(options: Options): Options {
    const o = { ...this.defaults(), ...options };
    for (const [k, v] of Object.entries(o)) if (v === OMIT) delete o[k];
    return o;
  }

  async mount(options: Options = {}, flags: { strict?: boolean } = {}): Promise<void> {
    this.mountFlags = flags;
    this.currentOptions = this.withDefaults(options);
    // Awaited: a render that suspends must be inside an awaited `act`.
    await act(async () => {
      const r = render(this.tree(this.currentOptions));
      this.rerenderWith = (o) => r.rerender(this.tree(o));
    });
    await this.settle();
    this.snap("mount");
  }

  /** Renders again with new options (merged over the defaults, not over the previous options). */
  async rerender(options: Options = {}, label = "rerender"): Promise<void> {
    this.currentOptions = this.withDefaults(options);
    await act(async () => this.rerenderWith?.(this.currentOptions));
    await this.settle();
    this.snap(label);
  }

  /** Renders again with the same options object (a parent re-render). */
  async renderAgain(label = "render again"): Promise<void> {
    await act(async () => this.rerenderWith?.({ ...this.currentOptions }));
    await this.settle();
    this.snap(label);
  }

  async unmount(): Promise<void> {
    this.unmounted = true;
    cleanup();
    await sleep(5);
  }

  /**
   * The component unmounts and mounts again with the same options (a route change and back): a new hook
   * instance on the same socket.
   */
  async remount(label = "remount"): Promise<void> {
    await act(async () => cleanup());
    this.latest = undefined;
    this.prevActions = undefined;
    this.fallbackShown = false;
    await act(async () => {
      const r = render(this.tree(this.currentOptions));
      this.rerenderWith = (o) => r.rerender(this.tree(o));
    });
    await this.settle();
    this.snap(label);
  }

  // ── script steps ──

  /** Server frames, each its own step (labelled by the frame's type or chunk type). */
  async push(...frames: string[]): Promise<void> {
    for (const f of frames) {
      this.ids.learn(f);
      await act(async () => this.agent.push(f));
      await this.settle();
      this.snap(`push ${describe(f)}`);
    }
  }

  /** Server frames delivered together, as one step. */
  async pushAll(label: string, frames: string[]): Promise<void> {
    await act(async () => {
      for (const f of frames) {
        this.ids.learn(f);
        this.agent.push(f);
      }
    });
    await this.settle();
    this.snap(label);
  }

  /**
   * A user action on the latest render. Promises are not awaited (the official `sendMessage` resolves only
   * when the turn ends); a rejection is recorded as an error. Waits for the hook to render first, as a user
   * can only click what is on screen.
   */
  async act(label: string, fn: (chat: Chat) => unknown): Promise<void> {
    await this.waitFor(() => this.latest !== undefined && !this.fallbackShown, `${label}: hook rendered`);
    await act(async () => {
      try {
        const r = fn(this.latest as Chat);
        if (r && typeof (r as Promise<unknown>).then === "function")
          (r as Promise<unknown>).then(undefined, (e: unknown) => this.error(`${label} rejected`, e));
      } catch (e) {
        this.error(`${label} threw`, e);
      }
    });
    await this.settle();
    this.snap(label);
  }

  /**
   * A user action if the chat is on screen now (not suspended); otherwise only a recorded step. `fn` returns
   * what the action did, for the step's note.
   */
  async tryAct(label: string, fn: (chat: Chat) => unknown): Promise<void> {
    if (this.latest !== undefined && !this.fallbackShown) {
      const chat = this.latest;
      await act(async () => {
        try {
          const r = fn(chat);
          if (r && typeof (r as Promise<unknown>).then === "function")
            (r as Promise<unknown>).then(undefined, (e: unknown) => this.error(`${label} rejected`, e));
        } catch (e) {
          this.error(`${label} threw`, e);
        }
      });
    }
    await this.settle();
    this.snap(label);
  }

  /**
   * A user action taken as soon as the chat is on screen: now if it is, else at the first settle that
   * shows it (while a suspended hook waits for its transcript, say). The step is recorded either way.
   */
  async actWhenVisible(label: string, fn: (chat: Chat) => unknown): Promise<void> {
    this.queued.push({ label, fn });
    await this.settle();
    this.snap(`${label} (when visible)`);
  }

  private queued: { label: string; fn: (chat: Chat) => unknown }[] = [];

  private runQueued() {
    if (this.latest === undefined || this.fallbackShown) return;
    for (const { label, fn } of this.queued.splice(0)) {
      try {
        const r = fn(this.latest);
        if (r && typeof (r as Promise<unknown>).then === "function")
          (r as Promise<unknown>).then(undefined, (e: unknown) => this.error(`${label} rejected`, e));
      } catch (e) {
        this.error(`${label} threw`, e);
      }
      this.activity++;
    }
  }

  async drop(label = "socket close"): Promise<void> {
    await act(async () => {
      this.agent.drop();
      this.server?.closed(this.agent);
    });
    await this.settle();
    this.snap(label);
  }

  async reopen(label = "socket open"): Promise<void> {
    await act(async () => {
      this.server?.connected(this.agent);
      this.agent.reopen();
    });
    await this.settle();
    this.snap(label);
  }

  /**
   * Replaces the socket (a new `useAgent` object) and renders with it. With `closeOld`, the old socket then
   * closes for good, as `useAgent` closes the socket it replaced.
   */
  async useAgent(
    agent: FakeAgent,
    options: Options = {},
    label = "new agent object",
    closeOld = false,
  ): Promise<void> {
    const old = this.agent;
    this.agent = agent;
    if (!closeOld) {
      await this.rerender({ ...options, agent }, label);
      return;
    }
    // The app's options stay as they were: only the agent object is new.
    this.currentOptions = { ...this.currentOptions, ...options, agent };
    await act(async () => {
      this.rerenderWith?.(this.currentOptions);
    });
    await act(async () => {
      if (old !== agent && old.readyState === 1) {
        old.drop(1000);
        this.server?.closed(old);
      }
    });
    await this.settle();
    this.snap(label);
  }

  /** A promise the script resolves later with `release` (a held fetch, a pending tool). */
  gate(name: string): Promise<void> {
    let g = this.gates.get(name);
    if (!g) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      g = { promise, resolve };
      this.gates.set(name, g);
    }
    return g.promise;
  }

  async release(name: string, label = `release ${name}`): Promise<void> {
    this.gate(name);
    await act(async () => this.gates.get(name)?.resolve());
    await this.settle();
    this.snap(label);
  }

  /**
   * A server event (frames the server model delivers while `fn` runs), as one step; `fn` says what happened,
   * kept as the step's note.
   */
  async serverStep(label: string, fn: () => string): Promise<void> {
    let note = "";
    await act(async () => {
      note = fn();
    });
    await this.settle();
    this.snap(label);
    const last = this.steps.at(-1);
    if (last) last.note = note;
  }

  /** Records the current state as a step with no action. */
  async step(label: string): Promise<void> {
    await this.settle();
    this.snap(label);
  }

  // ── reading what the hook sent ──

  /** The last chat request the hook sent: its id, the user message ids it carried, its parsed body. */
  lastRequest(): { id: string; userIds: string[]; body: Record<string, unknown> } {
    const f = [...this.sentRaw].reverse().find((x) => x.type === "cf_agent_use_chat_request");
    if (!f) throw new Error(`${this.side}: no chat request sent`);
    const body = JSON.parse((f.init as { body: string }).body) as {
      messages: UIMessage[];
    } & Record<string, unknown>;
    const userIds = body.messages.filter((m) => m.role === "user").map((m) => m.id);
    return { id: f.id as string, userIds: userIds.slice(-1), body };
  }

  /** The probe id of the last resume request (undefined if none). */
  lastProbe(): string | undefined {
    return [...this.sentRaw].reverse().find((x) => x.type === "cf_agent_stream_resume_request")?.probeId as
      | string
      | undefined;
  }

  // ── reading the recording ──

  /** Every recorded call of callbacks whose name starts with `prefix`, in order. */
  callsOf(prefix: string): Call[] {
    return this.steps.flatMap((s) => s.calls.filter((c) => c.name.startsWith(prefix)));
  }

  /** Every frame of `type` the hook sent (normalised), in order. */
  sentOf(type: string): Record<string, unknown>[] {
    return this.steps.flatMap((s) => (s.sent as Record<string, unknown>[]).filter((f) => f.type === type));
  }

  /** The state after the last step. */
  get last(): View | undefined {
    return this.steps.at(-1)?.view;
  }

  /** Every error recorded (boundary, uncaught, rejected actions). */
  get errors(): string[] {
    return this.steps.flatMap((s) => s.errors);
  }

  // ── settling ──

  /** Lets timers, promises and renders run until nothing happens for a while (or 3 s). */
  async settle(): Promise<void> {
    let quiet = 0;
    for (let i = 0; i < 300 && quiet < this.quietRounds; i++) {
      const before = this.activity;
      await act(async () => {
        await sleep(5);
        this.runQueued();
      });
      quiet = this.activity === before ? quiet + 1 : 0;
    }
  }

  async waitFor(pred: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > end) {
        this.error("timeout", new Error(`waited for ${what}`));
        return;
      }
      await act(async () => {
        await sleep(5);
      });
    }
  }

  private snap(label: string) {
    const c = this.latest;
    const rendered = c !== undefined && !this.fallbackShown;
    this.steps.push({
      label,
      view: rendered
        ? {
            messages: this.ids.canon(this.urls(plain(c.messages))) as unknown[],
            status: c.status,
            error: c.error?.message,
            isStreaming: c.isStreaming,
            isServerStreaming: c.isServerStreaming,
            isToolContinuation: c.isToolContinuation,
            isRecovering: c.isRecovering,
          }
        : undefined,
      suspended: this.fallbackShown,
      suspendedDuring: this.fallbackDuring || this.fallbackShown,
      statusTrail: this.trail,
      calls: this.pendingCalls,
      sent: this.pendingSent,
      fetches: this.pendingFetches,
      fetchArgs: this.pendingFetchArgs,
      errors: this.pendingErrors,
      warnings: this.pendingWarnings,
    });
    this.trail = c ? [c.status] : [];
    this.fallbackDuring = false;
    this.pendingCalls = [];
    this.pendingSent = [];
    this.pendingFetches = [];
    this.pendingFetchArgs = [];
    this.pendingErrors = [];
    this.pendingWarnings = [];
  }

  error(where: string, e: unknown): void {
    this.pendingErrors.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
    this.activity++;
  }

  warn(args: unknown[]): void {
    this.pendingWarnings.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "));
  }

  // ── fetch ──

  /** What `GET <agent>/get-messages` answers for `room` (default: this run's room). */
  serve(messages: UIMessage[] | string, o: { status?: number; gate?: string; room?: string } = {}): void {
    const body = typeof messages === "string" ? messages : JSON.stringify(messages);
    for (const m of typeof messages === "string" ? [] : messages) this.ids.learn(m.id);
    this.ids.learn(body);
    this.served.set(o.room ?? this.room, {
      status: o.status ?? 200,
      body,
      ...(o.gate ? { gate: o.gate } : {}),
    });
  }

  /** Transcript messages the script hands to `getInitialMessages` are server ids. */
  learn(v: unknown): void {
    this.ids.learn(JSON.stringify(v));
  }

  async fetch(input: unknown, ...rest: unknown[]): Promise<Response> {
    const url = String(input instanceof Request ? input.url : input);
    this.pendingFetches.push(this.urls(url));
    this.pendingFetchArgs.push({
      input:
        typeof input === "string"
          ? "string"
          : input instanceof URL
            ? "URL"
            : input instanceof Request
              ? "Request"
              : typeof input,
      url: this.urls(url),
      init: rest.length === 0 ? "(no init)" : this.urls(initOf(rest[0])),
    });
    this.activity++;
    const u = new URL(url);
    // `/agents/chat-agent/<room>/get-messages`, or `/<basePath>/get-messages?thread=<room>` (custom routing).
    const m =
      /^\/agents\/chat-agent\/([^/]+)\/get-messages$/.exec(u.pathname) ??
      (/^\/[^/]+\/get-messages$/.test(u.pathname) && u.searchParams.get("thread")
        ? [u.pathname, u.searchParams.get("thread") as string]
        : null);
    const served = m ? this.served.get(m[1] as string) : undefined;
    if (!m) return new Response("Not found", { status: 404, statusText: "Not Found" });
    if (served?.gate) await this.gate(served.gate);
    if (!served) return new Response("[]", { status: 200 });
    return new Response(served.body, {
      status: served.status,
      statusText: served.status === 200 ? "OK" : `HTTP ${served.status}`,
    });
  }

  // React pieces call these.
  onRendered(chat: Chat): void {
    this.record(chat);
  }

  onFallback(shown: boolean): void {
    this.fallbackShown = shown;
    if (shown) this.fallbackDuring = true;
    this.activity++;
  }
}

/**
 * A `fetch` init as an app's spy sees it: every own key, an undefined value kept as `"(undefined)"`, headers
 * with their kind (`Headers` or a plain object) and entries.
 */
function initOf(init: unknown): unknown {
  if (init === undefined) return "(undefined)";
  if (init === null || typeof init !== "object") return init;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(init).sort()) {
    const v = (init as Record<string, unknown>)[k];
    if (v === undefined) out[k] = "(undefined)";
    else if (k === "headers" && v instanceof Headers) out[k] = { Headers: [...v.entries()] };
    else out[k] = v;
  }
  return out;
}

/** A value for an option key that removes a default (e.g. `onData: OMIT`). */
export const OMIT = Symbol("omit");

// ───────────────────────────── React pieces ─────────────────────────────

function OfficialProbe({ d, options }: { d: Driver; options: Options }) {
  const chat = useOfficialAgentChat(options as never) as unknown as Chat;
  d.onRendered(chat);
  return null;
}

function OurProbe({ d, options }: { d: Driver; options: Options }) {
  const chat = useOurAgentChat(options as never) as unknown as Chat;
  d.onRendered(chat);
  return null;
}

function Fallback({ d }: { d: Driver }) {
  useEffect(() => {
    d.onFallback(true);
    return () => d.onFallback(false);
  }, [d]);
  return null;
}

class Boundary extends Component<{ d: Driver; children?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, _info: ErrorInfo) {
    this.props.d.error("render/effect error (error boundary)", error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

// ───────────────────────────── running ─────────────────────────────

export type Script = (d: Driver) => Promise<void>;

/** Plays `script` against one hook, with a fetch stub and error listeners of its own. */
export async function play(side: Side, script: Script): Promise<Driver> {
  const d = new Driver(side);
  const fetchStub = vi.fn((input: unknown, ...init: unknown[]) => d.fetch(input, ...init));
  vi.stubGlobal("fetch", fetchStub);
  const onError = (e: ErrorEvent) => {
    d.error("uncaught", e.error ?? e.message);
    e.preventDefault();
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    d.error("unhandled rejection", e.reason);
    e.preventDefault();
  };
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  const warn = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => d.warn(a));
  const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await script(d);
  } catch (e) {
    throw new Error(`${side} run: ${e instanceof Error ? e.message : String(e)}\n${dump(d)}`);
  } finally {
    await d.unmount();
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
    warn.mockRestore();
    consoleError.mockRestore();
    vi.unstubAllGlobals();
  }
  return d;
}

/** The official run, then ours. */
export async function both(script: Script): Promise<{ official: Driver; ours: Driver }> {
  const official = await play("official", script);
  const ours = await play("ours", script);
  return { official, ours };
}

// ───────────────────────────── comparing ─────────────────────────────

export type Field =
  | keyof View
  | "suspended"
  | "suspendedDuring"
  | "calls"
  | "sent"
  | "fetches"
  | "fetchArgs"
  | "errors";

export interface CompareOptions {
  /** Fields to compare (default: all but warnings and the status trail). */
  fields?: Field[];
  /** Only these callbacks (by recorded name prefix) count in `calls`. */
  calls?: string[];
  /** Only steps whose label matches. */
  steps?: (label: string, index: number) => boolean;
  /** Only these frame types count in `sent`. */
  frames?: string[];
  /** These frame types do not count in `sent`. */
  ignoreFrames?: string[];
  /** Compare callbacks by name only (their arguments are pinned elsewhere). */
  callNamesOnly?: boolean;
  /**
   * Leave out two part details the basic scenario pins on its own: `rawInput` (the AI SDK keeps the streamed
   * input text) and `toolName` on `tool-<name>` parts (the AI SDK leaves it out; the servers write it).
   */
  looseParts?: boolean;
  /**
   * Leave out only `toolName` on `tool-<name>` parts: ours keeps it, as the servers store their copy (a
   * deliberate difference); everything else about the parts, `rawInput` included, is compared.
   */
  staticToolName?: boolean;
  /**
   * Leave out `status` and `isStreaming` after the `start` and `start-step` chunks (the official hook is still
   * `submitted` there; pinned by its own scenario).
   */
  looseStart?: boolean;
}

const VIEW_FIELDS: (keyof View)[] = [
  "messages",
  "status",
  "error",
  "isStreaming",
  "isServerStreaming",
  "isToolContinuation",
  "isRecovering",
];
const ALL_FIELDS: Field[] = [...VIEW_FIELDS, "suspended", "calls", "sent", "fetches", "errors"];

/** Every difference between two recordings of one script, as `step N "label" field: official … / ours …`. */
export function compare(official: Driver, ours: Driver, o: CompareOptions = {}): string[] {
  const out: string[] = [];
  const fields = o.fields ?? ALL_FIELDS;
  const n = Math.max(official.steps.length, ours.steps.length);
  for (let i = 0; i < n; i++) {
    const a = official.steps[i];
    const b = ours.steps[i];
    if (!a || !b || a.label !== b.label) {
      out.push(`step ${i}: the scripts diverged (${a?.label} / ${b?.label})`);
      break;
    }
    if (o.steps && !o.steps(a.label, i)) continue;
    for (const f of fields) {
      const va = pick(a, f, o);
      const vb = pick(b, f, o);
      const sa = JSON.stringify(va);
      const sb = JSON.stringify(vb);
      if (sa !== sb) out.push(`step ${i} "${a.label}" ${f}:\n    official ${sa}\n    ours     ${sb}`);
    }
  }
  return out;
}

function pick(s: Step, f: Field, o: CompareOptions): unknown {
  // Callbacks run for one frame are compared as a set: their order within a step is left out.
  if (f === "calls")
    return s.calls
      .filter((c) => !o.calls || o.calls.some((p) => c.name.startsWith(p)))
      .map((c) => (o.callNamesOnly ? c.name : JSON.stringify(c)))
      .sort();
  if (f === "sent")
    return s.sent.filter((x) => {
      const type = (x as { type?: string }).type as string;
      return (!o.frames || o.frames.includes(type)) && !o.ignoreFrames?.includes(type);
    });
  if (f === "suspended" || f === "suspendedDuring" || f === "fetches" || f === "fetchArgs" || f === "errors")
    return s[f];
  if (s.view === undefined) return "(not rendered)";
  if (o.looseStart && (f === "status" || f === "isStreaming") && /^push start(-step)?$/.test(s.label))
    return "(not compared)";
  if (f === "messages" && o.looseParts) return looseParts(s.view.messages);
  if (f === "messages" && o.staticToolName) return withoutStaticToolName(s.view.messages);
  return s.view[f];
}

function withoutStaticToolName(messages: unknown[]): unknown[] {
  return (messages as { parts?: Record<string, unknown>[] }[]).map((m) => ({
    ...m,
    parts: m.parts?.map((p) => {
      if (typeof p.type !== "string" || !p.type.startsWith("tool-")) return p;
      const { toolName: _t, ...rest } = p;
      return rest;
    }),
  }));
}

function looseParts(messages: unknown[]): unknown[] {
  return (messages as { parts?: Record<string, unknown>[] }[]).map((m) => ({
    ...m,
    parts: m.parts?.map((p) => {
      const { rawInput: _r, ...rest } = p;
      if (typeof p.type === "string" && p.type.startsWith("tool-")) delete rest.toolName;
      return rest;
    }),
  }));
}

/** A readable dump of a recording, for diagnosing a scenario. */
export function dump(d: Driver): string {
  return d.steps
    .map((s, i) => {
      const v = s.view;
      const head = v
        ? `${v.status} streaming=${v.isStreaming} server=${v.isServerStreaming} cont=${v.isToolContinuation} err=${v.error ?? "-"}`
        : "(not rendered)";
      const lines = [
        `#${i} ${s.label}${s.note ? ` (${s.note})` : ""}: ${head}${s.suspended ? " SUSPENDED" : ""} trail=${s.statusTrail}`,
      ];
      if (v) lines.push(`   messages ${JSON.stringify(v.messages)}`);
      for (const c of s.calls) lines.push(`   call ${c.name} ${JSON.stringify(c.args)}`);
      for (const x of s.sent) lines.push(`   sent ${JSON.stringify(x)}`);
      for (const x of s.fetchArgs) lines.push(`   fetch ${JSON.stringify(x)}`);
      for (const x of s.errors) lines.push(`   error ${x}`);
      for (const x of s.warnings) lines.push(`   warn ${x}`);
      return lines.join("\n");
    })
    .join("\n");
}

// ───────────────────────────── helpers ─────────────────────────────

/**
 * JSON round trip: what an app could serialise (drops undefined fields and functions), with object keys
 * sorted so that key order, which no app sees, never counts as a difference.
 */
function plain<T>(v: T): T {
  if (v === undefined) return v;
  const sortKeys = (_k: string, x: unknown) => {
    if (x instanceof Error) return { error: x.message };
    if (x && typeof x === "object" && !Array.isArray(x))
      return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return x;
  };
  return JSON.parse(JSON.stringify(v, sortKeys) ?? "null") as T;
}

function describe(frame: string): string {
  const f = JSON.parse(frame) as Record<string, unknown>;
  if (f.type !== "cf_agent_use_chat_response") return String(f.type).replace("cf_agent_", "");
  const flags = [f.replay && "replay", f.continuation && "cont", f.error && "error", f.done && "done"]
    .filter(Boolean)
    .join(",");
  let chunk = "";
  if (typeof f.body === "string" && f.body && !f.error) {
    try {
      chunk = (JSON.parse(f.body) as { type: string }).type;
    } catch {
      chunk = "?";
    }
  }
  if (f.replayComplete) chunk = "replayComplete";
  return `${chunk || "control"}${flags ? `[${flags}]` : ""}`;
}

/**
 * Ids the client mints (user message ids, request ids, probe ids) differ between runs: each gets a stable
 * name (`c1`, `c2`, … in order of first appearance). Ids the server sent are kept as they are.
 */
class IdCanon {
  private readonly server = new Set<string>();
  private readonly client = new Map<string, string>();

  /** Every string in a frame the server sent is known to the server (unless the client minted it first). */
  learn(frame: string): void {
    const walk = (v: unknown) => {
      if (typeof v === "string") {
        if (!this.client.has(v)) this.server.add(v);
        if (v.startsWith("{") || v.startsWith("[")) {
          try {
            walk(JSON.parse(v));
          } catch {}
        }
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") Object.values(v).forEach(walk);
    };
    try {
      walk(JSON.parse(frame));
    } catch {
      walk(frame);
    }
  }

  private readonly counts: Record<string, number> = {};

  /** The stable name of a client-minted id: `r1` for requests, `p1` for probes, `m1` for messages. */
  name(id: string, kind: "r" | "p" | "m"): string {
    if (this.server.has(id)) return id;
    let n = this.client.get(id);
    if (!n) {
      this.counts[kind] = (this.counts[kind] ?? 0) + 1;
      n = `${kind}${this.counts[kind]}`;
      this.client.set(id, n);
    }
    return n;
  }

  canon<T>(v: T): T {
    const walk = (x: unknown, key?: string): unknown => {
      if (typeof x === "string" && key && key in ID_KEYS)
        return this.name(x, ID_KEYS[key] as "r" | "p" | "m");
      if (Array.isArray(x)) return x.map((y) => walk(y, key === "messageIds" ? "id" : undefined));
      if (x && typeof x === "object")
        return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y, k)]));
      return x;
    };
    return walk(v) as T;
  }
}

/** Keys whose string values are ids, and the kind a client-minted one is (a frame's `id` is set apart first). */
const ID_KEYS: Record<string, string> = {
  id: "m",
  probeId: "p",
  requestId: "r",
  messageId: "m",
  streamId: "r",
};
