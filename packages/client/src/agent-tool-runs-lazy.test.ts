import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { frameAgent } from "../test/helpers.ts";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";

// A frame for one run must not cost a copy of every run's entry: the published state is built when it is read,
// not per frame. Counted in entries copied by Object.assign (how the run indexes are copied), never timed.

const frame = (runId: string, event: Record<string, unknown>, sequence: number, parent?: string) => ({
  type: "agent-tool-event",
  sequence,
  ...(parent ? { parentToolCallId: parent } : {}),
  event: { runId, ...event },
});
const started = (runId: string, parent?: string, order = 0) =>
  frame(runId, { kind: "started", agentType: "Researcher", order }, 0, parent);
const progress = (runId: string, n: number) =>
  frame(
    runId,
    {
      kind: "chunk",
      body: JSON.stringify({ type: "data-agent-progress", id: `p${n}`, data: { fraction: n / 1000 } }),
    },
    n,
  );
const milestone = (runId: string, seq: number) =>
  frame(
    runId,
    {
      kind: "chunk",
      body: JSON.stringify({ type: "data-agent-milestone", data: { name: `m${seq}`, sequence: seq, at: 5 } }),
    },
    1,
  );
const text = (runId: string, seq: number, id: string, delta: string) =>
  frame(runId, { kind: "chunk", body: JSON.stringify({ type: "text-delta", id, delta }) }, seq);
const finished = (runId: string) => frame(runId, { kind: "finished", summary: "done" }, 99);

const agent = frameAgent;

const memoryStorage = (): ProgressStorage => {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
};

/** Entries copied by `Object.assign` while `fn` runs (the run indexes are copied that way). */
function entriesCopiedDuring(fn: () => void): number {
  let copied = 0;
  const assign = Object.assign;
  const spy = vi.spyOn(Object, "assign").mockImplementation(((target: object, ...sources: object[]) => {
    for (const s of sources) if (s) copied += Object.keys(s).length;
    return assign(target, ...sources);
  }) as typeof Object.assign);
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return copied;
}

beforeEach(() => {
  // Progress times come from the clock: two stores fed the same frames must read the same time.
  vi.useFakeTimers({ now: 1_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("AgentToolRuns at scale: the state is built when read", () => {
  const RUNS = 2_000;
  function manyRuns() {
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage: memoryStorage(), storageKey: "t", throttleMs: 0 });
    for (let i = 0; i < RUNS; i++) a.deliver(started(`r${i}`, `call_${i}`, i));
    void runs.getSnapshot();
    return { a, runs };
  }

  it("200 frames for one run among 2,000, with a subscriber that does not read, copy no run index", () => {
    const { a, runs } = manyRuns();
    let heard = 0;
    runs.subscribe(() => heard++);
    const copied = entriesCopiedDuring(() => {
      for (let n = 1; n <= 200; n++) a.deliver(progress("r7", n));
    });
    expect(heard).toBe(200);
    // Before: every frame copied the id index and the tool-call index (2 × 2,000 entries per frame).
    expect(copied).toBeLessThan(RUNS);
    expect(runs.getSnapshot().runsById.r7?.progress?.fraction).toBe(0.2);
  });

  it("read every 16th notification (one render per animation frame): the index is copied per read only", () => {
    const { a, runs } = manyRuns();
    let heard = 0;
    runs.subscribe(() => {
      if (++heard % 16 === 0) void runs.getSnapshot();
    });
    const copied = entriesCopiedDuring(() => {
      for (let n = 1; n <= 160; n++) a.deliver(progress(`r${n * 11}`, n));
    });
    // 10 reads; each copies the id index and the tool-call index once (inherent to handing out records).
    expect(copied).toBeLessThanOrEqual(10 * (2 * RUNS + 32));
    expect(copied).toBeGreaterThan(0);
  });

  it("a run that ends leaves `cancelling` though nobody reads the state", async () => {
    const a = agent();
    const call = vi.fn(async () => undefined);
    const runs = new AgentToolRuns({ agent: { ...a, call }, storage: null, throttleMs: 0 });
    a.deliver(started("r1", "call_1"));
    expect(runs.cancel("r1")).toBe(true);
    expect(runs.actions.isCancelling("r1")).toBe(true);
    a.deliver(finished("r1"));
    expect(runs.actions.isCancelling("r1")).toBe(false);
  });

  it("property: reading at any points gives the state a single read at the end gives; unchanged runs keep identity", () => {
    const runIds = ["a", "b", "c", "d"];
    const step = fc.oneof(
      fc.record({
        k: fc.constant("start"),
        run: fc.constantFrom(...runIds),
        parent: fc.constantFrom("c1", "c2", undefined),
        order: fc.nat(3),
      }),
      fc.record({ k: fc.constant("progress"), run: fc.constantFrom(...runIds), n: fc.nat(50) }),
      fc.record({ k: fc.constant("milestone"), run: fc.constantFrom(...runIds), n: fc.nat(20) }),
      fc.record({
        k: fc.constant("text"),
        run: fc.constantFrom(...runIds),
        n: fc.integer({ min: 1, max: 6 }),
      }),
      fc.record({ k: fc.constant("finish"), run: fc.constantFrom(...runIds) }),
      fc.record({ k: fc.constant("read") }),
    );
    const toFrame = (s: { k: string; run?: string; parent?: string; order?: number; n?: number }) => {
      const run = s.run as string;
      if (s.k === "start") return started(run, s.parent, s.order);
      if (s.k === "progress") return progress(run, s.n as number);
      if (s.k === "milestone") return milestone(run, s.n as number);
      if (s.k === "text") return text(run, s.n as number, "t", `${s.n}`);
      return finished(run);
    };
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const lazy = agent();
        const eager = agent();
        const live = new AgentToolRuns({ agent: lazy, storage: null, throttleMs: 0 });
        const once = new AgentToolRuns({ agent: eager, storage: null, throttleMs: 0 });
        let prev = live.getSnapshot();
        const touched = new Set<string>();
        for (const s of steps) {
          if (s.k !== "read") {
            const f = toFrame(s);
            lazy.deliver(f);
            eager.deliver(f);
            touched.add(s.run as string);
            continue;
          }
          const now = live.getSnapshot();
          for (const [id, run] of Object.entries(prev.runsById))
            if (!touched.has(id)) expect(now.runsById[id]).toBe(run);
          if (touched.size === 0) expect(now).toBe(prev);
          touched.clear();
          prev = now;
        }
        expect(live.getSnapshot()).toEqual(once.getSnapshot());
        expect(live.getSnapshot()).toBe(live.getSnapshot());
      }),
      { numRuns: 200, seed: 18 },
    );
  });
});
