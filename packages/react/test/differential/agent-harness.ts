/**
 * Differential harness for `useAgent`: one script played once against the official hook (`agents/react`) and
 * once against ours, each on its own fake WebSocket class handed to partysocket through the `WebSocket`
 * option (both hooks connect through partysocket, so the same code path runs under each). After every step
 * it records what an app sees: the returned object's `agent`, `name`, `identified`, `state`,
 * `shouldReconnect` and whether `ready` has resolved, how each RPC call made so far settled, the frames sent
 * on each socket, console warnings and `onError` reports.
 *
 * Written without JSX so tsconfig.tests.json (which takes `packages/*\/test/**\/*.ts`) type-checks it.
 */
import { act, cleanup, render } from "@testing-library/react";
import { useAgent as useOfficialAgent } from "agents/react";
import { createElement as h, StrictMode } from "react";
import { vi } from "vitest";
import { useAgent as useOurAgent } from "../../src/use-agent.ts";

export type Side = "official" | "ours";
type Options = Record<string, unknown>;

/** What both hooks return, as far as these scripts read it. */
export interface AgentObject {
  agent: string;
  name: string;
  identified: boolean;
  state: unknown;
  ready: Promise<void>;
  shouldReconnect?: boolean;
  readyState: number;
  call(method: string, args?: unknown[], options?: { timeout?: number }): Promise<unknown>;
  stub: Record<string, (...a: unknown[]) => Promise<unknown>>;
  setState(state: unknown): void;
}

/** What an app sees after one step. */
export interface AgentView {
  agent: string;
  name: string;
  identified: boolean;
  readyResolved: boolean;
  state: unknown;
  shouldReconnect: unknown;
}

export interface AgentStep {
  label: string;
  view: AgentView | undefined;
  /** How each call made so far stands, by its label: `pending`, `resolved <json>` or `rejected <message>`. */
  calls: Record<string, string>;
  /** Frames sent during the step: `<socket number> <type> <detail>`. */
  sent: string[];
  /** `console.warn` lines during the step. */
  warnings: string[];
  /** `onError` reports during the step. */
  errors: string[];
  /** `onStateUpdate(state, source)` calls during the step. */
  stateUpdates: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One connection attempt as the server sees it. */
export interface ServerSide {
  readonly url: string;
  readonly index: number;
  readyState: number;
  /** Frames the client sent on this socket, parsed. */
  readonly sent: Record<string, unknown>[];
}

/** Plays one script against one hook. */
export class AgentRun {
  readonly steps: AgentStep[] = [];
  /** Every socket the hook opened, oldest first (index + 1 is its number in `sent`). */
  readonly sockets: (EventTarget & ServerSide)[] = [];
  /** Every distinct object the hook returned, oldest first. */
  readonly objects: AgentObject[] = [];
  latest: AgentObject | undefined;
  /** Frames the fake server sends each socket right after it opens (default: none). */
  onConnect: (socket: ServerSide) => string[] = () => [];
  /** When false, sockets stay connecting until `open()`. */
  autoOpen = true;
  readonly WebSocket: new (
    url: string,
  ) => EventTarget & ServerSide;
  private readonly callStates = new Map<string, string>();
  private readonly rpcIds = new Map<string, string>();
  private pendingSent: string[] = [];
  private pendingWarnings: string[] = [];
  private pendingErrors: string[] = [];
  private pendingStateUpdates: string[] = [];
  private readyResolved = new WeakMap<Promise<void>, boolean>();
  private activity = 0;
  private rerenderWith?: (o: Options) => void;
  private strict = false;

  constructor(readonly side: Side) {
    const run = this;
    this.WebSocket = class FakeWebSocket extends EventTarget implements ServerSide {
      static readonly CONNECTING = 0;
      static readonly OPEN = 1;
      static readonly CLOSING = 2;
      static readonly CLOSED = 3;
      readonly CONNECTING = 0;
      readonly OPEN = 1;
      readonly CLOSING = 2;
      readonly CLOSED = 3;
      readyState = 0;
      binaryType = "blob";
      readonly bufferedAmount = 0;
      readonly extensions = "";
      readonly protocol = "";
      readonly sent: Record<string, unknown>[] = [];
      readonly index: number;
      constructor(readonly url: string) {
        super();
        this.index = run.sockets.push(this) - 1;
        run.activity++;
        if (run.autoOpen) setTimeout(() => run.openSocket(this), 0);
      }
      send(data: string): void {
        if (this.readyState !== 1) throw new Error("send() while not open");
        const f = JSON.parse(data) as Record<string, unknown>;
        this.sent.push(f);
        run.pendingSent.push(`${this.index + 1} ${run.describeSent(f)}`);
        run.activity++;
      }
      close(): void {
        // partysocket dispatches its own close event when it closes a socket.
        this.readyState = 3;
      }
    };
  }

  /** The socket in use (the newest). */
  get socket(): EventTarget & ServerSide {
    const s = this.sockets.at(-1);
    if (!s) throw new Error(`${this.side}: no socket`);
    return s;
  }

  private openSocket(s: EventTarget & ServerSide) {
    if (s.readyState !== 0) return;
    s.readyState = 1;
    s.dispatchEvent(new Event("open"));
    this.activity++;
    const frames = this.onConnect(s);
    if (frames.length)
      setTimeout(() => {
        for (const f of frames)
          if (s.readyState === 1) s.dispatchEvent(new MessageEvent("message", { data: f }));
        this.activity++;
      }, 0);
  }

  private describeSent(f: Record<string, unknown>): string {
    if (f.type === "rpc")
      return `rpc ${String(f.method)}(${JSON.stringify(f.args)}) ${this.rpcName(String(f.id))}`;
    if (f.type === "cf_agent_state") return `cf_agent_state ${JSON.stringify(f.state)}`;
    return String(f.type);
  }

  /** A stable name for a client-minted RPC id (`c1`, `c2`, …). */
  private rpcName(id: string): string {
    let n = this.rpcIds.get(id);
    if (!n) {
      n = `c${this.rpcIds.size + 1}`;
      this.rpcIds.set(id, n);
    }
    return n;
  }

  /** How the call tracked as `name` stands now. */
  callState(name: string): string | undefined {
    return this.callStates.get(name);
  }

  /** The RPC id behind a stable name, for answering it. */
  rpcId(name: string): string {
    for (const [id, n] of this.rpcIds) if (n === name) return id;
    throw new Error(`${this.side}: no rpc ${name}`);
  }

  // ── recorders ──

  warn(args: unknown[]): void {
    this.pendingWarnings.push(this.canon(args.map(String).join(" ")));
    this.activity++;
  }

  /** `text` with client-minted RPC ids replaced by their stable names. */
  private canon(text: string): string {
    let out = text;
    for (const [id, name] of this.rpcIds) out = out.split(id).join(name);
    return out;
  }

  /** Options every mount gets unless the script overrides them. */
  private defaults(): Options {
    return {
      agent: "TestStateAgent",
      name: "room",
      host: "agents.example",
      WebSocket: this.WebSocket,
      minReconnectionDelay: 1,
      maxReconnectionDelay: 5,
      // Sockets the script keeps connecting must not time out into another attempt on a slow machine.
      connectionTimeout: 600_000,
      onError: (e: unknown) => {
        // Both hooks' reports: an Error, or an error event carrying `message` (ours, typed as upstream's Event).
        const m = e instanceof Error ? e.message : (e as { message?: unknown })?.message;
        this.pendingErrors.push(this.canon(typeof m === "string" ? m : String((e as Event)?.type ?? e)));
        this.activity++;
      },
      onStateUpdate: (s: unknown, source: string) => {
        this.pendingStateUpdates.push(`${source} ${JSON.stringify(s)}`);
        this.activity++;
      },
    };
  }

  onRendered(agent: AgentObject): void {
    if (this.latest !== agent) this.activity++;
    this.latest = agent;
    if (!this.objects.includes(agent)) this.objects.push(agent);
    const ready = agent.ready;
    if (ready && !this.readyResolved.has(ready)) {
      this.readyResolved.set(ready, false);
      void ready.then(() => {
        this.readyResolved.set(ready, true);
        this.activity++;
      });
    }
  }

  private tree(options: Options) {
    const probe = h(this.side === "official" ? OfficialProbe : OurProbe, { run: this, options });
    return this.strict ? h(StrictMode, null, probe) : probe;
  }

  // ── script steps ──

  async mount(options: Options = {}, flags: { strict?: boolean } = {}): Promise<void> {
    this.strict = flags.strict === true;
    const o = { ...this.defaults(), ...options };
    await act(async () => {
      const r = render(this.tree(o));
      this.rerenderWith = (x) => r.rerender(this.tree(x));
    });
    await this.step("mount");
  }

  /** Renders again with new options (merged over the defaults). */
  async rerender(options: Options, label = "rerender"): Promise<void> {
    const o = { ...this.defaults(), ...options };
    await act(async () => this.rerenderWith?.(o));
    await this.step(label);
  }

  /** Opens the newest socket (when `autoOpen` is off). */
  async open(label = "open"): Promise<void> {
    await act(async () => this.openSocket(this.socket));
    await this.step(label);
  }

  /** Server → client on the newest socket. */
  async push(label: string, ...frames: unknown[]): Promise<void> {
    await act(async () => {
      for (const f of frames)
        this.socket.dispatchEvent(
          new MessageEvent("message", { data: typeof f === "string" ? f : JSON.stringify(f) }),
        );
    });
    await this.step(label);
  }

  /** The server drops the newest socket (a transient close: both hooks reconnect). */
  async drop(label = "drop", code = 1006): Promise<void> {
    await act(async () => {
      const s = this.socket;
      s.readyState = 3;
      s.dispatchEvent(Object.assign(new Event("close"), { code, reason: "", wasClean: false }));
    });
    await this.step(label);
  }

  /** An app action on an agent object (the latest unless given); a returned promise is tracked as `name`. */
  async act(label: string, fn: (agent: AgentObject) => unknown, o: { call?: string; on?: AgentObject } = {}) {
    const agent = o.on ?? this.latest;
    if (!agent) throw new Error(`${this.side}: not rendered`);
    await act(async () => {
      let r: unknown;
      try {
        r = fn(agent);
      } catch (e) {
        this.pendingErrors.push(`${label} threw: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (o.call && r instanceof Promise) {
        const name = o.call;
        this.callStates.set(name, "pending");
        r.then(
          (v) => this.callStates.set(name, `resolved ${JSON.stringify(v)}`),
          (e) => this.callStates.set(name, `rejected ${e instanceof Error ? e.message : String(e)}`),
        ).finally(() => this.activity++);
      }
    });
    await this.step(label);
  }

  async unmount(): Promise<void> {
    cleanup();
    await this.step("unmount");
  }

  /** Records the current state as a step, once timers, promises and renders have gone quiet. */
  async step(label: string): Promise<void> {
    await this.settle();
    const a = this.latest;
    this.steps.push({
      label,
      view: a
        ? {
            agent: a.agent,
            name: a.name,
            identified: a.identified,
            readyResolved: this.readyResolved.get(a.ready) === true,
            state: a.state,
            shouldReconnect: a.shouldReconnect,
          }
        : undefined,
      calls: Object.fromEntries(this.callStates),
      sent: this.pendingSent,
      warnings: this.pendingWarnings,
      errors: this.pendingErrors,
      stateUpdates: this.pendingStateUpdates,
    });
    this.pendingSent = [];
    this.pendingWarnings = [];
    this.pendingErrors = [];
    this.pendingStateUpdates = [];
  }

  /** Lets timers, promises and renders run until nothing happens for a while (at most ~3 s). */
  private async settle(): Promise<void> {
    let quiet = 0;
    for (let i = 0; i < 300 && quiet < 5; i++) {
      const before = this.activity;
      await act(async () => {
        await sleep(5);
      });
      quiet = this.activity === before ? quiet + 1 : 0;
    }
  }

  /** Waits (bounded) until `pred` holds, then records a step. */
  async until(label: string, pred: () => boolean): Promise<void> {
    const end = Date.now() + 10_000;
    while (!pred() && Date.now() < end)
      await act(async () => {
        await sleep(5);
      });
    await this.step(label);
  }
}

function OfficialProbe({ run, options }: { run: AgentRun; options: Options }) {
  run.onRendered(useOfficialAgent(options as never) as unknown as AgentObject);
  return null;
}

function OurProbe({ run, options }: { run: AgentRun; options: Options }) {
  run.onRendered(useOurAgent(options as never) as unknown as AgentObject);
  return null;
}

export type AgentScript = (run: AgentRun) => Promise<void>;

/** Plays `script` against one hook, with console warnings captured. */
export async function playAgent(side: Side, script: AgentScript): Promise<AgentRun> {
  const run = new AgentRun(side);
  const warn = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => run.warn(a));
  try {
    await script(run);
  } finally {
    cleanup();
    warn.mockRestore();
  }
  return run;
}

/** The same script against the official hook, then ours. */
export async function bothAgents(script: AgentScript): Promise<{ official: AgentRun; ours: AgentRun }> {
  const official = await playAgent("official", script);
  const ours = await playAgent("ours", script);
  return { official, ours };
}

export type AgentField = keyof AgentView | "calls" | "sent" | "warnings" | "errors" | "stateUpdates";

/** Every difference between the two runs in the given fields, in words (`[]` when they agree). */
export function compareAgents(official: AgentRun, ours: AgentRun, fields: AgentField[]): string[] {
  const out: string[] = [];
  const n = Math.max(official.steps.length, ours.steps.length);
  for (let i = 0; i < n; i++) {
    const a = official.steps[i];
    const b = ours.steps[i];
    if (!a || !b || a.label !== b.label) {
      out.push(`step ${i}: the scripts diverged (${a?.label} / ${b?.label})`);
      break;
    }
    for (const f of fields) {
      const va = JSON.stringify(pickField(a, f));
      const vb = JSON.stringify(pickField(b, f));
      if (va !== vb) out.push(`step ${i} "${a.label}" ${f}:\n    official ${va}\n    ours     ${vb}`);
    }
  }
  return out;
}

function pickField(s: AgentStep, f: AgentField): unknown {
  if (f === "calls" || f === "sent" || f === "warnings" || f === "errors" || f === "stateUpdates")
    return s[f];
  return s.view?.[f];
}

/** Both runs step by step, for a failure message. */
export function dumpAgents(official: AgentRun, ours: AgentRun): string {
  const one = (r: AgentRun) =>
    r.steps
      .map((s, i) =>
        [
          `#${i} ${s.label}: ${JSON.stringify(s.view)}`,
          `   calls ${JSON.stringify(s.calls)}`,
          ...s.sent.map((x) => `   sent ${x}`),
          ...s.warnings.map((x) => `   warn ${x}`),
          ...s.errors.map((x) => `   error ${x}`),
          ...s.stateUpdates.map((x) => `   onStateUpdate ${x}`),
        ].join("\n"),
      )
      .join("\n");
  return `--- official\n${one(official)}\n--- ours\n${one(ours)}`;
}
