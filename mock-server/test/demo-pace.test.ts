// Issue 17 §2: the demo runs a person watches (`createDemoAgents({ pace: "people" })`, what `npm run dev` and
// runboard-mock serve). Played on the hub with fake timers at delayScale 1, so every time below is script time
// read from the mock's own (fake) clock: the test takes no longer and depends on no machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectionId, createDemoAgents, Hub, type MockConnection } from "../src/index.ts";

type Frame = Record<string, unknown>;
interface Seen {
  at: number;
  frame: Frame;
}
interface RunEvent {
  kind: string;
  runId: string;
  agentType?: string;
  body?: string;
}

/** A fake socket on `path`: every frame it is sent, stamped with the (fake) time it was sent. */
function watch(hub: Hub, path: string) {
  const seen: Seen[] = [];
  const conn: MockConnection = {
    id: connectionId(),
    send: (t) => seen.push({ at: Date.now(), frame: JSON.parse(t) as Frame }),
    close() {},
    terminate() {},
  };
  const a = hub.accept(path);
  if (a.status !== 200) throw new Error(`${path} refused: ${a.status}`);
  a.open(conn);
  return { conn, seen };
}

const ask = (hub: Hub, conn: MockConnection, text: string) =>
  hub.message(
    conn,
    JSON.stringify({
      type: "cf_agent_use_chat_request",
      id: "r1",
      init: {
        method: "POST",
        body: JSON.stringify({
          messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
          trigger: "submit-message",
        }),
      },
    }),
  );

/** Run events seen on one socket, each with the chunk body parsed. */
const events = (seen: Seen[]) =>
  seen
    .filter((s) => s.frame.type === "agent-tool-event")
    .map((s) => {
      const event = s.frame.event as RunEvent;
      const body = event.kind === "chunk" ? (JSON.parse(event.body ?? "{}") as Frame) : undefined;
      return { at: s.at, event, body };
    });

const ofKind = (seen: Seen[], kind: string, agentType?: string) =>
  events(seen).find((e) => e.event.kind === kind && (!agentType || e.event.agentType === agentType));

const chunksOf = (seen: Seen[], type: string) => events(seen).filter((e) => e.body?.type === type);
/** The `data` of a progress or milestone chunk. */
const dataOf = (e: { body?: Frame | undefined }) => (e.body?.data ?? {}) as Frame;

/** Advances the fake clock in 100 ms steps until `cond` holds (at most `limitMs` of script time). */
async function until<T>(cond: () => T | undefined | false, limitMs = 120_000): Promise<T> {
  for (let t = 0; t <= limitMs; t += 100) {
    const v = cond();
    if (v) return v;
    await vi.advanceTimersByTimeAsync(100);
  }
  throw new Error(`not within ${limitMs} ms of script time`);
}

let hub: Hub;
let n = 0;
const room = () => `pace-${++n}`;
beforeEach(() => {
  vi.useFakeTimers();
  hub = new Hub({ agents: createDemoAgents({ pace: "people" }), delayScale: 1, log: () => {} });
});
afterEach(() => {
  hub.closeAll();
  vi.useRealTimers();
});

describe("background at a person's pace", () => {
  it("runs over 20 s with a tick every 1-2 s, milestones spread over the run and a chat that grows", async () => {
    const name = room();
    const { conn, seen } = watch(hub, `/agents/chat-agent/${name}`);
    ask(hub, conn, "background research on queues");
    const started = await until(() => ofKind(seen, "started"));
    const finished = await until(() => ofKind(seen, "finished"));
    const length = finished.at - started.at;
    expect(length).toBeGreaterThanOrEqual(20_000);
    expect(length).toBeLessThanOrEqual(30_000);

    const ticks = chunksOf(seen, "data-agent-progress");
    const milestones = chunksOf(seen, "data-agent-milestone");
    expect(ticks.length).toBeGreaterThanOrEqual(10);
    expect(milestones.length).toBeGreaterThanOrEqual(3);
    // Every tick says where the run is, in a fraction and in words ("Reading source 3 of 8: …").
    for (const t of ticks) {
      expect(dataOf(t).fraction).toEqual(expect.any(Number));
      expect(dataOf(t).message).toEqual(expect.any(String));
    }
    expect(ticks.map((t) => dataOf(t).message)).toContainEqual(
      expect.stringMatching(/^Reading source 3 of 8/),
    );
    // Something moves at least every 2.5 s from start to end, so a person watching never sees it stall.
    const moments = [started.at, ...ticks.map((t) => t.at), ...milestones.map((m) => m.at), finished.at].sort(
      (a, b) => a - b,
    );
    const gaps = moments.slice(1).map((t, i) => t - (moments[i] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2500);
    // Milestones are spread over the run: one in its first quarter, one in its last.
    const when = milestones.map((m) => (m.at - started.at) / length);
    expect(Math.min(...when)).toBeLessThan(0.25);
    expect(Math.max(...when)).toBeGreaterThan(0.75);
    // The helper's own chat grows while it works: text at the start, more in the middle, more at the end.
    const textBy = (t: number) => chunksOf(seen, "text-delta").filter((c) => c.at <= t).length;
    const mid = started.at + length / 2;
    expect(textBy(started.at + 2000)).toBeGreaterThan(0);
    expect(textBy(mid)).toBeGreaterThan(textBy(started.at + 2000));
    expect(textBy(finished.at)).toBeGreaterThan(textBy(mid));
    // And the agent is told at the end, with the summary.
    await until(() =>
      hub
        .find("ChatAgent", name)
        ?.messages.some((m) => m.id === `detached-finish:${started.event.runId}:completed`),
    );
  });

  it("a cancel mid-run ends it aborted, stops the helper and tells the agent it was cancelled", async () => {
    const name = room();
    const { conn, seen } = watch(hub, `/agents/chat-agent/${name}`);
    ask(hub, conn, "background research on queues");
    const started = await until(() => ofKind(seen, "started"));
    const { runId } = started.event;
    // About ten seconds in, as a person would: the run has ticked a few times and is far from done.
    await until(() => chunksOf(seen, "data-agent-milestone").length >= 1);
    await vi.advanceTimersByTimeAsync(7000);
    expect(ofKind(seen, "finished")).toBeUndefined();
    expect(chunksOf(seen, "data-agent-progress").length).toBeGreaterThanOrEqual(3);
    hub.message(
      conn,
      JSON.stringify({
        type: "rpc",
        id: "rpc-1",
        method: "cancelAgentTool",
        args: [runId, "user cancelled"],
      }),
    );
    const aborted = await until(() => ofKind(seen, "aborted"));
    expect(aborted.event).toEqual({ kind: "aborted", runId, reason: "user cancelled" });
    const instance = () => hub.find("ChatAgent", name);
    const notice = await until(() =>
      instance()?.messages.find((m) => m.id === `detached-finish:${runId}:aborted`),
    );
    expect(JSON.stringify(notice.parts)).toContain("was cancelled");
    // The agent answers the cancel as a cancel, not as a finished run.
    await until(() =>
      JSON.stringify(instance()?.messages.at(-1)?.parts ?? []).includes("research was cancelled"),
    );
    // The helper stopped: nothing more from the run for the rest of its script time.
    const count = events(seen).length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(events(seen).length).toBe(count);
    expect(ofKind(seen, "finished")).toBeUndefined();
  });
});

describe("nested at a person's pace", () => {
  it("three levels, each running long enough to expand and watch the next appear", async () => {
    const name = room();
    const parent = watch(hub, `/agents/chat-agent/${name}`);
    ask(hub, parent.conn, "nested");
    // Grandchild runs reach only a socket on the child (docs/protocol.md#nested-runs): open one per level,
    // as the playground does when a person expands a run.
    const planner = await until(() => ofKind(parent.seen, "started", "Planner"));
    const childPath = `/agents/chat-agent/${name}/sub/planner/${encodeURIComponent(planner.event.runId)}`;
    const child = watch(hub, childPath);
    const researcher = await until(() => ofKind(child.seen, "started", "Researcher"));
    const grandchild = watch(
      hub,
      `${childPath}/sub/researcher/${encodeURIComponent(researcher.event.runId)}`,
    );
    const checker = await until(() => ofKind(grandchild.seen, "started", "FactChecker"));
    const levels = [
      [parent.seen, planner, "Planner"],
      [child.seen, researcher, "Researcher"],
      [grandchild.seen, checker, "FactChecker"],
    ] as const;
    const spans: number[] = [];
    for (const [seen, start, agentType] of levels) {
      const end = await until(() =>
        events(seen).find((e) => e.event.kind === "finished" && e.event.runId === start.event.runId),
      );
      spans.push(end.at - start.at);
      const ticks = chunksOf(seen, "data-agent-progress").filter((t) => t.event.runId === start.event.runId);
      expect(ticks.length, `${agentType} ticks`).toBeGreaterThanOrEqual(3);
    }
    const [p, r, f] = spans as [number, number, number];
    // The child and grandchild stay open 15-20 s, the deepest level about 10 s, each inside its caller.
    expect(p).toBeGreaterThanOrEqual(15_000);
    expect(r).toBeGreaterThanOrEqual(12_000);
    expect(f).toBeGreaterThanOrEqual(8_000);
    expect(p).toBeGreaterThan(r);
    expect(r).toBeGreaterThan(f);
    // The next level appears a couple of seconds after its caller, so a person who expanded it sees it arrive.
    expect(researcher.at - planner.at).toBeGreaterThanOrEqual(2000);
    expect(checker.at - researcher.at).toBeGreaterThanOrEqual(2000);
  });
});

/** The text the agent streamed to `seen`'s socket (its chat response's text deltas, in order). */
const streamedText = (seen: Seen[]) =>
  seen
    .filter(
      (s) =>
        s.frame.type === "cf_agent_use_chat_response" && typeof s.frame.body === "string" && s.frame.body,
    )
    .map((s) => JSON.parse(s.frame.body as string) as Frame)
    .filter((b) => b.type === "text-delta")
    .map((b) => String(b.delta))
    .join("");

describe("the agent's words at a person's pace", () => {
  it("after a tool the agent says what happened in a sentence; the recorded pace keeps the scripted echo", async () => {
    const { conn, seen } = watch(hub, `/agents/chat-agent/${room()}`);
    ask(hub, conn, "weather in Lisbon");
    const said = await until(() => {
      const t = streamedText(seen);
      return t.endsWith(".") && t.includes("°C") ? t : false;
    });
    expect(said).toContain("It is 21 °C and sunny in Lisbon.");
    expect(said).not.toContain("Tool getWeather returned");

    const recorded = new Hub({ agents: createDemoAgents(), delayScale: 1, log: () => {} });
    const r = watch(recorded, `/agents/chat-agent/${room()}`);
    ask(recorded, r.conn, "weather in Lisbon");
    const echo = await until(() => (streamedText(r.seen).endsWith("Done.") ? streamedText(r.seen) : false));
    expect(echo).toContain('Tool getWeather returned {"type":"json","value":{"city":"Lisbon"');
    recorded.closeAll();
  });
});
