import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentToolRunsReducer } from "./agent-tool-runs.ts";
import type { AgentToolEventFrame } from "./frames.ts";

// Per-frame work must not grow with a run's history or the number of runs: counted in sorts and in entries
// copied, never timed.

const started = (runId: string, parent?: string, order = 0): AgentToolEventFrame => ({
  type: "agent-tool-event",
  sequence: 0,
  event: { kind: "started", runId, agentType: "Researcher", order, display: { name: "Researcher" } },
  ...(parent ? { parentToolCallId: parent } : {}),
});
const milestone = (runId: string, sequence: number, name = `m${sequence}`): AgentToolEventFrame => ({
  type: "agent-tool-event",
  sequence: 1,
  event: {
    kind: "chunk",
    runId,
    body: JSON.stringify({ type: "data-agent-milestone", data: { name, sequence, at: 1000 + sequence } }),
  },
});
const finished = (runId: string): AgentToolEventFrame => ({
  type: "agent-tool-event",
  sequence: 99,
  event: { kind: "finished", runId, summary: "done" },
});

/** Counts `Array.prototype.sort` calls while `fn` runs. */
function sortsDuring(fn: () => void): number {
  const spy = vi.spyOn(Array.prototype, "sort");
  try {
    fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const progress = (runId: string, n: number): AgentToolEventFrame => ({
  type: "agent-tool-event",
  sequence: n,
  event: {
    kind: "chunk",
    runId,
    body: JSON.stringify({ type: "data-agent-progress", id: `p${n}`, data: { fraction: n / 1e4 } }),
  },
});

/**
 * Entries copied while `fn` runs: keys copied by `Object.assign` (how the run indexes are copied) and elements
 * copied by `slice` from a milestone list (how a published list is copied before it is written again).
 */
function copiesDuring(fn: () => void): { index: number; milestones: number } {
  const counts = { index: 0, milestones: 0 };
  const assign = Object.assign;
  const slice = Array.prototype.slice;
  vi.spyOn(Object, "assign").mockImplementation(((target: object, ...sources: object[]) => {
    for (const src of sources) if (src) counts.index += Object.keys(src).length;
    return assign(target, ...sources);
  }) as typeof Object.assign);
  vi.spyOn(Array.prototype, "slice").mockImplementation(function (
    this: unknown[],
    ...args: [number?, number?]
  ) {
    const first = this[0] as { sequence?: unknown; name?: unknown } | undefined;
    if (typeof first?.sequence === "number" && typeof first.name === "string")
      counts.milestones += this.length;
    return slice.apply(this, args);
  });
  try {
    fn();
  } finally {
    vi.restoreAllMocks();
  }
  return counts;
}

afterEach(() => vi.restoreAllMocks());

describe("run reducer at scale", () => {
  it("a milestone frame does not re-sort the run's milestones, read after every frame", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run-1", "call_1"));
    const sorts = sortsDuring(() => {
      for (let i = 0; i < 2_000; i++) {
        r.apply(milestone("run-1", i));
        void r.state;
      }
    });
    expect(sorts).toBe(0);
    expect(r.state.runsById["run-1"]?.milestones).toHaveLength(2_000);
  });

  it("milestones that arrive out of order end in sequence order, each once", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run-1"));
    const order = [5, 1, 9, 3, 3, 0, 8, 2, 7, 4, 6, 1, 9];
    for (const s of order) {
      r.apply(milestone("run-1", s));
      void r.state; // published in between: the next insert copies, never edits a published list
    }
    const run = r.state.runsById["run-1"];
    expect(run?.milestones.map((m) => m.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Only the newest milestone moves the progress snapshot.
    expect(run?.progress?.milestone).toBe("m9");
  });

  it("a published milestone list never changes afterwards", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run-1"));
    r.apply(milestone("run-1", 2));
    const before = r.state.runsById["run-1"]?.milestones;
    r.apply(milestone("run-1", 1));
    r.apply(milestone("run-1", 3));
    expect(before?.map((m) => m.sequence)).toEqual([2]);
    expect(r.state.runsById["run-1"]?.milestones.map((m) => m.sequence)).toEqual([1, 2, 3]);
  });

  it("a frame for one run re-sorts no group, and the other runs and groups keep their identity", () => {
    const r = new AgentToolRunsReducer();
    // Runs arrive out of display order, into one big group, another group and the unbound list.
    for (let i = 0; i < 500; i++) r.apply(started(`run-${i}`, "call_big", (i * 7919) % 500));
    r.apply(started("other", "call_small"));
    r.apply(started("free-b", undefined, 2));
    r.apply(started("free-a", undefined, 1));
    const before = r.state;
    expect(before.runsByToolCallId.call_big?.map((x) => x.order)).toEqual([...Array(500).keys()]);
    expect(before.unboundRuns.map((x) => x.runId)).toEqual(["free-a", "free-b"]);
    let after = before;
    const sorts = sortsDuring(() => {
      r.apply(milestone("run-7", 0));
      r.apply(finished("run-7"));
      after = r.state;
    });
    expect(sorts).toBe(0);
    const big = after.runsByToolCallId.call_big ?? [];
    expect(big).not.toBe(before.runsByToolCallId.call_big);
    expect(big.map((x) => x.order)).toEqual([...Array(500).keys()]);
    const changed = after.runsById["run-7"];
    expect(changed?.status).toBe("completed");
    expect(big[changed?.order ?? -1]).toBe(changed);
    // Unchanged runs and groups are the same objects.
    for (const run of big) if (run.runId !== "run-7") expect(run).toBe(before.runsById[run.runId]);
    expect(after.runsById.other).toBe(before.runsById.other);
    expect(after.runsByToolCallId.call_small).toBe(before.runsByToolCallId.call_small);
    expect(after.unboundRuns).toBe(before.unboundRuns);
  });

  it("new runs join their group in display order without a sort", () => {
    const r = new AgentToolRunsReducer();
    const sorts = sortsDuring(() => {
      for (const [id, order] of [
        ["c", 3],
        ["a", 1],
        ["b", 2],
        ["a2", 1],
        ["d", 0],
      ] as const) {
        r.apply(started(id, "call_1", order));
        void r.state;
      }
    });
    expect(sorts).toBe(0);
    expect(r.state.runsByToolCallId.call_1?.map((x) => x.runId)).toEqual(["d", "a", "a2", "b", "c"]);
  });

  // What a read must copy is set by the public shape: a new `runsById` and `runsByToolCallId` record per state
  // (plain records; the previous state stays as it was), the changed groups, and a new milestone array for a
  // run whose list grew. That part grows with the history (inherent, see bench/RESULTS.md "Runs at scale");
  // nothing else may: not the frames between reads, not the runs or lists that did not change.
  it.each([500, 2_000])(
    "16 frames then a read, among %i runs and a run with as many milestones: the indexes once, the grown list once",
    (history) => {
      const r = new AgentToolRunsReducer();
      for (let i = 0; i < history; i++) r.apply(started(`r${i}`, `call_r${i}`, i));
      r.apply(started("long", "call_long"));
      for (let i = 0; i < history; i++) r.apply(milestone("long", i));
      r.apply(milestone("other", 0)); // ignored: not started
      const before = r.state;
      const copied = copiesDuring(() => {
        for (let k = 0; k < 8; k++) r.apply(milestone("long", history + k));
        for (let k = 0; k < 8; k++) r.apply(progress(`r${k * 7}`, 2 + k));
        void r.state;
      });
      const runs = history + 1;
      // One copy of each index (runs entries by id, runs entries by tool call), however many frames came.
      expect(copied.index).toBe(2 * runs);
      // The grown list is copied once (at its first append after the read), not once per append.
      expect(copied.milestones).toBe(history);
      const after = r.state;
      expect(after.runsById.long?.milestones).toHaveLength(history + 8);
      expect(before.runsById.long?.milestones).toHaveLength(history);
      // Runs that did not change keep their objects, lists and groups.
      expect(after.runsById.r1).toBe(before.runsById.r1);
      expect(after.runsByToolCallId.call_r1).toBe(before.runsByToolCallId.call_r1);
      // A read without a change copies nothing.
      expect(copiesDuring(() => void r.state)).toEqual({ index: 0, milestones: 0 });
    },
  );
});
