import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentToolRunsReducer, RECENT_IDS } from "./agent-tool-runs.ts";
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
    const r = new AgentToolRunsReducer({ maxMilestones: Number.POSITIVE_INFINITY });
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
      // Without the caps (`maxMilestones`, `maxFinishedRuns`): the copies counted are those of the shape.
      const r = new AgentToolRunsReducer({ maxMilestones: Number.POSITIVE_INFINITY });
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

// Issue 26 §2: a long session must not get slower or bigger with age. What is counted: runs and entries kept,
// entries copied by a read after one change, milestones kept, the size of the dedupe sets.

const replayed = (f: AgentToolEventFrame): AgentToolEventFrame => ({ ...f, replay: true });
/** A whole finished run: started, one text chunk, finished (as the replay sends one). */
const wholeRun = (runId: string, parent = `call_${runId}`): AgentToolEventFrame[] => [
  started(runId, parent),
  {
    type: "agent-tool-event",
    parentToolCallId: parent,
    sequence: 1,
    event: { kind: "chunk", runId, body: JSON.stringify({ type: "text-delta", id: "t", delta: runId }) },
  },
  { ...finished(runId), parentToolCallId: parent, sequence: 2 },
];
const idsOf = (r: AgentToolRunsReducer) => Object.keys(r.state.runsById).sort();
/** The reducer's private per-run dedupe sets, to count them (no public surface shows their size). */
const booksOf = (r: AgentToolRunsReducer) =>
  (r as unknown as { books: Map<string, Record<string, Set<unknown>>> }).books;

describe("run reducer over a long session", () => {
  it("keeps the newest maxFinishedRuns finished runs: the first to finish goes first, with its group", () => {
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 3 });
    for (let i = 0; i < 10; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    expect(idsOf(r)).toEqual(["r7", "r8", "r9"]);
    expect(Object.keys(r.state.runsByToolCallId).sort()).toEqual(["call_r7", "call_r8", "call_r9"]);
    expect(r.takeEvicted()).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(r.takeEvicted()).toEqual([]);
    expect(r.peekRun("r0")).toBeUndefined();
  });

  it("keeps 1,000 finished runs by default", () => {
    const r = new AgentToolRunsReducer();
    for (let i = 0; i < 1_200; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    expect(Object.keys(r.state.runsById)).toHaveLength(1_000);
    expect(r.state.runsById.r199).toBeUndefined();
    expect(r.state.runsById.r200?.status).toBe("completed");
  });

  it("never evicts a running run, however many runs finish after it", () => {
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 2 });
    r.apply(started("long", "call_long"));
    r.apply(started("free")); // detached: no tool call
    for (let i = 0; i < 50; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    expect(r.state.runsByToolCallId.call_long?.map((x) => x.runId)).toEqual(["long"]);
    expect(r.state.unboundRuns.map((x) => x.runId)).toEqual(["free"]);
    expect(idsOf(r)).toEqual(["free", "long", "r48", "r49"]);
    // Once it finishes it is the newest finished run, and the oldest other one goes.
    r.apply({ ...finished("long"), parentToolCallId: "call_long" });
    expect(idsOf(r)).toEqual(["free", "long", "r49"]);
  });

  it("evicting leaves every published state as it was", () => {
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 1 });
    r.apply(started("u1"));
    r.apply(started("u2"));
    for (const f of wholeRun("a", "call_shared")) r.apply(f);
    const before = r.state;
    const beforeShared = before.runsByToolCallId.call_shared;
    r.apply(finished("u1"));
    r.apply(finished("u2"));
    const after = r.state;
    expect(Object.keys(before.runsById).sort()).toEqual(["a", "u1", "u2"]);
    expect(before.unboundRuns.map((x) => x.runId)).toEqual(["u1", "u2"]);
    expect(beforeShared?.map((x) => x.runId)).toEqual(["a"]);
    expect(Object.keys(after.runsById)).toEqual(["u2"]);
    expect(after.unboundRuns.map((x) => x.runId)).toEqual(["u2"]);
    // A group left empty goes, as the official shape has none.
    expect("call_shared" in after.runsByToolCallId).toBe(false);
  });

  it("an evicted run does not come back with the replay of the next connect", () => {
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 3 });
    r.apply(started("live", "call_live"));
    for (let i = 0; i < 10; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    const before = r.state;
    // The replay: every retained run in start order, then a run that started while the socket was down.
    const replay = [
      started("live", "call_live"),
      ...Array.from({ length: 10 }, (_, i) => wholeRun(`r${i}`)).flat(),
    ];
    const results = replay.map((f) => r.apply(replayed(f)));
    expect(results.filter((x) => x.kind === "applied")).toEqual([]);
    for (const f of wholeRun("new")) r.apply(replayed(f));
    expect(idsOf(r)).toEqual(["live", "new", "r8", "r9"]);
    expect(r.state.runsById.r8).toBe(before.runsById.r8);
  });

  it("runs evicted so long ago that their ids were forgotten come back from a replay and leave again, first", () => {
    // 1,000 evicted ids are remembered; 1,203 runs are evicted here, so the first 203 are forgotten.
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 5 });
    for (let i = 0; i < 1_208; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    const before = r.state;
    expect(idsOf(r)).toEqual(["r1203", "r1204", "r1205", "r1206", "r1207"]);
    r.takeEvicted();
    // The replay of the next connect: all 1,208 in start order, then a run that started while the socket was down.
    for (let i = 0; i < 1_208; i++) for (const f of wholeRun(`r${i}`)) r.apply(replayed(f));
    for (const f of wholeRun("new")) r.apply(replayed(f));
    // The forgotten ones (and those their return pushed out of the memory) came back and went again before any
    // kept run; only the new run pushed out a kept one, the oldest.
    expect(idsOf(r)).toEqual(["new", "r1204", "r1205", "r1206", "r1207"]);
    expect(r.state.runsById.r1204).toBe(before.runsById.r1204);
    const evicted = r.takeEvicted();
    expect(evicted.at(-1)).toBe("r1203");
    expect(evicted.slice(0, -1).every((id) => Number(id.slice(1)) < 1_203)).toBe(true);
  });

  it("a read after one change copies the runs kept, not every run the session saw", () => {
    const r = new AgentToolRunsReducer({ maxFinishedRuns: 100 });
    r.apply(started("live", "call_live"));
    for (let i = 0; i < 5_000; i++) for (const f of wholeRun(`r${i}`)) r.apply(f);
    void r.state;
    const copied = copiesDuring(() => {
      r.apply(progress("live", 7));
      void r.state;
    });
    // runsById and runsByToolCallId: 101 entries each (100 finished + the running one), copied once.
    expect(copied.index).toBe(2 * 101);
  });

  it("a run keeps its newest maxMilestones milestones and counts the earlier ones", () => {
    const r = new AgentToolRunsReducer({ maxMilestones: 5 });
    r.apply(started("up"));
    for (let i = 0; i < 20; i++) {
      r.apply(milestone("up", i));
      void r.state;
    }
    const up = r.state.runsById.up;
    expect(up?.milestones.map((m) => m.sequence)).toEqual([15, 16, 17, 18, 19]);
    expect(up?.omittedMilestones).toBe(15);
    expect(up?.progress?.milestone).toBe("m19");
    // Repeats, of a kept one and of one no longer kept, change nothing.
    expect(r.apply(milestone("up", 17)).kind).toBe("duplicate");
    expect(r.apply(milestone("up", 3)).kind).toBe("duplicate");
    expect(r.state.runsById.up).toBe(up);
  });

  it("milestones in descending order: the newest stay, the older ones are counted, the list never grows", () => {
    const r = new AgentToolRunsReducer({ maxMilestones: 5 });
    r.apply(started("down"));
    const kept: number[] = [];
    for (let s = 19; s >= 0; s--) {
      r.apply(milestone("down", s));
      kept.push(r.state.runsById.down?.milestones.length ?? 0);
    }
    expect(Math.max(...kept)).toBe(5);
    const down = r.state.runsById.down;
    expect(down?.milestones.map((m) => m.sequence)).toEqual([15, 16, 17, 18, 19]);
    expect(down?.omittedMilestones).toBe(15);
    expect(down?.progress?.milestone).toBe("m19");
  });

  it("keeps 1,000 milestones by default, and a published list never changes when the oldest goes", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run"));
    for (let i = 0; i < 1_000; i++) r.apply(milestone("run", i));
    const full = r.state.runsById.run?.milestones;
    for (let i = 1_000; i < 1_500; i++) r.apply(milestone("run", i));
    const run = r.state.runsById.run;
    expect(run?.milestones).toHaveLength(1_000);
    expect(run?.milestones[0]?.sequence).toBe(500);
    expect(run?.omittedMilestones).toBe(500);
    expect(full).toHaveLength(1_000);
    expect(full?.[0]?.sequence).toBe(0);
  });

  it("the dedupe sets hold recent ids only, and still drop a repeat", () => {
    const r = new AgentToolRunsReducer({ maxMilestones: 10 });
    r.apply(started("run"));
    // Progress at one sequence (a child that stores no chunk), unstored chunks, milestones not kept.
    const prog = (id: string, sequence = 1): AgentToolEventFrame => ({
      type: "agent-tool-event",
      sequence,
      event: {
        kind: "chunk",
        runId: "run",
        body: JSON.stringify({ type: "data-agent-progress", id, data: { message: id } }),
      },
    });
    const unstored = (id: string): AgentToolEventFrame => ({
      type: "agent-tool-event",
      sequence: 1,
      event: {
        kind: "chunk",
        runId: "run",
        unstoredId: id,
        body: JSON.stringify({ type: "data-big", id, data: {} }),
      },
    });
    for (let i = 0; i < 5_000; i++) {
      r.apply(prog(`p${i}`));
      r.apply(unstored(`u${i}`));
      r.apply(milestone("run", 10_000 - i));
    }
    const book = booksOf(r).get("run") as Record<string, Set<unknown>>;
    expect(book.progressIds?.size).toBeLessThanOrEqual(RECENT_IDS);
    expect(book.unstoredIds?.size).toBeLessThanOrEqual(RECENT_IDS);
    expect(book.omittedSeqs?.size).toBeLessThanOrEqual(RECENT_IDS);
    // A repeat right after its original is still a duplicate.
    expect(r.apply(prog("p4999")).kind).toBe("duplicate");
    expect(r.apply(unstored("u4999")).kind).toBe("duplicate");
    expect(r.apply(milestone("run", 10_000 - 4_999)).kind).toBe("duplicate");
    expect(r.state.runsById.run?.omittedMilestones).toBe(4_990);
    // A newer sequence forgets the ids of the older one: ordering drops those repeats.
    r.apply(prog("q", 2));
    expect(book.progressIds?.size).toBe(1);
    expect(r.apply(prog("p4999")).kind).toBe("ignored");
  });
});
