import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentToolRunsReducer, type AgentToolRunsState, compareRuns } from "./agent-tool-runs.ts";
import type { AgentToolEventFrame } from "./frames.ts";

// The caps (`maxFinishedRuns`, `maxMilestones`) under generated frame orders, replays included: a published
// state never changes afterwards, its indexes stay consistent, no more finished runs or milestones than the
// caps are kept, a running run is always there, and an evicted run never comes back.

const MAX_FINISHED = 2;
const MAX_MILESTONES = 3;
const IDS = ["r0", "r1", "r2", "r3", "r4", "r5", "r6"];
const PARENTS = [undefined, "call_a", "call_b"];

type Op =
  | { op: "start"; id: string; parent: number; order: number; replay: boolean }
  | { op: "end"; id: string; kind: "finished" | "error" | "aborted" | "interrupted"; replay: boolean }
  | { op: "milestone"; id: string; sequence: number }
  | { op: "progress"; id: string; sequence: number; pid: number }
  | { op: "read" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("start" as const),
    id: fc.constantFrom(...IDS),
    parent: fc.nat(2),
    order: fc.nat(2),
    replay: fc.boolean(),
  }),
  fc.record({
    op: fc.constant("end" as const),
    id: fc.constantFrom(...IDS),
    kind: fc.constantFrom("finished" as const, "error" as const, "aborted" as const, "interrupted" as const),
    replay: fc.boolean(),
  }),
  fc.record({ op: fc.constant("milestone" as const), id: fc.constantFrom(...IDS), sequence: fc.nat(8) }),
  fc.record({
    op: fc.constant("progress" as const),
    id: fc.constantFrom(...IDS),
    sequence: fc.nat(4),
    pid: fc.nat(3),
  }),
  fc.constant({ op: "read" as const }),
);

/** The parent a run id was first started with, so every frame of one run names the same tool call. */
const parentOf = new Map<string, string | undefined>();

function frameOf(o: Exclude<Op, { op: "read" }>): AgentToolEventFrame {
  const parent = parentOf.get(o.id);
  const base = { type: "agent-tool-event" as const, ...(parent ? { parentToolCallId: parent } : {}) };
  switch (o.op) {
    case "start":
      return {
        ...base,
        sequence: 0,
        ...(o.replay ? { replay: true as const } : {}),
        event: { kind: "started", runId: o.id, agentType: "A", order: o.order },
      };
    case "end":
      return {
        ...base,
        sequence: 50,
        ...(o.replay ? { replay: true as const } : {}),
        event:
          o.kind === "finished"
            ? { kind: "finished", runId: o.id, summary: "s" }
            : o.kind === "aborted"
              ? { kind: "aborted", runId: o.id }
              : { kind: o.kind, runId: o.id, error: "e" },
      };
    case "milestone":
      return {
        ...base,
        sequence: 1,
        event: {
          kind: "chunk",
          runId: o.id,
          body: JSON.stringify({
            type: "data-agent-milestone",
            data: { name: `m${o.sequence}`, sequence: o.sequence },
          }),
        },
      };
    case "progress":
      return {
        ...base,
        sequence: o.sequence,
        event: {
          kind: "chunk",
          runId: o.id,
          body: JSON.stringify({ type: "data-agent-progress", id: `p${o.pid}`, data: { fraction: 0.5 } }),
        },
      };
  }
}

/** What is wrong with a state: indexes, order, caps. */
function problems(s: AgentToolRunsState): string[] {
  const bad: string[] = [];
  const runs = Object.values(s.runsById);
  const finished = runs.filter((r) => r.status !== "running");
  if (finished.length > MAX_FINISHED) bad.push(`${finished.length} finished runs kept`);
  const grouped = [...s.unboundRuns];
  for (const [call, group] of Object.entries(s.runsByToolCallId)) {
    if (group.length === 0) bad.push(`empty group ${call}`);
    for (const r of group) if (r.parentToolCallId !== call) bad.push(`${r.runId} under ${call}`);
    grouped.push(...group);
  }
  for (const list of [s.unboundRuns, ...Object.values(s.runsByToolCallId)])
    for (let i = 1; i < list.length; i++)
      if (compareRuns(list[i - 1] as never, list[i] as never) >= 0) bad.push("a group is out of order");
  if (grouped.length !== runs.length) bad.push(`indexes hold ${grouped.length}, runsById ${runs.length}`);
  for (const r of grouped) if (s.runsById[r.runId] !== r) bad.push(`${r.runId} is another object`);
  for (const r of runs) {
    if (r.milestones.length > MAX_MILESTONES) bad.push(`${r.runId} keeps ${r.milestones.length} milestones`);
    for (let i = 1; i < r.milestones.length; i++)
      if ((r.milestones[i - 1]?.sequence ?? 0) >= (r.milestones[i]?.sequence ?? 0))
        bad.push(`${r.runId} milestones out of order`);
  }
  return bad;
}

describe("run reducer caps under generated frames", () => {
  it("keeps its invariants and never changes a published state", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        parentOf.clear();
        const r = new AgentToolRunsReducer({ maxFinishedRuns: MAX_FINISHED, maxMilestones: MAX_MILESTONES });
        const published: { state: AgentToolRunsState; json: string }[] = [];
        const startedEver = new Set<string>();
        const evicted = new Set<string>();
        /** Each run's status after the last frame, kept once it is gone. */
        const status = new Map<string, string>();
        const check = () => {
          const s = r.state;
          expect(problems(s)).toEqual([]);
          // A run started and not evicted is there; an evicted one never comes back.
          for (const id of startedEver) if (!evicted.has(id)) expect(s.runsById[id]).toBeDefined();
          for (const id of evicted) expect(s.runsById[id]).toBeUndefined();
          published.push({ state: s, json: JSON.stringify(s) });
        };
        for (const o of ops) {
          if (o.op === "read") {
            check();
            continue;
          }
          if (o.op === "start" && !parentOf.has(o.id)) parentOf.set(o.id, PARENTS[o.parent]);
          r.apply(frameOf(o));
          if (o.op === "start" && !evicted.has(o.id) && r.peekRun(o.id)) startedEver.add(o.id);
          for (const id of r.takeEvicted()) {
            // Only a finished run goes: one running before this frame could only have ended by it.
            if (status.get(id) === "running") expect(id).toBe(o.id);
            evicted.add(id);
          }
          for (const id of IDS) {
            const now = r.peekRun(id)?.status;
            if (now) status.set(id, now);
          }
        }
        check();
        // Every state handed out is still what it was.
        for (const p of published) expect(JSON.stringify(p.state)).toBe(p.json);
      }),
      { numRuns: 300 },
    );
  });
});
