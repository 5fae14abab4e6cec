import { describe, expect, it } from "vitest";
import { compactedMarks, compactionSummary, readSessionStatus } from "./compaction.ts";
import { parseServerFrame } from "./parse.ts";

describe("readSessionStatus (cf_agent_session)", () => {
  it("reads the memory session's compacting frame", () => {
    const raw =
      '{"type":"cf_agent_session","phase":"compacting","tokenEstimate":10240,"tokenThreshold":8000}';
    const parsed = parseServerFrame(raw);
    expect(parsed.kind).toBe("frame");
    if (parsed.kind !== "frame" || parsed.frame.type !== "cf_agent_session") throw new Error("not parsed");
    expect(readSessionStatus(parsed.frame)).toEqual({
      status: { phase: "compacting", tokenEstimate: 10240, tokenThreshold: 8000 },
    });
    expect(readSessionStatus({ phase: "idle", tokenEstimate: 0, tokenThreshold: null })).toEqual({
      status: { phase: "idle", tokenEstimate: 0, tokenThreshold: null },
    });
  });

  it.each([
    [{ phase: "shrinking", tokenEstimate: 1, tokenThreshold: null }, "phase"],
    [{ phase: "idle", tokenEstimate: "many", tokenThreshold: null }, "tokenEstimate"],
    [{ phase: "idle", tokenEstimate: -1, tokenThreshold: null }, "tokenEstimate"],
    [{ phase: "idle", tokenEstimate: 1, tokenThreshold: "8k" }, "tokenThreshold"],
  ])("reports a malformed frame instead of reading it (%o)", (frame, field) => {
    const r = readSessionStatus(frame);
    expect("problem" in r && r.problem).toContain(field);
  });
});

describe("compactedMarks", () => {
  it("reads the row-size marks the hosts put on a cut-down message", () => {
    // The shape of agents' enforceRowSizeLimit: the output shortened, the call id listed in metadata.
    const message = {
      id: "assistant_1",
      metadata: { compactedToolOutputs: ["call_a", "call_b"], compactedTextParts: [2] },
    };
    const marks = compactedMarks(message);
    expect([...marks.toolCallIds]).toEqual(["call_a", "call_b"]);
    expect([...marks.textParts]).toEqual([2]);
    expect(marks.problem).toBeUndefined();
    expect(compactedMarks(message)).toBe(marks);
  });

  it("ignores and reports malformed lists", () => {
    const marks = compactedMarks({
      id: "m",
      metadata: { compactedToolOutputs: "call_a", compactedTextParts: [-1] },
    });
    expect(marks.toolCallIds.size).toBe(0);
    expect(marks.textParts.size).toBe(0);
    expect(marks.problem).toMatch(/compactedToolOutputs.*compactedTextParts/);
  });

  it("has no marks for an ordinary message", () => {
    expect(compactedMarks({ id: "x" }).toolCallIds.size).toBe(0);
    expect(compactedMarks({ id: "y", metadata: { source: "s" } }).problem).toBeUndefined();
  });
});

describe("compactionSummary", () => {
  it("counts summaries and marks, undefined when nothing was compacted", () => {
    expect(compactionSummary([{ id: "u1" }, { id: "a1", metadata: {} }])).toBeUndefined();
    expect(
      compactionSummary([
        { id: "compaction_1" },
        { id: "u2" },
        { id: "a2", metadata: { compactedToolOutputs: ["c1"] } },
      ]),
    ).toEqual({ summaries: 1, toolOutputs: 1, textParts: 0 });
  });
});
