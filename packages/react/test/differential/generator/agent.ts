/**
 * The generator for `useAgent` (issue 30 §3): the official `agents/react` hook and ours over the same fake
 * WebSocket (both build on partysocket, which takes a `WebSocket` class), a small model of an agent's server
 * (identity, state and MCP frames on connect, RPC answers, state broadcasts, closes with a code), and seeded
 * steps: calls (answered, failing, left waiting), `setState`, server state, drops and closes with codes,
 * reconnects, option changes mid-call (name, a static `query`, `enabled`), remounts, StrictMode. After every
 * step what an app sees is compared: the object's fields, callbacks with their arguments, call results, the
 * frames sent and the sockets opened.
 *
 * What needs a real agent in workerd instead: the close codes the server really sends (here chosen from a
 * list), `basePath` routing that picks the instance by auth (the identity frame names it), and timing of
 * replies against call timeouts.
 */
import { act, cleanup, render } from "@testing-library/react";
import { useAgent as useOfficialAgent } from "agents/react";
import { createElement as h, StrictMode } from "react";
import { vi } from "vitest";
import { useAgent as useOurAgent } from "../../../src/use-agent.ts";
import { Random } from "./steps.ts";

type Listener = (e: Event) => void;
type Frame = Record<string, unknown>;

const sorted = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v, (_k, x: unknown) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
        : x,
    ),
  );

/** A WebSocket the test's server answers; partysocket makes one per connection attempt. */
export class FakeSocket {
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
  bufferedAmount = 0;
  extensions = "";
  protocol = "";
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Set by the run: who hears what this socket does. */
  static world: World | undefined;
  readonly world: World;

  constructor(readonly url: string) {
    const w = FakeSocket.world;
    if (!w) throw new Error("no world");
    this.world = w;
    w.opened(this);
  }

  addEventListener(type: string, fn: Listener) {
    let s = this.listeners.get(type);
    if (!s) {
      s = new Set();
      this.listeners.set(type, s);
    }
    s.add(fn);
  }

  removeEventListener(type: string, fn: Listener) {
    this.listeners.get(type)?.delete(fn);
  }

  dispatch(e: Event) {
    for (const fn of [...(this.listeners.get(e.type) ?? [])]) fn(e);
  }

  send(data: string) {
    if (this.readyState !== 1) throw new Error("not open");
    this.world.received(this, JSON.parse(data) as Frame);
  }

  /** The client closes it. */
  close(code = 1000, reason = "") {
    if (this.readyState === 3) return;
    this.readyState = 3;
    setTimeout(() => this.dispatch(Object.assign(new Event("close"), { code, reason, wasClean: true })), 0);
  }

  /** The server opens it. */
  accept() {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    this.dispatch(new Event("open"));
  }

  /** The server closes it with `code`. */
  drop(code: number) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.dispatch(Object.assign(new Event("close"), { code, reason: "", wasClean: code === 1000 }));
  }

  push(f: Frame) {
    if (this.readyState === 1) this.dispatch(new MessageEvent("message", { data: JSON.stringify(f) }));
  }
}

/** The server side of one run: every socket, the RPCs waiting for an answer, each room's state. */
export class World {
  readonly sockets: FakeSocket[] = [];
  readonly held: { socket: FakeSocket; frame: Frame }[] = [];
  readonly states = new Map<string, unknown>();
  /** Hold RPC answers until a step releases them. */
  holding = false;
  /** The recording: frames sent and sockets opened, per step. */
  log: unknown[] = [];

  room(s: FakeSocket): string {
    return new URL(s.url).pathname.split("/")[3] ?? "";
  }

  opened(s: FakeSocket) {
    this.sockets.push(s);
    const u = new URL(s.url);
    u.searchParams.delete("_pk");
    this.log.push({ opened: `${u.pathname}${u.search}` });
    // The server accepts on a later task and greets the socket (docs/protocol.md#connect-frames).
    setTimeout(() => {
      if (s.readyState !== 0) return;
      s.accept();
      const room = this.room(s);
      s.push({ type: "cf_agent_identity", name: room, agent: "chat-agent", stateFollows: true });
      s.push({ type: "cf_agent_state", state: this.states.get(room) ?? { counter: 0 } });
      s.push({ mcp: { prompts: [], resources: [], servers: {}, tools: [] }, type: "cf_agent_mcp_servers" });
    }, 0);
  }

  received(s: FakeSocket, f: Frame) {
    const room = this.room(s);
    // Key order on the wire is nobody's concern: sorted.
    this.log.push(f.type === "rpc" ? { rpc: f.method, args: f.args } : sorted(f));
    if (f.type === "cf_agent_state") {
      this.states.set(room, f.state);
      // Applied, and broadcast to the other sockets only.
      for (const o of this.open(room)) if (o !== s) o.push({ state: f.state, type: "cf_agent_state" });
      return;
    }
    if (f.type !== "rpc") return;
    if (this.holding) this.held.push({ socket: s, frame: f });
    else setTimeout(() => this.answer(s, f), 0);
  }

  open(room: string): FakeSocket[] {
    return this.sockets.filter((s) => s.readyState === 1 && this.room(s) === room);
  }

  /** What the recorded agent's callables answer (ai-chat/rpc.jsonl). */
  answer(s: FakeSocket, f: Frame) {
    const room = this.room(s);
    const id = f.id;
    if (f.method === "getInfo")
      s.push({
        done: true,
        id,
        result: { name: room, state: this.states.get(room) ?? { counter: 0 } },
        success: true,
        type: "rpc",
      });
    else if (f.method === "increment") {
      const state = {
        counter:
          ((this.states.get(room) as { counter?: number })?.counter ?? 0) +
          Number((f.args as unknown[])[0] ?? 1),
      };
      this.states.set(room, state);
      for (const o of this.open(room)) o.push({ state, type: "cf_agent_state" });
      s.push({ done: true, id, result: state.counter, success: true, type: "rpc" });
    } else s.push({ error: `Method ${String(f.method)} does not exist`, id, success: false, type: "rpc" });
  }

  release() {
    for (const { socket, frame } of this.held.splice(0)) this.answer(socket, frame);
  }
}

/** One step of a `useAgent` run. */
export type AgentStep =
  | { do: "call"; method: "getInfo" | "increment" | "nope" }
  | { do: "setState" }
  | { do: "hold" }
  | { do: "release" }
  | { do: "serverState" }
  | { do: "close"; code: number }
  | { do: "name" }
  | { do: "query" }
  | { do: "enabled"; on: boolean }
  | { do: "remount" }
  | { do: "render" };

/** A run's setup. */
export interface AgentConfig {
  strict: boolean;
}

/** Close codes a server or a proxy sends: normal, going away, abnormal, policy, internal error, app-defined. */
const CODES = [1000, 1001, 1006, 1008, 1011, 4000, 4001];

export function agentConfig(seed: number): AgentConfig {
  return { strict: new Random(seed).chance(0.25) };
}

/** Steps for a seed. */
export function agentSteps(seed: number, n = 16): AgentStep[] {
  const rng = new Random(seed * 104729 + 7);
  const out: AgentStep[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      rng.weighted<AgentStep>([
        [5, () => ({ do: "call", method: rng.pick(["getInfo", "increment", "nope"] as const) })],
        [1.5, () => ({ do: "setState" })],
        [1, () => ({ do: "hold" })],
        [1.5, () => ({ do: "release" })],
        [1, () => ({ do: "serverState" })],
        [1.5, () => ({ do: "close", code: rng.pick(CODES) })],
        [0.8, () => ({ do: "name" })],
        [0.8, () => ({ do: "query" })],
        [0.8, () => ({ do: "enabled", on: rng.chance(0.5) })],
        [0.5, () => ({ do: "remount" })],
        [0.5, () => ({ do: "render" })],
      ]),
    );
  out.push({ do: "enabled", on: true }, { do: "release" }, { do: "render" });
  return out;
}

/** What an app sees after a step. */
export interface AgentObservation {
  label: string;
  fields: Record<string, unknown>;
  calls: string[];
  /** Frames the server received and sockets opened. */
  wire: unknown[];
}

type Side = "official" | "ours";

/** Renders one side's `useAgent` with the run's options over the fake WebSocket, and hands its result out. */
function AgentProbe({
  side,
  o,
  callbacks,
  onRender,
}: {
  side: Side;
  o: Record<string, unknown>;
  callbacks: Record<string, unknown>;
  onRender: (agent: Record<string, unknown>) => void;
}) {
  const hook = side === "official" ? useOfficialAgent : useOurAgent;
  const agent = (hook as (x: unknown) => Record<string, unknown>)({
    ...o,
    ...callbacks,
    WebSocket: FakeSocket,
    // Reconnect at once: a drop costs a few ms.
    minReconnectionDelay: 1,
    maxReconnectionDelay: 5,
    reconnectionDelayGrowFactor: 1,
  });
  onRender(agent);
  return null;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Plays a run on one side. */
export async function playAgent(
  side: Side,
  cfg: AgentConfig,
  steps: AgentStep[],
): Promise<AgentObservation[]> {
  const world = new World();
  FakeSocket.world = world;
  const out: AgentObservation[] = [];
  let calls: string[] = [];
  let activity = 0;
  let latest: Record<string, unknown> | undefined;
  let rpcs = 0;
  const record = (name: string, args: unknown) => {
    calls.push(JSON.stringify({ name, args }));
    activity++;
  };
  const options = {
    agent: "ChatAgent",
    name: "room-a",
    query: { token: "t1" } as Record<string, string>,
    enabled: true,
    host: "agents.example",
  };
  const callbacks = {
    onOpen: () => record("onOpen", null),
    onClose: (e: CloseEvent) => record("onClose", { code: e.code }),
    onIdentity: (name: string, agent: string) => record("onIdentity", { name, agent }),
    onStateUpdate: (state: unknown, source: string) => record("onStateUpdate", { state, source }),
    onMcpUpdate: () => record("onMcpUpdate", null),
    onConnectionError: (e: unknown) => record("onConnectionError", { message: (e as Error)?.message }),
  };
  const onRender = (agent: Record<string, unknown>) => {
    latest = agent;
    activity++;
  };
  const tree = () => {
    const probe = h(AgentProbe, { side, o: { ...options }, callbacks, onRender });
    return cfg.strict ? h(StrictMode, null, probe) : probe;
  };
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  let view: ReturnType<typeof render> | undefined;
  const settle = async () => {
    let quiet = 0;
    for (let i = 0; i < 200 && quiet < 4; i++) {
      const before = activity + world.log.length;
      await act(async () => {
        await sleep(4);
      });
      quiet = activity + world.log.length === before ? quiet + 1 : 0;
    }
  };
  const snap = (label: string) => {
    const a = latest ?? {};
    out.push({
      label,
      fields: {
        state: a.state,
        name: a.name,
        agent: a.agent,
        identified: a.identified,
        readyState: a.readyState,
        connectionError: (a.connectionError as Error | null | undefined)?.message ?? null,
      },
      calls: calls.sort(),
      wire: world.log,
    });
    calls = [];
    world.log = [];
  };
  try {
    await act(async () => {
      view = render(tree());
    });
    await settle();
    snap("mount");
    for (const s of steps) {
      const label = JSON.stringify(s);
      switch (s.do) {
        case "call": {
          const n = ++rpcs;
          const call = latest?.call as ((m: string, a: unknown[]) => Promise<unknown>) | undefined;
          // Taken off the object, as an app that destructures the hook's result does.
          await act(async () => {
            try {
              call?.(s.method, s.method === "increment" ? [1] : []).then(
                (r) => record(`rpc#${n}`, { result: r }),
                (e: unknown) => record(`rpc#${n}`, { rejected: (e as Error).message }),
              );
            } catch (e) {
              record(`rpc#${n}`, { threw: (e as Error).message });
            }
          });
          break;
        }
        case "setState":
          await act(async () => {
            const setState = latest?.setState as ((s: unknown) => void) | undefined;
            try {
              setState?.({ counter: 100 + rpcs });
            } catch (e) {
              record("setState", { threw: (e as Error).message });
            }
          });
          break;
        case "hold":
          world.holding = true;
          break;
        case "release":
          world.holding = false;
          await act(async () => world.release());
          break;
        case "serverState":
          await act(async () => {
            for (const sock of world.sockets)
              if (sock.readyState === 1) sock.push({ state: { counter: 7 }, type: "cf_agent_state" });
          });
          break;
        case "close":
          await act(async () => {
            world.sockets.at(-1)?.drop(s.code);
          });
          break;
        case "name":
          options.name = options.name === "room-a" ? "room-b" : "room-a";
          await act(async () => view?.rerender(tree()));
          break;
        case "query":
          options.query = { token: options.query.token === "t1" ? "t2" : "t1" };
          await act(async () => view?.rerender(tree()));
          break;
        case "enabled":
          options.enabled = s.on;
          await act(async () => view?.rerender(tree()));
          break;
        case "remount":
          await act(async () => cleanup());
          latest = undefined;
          await act(async () => {
            view = render(tree());
          });
          break;
        case "render":
          await act(async () => view?.rerender(tree()));
          break;
      }
      await settle();
      snap(label);
    }
  } finally {
    await act(async () => cleanup());
    await sleep(10);
    warn.mockRestore();
    error.mockRestore();
    FakeSocket.world = undefined;
  }
  return out;
}
