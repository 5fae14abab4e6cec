/**
 * Shared machinery of the seeded fault suites: one mock server per file (`delayScale: 0`, so scripts play as
 * fast as the event loop allows), tabs that are what a user has open (a connection, its chat and its run
 * tray), waits on conditions rather than timers, and the seed loop that reports a failing seed and its fault.
 */
import {
  createMockAgentServer,
  demoAgents,
  type MockAgentDefinition,
  type MockAgentServer,
  type MockController,
} from "@runboard/mock-server";
import type { UIMessage } from "ai";
import { WebSocket } from "ws";
import { AgentClient } from "../../src/agent-client.ts";
import { AgentToolRuns, type ProgressStorage } from "../../src/agent-tool-runs.ts";
import { type ChatAgentLike, ChatSession, type ChatSessionOptions } from "../../src/chat-session.ts";
import { normalised, visibleChat, visibleMessages, visibleRuns } from "./visible.ts";

export type Host = "ai-chat" | "think";
export const AGENT: Record<Host, string> = { "ai-chat": "ChatAgent", think: "ThinkAgent" };
export const HOSTS: readonly Host[] = ["ai-chat", "think"];

/** A mock server for one test file, and the lines it logged. */
export interface FaultServer {
  server: MockAgentServer;
  controller: MockController;
  address: string;
  logs: string[];
}

export async function startFaultServer(
  agents: Record<string, MockAgentDefinition> = demoAgents,
): Promise<FaultServer> {
  const logs: string[] = [];
  const server = await createMockAgentServer({
    agents,
    delayScale: 0,
    log: (l) => {
      logs.push(l);
      if (logs.length > 200) logs.shift();
    },
  });
  return { server, controller: server.controller, address: `127.0.0.1:${server.port}`, logs };
}

/** Polls `pred` (every few ms, never a fixed sleep); rejects naming `what` after `ms`. */
export async function until(what: string, pred: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** What one browser tab has open: a connection, the chat on it and the run tray on it. */
export interface Tab {
  readonly name: string;
  readonly host: Host;
  client: AgentClient;
  chat: ChatSession;
  runs: AgentToolRuns;
  /** Errors reported through `onError` (wire errors; never thrown into the app). */
  errors: Error[];
  /** What the tab's socket did, newest last (frames cut short), for a failure report. */
  trace: string[];
  /** The mount-time resume probe has been answered (a user types only once the page has loaded). */
  loaded(): boolean;
  /** Status is ready or error, and no stream or continuation is shown as live. */
  idle(): boolean;
  /** The visible chat and runs, ids normalised. */
  view(): unknown;
  close(): void;
}

export interface TabOptions {
  chat?: Partial<ChatSessionOptions>;
  /** Progress kept across a page refresh. */
  storage?: ProgressStorage;
  /** What the run tray listens to (a test shim over the connection); default the connection itself. */
  runsAgent?: (client: AgentClient) => ChatAgentLike;
}

/**
 * HTTP reads of a transcript in flight, by agent instance name: a tab re-reads its transcript after a
 * reconnect, and has not caught up until that answer is in.
 */
const reading = new Map<string, number>();
const realFetch = globalThis.fetch;
globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input);
  const name = /\/agents\/[^/]+\/([^/?]+)/.exec(url)?.[1] ?? "";
  reading.set(name, (reading.get(name) ?? 0) + 1);
  try {
    return await realFetch(input, init);
  } finally {
    reading.set(name, (reading.get(name) ?? 1) - 1);
  }
}) as typeof fetch;

/** Traces of the tabs the current run opened (printed for a failing seed with RUNBOARD_FAULT_TRACE=1). */
const traces: string[][] = [];

export function openTab(srv: FaultServer, host: Host, name: string, options: TabOptions = {}): Tab {
  const errors: Error[] = [];
  const client = new AgentClient({
    agent: AGENT[host],
    name,
    host: srv.address,
    WebSocket,
    // Reconnect almost at once: a drop costs a few ms, so hundreds of runs fit in the default test run.
    reconnect: { minDelayMs: 1, maxDelayMs: 5 },
    onError: (e) => errors.push(e),
  });
  const trace: string[] = [];
  const log = (line: string) => {
    trace.push(line);
    if (trace.length > 400) trace.shift();
  };
  client.addEventListener("open", () => log("open"));
  client.addEventListener("close", (e) => log(`close ${(e as CloseEvent).code}`));
  client.addEventListener("message", (e) => log(`< ${String((e as MessageEvent).data).slice(0, 160)}`));
  const send = client.send.bind(client);
  client.send = (data: string) => {
    log(`> ${data.slice(0, 160)}`);
    send(data);
  };
  traces.push(trace);
  let answered = false;
  client.addEventListener("message", (e) => {
    const data = String((e as MessageEvent).data);
    if (data.includes('"cf_agent_stream_resume_none"') || data.includes('"cf_agent_stream_resuming"'))
      answered = true;
  });
  const chat = new ChatSession({
    agent: client,
    throttleMs: 0,
    onError: (e) => errors.push(e),
    ...options.chat,
  });
  const runs = new AgentToolRuns({
    agent: options.runsAgent?.(client) ?? client,
    storage: options.storage ?? null,
    storageKey: name,
    throttleMs: 0,
    onError: (e) => errors.push(e),
  });
  const idle = () => {
    const s = chat.getSnapshot();
    return (s.status === "ready" || s.status === "error") && !s.isStreaming && !s.isToolContinuation;
  };
  return {
    name,
    host,
    client,
    chat,
    runs,
    errors,
    trace,
    loaded: () => answered,
    idle,
    view: () => normalised({ chat: visibleChat(chat.getSnapshot()), runs: visibleRuns(runs.getSnapshot()) }),
    close() {
      chat.dispose();
      runs.dispose();
      client.close();
    },
  };
}

/**
 * One request/response over the socket. A WebSocket delivers in order, so once the reply is here every frame
 * the server sent this tab before it has been handled. Retries across reconnects.
 */
async function roundTrip(t: Tab, deadline: number): Promise<void> {
  for (;;) {
    if (Date.now() > deadline) throw new Error("no RPC round trip before the deadline");
    if (t.client.status !== "open") {
      await until("the socket to open", () => t.client.status === "open", deadline - Date.now());
      continue;
    }
    try {
      await t.client.call("getInfo", [], { timeout: Math.max(1, deadline - Date.now()) });
      return;
    } catch {
      // The socket closed under the call: try again on the next one.
    }
  }
}

/**
 * Waits until a tab has caught up with a server that has finished: idle, and unchanged across two round
 * trips (a resume handshake after a reconnect takes several). Returns even if the tab never gets idle, so the
 * comparison that follows shows what is stuck instead of a bare timeout.
 */
export async function settle(t: Tab, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  let before: string | undefined;
  while (Date.now() < deadline) {
    await roundTrip(t, deadline).catch(() => undefined);
    const now = JSON.stringify(t.view());
    if (t.idle() && !reading.get(t.name) && now === before) return;
    before = now;
  }
}

/** The server's transcript as a user would see it, ids normalised. */
export function serverView(srv: FaultServer, host: Host, name: string): unknown {
  const inst = srv.controller.instance(AGENT[host], name);
  return normalised(visibleMessages((inst?.messages ?? []) as UIMessage[]));
}

/** True when the agent has no turn streaming and its transcript is `expected`. */
export function serverAt(srv: FaultServer, host: Host, name: string, expected: unknown): boolean {
  const inst = srv.controller.instance(AGENT[host], name);
  return inst !== undefined && !inst.streaming && equal(serverView(srv, host, name), expected);
}

export const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

let rooms = 0;
/** A fresh instance name per run, so runs never share an agent. */
export const room = (prefix: string) => `${prefix}-${(++rooms).toString(36)}-${Date.now().toString(36)}`;

/** How many seeded runs a suite makes, and which seeds. */
export function seeds(): number[] {
  const only = process.env.RUNBOARD_FAULT_SEED;
  if (only !== undefined && only !== "") return [Number(only)];
  const n = Number(process.env.RUNBOARD_FAULT_RUNS ?? 500);
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** One failed run: its seed, the fault it injected and what went wrong. */
export interface Failure {
  seed: number;
  fault: string;
  error: unknown;
}

const MAX_FAILURES = 3;

/**
 * Runs `body` once per seed, one at a time (faults are set on the one shared controller). Stops after a few
 * failures and throws a report naming each failing seed and its fault, with the replay command.
 */
export async function runSeeds(
  suite: string,
  file: string,
  body: (seed: number, describe: (fault: string) => void) => Promise<void>,
): Promise<{ runs: number; ms: number }> {
  const list = seeds();
  const failures: Failure[] = [];
  const started = performance.now();
  let runs = 0;
  for (const seed of list) {
    let fault = "(none chosen yet)";
    runs++;
    traces.length = 0;
    try {
      await body(seed, (f) => {
        fault = f;
      });
    } catch (error) {
      if (process.env.RUNBOARD_FAULT_TRACE === "1")
        for (const [i, t] of traces.entries()) console.info(`[faults] tab ${i}:\n  ${t.join("\n  ")}`);
      failures.push({ seed, fault, error });
      if (failures.length >= MAX_FAILURES) break;
    }
  }
  const ms = Math.round(performance.now() - started);
  console.info(`[faults] ${suite}: ${runs} seeded runs in ${ms} ms`);
  if (failures.length > 0) {
    const report = failures
      .map(
        (f) =>
          `seed ${f.seed}: ${f.fault}\n  replay: RUNBOARD_FAULT_SEED=${f.seed} npx vitest run ${file}\n  ${
            f.error instanceof Error ? (f.error.stack ?? f.error.message) : String(f.error)
          }`,
      )
      .join("\n\n");
    throw new Error(`${suite}: ${failures.length} failing run(s)\n\n${report}`);
  }
  return { runs, ms };
}

/** Paths where two JSON values differ (at most `max`), with both sides, for a failure message. */
export function differences(actual: unknown, expected: unknown, path = "$", out: string[] = [], max = 6) {
  if (out.length >= max || equal(actual, expected)) return out;
  const obj = (v: unknown) => v !== null && typeof v === "object";
  if (obj(actual) && obj(expected) && Array.isArray(actual) === Array.isArray(expected)) {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    for (const k of new Set([...Object.keys(a), ...Object.keys(e)]))
      differences(a[k], e[k], Array.isArray(actual) ? `${path}[${k}]` : `${path}.${k}`, out, max);
    return out;
  }
  const show = (v: unknown) => (v === undefined ? "undefined" : JSON.stringify(v).slice(0, 400));
  out.push(`${path}: got ${show(actual)}, want ${show(expected)}`);
  return out;
}

/** Throws with the differing paths when `actual` is not `expected`. */
export function assertSame(actual: unknown, expected: unknown, what: string): void {
  const diff = differences(actual, expected);
  if (diff.length > 0)
    throw new Error(`${what} differs from the run without faults:\n    ${diff.join("\n    ")}`);
}
