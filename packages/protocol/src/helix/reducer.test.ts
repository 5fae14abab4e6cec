import { describe, expect, it } from "vitest";
import type { Part } from "../chunk-applier.ts";
import { HELIX_DOCS_TRACE } from "./fixtures.ts";
import { type HelixRun, HelixRunsReducer, type HelixRunsState } from "./reducer.ts";

const feed = (chunks: readonly unknown[], r = new HelixRunsReducer()) => {
  const results = chunks.map((c) => r.apply(c));
  return { r, results, state: r.state };
};

type P = Record<string, unknown>;
/** The run tree as a user reads it: each agent's parts, a sub-agent call followed by its run, indented. */
function tree(s: HelixRunsState): string {
  const lines: string[] = [];
  const walk = (parts: readonly Part[], depth: number) => {
    for (const p of parts as unknown as P[]) {
      const pad = "  ".repeat(depth);
      if (p.type === "text") lines.push(`${pad}text ${JSON.stringify(p.text)}`);
      else if (typeof p.toolCallId === "string") {
        lines.push(`${pad}${p.type} ${p.state}`);
        for (const run of s.runsByToolCallId[p.toolCallId] ?? []) {
          lines.push(`${pad}  run ${run.agentType} ${run.status} output=${JSON.stringify(run.output)}`);
          walk(run.parts, depth + 2);
        }
      } else lines.push(`${pad}${p.type}`);
    }
  };
  lines.push(`root ${s.root.agentType} ${s.root.status}`);
  walk(s.root.parts, 1);
  return lines.join("\n");
}

const runOf = (s: HelixRunsState, type: string, n = 0) =>
  Object.values(s.runsById).filter((r) => r.agentType === type)[n] as HelixRun;

describe("HelixRunsReducer: the documented nested trace", () => {
  it("builds orchestrator → processor → sentiment with transcripts, outputs and ends", () => {
    const { r, results, state } = feed(HELIX_DOCS_TRACE);
    expect(results.every((x) => x.kind === "applied")).toBe(true);
    r.endStream();
    expect(tree(r.state)).toBe(
      [
        "root orchestrator completed",
        '  text "Let me analyze..."',
        "  tool-subagent__processor output-available",
        '    run processor completed output={"processed":"..."}',
        '      text "Processing..."',
        "      tool-subagent__sentiment output-available",
        '        run sentiment completed output={"sentiment":"positive"}',
        '          text "Analyzing..."',
        '  text "Based on the analysis..."',
      ].join("\n"),
    );
    const processor = runOf(state, "processor");
    const sentiment = runOf(state, "sentiment");
    expect(processor).toMatchObject({
      caller: "orchestrator",
      depth: 1,
      inputPreview: { text: "great day" },
    });
    expect(processor.callerRunId).toBeUndefined();
    expect(sentiment).toMatchObject({ caller: "processor", depth: 2, callerRunId: processor.runId });
    expect(sentiment.summary).toContain('"sentiment": "positive"');
    // The snapshot has the agent-tool shape: every run by id and under the tool call that spawned it.
    expect(state.runsByToolCallId[processor.parentToolCallId as string]).toEqual([processor]);
    expect(state.unboundRuns).toEqual([]);
  });

  it("a stream that ends mid-run leaves the open runs interrupted, never completed", () => {
    const r = new HelixRunsReducer();
    feed(HELIX_DOCS_TRACE.slice(0, 5), r);
    expect(r.endStream()).toHaveLength(2);
    const s = r.state;
    expect(runOf(s, "processor")).toMatchObject({ status: "interrupted", reason: "stream-ended" });
    expect(runOf(s, "sentiment")).toMatchObject({ status: "interrupted", reason: "stream-ended" });
    expect(s.root.status).toBe("interrupted");
    // Text streamed so far is kept.
    expect((runOf(s, "sentiment").parts[0] as P).text).toBe("Analyzing...");
  });

  it("keeps published snapshots unchanged (text deltas copy the part)", () => {
    const r = new HelixRunsReducer();
    feed(HELIX_DOCS_TRACE.slice(0, 3), r);
    const before = r.state;
    const text = (runOf(before, "processor").parts[0] as P).text;
    r.apply({ type: "text_delta", agentType: "processor", delta: " more" });
    expect((runOf(before, "processor").parts[0] as P).text).toBe(text);
    expect((runOf(r.state, "processor").parts[0] as P).text).toBe("Processing... more");
  });
});

describe("HelixRunsReducer: parallel sub-agents of one type", () => {
  const start = (extra: P = {}) => ({
    type: "subagent_start",
    agentType: "lead",
    subAgentType: "researcher",
    ...extra,
  });
  const end = (extra: P = {}) => ({
    type: "subagent_end",
    agentType: "lead",
    subAgentType: "researcher",
    ...extra,
  });

  it("without ids: two runs; each end closes the oldest open one under the same caller", () => {
    const { r } = feed([
      start({ input: { topic: "a" } }),
      start({ input: { topic: "b" } }),
      end({ result: { found: "a" } }),
    ]);
    let s = r.state;
    expect(runOf(s, "researcher", 0)).toMatchObject({ status: "completed", inputPreview: { topic: "a" } });
    expect(runOf(s, "researcher", 1)).toMatchObject({ status: "running", inputPreview: { topic: "b" } });
    r.apply(end({ result: { success: false, error: "rate limited" } }));
    s = r.state;
    expect(runOf(s, "researcher", 1)).toMatchObject({ status: "error", error: "rate limited" });
    // The caller's tool parts settle one each: the first with its output, the second with the error.
    const parts = s.root.parts as unknown as P[];
    expect(parts.map((p) => p.state)).toEqual(["output-available", "output-error"]);
    expect(parts[1]?.errorText).toBe("rate limited");
  });

  it("with ids: chunks and ends pair exactly, in any order", () => {
    const { r, results } = feed([
      start({ subSessionId: "s-1" }),
      start({ subSessionId: "s-2" }),
      { type: "text_delta", agentType: "researcher", subSessionId: "s-2", delta: "second" },
      { type: "text_delta", agentType: "researcher", subSessionId: "s-1", delta: "first" },
      end({ subSessionId: "s-2", result: "two" }),
    ]);
    expect(results.every((x) => x.kind === "applied")).toBe(true);
    const s = r.state;
    expect(s.runsById["s-1"]).toMatchObject({ status: "running", parts: [{ text: "first" }] });
    expect(s.runsById["s-2"]).toMatchObject({
      status: "completed",
      output: "two",
      parts: [{ text: "second" }],
    });
  });

  it("a sub-agent tool_start the caller sent first is the call's part, not a second one", () => {
    const { r } = feed([
      {
        type: "tool_start",
        agentType: "lead",
        toolName: "subagent__researcher",
        toolCallId: "c1",
        input: { q: 1 },
      },
      start(),
      end({ result: 1 }),
      { type: "tool_end", agentType: "lead", toolName: "subagent__researcher", toolCallId: "c1", output: 1 },
    ]);
    const s = r.state;
    expect(s.root.parts).toHaveLength(1);
    expect(s.runsByToolCallId.c1?.[0]).toMatchObject({ inputPreview: { q: 1 }, status: "completed" });
  });
});

describe("HelixRunsReducer: bad input never throws and is reported", () => {
  it("rejects malformed chunks and keeps the state", () => {
    const { results, state } = feed([
      null,
      5,
      "not json",
      {},
      { type: "text_delta" },
      { type: "text_delta", agentType: "a" },
    ]);
    expect(results.map((x) => x.kind)).toEqual(["error", "error", "error", "error", "error", "error"]);
    expect(state.root.parts).toEqual([]);
  });

  it("drops a chunk from a sub-agent never started (reported), keeps unknown types as data parts", () => {
    const { results, state } = feed([
      { type: "text_delta", agentType: "boss", delta: "hi" },
      { type: "text_delta", agentType: "ghost", delta: "boo" },
      { type: "step_start", agentType: "boss", step: 2 },
      { type: "subagent_end", agentType: "boss", subAgentType: "ghost", result: 1 },
    ]);
    expect(results.map((x) => x.kind)).toEqual(["applied", "error", "unknown", "error"]);
    expect(JSON.stringify(state)).not.toContain("boo");
    expect(state.root.parts[1]).toMatchObject({ type: "data-helix-step_start", data: { step: 2 } });
  });

  it("a child's start from a caller that is not running still opens the run, at the top level", () => {
    const { results, state } = feed([
      { type: "text_delta", agentType: "boss", delta: "hi" },
      { type: "subagent_start", agentType: "stranger", subAgentType: "helper" },
    ]);
    expect(results[1]?.kind).toBe("error");
    expect(runOf(state, "helper")).toMatchObject({ status: "running", depth: 1 });
  });

  it("a caller that ends first interrupts its open children", () => {
    const { state } = feed([
      { type: "subagent_start", agentType: "boss", subAgentType: "mid" },
      { type: "subagent_start", agentType: "mid", subAgentType: "leaf" },
      { type: "subagent_end", agentType: "boss", subAgentType: "mid", result: "done" },
    ]);
    expect(runOf(state, "mid").status).toBe("completed");
    expect(runOf(state, "leaf")).toMatchObject({ status: "interrupted", reason: "caller-ended" });
  });

  it("tool_end without its start is kept as a settled part and reported", () => {
    const { results, state } = feed([
      { type: "subagent_start", agentType: "boss", subAgentType: "w" },
      { type: "tool_start", agentType: "w", toolName: "search", input: { q: "x" } },
      { type: "tool_end", agentType: "w", toolName: "search", output: ["a"] },
      { type: "tool_end", agentType: "w", toolName: "fetch", output: "page" },
    ]);
    expect(results.map((x) => x.kind)).toEqual(["applied", "applied", "applied", "error"]);
    expect(runOf(state, "w").parts).toMatchObject([
      { type: "tool-search", state: "output-available", input: { q: "x" }, output: ["a"] },
      { type: "tool-fetch", state: "output-available", output: "page" },
    ]);
  });
});
