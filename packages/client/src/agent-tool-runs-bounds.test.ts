import { afterEach, describe, expect, it, vi } from "vitest";
import { frameAgent } from "../test/helpers.ts";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";

// Issue 26 §2: a long session keeps what its caps allow and no more. Counted in runs, storage entries and
// entries copied (Object.assign is how the run indexes are copied), never timed.

const frame = (runId: string, event: Record<string, unknown>, sequence: number, parent?: string) => ({
  type: "agent-tool-event",
  sequence,
  ...(parent ? { parentToolCallId: parent } : {}),
  event: { runId, ...event },
});
const milestoneBody = (seq: number) =>
  JSON.stringify({ type: "data-agent-milestone", data: { name: `m${seq}`, sequence: seq, at: 5 } });
/** A run as the replay sends one (started, a stored chunk, finished), with a milestone live ones also have. */
const wholeRun = (runId: string, replay = false) =>
  [
    frame(runId, { kind: "started", agentType: "Researcher", order: 0 }, 0, `call_${runId}`),
    frame(
      runId,
      { kind: "chunk", body: JSON.stringify({ type: "text-delta", id: "t", delta: runId }) },
      1,
      `call_${runId}`,
    ),
    ...(replay ? [] : [frame(runId, { kind: "chunk", body: milestoneBody(0) }, 2, `call_${runId}`)]),
    frame(runId, { kind: "finished", summary: "done" }, 2, `call_${runId}`),
  ].map((f) => (replay ? { ...f, replay: true } : f));

const agent = frameAgent;

const memoryStorage = () => {
  const map = new Map<string, string>();
  const storage: ProgressStorage = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
  return { map, storage };
};

/** Entries copied by `Object.assign` while `fn` runs. */
function entriesCopiedDuring(fn: () => void): number {
  let copied = 0;
  const assign = Object.assign;
  vi.spyOn(Object, "assign").mockImplementation(((target: object, ...sources: object[]) => {
    for (const s of sources) if (s) copied += Object.keys(s).length;
    return assign(target, ...sources);
  }) as typeof Object.assign);
  try {
    fn();
  } finally {
    vi.restoreAllMocks();
  }
  return copied;
}

const ids = (runs: AgentToolRuns) => Object.keys(runs.getSnapshot().runsById).sort();

afterEach(() => vi.restoreAllMocks());

describe("AgentToolRuns over a long session", () => {
  it("evicts the oldest finished runs beyond maxFinishedRuns, with their saved progress", () => {
    const a = agent();
    const { map, storage } = memoryStorage();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "k", throttleMs: 0, maxFinishedRuns: 2 });
    for (let i = 0; i < 6; i++) for (const f of wholeRun(`r${i}`)) a.deliver(f);
    expect(ids(runs)).toEqual(["r4", "r5"]);
    expect(Object.keys(runs.getSnapshot().runsByToolCallId).sort()).toEqual(["call_r4", "call_r5"]);
    expect([...map.keys()].sort()).toEqual(["runboard:runs:k:r4", "runboard:runs:k:r5"]);
    // Nothing kept per evicted run in the store's own bookkeeping either.
    const own = runs as unknown as Record<string, Set<string> | Map<string, unknown>>;
    for (const name of ["checked", "endSaved", "unsaved", "restored"])
      expect([...(own[name]?.keys() ?? [])].filter((id) => !["r4", "r5"].includes(id))).toEqual([]);
    runs.dispose();
  });

  it("a reconnect's replay does not bring evicted runs back", () => {
    const a = agent();
    const runs = new AgentToolRuns({ agent: a, storage: null, throttleMs: 0, maxFinishedRuns: 2 });
    for (let i = 0; i < 6; i++) for (const f of wholeRun(`r${i}`)) a.deliver(f);
    const before = runs.getSnapshot();
    // A connect: identity first, then every retained run replayed in start order.
    a.deliver({ type: "cf_agent_identity", name: "n", agent: "a" });
    for (let i = 0; i < 6; i++) for (const f of wholeRun(`r${i}`, true)) a.deliver(f);
    expect(runs.getSnapshot()).toBe(before);
    expect(ids(runs)).toEqual(["r4", "r5"]);
    runs.dispose();
  });

  it("a read after one change copies the runs kept, also with saved progress merged in", () => {
    for (const restored of [false, true]) {
      const a = agent();
      const { storage } = memoryStorage();
      // A saved progress for a run the replay brings without one: the store merges it into its snapshots.
      if (restored)
        storage.setItem("runboard:runs:k:live", JSON.stringify({ progress: { fraction: 0.5, at: 1 } }));
      const runs = new AgentToolRuns({
        agent: a,
        storage,
        storageKey: "k",
        throttleMs: 0,
        maxFinishedRuns: 40,
      });
      a.deliver(frame("live", { kind: "started", agentType: "R", order: 0 }, 0, "call_live"));
      for (let i = 0; i < 2_000; i++) for (const f of wholeRun(`r${i}`)) a.deliver(f);
      void runs.getSnapshot();
      const copied = entriesCopiedDuring(() => {
        a.deliver(frame("live", { kind: "chunk", body: milestoneBody(1) }, 1, "call_live"));
        void runs.getSnapshot();
      });
      // The reducer copies both indexes (41 entries each); merging saved progress copies them once more.
      expect(copied).toBe((restored ? 4 : 2) * 41);
      runs.dispose();
    }
  });

  it("saves a run's omitted milestone count and restores at most maxMilestones milestones", () => {
    const a = agent();
    const { map, storage } = memoryStorage();
    const runs = new AgentToolRuns({ agent: a, storage, storageKey: "k", throttleMs: 0, maxMilestones: 3 });
    a.deliver(frame("run", { kind: "started", agentType: "R", order: 0 }, 0));
    for (let s = 0; s < 8; s++) a.deliver(frame("run", { kind: "chunk", body: milestoneBody(s) }, 1));
    a.deliver(frame("run", { kind: "finished", summary: "" }, 2));
    const saved = JSON.parse(map.get("runboard:runs:k:run") ?? "{}");
    expect(saved.milestones.map((m: { sequence: number }) => m.sequence)).toEqual([5, 6, 7]);
    expect(saved.omittedMilestones).toBe(5);
    runs.dispose();

    // A page with a smaller cap reads an entry written with a larger one: the newest are kept, the rest counted.
    const b = agent();
    const again = new AgentToolRuns({ agent: b, storage, storageKey: "k", throttleMs: 0, maxMilestones: 2 });
    b.deliver({ ...frame("run", { kind: "started", agentType: "R", order: 0 }, 0), replay: true });
    const run = again.getSnapshot().runsById.run;
    expect(run?.milestones.map((m) => m.sequence)).toEqual([6, 7]);
    expect(run?.omittedMilestones).toBe(6);
    again.dispose();
  });
});
