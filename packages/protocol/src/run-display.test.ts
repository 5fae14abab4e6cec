import { describe, expect, it } from "vitest";
import type { AgentToolRunState } from "./agent-tool-runs.ts";
import {
  getRunsForToolCall,
  interruptReasonLabel,
  observeRunTimes,
  recoveryFor,
  runIcon,
  runTitle,
  truncateText,
  valueText,
} from "./run-display.ts";

const run = (over: Partial<AgentToolRunState> = {}): AgentToolRunState => ({
  runId: "r1",
  agentType: "Researcher",
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: "r1" },
  ...over,
});

describe("labels", () => {
  it("prefers the display name, falls back to the agent type for missing or blank names", () => {
    expect(runTitle(run({ display: { name: "Fact checker" } }))).toBe("Fact checker");
    expect(runTitle(run({ display: { name: "  " } }))).toBe("Researcher");
    expect(runTitle(run())).toBe("Researcher");
    expect(runIcon(run({ display: { icon: "🔎" } }))).toBe("🔎");
    expect(runIcon(run({ display: { icon: "" } }))).toBeUndefined();
  });

  it("explains known interrupt reasons and shows unknown ones as sent", () => {
    expect(interruptReasonLabel("no-progress")).toBe("The run stopped reporting progress.");
    expect(interruptReasonLabel("new-reason")).toBe("new-reason");
    expect(interruptReasonLabel(undefined)).toBeUndefined();
  });
});

describe("recoveryFor", () => {
  it("reconnects to a child still running, retries one that stopped or failed, offers nothing otherwise", () => {
    expect(recoveryFor(run({ status: "interrupted", childStillRunning: true }))).toBe("reconnect");
    expect(recoveryFor(run({ status: "interrupted", childStillRunning: false }))).toBe("retry");
    expect(recoveryFor(run({ status: "interrupted" }))).toBe("retry");
    // A failure the envelope calls not retryable (agents 0.32: `error`) offers no retry.
    expect(recoveryFor(run({ status: "error" }))).toBeNull();
    expect(recoveryFor(run({ status: "error", retryable: false }))).toBeNull();
    expect(recoveryFor(run({ status: "error", retryable: true }))).toBe("retry");
    expect(recoveryFor(run({ status: "interrupted", retryable: false }))).toBeNull();
    expect(recoveryFor(run({ status: "aborted" }))).toBeNull();
    expect(recoveryFor(run({ status: "completed" }))).toBeNull();
    expect(recoveryFor(run({ status: "running" }))).toBeNull();
  });
});

describe("truncateText", () => {
  it("keeps short text whole", () => {
    expect(truncateText("short", 10)).toEqual({ text: "short", truncated: false });
  });

  it("cuts at a word boundary near the limit and marks the cut", () => {
    const t = truncateText("alpha beta gamma delta epsilon", 25);
    expect(t).toEqual({ text: "alpha beta gamma delta…", truncated: true });
  });

  it("cuts mid-word when no boundary is close", () => {
    expect(truncateText("abcdefghijklmnop", 5)).toEqual({ text: "abcde…", truncated: true });
  });

  it("cuts after maxLines lines even when short in characters", () => {
    expect(truncateText("a\nb\nc\nd", 100, 2)).toEqual({ text: "a\nb…", truncated: true });
    expect(truncateText("a\nb", 100, 2)).toEqual({ text: "a\nb", truncated: false });
  });

  it("never splits an emoji's surrogate pair", () => {
    const t = truncateText("ab😀cd", 3);
    expect(t.text).toBe("ab…");
  });
});

describe("valueText", () => {
  it("shows strings as they are and other values as JSON text", () => {
    expect(valueText("<b>hi</b>")).toBe("<b>hi</b>");
    expect(valueText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(valueText(undefined)).toBe("");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(valueText(cyclic)).toBe("[object Object]");
  });
});

describe("getRunsForToolCall", () => {
  const a = run({ runId: "a", parentToolCallId: "call-1" });
  const state = { runsByToolCallId: { "call-1": [a] } };
  it("matches on the part's toolCallId, whatever its type", () => {
    expect(getRunsForToolCall(state, { toolCallId: "call-1" })).toEqual([a]);
    expect(getRunsForToolCall(state, "call-1")).toEqual([a]);
  });
  it("returns the same empty list for parts without runs or without an id", () => {
    const none = getRunsForToolCall(state, { toolCallId: "other" });
    expect(none).toEqual([]);
    expect(getRunsForToolCall(state, {})).toBe(none);
  });
});

describe("observeRunTimes", () => {
  it("starts at the first sight of a running run and ends once", () => {
    const t1 = observeRunTimes(undefined, "running", 1000);
    expect(t1).toEqual({ startedAt: 1000, endedAt: null });
    expect(observeRunTimes(t1, "running", 2000)).toBe(t1);
    const t2 = observeRunTimes(t1, "completed", 5000);
    expect(t2).toEqual({ startedAt: 1000, endedAt: 5000 });
    expect(observeRunTimes(t2, "completed", 9000)).toBe(t2);
  });
  it("has no start for a run first seen finished (a replay)", () => {
    expect(observeRunTimes(undefined, "error", 1000)).toEqual({ startedAt: null, endedAt: 1000 });
  });
});
