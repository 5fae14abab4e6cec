import { describe, expect, it } from "vitest";
import {
  AGENT_TOOL_FAILURE_REASON_TEXT,
  describeAgentToolFailure,
  MALFORMED_FAILURE_TEXT,
} from "./agent-tool-failure.ts";
import { parseAgentToolFailure } from "./agent-tool-failure-parse.ts";
import { AgentToolRunsReducer } from "./agent-tool-runs.ts";
import { concurrencyLimitOf } from "./concurrency-limit.ts";
import type { AgentToolEventFrame } from "./frames.ts";

const REASONS = [
  "no-progress",
  "window-exceeded",
  "not-tailable",
  "inspect-timeout",
  "inspect-failed",
  "recovery-deadline",
  "budget-exceeded",
] as const;

describe("parseAgentToolFailure", () => {
  it("reads the three envelopes agentTool() returns", () => {
    expect(
      parseAgentToolFailure({ ok: false, status: "error", error: "Verifier crashed", retryable: false }),
    ).toEqual({
      kind: "failure",
      failure: { ok: false, status: "error", error: "Verifier crashed", retryable: false },
    });
    expect(
      parseAgentToolFailure({
        ok: false,
        status: "aborted",
        error: "agent tool run was cancelled",
        retryable: false,
      }),
    ).toMatchObject({ kind: "failure", failure: { status: "aborted", retryable: false } });
    expect(
      parseAgentToolFailure({
        ok: false,
        status: "interrupted",
        error: "stalled",
        retryable: true,
        reason: "no-progress",
        childStillRunning: false,
      }),
    ).toMatchObject({
      kind: "failure",
      failure: { status: "interrupted", retryable: true, reason: "no-progress", childStillRunning: false },
    });
  });

  it("leaves successful outputs alone", () => {
    for (const out of ["Summary: 2 sources", { ok: true }, { status: "error" }, null, undefined, 3, [false]])
      expect(parseAgentToolFailure(out)).toEqual({ kind: "none" });
  });

  it("turns a broken envelope into a generic failure with its raw text, never throwing", () => {
    const cases: unknown[] = [
      { ok: false, status: "exploded", error: "x", retryable: false },
      { ok: false, status: "error", error: 42, retryable: false },
      { ok: false, status: "error", error: "x", retryable: "yes" },
      { ok: false, status: "interrupted", error: "x", retryable: true, reason: "cosmic-rays" },
      { ok: false, status: "interrupted", error: "x", retryable: true, childStillRunning: "no" },
      { ok: false, status: "error", error: "<img src=x onerror=alert(1)>", retryable: 1 },
      { ok: false, error: "y".repeat(10_000), status: 7, retryable: false },
    ];
    for (const out of cases) {
      const r = parseAgentToolFailure(out);
      expect(r.kind).toBe("malformed");
      if (r.kind !== "malformed") continue;
      expect(r.failure).toMatchObject({ ok: false, status: "error", retryable: false, malformed: true });
      expect(r.failure.error.length).toBeLessThanOrEqual(501);
      expect(r.problem).not.toBe("");
    }
    const html = parseAgentToolFailure(cases[5]);
    expect(html.kind === "malformed" && html.failure.error).toContain("<img src=x onerror=alert(1)>");
    const cyclic: Record<string, unknown> = { ok: false, status: "nope" };
    cyclic.self = cyclic;
    expect(parseAgentToolFailure(cyclic).kind).toBe("malformed");
  });
});

describe("describeAgentToolFailure", () => {
  it("has words for every status and reason", () => {
    expect(describeAgentToolFailure({ status: "error", error: "boom" })).toEqual({
      headline: "The helper failed.",
      detail: "boom",
    });
    expect(describeAgentToolFailure({ status: "aborted", error: "by you" }).headline).toBe(
      "The helper was cancelled.",
    );
    for (const reason of REASONS) {
      const w = describeAgentToolFailure({ status: "interrupted", error: "e", reason });
      expect(w.headline).toBe("The helper was interrupted before it finished.");
      expect(w.reason).toBe(AGENT_TOOL_FAILURE_REASON_TEXT[reason]);
    }
    expect(new Set(Object.values(AGENT_TOOL_FAILURE_REASON_TEXT)).size).toBe(REASONS.length);
    expect(
      describeAgentToolFailure(
        { status: "interrupted", error: "e", reason: "no-progress" },
        { reason: { "no-progress": "Stuck" } },
      ).reason,
    ).toBe("Stuck");
    expect(describeAgentToolFailure({ status: "error", error: "{raw}", malformed: true })).toEqual({
      headline: MALFORMED_FAILURE_TEXT,
      detail: "{raw}",
    });
  });
});

const started = (toolCallId: string): AgentToolEventFrame => ({
  type: "agent-tool-event",
  parentToolCallId: toolCallId,
  sequence: 0,
  event: { kind: "started", runId: `agent-tool:${toolCallId}`, agentType: "Verifier", order: 0 },
});
const end = (toolCallId: string, event: Record<string, unknown>): AgentToolEventFrame =>
  ({
    type: "agent-tool-event",
    parentToolCallId: toolCallId,
    sequence: 1,
    event: { runId: `agent-tool:${toolCallId}`, ...event },
  }) as AgentToolEventFrame;

describe("the run view carries the failure", () => {
  it("from terminal events: error and aborted are not retryable, interrupted is", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("a"));
    r.apply(end("a", { kind: "error", error: "Verifier crashed" }));
    r.apply(started("b"));
    r.apply(end("b", { kind: "aborted", reason: "Cancelled by the user" }));
    r.apply(started("c"));
    r.apply(
      end("c", { kind: "interrupted", error: "gone quiet", reason: "no-progress", childStillRunning: true }),
    );
    const s = r.state.runsById;
    expect(s["agent-tool:a"]).toMatchObject({
      retryable: false,
      failure: { status: "error", error: "Verifier crashed", retryable: false },
    });
    expect(s["agent-tool:b"]).toMatchObject({ retryable: false, failure: { status: "aborted" } });
    // The real server's cancel sends `aborted` without a reason: the run reads as the envelope will.
    r.apply(started("d"));
    r.apply(end("d", { kind: "aborted" }));
    expect(r.state.runsById["agent-tool:d"]?.failure).toEqual({
      ok: false,
      status: "aborted",
      error: "agent tool run was cancelled",
      retryable: false,
    });
    expect(s["agent-tool:c"]).toMatchObject({
      retryable: true,
      reason: "no-progress",
      childStillRunning: true,
      failure: { status: "interrupted", reason: "no-progress", childStillRunning: true },
    });
  });

  it("from the parent tool part's envelope, before or after the run's events", () => {
    const r = new AgentToolRunsReducer();
    const envelope = {
      ok: false as const,
      status: "interrupted" as const,
      error: "window passed",
      retryable: true,
      reason: "window-exceeded" as const,
      childStillRunning: false,
    };
    // Replayed messages first: held until the run starts.
    expect(r.applyToolFailure("x", envelope).kind).toBe("ignored");
    r.apply(started("x"));
    expect(r.state.runsById["agent-tool:x"]).toMatchObject({
      status: "interrupted",
      retryable: true,
      reason: "window-exceeded",
      childStillRunning: false,
      failure: envelope,
    });
    r.apply(started("y"));
    r.apply(end("y", { kind: "error", error: "boom" }));
    expect(
      r.applyToolFailure("y", { ok: false, status: "error", error: "boom", retryable: false }).kind,
    ).toBe("applied");
    expect(
      r.applyToolFailure("y", { ok: false, status: "error", error: "boom", retryable: false }).kind,
    ).toBe("duplicate");
    expect(r.state.runsById["agent-tool:y"]).toMatchObject({ status: "error", retryable: false });
  });
});

describe("concurrency limit", () => {
  it("reads agents 0.32's refusal text and words it, other errors untouched", () => {
    expect(concurrencyLimitOf("maxConcurrentAgentTools (3) exceeded")).toBe(3);
    expect(concurrencyLimitOf("maxConcurrentAgentTools (x) exceeded")).toBeNull();
    expect(concurrencyLimitOf(undefined)).toBeNull();
    const words = describeAgentToolFailure({
      status: "error",
      error: "maxConcurrentAgentTools (1) exceeded",
    });
    expect(words).toMatchObject({ headline: "The helper was not started.", concurrencyLimit: 1 });
    expect(words.reason).toContain("at most 1 helper at once");
    expect(describeAgentToolFailure({ status: "error", error: "boom" }).concurrencyLimit).toBeUndefined();
  });
});
