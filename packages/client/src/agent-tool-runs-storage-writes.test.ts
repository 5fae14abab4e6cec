import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";

// Saving run progress is coalesced: frames do not each serialise the run's whole history into storage.

/** An in-memory Storage that counts writes per key. */
function countingStorage() {
  const map = new Map<string, string>();
  const writes = new Map<string, number>();
  const storage: ProgressStorage = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      map.set(k, v);
      writes.set(k, (writes.get(k) ?? 0) + 1);
    },
  };
  return { storage, map, writes };
}

const frame = (runId: string, event: Record<string, unknown>, sequence = 1) => ({
  type: "agent-tool-event",
  sequence,
  parentToolCallId: "call_1",
  event: { runId, ...event },
});
const started = (runId: string) =>
  frame(runId, { kind: "started", agentType: "Researcher", order: 0, display: { name: "R" } }, 0);
const milestone = (runId: string, sequence: number) =>
  frame(runId, {
    kind: "chunk",
    body: JSON.stringify({ type: "data-agent-milestone", data: { name: `m${sequence}`, sequence, at: 5 } }),
  });

function agent() {
  const events = new EventTarget();
  return {
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    deliver: (f: unknown) => events.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) })),
  };
}

const KEY = "runboard:runs:t:";
const savedSequences = (map: Map<string, string>, runId: string) =>
  (JSON.parse(map.get(KEY + runId) ?? "{}") as { milestones?: { sequence: number }[] }).milestones?.map(
    (m) => m.sequence,
  );

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("AgentToolRuns progress storage", () => {
  it("1,000 milestone frames within a second write each run at most once; dispose saves the latest", () => {
    const { storage, map, writes } = countingStorage();
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "t", throttleMs: 0 });
    a.deliver(started("run-1"));
    a.deliver(started("run-2"));
    for (let i = 0; i < 500; i++) {
      a.deliver(milestone("run-1", i));
      a.deliver(milestone("run-2", i));
    }
    vi.advanceTimersByTime(900);
    expect(writes.get(`${KEY}run-1`)).toBe(1);
    // run-2 changed while saves cooled down: it waits for the second to end.
    expect(writes.get(`${KEY}run-2`) ?? 0).toBeLessThanOrEqual(1);
    // Live state is not held back by the saves.
    expect(runs.getSnapshot().runsById["run-1"]?.milestones).toHaveLength(500);
    runs.dispose();
    expect(savedSequences(map, "run-1")).toHaveLength(500);
    expect(savedSequences(map, "run-2")?.at(-1)).toBe(499);
  });

  it("saves the marked runs once the second is over, and nothing when nothing changed", () => {
    const { storage, map, writes } = countingStorage();
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "t", throttleMs: 0 });
    a.deliver(started("run-1"));
    for (let i = 0; i < 300; i++) a.deliver(milestone("run-1", i));
    vi.advanceTimersByTime(1_000);
    expect(writes.get(`${KEY}run-1`)).toBe(2);
    expect(savedSequences(map, "run-1")).toHaveLength(300);
    vi.advanceTimersByTime(5_000);
    expect(writes.get(`${KEY}run-1`)).toBe(2);
    runs.dispose();
  });

  it("the page hiding saves the latest state at once", () => {
    const win = new EventTarget();
    vi.stubGlobal("window", win);
    const { storage, map, writes } = countingStorage();
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "t", throttleMs: 0 });
    a.deliver(started("run-1"));
    for (let i = 0; i < 1_000; i++) a.deliver(milestone("run-1", i));
    expect(writes.get(`${KEY}run-1`)).toBe(1);
    win.dispatchEvent(new Event("pagehide"));
    expect(writes.get(`${KEY}run-1`)).toBe(2);
    expect(savedSequences(map, "run-1")).toEqual([...Array(1_000).keys()]);
    runs.dispose();
  });

  it("a run that ends is saved at once with its last milestones", () => {
    const { storage, map } = countingStorage();
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "t", throttleMs: 0 });
    a.deliver(started("run-1"));
    for (let i = 0; i < 10; i++) a.deliver(milestone("run-1", i));
    a.deliver(frame("run-1", { kind: "finished", summary: "ok" }, 50));
    expect(savedSequences(map, "run-1")).toHaveLength(10);
    runs.dispose();
  });

  it("a refreshed page still shows the saved progress, and a run without any is looked up once", () => {
    const { storage, map } = countingStorage();
    const first = agent();
    const before = new AgentToolRuns({ agent: first, storage, storageKey: "t", throttleMs: 0 });
    first.deliver(started("run-1"));
    first.deliver(milestone("run-1", 0));
    first.deliver(milestone("run-1", 1));
    before.dispose();
    const reads = vi.spyOn(storage, "getItem");
    const second = agent();
    const after = new AgentToolRuns({ agent: second, storage, storageKey: "t", throttleMs: 0 });
    second.deliver(started("run-1"));
    for (let i = 1; i <= 50; i++)
      second.deliver(
        frame("run-1", { kind: "chunk", body: JSON.stringify({ type: "text-start", id: `t${i}` }) }, i),
      );
    expect(reads).toHaveBeenCalledTimes(1);
    const run = after.getSnapshot().runsById["run-1"];
    expect(run?.milestones.map((m) => m.name)).toEqual(["m0", "m1"]);
    expect(after.getSnapshot().runsByToolCallId.call_1?.[0]).toBe(run);
    expect(map.size).toBe(1);
    after.dispose();
  });
});
