/**
 * Issue 6, fuzzing: at least 50,000 generated frames (`frames.ts`) through a fake socket into the real
 * `AgentClient` (via `useAgent`), `ChatSession` (`useAgentChat`) and `AgentToolRuns` (`useAgentToolEvents`),
 * with React rendering their output (`FuzzTree`: every part and run as text, and the headless components
 * `AgentEvent`, `AgentToolRun` with `MilestoneTimeline`, `ApprovalQueue` / `ApprovalCard`, `RunTray` with
 * `Progress`) in jsdom inside an error boundary. Between batches the app now and then stops, resumes, clears, regenerates, reconnects,
 * answers an approval or clicks any enabled button the components show.
 *
 * After every batch of frames:
 * - no uncaught exception, unhandled rejection, `console.error` or error-boundary hit;
 * - the chat and run invariants of `invariants.ts` hold, React rendered the current state, and the snapshots
 *   handed out after the previous batch (and at the previous checkpoint) were not mutated since;
 * - every rejected frame was reported through `onError`, exactly once per channel, and nothing else was.
 *
 * What counts as a rejected frame: one `parseServerFrame` returns `kind: "error"` for — binary data, text that
 * is not JSON (truncated), JSON nested deeper than `MAX_JSON_DEPTH`, JSON that is not an object or has no string
 * `type`, or a frame of a known type whose fields have the wrong shape or type. The connection (`useAgent`'s `onError`) reports every one; the
 * chat store's `onError` also reports those of chat frames, and the run store's those of `agent-tool-event`.
 * The connection also reports, in order with those, each RPC reply for an id no call of its own is waiting on.
 * Not rejected, so never reported: frames of a type this client does not know and agent-tool events of an
 * unknown kind (docs/protocol.md#generic-frames: they pass through), and well-formed frames in an order that makes no sense —
 * chunks for an unknown stream, `done` twice, events for an unknown run, a terminal before `started` (the
 * protocol says to ignore or observe those). Beyond the parser, the stores also report a chunk body that is not
 * a chunk (or a chunk whose fields have the wrong type), a stream's error text and a milestone without a name;
 * those reports must each match such a frame.
 *
 * Every `CHECK_EVERY` batches a checkpoint ends every stream the fuzzer touched with a `done` (afterwards no
 * stream may be live: `isStreaming` false), then runs a valid turn — a local one or a resumed one, in turn —
 * and asserts it arrives whole: the client recovered.
 *
 * Seeded: `RUNBOARD_FUZZ_SEED` (default below) replays a run; `RUNBOARD_FUZZ_FRAMES` raises the frame count.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentClient, ChatSnapshot } from "@runboard/client";
import { parseChunkBody, parseServerFrame } from "@runboard/protocol";
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useAgent } from "../../src/use-agent.ts";
import { type UseAgentChatResult, useAgentChat } from "../../src/use-agent-chat.ts";
import { type UseAgentToolEventsResult, useAgentToolEvents } from "../../src/use-agent-tool-events.ts";
import { FakeWebSocket, outbox } from "./fake-socket.ts";
import {
  FrameGenerator,
  type FrameKind,
  type FuzzContext,
  type GeneratedFrame,
  loadRealTranscripts,
} from "./frames.ts";
import { FuzzTree } from "./fuzz-tree.tsx";
import { capture, checkChat, checkRuns, HARD_TERMINAL, type Print, unchanged } from "./invariants.ts";

const SEED = Number(process.env.RUNBOARD_FUZZ_SEED ?? 20_260_601);
const FRAMES = Math.max(50_000, Number(process.env.RUNBOARD_FUZZ_FRAMES ?? 50_000));
/** Each session mounts a fresh tree on a fresh connection, so early state does not shape the whole run. */
const FRAMES_PER_SESSION = 10_000;
const BATCH = 50;
const CHECK_EVERY = 20;

/** Frame types the chat store owns (and reports when malformed); the connection reports every type. */
const CHAT_TYPES = new Set([
  "cf_agent_use_chat_response",
  "cf_agent_chat_messages",
  "cf_agent_message_updated",
  "cf_agent_chat_clear",
  "cf_agent_chat_recovering",
  "cf_agent_stream_resuming",
  "cf_agent_stream_resume_none",
  "cf_agent_stream_pending",
]);

// ───────────────────────────── failure capture ─────────────────────────────

const uncaught: string[] = [];
const consoleErrors: string[] = [];
const boundaryHits: string[] = [];
const describeError = (e: unknown) =>
  e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e);
const onUncaught = (e: unknown) => uncaught.push(`uncaught: ${describeError(e)}`);
const onRejection = (e: unknown) => uncaught.push(`unhandled rejection: ${describeError(e)}`);
const onWindowError = (e: ErrorEvent) =>
  uncaught.push(`window error: ${describeError(e.error ?? e.message)}`);
const onWindowRejection = (e: PromiseRejectionEvent) =>
  uncaught.push(`window rejection: ${describeError(e.reason)}`);

beforeAll(() => {
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onRejection);
  window.addEventListener("error", onWindowError);
  window.addEventListener("unhandledrejection", onWindowRejection);
  // React reports render problems (bad children, keys, update loops) through console.error.
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args.map((a) => describeError(a)).join(" "));
  });
});
afterAll(() => {
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onRejection);
  window.removeEventListener("error", onWindowError);
  window.removeEventListener("unhandledrejection", onWindowRejection);
  vi.restoreAllMocks();
});
afterEach(cleanup);

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidCatch(error: unknown) {
    boundaryHits.push(describeError(error));
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <p>error boundary hit</p>;
  }
}

// ───────────────────────────── the app under test ─────────────────────────────

/** The hooks' latest output and everything the stores reported, per session. */
interface Probe {
  agent?: AgentClient;
  chat?: UseAgentChatResult;
  runs?: UseAgentToolEventsResult;
  errors: { client: string[]; chat: string[]; runs: string[] };
  toolCalls: number;
}

/** `sessionStorage` stand-in, so run progress goes through the store's save-and-restore path. */
class MemoryStorage {
  private readonly data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

function App({ probe, storage }: { probe: Probe; storage: MemoryStorage }) {
  const agent = useAgent({
    agent: "FuzzAgent",
    name: "fuzz",
    host: "fuzz.invalid",
    WebSocket: FakeWebSocket,
    minReconnectionDelay: 0,
    maxReconnectionDelay: 0,
    onError: (e) => probe.errors.client.push(e.message),
    // Identity frames with other names are part of the fuzz; without this the client warns on each one.
    onIdentityChange: () => {},
  });
  const chat = useAgentChat({
    agent,
    throttleMs: 0,
    getInitialMessages: null,
    onError: (e) => probe.errors.chat.push(e.message),
    onToolCall: ({ toolCall, addToolOutput }) => {
      // An app answering its client tool, so tool results and continuations go out mid-fuzz.
      probe.toolCalls++;
      if (toolCall.toolName === "getWeather")
        addToolOutput({ toolCallId: toolCall.toolCallId, output: { ok: 1 } });
    },
  });
  const runs = useAgentToolEvents({
    agent,
    storage,
    throttleMs: 0,
    onError: (e) => probe.errors.runs.push(e.message),
  });
  probe.agent = agent;
  probe.chat = chat;
  probe.runs = runs;
  return <FuzzTree agent={agent} chat={chat} runs={runs} />;
}

// ───────────────────────────── helpers ─────────────────────────────

/**
 * Waits for `pred` a bounded number of event-loop turns, not a wall-clock time: what it waits for (a socket
 * opening on a zero-delay timer) takes a turn or two however busy the machine is, so a deadline in
 * milliseconds only made the suite fail under load.
 */
const until = async (pred: () => boolean, what: string, turns = 1_000) => {
  for (let i = 0; !pred(); i++) {
    if (i >= turns) throw new Error(`${what} did not happen within ${turns} event-loop turns`);
    await new Promise((r) => setTimeout(r, 1));
  }
};

/** Multiset of strings: what may be reported, consumed as reports come in. */
class Allowance {
  private readonly counts = new Map<string, number>();
  add(s: string) {
    this.counts.set(s, (this.counts.get(s) ?? 0) + 1);
  }
  take(s: string): boolean {
    const n = this.counts.get(s) ?? 0;
    if (n === 0) return false;
    this.counts.set(s, n - 1);
    return true;
  }
}

const short = (f: GeneratedFrame) =>
  typeof f.data === "string"
    ? `${f.kind}: ${f.data.length > 400 ? `${f.data.slice(0, 400)}… (${f.data.length} chars)` : f.data}`
    : `${f.kind}: <${f.data.byteLength} bytes>`;

/** Writes a failing batch (every frame in full, binary as base64) and the transcript after it, for triage. */
function dumpFailure(name: string, frames: GeneratedFrame[], messages: unknown): string {
  const dir = join(process.cwd(), "test-artifacts", "fuzz");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.jsonl`);
  const lines = frames.map((f) =>
    JSON.stringify(
      typeof f.data === "string"
        ? { kind: f.kind, data: f.data }
        : { kind: f.kind, base64: Buffer.from(f.data).toString("base64") },
    ),
  );
  let transcript: string;
  try {
    transcript = JSON.stringify({ messagesAfter: messages });
  } catch (e) {
    transcript = JSON.stringify({ messagesAfter: `unserialisable: ${String(e)}` });
  }
  writeFileSync(file, `${[...lines, transcript].join("\n")}\n`);
  return file;
}

const textOf = (m: { parts: readonly unknown[] } | undefined) =>
  (m?.parts ?? [])
    .filter((p): p is { type: "text"; text: string } => (p as { type?: unknown }).type === "text")
    .map((p) => p.text)
    .join("");

// ───────────────────────────── the run ─────────────────────────────

interface Totals {
  frames: number;
  byKind: Record<string, number>;
  rejected: number;
  recoveryTurns: number;
  checkpoints: number;
  reconnects: number;
  actions: number;
  toolCalls: number;
  clicks: number;
  oversizedChars: number;
  /** How many elements of each headless component were on screen, summed over every fifth check. */
  rendered: Record<keyof typeof COMPONENTS, number>;
}

/** The headless components in `FuzzTree`, by a selector for one rendered instance (or one step of it). */
const COMPONENTS = {
  agentToolRun: '[role="group"][data-run-id]',
  reachedMilestone: 'ol[aria-label="Milestones"] > li[data-status="reached"]',
  agentEvent: '[role="note"]',
  approvalCard: '[data-testid="approvals"] article',
  runTrayItem: 'section[aria-label="Background runs"] li[data-run-id]',
  progressBar: '[role="progressbar"]',
};

const totals: Totals = {
  frames: 0,
  byKind: {},
  rejected: 0,
  recoveryTurns: 0,
  checkpoints: 0,
  reconnects: 0,
  actions: 0,
  toolCalls: 0,
  clicks: 0,
  oversizedChars: 0,
  rendered: {
    agentToolRun: 0,
    reachedMilestone: 0,
    agentEvent: 0,
    approvalCard: 0,
    runTrayItem: 0,
    progressBar: 0,
  },
};

async function runSession(session: number, frames: number, real: string[][]) {
  const seed = (SEED + session * 7_919) >>> 0;
  const gen = new FrameGenerator({ seed }, real);
  const r = gen.rng;
  const probe: Probe = { errors: { client: [], chat: [], runs: [] }, toolCalls: 0 };
  FakeWebSocket.reset();
  // A session that failed part-way may have left reports behind (its tree is unmounted by `cleanup`).
  uncaught.length = 0;
  boundaryHits.length = 0;
  consoleErrors.length = 0;
  const view = render(
    <Boundary>
      <App probe={probe} storage={new MemoryStorage()} />
    </Boundary>,
  );
  await act(() => until(() => FakeWebSocket.current?.readyState === 1, "the socket to open"));

  const chat = () => probe.chat as UseAgentChatResult;
  const runs = () => probe.runs as UseAgentToolEventsResult;
  const socket = () => FakeWebSocket.current as FakeWebSocket;

  // What the client sent, read incrementally.
  let outboxRead = 0;
  const localRequestIds: string[] = [];
  const probeIds: string[] = [];
  const readOutbox = () => {
    const fresh: Array<Record<string, unknown>> = [];
    for (; outboxRead < outbox.length; outboxRead++) {
      const f = JSON.parse(outbox[outboxRead] as string) as Record<string, unknown>;
      fresh.push(f);
      if (f.type === "cf_agent_use_chat_request") localRequestIds.push(f.id as string);
      if (f.type === "cf_agent_stream_resume_request" && typeof f.probeId === "string")
        probeIds.push(f.probeId);
    }
    return fresh;
  };

  // Shadow state for the invariants.
  let started = new Set<string>();
  let terminal = new Map<string, string>();
  const touchedStreams = new Set<string>();
  let previous: { chat: Print; runs: Print } | undefined;
  let checkpointPrint: { chat: Print; runs: Print } | undefined;
  let batchNo = 0;
  let checks = 0;
  let current: GeneratedFrame[] = [];

  const fail = (what: string, details: string[]) => {
    const file = dumpFailure(`seed-${SEED}-session-${session}-batch-${batchNo}`, current, chat()?.messages);
    const dump = current.map(short).join("\n");
    throw new Error(
      `${what} (seed ${SEED}, session ${session}, batch ${batchNo}; frames and transcript in ${file}):\n` +
        `${details.join("\n")}\n--- batch frames ---\n${dump}`,
    );
  };

  const context = (): FuzzContext => {
    const s = chat();
    const messageIds: string[] = [];
    const toolCallIds: string[] = [];
    const approvalIds: string[] = [];
    for (const m of s.messages.slice(-8)) {
      messageIds.push(m.id);
      for (const p of m.parts as Array<Record<string, unknown>>) {
        if (typeof p.toolCallId === "string") toolCallIds.push(p.toolCallId);
        const a = p.approval as { id?: unknown } | undefined;
        if (typeof a?.id === "string") approvalIds.push(a.id);
      }
    }
    return {
      localRequestIds: localRequestIds.slice(-5),
      probeIds: probeIds.slice(-5),
      messageIds,
      toolCallIds: toolCallIds.slice(-10),
      approvalIds: approvalIds.slice(-5),
      runIds: Object.keys(runs().runsById).slice(-10),
    };
  };

  /** Checks everything that must hold after frames were delivered; `reports` are the new onError calls. */
  const verify = (
    expected: { client: string[]; chat: string[]; runs: string[] },
    allowed: {
      chat: Allowance;
      runs: Allowance;
    },
  ) => {
    // All three at once, emptied before failing: React logs an error its boundary caught through
    // console.error too, and what one session leaves behind must not fail the next one.
    const crashes = [
      ...uncaught.splice(0),
      ...boundaryHits.splice(0).map((e) => `error boundary: ${e}`),
      ...consoleErrors.splice(0).map((e) => `console.error: ${e}`),
    ];
    if (crashes.length) fail("uncaught exception, error boundary hit or console.error", crashes);

    // onError: every rejected frame once per channel, in order, and nothing unexplained.
    const client = probe.errors.client.splice(0);
    if (client.join("\n") !== expected.client.join("\n"))
      fail("the connection's onError does not match the rejected frames", [
        `expected ${expected.client.length}: ${expected.client.join(" | ")}`,
        `reported ${client.length}: ${client.join(" | ")}`,
      ]);
    for (const [name, reports, exp, allow] of [
      ["chat", probe.errors.chat.splice(0), expected.chat, allowed.chat],
      ["runs", probe.errors.runs.splice(0), expected.runs, allowed.runs],
    ] as const) {
      const unexplained: string[] = [];
      const wanted = exp.slice();
      for (const msg of reports) {
        if (wanted[0] === msg) wanted.shift();
        else if (!allow.take(msg)) unexplained.push(msg);
      }
      if (wanted.length || unexplained.length)
        fail(`the ${name} store's onError does not match`, [
          `rejected frames not reported: ${wanted.join(" | ")}`,
          `reports no frame explains: ${unexplained.join(" | ")}`,
        ]);
    }

    const c = chat();
    const runState = runs().store.getSnapshot();
    const problems = [...checkChat(c as unknown as ChatSnapshot), ...checkRuns(runState, started)];
    for (const [id, run] of Object.entries(runState.runsById)) {
      const was = terminal.get(id);
      if (was && run.status !== was) problems.push(`run '${id}' went from ${was} to ${run.status}`);
      if (HARD_TERMINAL.has(run.status)) terminal.set(id, run.status);
    }
    if (runs().runsById !== runState.runsById)
      problems.push("the runs hook did not render the store's state");
    // React rendered what the stores hold.
    const root = view.container;
    const section = root.querySelector('[data-testid="chat"]');
    if (section?.getAttribute("data-status") !== c.status) problems.push("the DOM shows another status");
    const rendered = root.querySelectorAll("[data-message-id]").length;
    if (rendered !== c.messages.length)
      problems.push(`${rendered} messages rendered, ${c.messages.length} held`);
    const missing = root.querySelectorAll("[data-missing-run]");
    if (missing.length) problems.push(`useAgentToolRun found no run for ${missing.length} listed ids`);
    // What the components show, on every fifth check (selectors over the whole tree are not free).
    if (++checks % 5 === 0) {
      for (const [name, selector] of Object.entries(COMPONENTS))
        totals.rendered[name as keyof typeof COMPONENTS] += root.querySelectorAll(selector).length;
      // Labels built from wire values name no member of Object.prototype.
      for (const note of root.querySelectorAll('[role="note"]'))
        if (/\[native code\]|\[object Object\]/.test(note.getAttribute("aria-label") ?? ""))
          problems.push(`an agent event is labelled '${note.getAttribute("aria-label")}'`);
    }
    // Snapshots handed out earlier were not changed by what came after.
    if (previous && !unchanged(previous.chat)) problems.push("the previous chat snapshot was mutated");
    if (previous && !unchanged(previous.runs)) problems.push("the previous run snapshot was mutated");
    if (problems.length) fail("invariants broken", problems);
    previous = { chat: capture(c.messages), runs: capture(runState) };
  };

  /** Delivers frames in one act() and checks the outcome. */
  const deliver = async (batch: GeneratedFrame[], countAsFuzz: boolean) => {
    current = batch;
    const expected = { client: [] as string[], chat: [] as string[], runs: [] as string[] };
    const allowed = { chat: new Allowance(), runs: new Allowance() };
    for (const f of batch) {
      const p = parseServerFrame(f.data);
      if (countAsFuzz) {
        totals.frames++;
        totals.byKind[f.kind] = (totals.byKind[f.kind] ?? 0) + 1;
        if (f.kind === "oversized" && typeof f.data === "string") totals.oversizedChars += f.data.length;
      }
      if (p.kind === "error") {
        if (countAsFuzz) totals.rejected++;
        expected.client.push(p.reason);
        if (p.frameType && CHAT_TYPES.has(p.frameType)) expected.chat.push(p.reason);
        if (p.frameType === "agent-tool-event") expected.runs.push(p.reason);
        continue;
      }
      if (p.kind !== "frame") continue;
      const fr = p.frame;
      // The fuzzer's RPC replies answer ids no call of this client used: the connection reports each one.
      if (fr.type === "rpc")
        expected.client.push(`rpc reply for unknown call id ${JSON.stringify(fr.id)}: ignored`);
      if (fr.type === "cf_agent_use_chat_response") {
        touchedStreams.add(fr.id);
        if (fr.error) allowed.chat.add(fr.body || "Stream error");
        else if (fr.body) {
          const b = parseChunkBody(fr.body);
          if (b.kind === "error") allowed.chat.add(`chat stream ${fr.id}: ${b.reason}`);
        }
      } else if (fr.type === "cf_agent_stream_resuming") touchedStreams.add(fr.id);
      else if (fr.type === "cf_agent_chat_recovering" && fr.id) touchedStreams.add(fr.id);
      else if (fr.type === "cf_agent_chat_clear") {
        // A clear (this chat's, from another tab) forgets every run started before it; runs started later
        // in the same batch must still be there.
        started = new Set();
        terminal = new Map();
      } else if (fr.type === "agent-tool-event") {
        const ev = fr.event;
        if (ev.kind === "started") started.add(ev.runId);
        if (ev.kind === "chunk") {
          const b = parseChunkBody(ev.body);
          if (b.kind === "error") allowed.runs.add(`agent-tool run ${ev.runId}: ${b.reason}`);
          else if (b.kind === "chunk" && b.chunk.type === "data-agent-milestone") {
            const name = (b.chunk as { data?: { name?: unknown } }).data?.name;
            if (typeof name !== "string")
              allowed.runs.add(`agent-tool run ${ev.runId}: milestone without a string 'name'`);
          }
        }
      }
    }
    await act(async () => {
      for (const f of batch) socket().deliver(f.data);
    });
    readOutbox();
    // The app's tool answers may report a call that a later frame of the batch removed.
    for (const m of probe.errors.chat) if (m.startsWith("addToolOutput: no tool call ")) allowed.chat.add(m);
    verify(expected, allowed);
  };

  /** Ends every stream the fuzz touched; afterwards nothing may be streaming. */
  const settle = async () => {
    readOutbox();
    const ids = new Set([...touchedStreams, ...localRequestIds]);
    touchedStreams.clear();
    const frames: GeneratedFrame[] = [...ids].map((id) => ({
      kind: "scenario" as FrameKind,
      data: JSON.stringify({ type: "cf_agent_use_chat_response", id, body: "", done: true }),
    }));
    await deliver(frames, false);
    const s = chat();
    if (s.isStreaming || s.isServerStreaming || s.status === "streaming" || s.status === "submitted")
      fail("a stream is still live after every stream got its done", [
        `status ${s.status}, isStreaming ${s.isStreaming}, isServerStreaming ${s.isServerStreaming}`,
      ]);
  };

  /** A valid turn of this tab's own: it must arrive whole. */
  const localTurn = async (n: number) => {
    await act(() => chat().sendMessage({ text: `ping-${n}` }));
    const req = readOutbox().find((f) => f.type === "cf_agent_use_chat_request");
    if (!req)
      return fail("sendMessage sent no request", [`status ${chat().status}, error ${chat().error?.message}`]);
    const id = req.id as string;
    const sent = JSON.parse((req.init as { body: string }).body) as { messages: Array<{ id: string }> };
    const userId = sent.messages.at(-1)?.id as string;
    const reply = `reply-${session}-${n}`;
    const frame = (chunk: object | "", done = false) =>
      JSON.stringify({
        type: "cf_agent_use_chat_response",
        id,
        body: chunk === "" ? "" : JSON.stringify(chunk),
        done,
        ...(done ? { messageIds: [userId] } : {}),
      });
    await deliver(
      [
        frame({ type: "start", messageId: reply }),
        frame({ type: "text-start", id: "t" }),
        frame({ type: "text-delta", id: "t", delta: `pong-${n}` }),
        frame({ type: "text-end", id: "t" }),
        frame({ type: "finish", messageMetadata: { finishReason: "stop" } }),
        frame("", true),
      ].map((data) => ({ kind: "scenario" as FrameKind, data })),
      false,
    );
    const s = chat();
    const [user, assistant] = s.messages.slice(-2);
    const ok =
      s.status === "ready" &&
      s.error === undefined &&
      !s.isStreaming &&
      user?.id === userId &&
      textOf(user) === `ping-${n}` &&
      assistant?.id === reply &&
      textOf(assistant) === `pong-${n}` &&
      view.container.querySelector(`[data-message-id="${reply}"]`)?.textContent?.includes(`pong-${n}`);
    if (!ok)
      fail("a valid turn after the fuzz did not arrive whole", [
        `status ${s.status}, error ${s.error?.message}, isStreaming ${s.isStreaming}`,
        `last two: ${JSON.stringify(s.messages.slice(-2)).slice(0, 2000)}`,
      ]);
  };

  /** A valid stream offered on resume: acknowledged once, replayed and continued live, shown whole. */
  const resumedTurn = async (n: number) => {
    let resolved: string | undefined | null = null;
    await act(async () => {
      void chat()
        .resumeStream()
        .then((v) => {
          resolved = v;
        });
    });
    readOutbox();
    const probeId = probeIds.at(-1);
    const id = `resumed-stream-${session}-${n}`;
    const messageId = `resumed-${session}-${n}`;
    const frame = (chunk: object | "", extra: object = {}) =>
      JSON.stringify({
        type: "cf_agent_use_chat_response",
        id,
        body: chunk === "" ? "" : JSON.stringify(chunk),
        done: false,
        ...extra,
      });
    const mark = outbox.length;
    await deliver(
      [{ kind: "scenario", data: JSON.stringify({ type: "cf_agent_stream_resuming", id, probeId }) }],
      false,
    );
    const acks = outbox
      .slice(mark)
      .map((raw) => JSON.parse(raw) as Record<string, unknown>)
      .filter((f) => f.type === "cf_agent_stream_resume_ack" && f.id === id);
    if (acks.length !== 1)
      fail("a resumable stream was not acknowledged exactly once", [`${acks.length} ACKs`]);
    await deliver(
      [
        frame({ type: "start", messageId }, { replay: true }),
        frame({ type: "text-delta", id: "t", delta: "resumed " }, { replay: true }),
        frame("", { replay: true, replayComplete: true }),
        frame({ type: "text-delta", id: "t", delta: `live-${n}` }),
        frame("", { done: true }),
      ].map((data) => ({ kind: "scenario" as FrameKind, data })),
      false,
    );
    const s = chat();
    const last = s.messages.at(-1);
    const ok =
      resolved === id &&
      !s.isStreaming &&
      last?.id === messageId &&
      textOf(last) === `resumed live-${n}` &&
      view.container.querySelector(`[data-message-id="${messageId}"]`)?.textContent?.includes(`live-${n}`);
    if (!ok)
      fail("a resumed stream after the fuzz did not arrive whole", [
        `probe ${probeId} resolved ${String(resolved)}, isStreaming ${s.isStreaming}`,
        `last: ${JSON.stringify(last).slice(0, 2000)}`,
      ]);
  };

  /** Something an app does between frames. */
  const appAction = async () => {
    totals.actions++;
    const c = chat();
    const kind = r.weighted<string>([
      [3, "stop"],
      [2, "resume"],
      [1, "reset-runs"],
      [1, "clear"],
      [2, "approve"],
      [1, "regenerate"],
      [2, "reconnect"],
      [6, "click"],
    ]);
    current = [];
    const expected = { client: [] as string[], chat: [] as string[], runs: [] as string[] };
    const allowed = { chat: new Allowance(), runs: new Allowance() };
    switch (kind) {
      case "stop":
        await act(async () => c.stop());
        break;
      case "resume":
        await act(async () => void c.resumeStream());
        break;
      case "reset-runs":
        await act(async () => runs().resetLocalState());
        started = new Set();
        terminal = new Map();
        break;
      case "clear":
        await act(async () => c.clearHistory());
        break;
      case "approve": {
        const pending = c.messages
          .flatMap((m) => m.parts as Array<{ state?: unknown; approval?: { id?: unknown } }>)
          .filter((p) => p.state === "approval-requested" && typeof p.approval?.id === "string");
        const p = pending.at(-1);
        if (p)
          await act(async () =>
            c.addToolApprovalResponse({ id: p.approval?.id as string, approved: r.chance(0.5) }),
          );
        break;
      }
      case "regenerate":
        // On an empty transcript (after a clear) there is nothing to regenerate: the AI SDK's error is reported.
        allowed.chat.add("Invalid argument for parameter messageId: message undefined not found");
        await act(() => c.regenerate());
        break;
      case "click": {
        // A user pressing any enabled button the components show: run disclosure, retry, show all, approve,
        // deny, approve all, a confirmation dialog's buttons (portalled to the body).
        const buttons = [...document.body.querySelectorAll<HTMLButtonElement>("button:not([disabled])")];
        if (!buttons.length) break;
        totals.clicks++;
        const button = r.pick(buttons);
        await act(async () => void fireEvent.click(button));
        break;
      }
      case "reconnect": {
        totals.reconnects++;
        const old = socket();
        await act(async () => {
          old.drop();
          await until(
            () => FakeWebSocket.current !== old && FakeWebSocket.current?.readyState === 1,
            "a reconnect",
          );
        });
        break;
      }
    }
    readOutbox();
    verify(expected, allowed);
  };

  let delivered = 0;
  let checkpoint = 0;
  while (delivered < frames) {
    batchNo++;
    const batch = gen.batch(context(), Math.min(BATCH, frames - delivered));
    delivered += batch.length;
    await deliver(batch, true);
    if (r.chance(0.08)) await appAction();
    if (batchNo % CHECK_EVERY === 0 || delivered >= frames) {
      checkpoint++;
      totals.checkpoints++;
      current = [];
      if (checkpointPrint && !unchanged(checkpointPrint.chat))
        fail("a checkpoint's chat snapshot was mutated", []);
      if (checkpointPrint && !unchanged(checkpointPrint.runs))
        fail("a checkpoint's run snapshot was mutated", []);
      await settle();
      if (checkpoint % 2) await localTurn(checkpoint);
      else await resumedTurn(checkpoint);
      totals.recoveryTurns++;
      // Now and then start over with an empty transcript and no runs, so memory stays bounded.
      if (checkpoint % 5 === 0) {
        await deliver([{ kind: "scenario", data: '{"type":"cf_agent_chat_clear"}' }], false);
        await act(async () => runs().resetLocalState());
        started = new Set();
        terminal = new Map();
      }
      checkpointPrint = { chat: capture(chat().messages), runs: capture(runs().store.getSnapshot()) };
    }
  }
  totals.toolCalls += probe.toolCalls;
  view.unmount();
  // The hooks dispose on the next tick.
  await act(() => new Promise((r) => setTimeout(r, 5)));
  current = [];
  const late = [...uncaught.splice(0), ...boundaryHits.splice(0), ...consoleErrors.splice(0)];
  if (late.length) fail("uncaught exception or console.error while unmounting", late);
}

describe("fuzz: generated frames through AgentClient + ChatSession + AgentToolRuns, rendered", () => {
  const real = loadRealTranscripts();
  const sessions = Math.ceil(FRAMES / FRAMES_PER_SESSION);
  let sessionsRun = 0;
  for (let s = 0; s < sessions; s++) {
    const frames = Math.min(FRAMES_PER_SESSION, FRAMES - s * FRAMES_PER_SESSION);
    it(`session ${s + 1}/${sessions}: ${frames} frames`, { timeout: 600_000 }, async () => {
      await runSession(s, frames, real);
      sessionsRun++;
    });
  }

  afterAll(() => {
    console.info(
      `fuzz (seed ${SEED}): ${totals.frames} frames, ${totals.rejected} rejected and reported; ` +
        `${totals.checkpoints} checkpoints with a valid turn each, ${totals.reconnects} reconnects, ` +
        `${totals.actions} app actions (${totals.clicks} clicks), ${totals.toolCalls} tool calls; ` +
        `${(totals.oversizedChars / 1e6).toFixed(1)} MB in oversized frames; by kind ${JSON.stringify(totals.byKind)}; ` +
        `components on screen (summed over every fifth check) ${JSON.stringify(totals.rendered)}`,
    );
    // Only a full run (not one filtered with -t) must reach the count, and show every component.
    if (sessionsRun === sessions) {
      expect(totals.frames).toBeGreaterThanOrEqual(FRAMES);
      for (const [name, n] of Object.entries(totals.rendered))
        expect(n, `${name} rendered`).toBeGreaterThan(0);
    }
  });
});
