import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  classifyExecutionAnswer,
  type ExecutionRecord,
  executionStatus,
  fullArgumentsOf,
  readPendingApproval,
  transcriptExecutions,
} from "./execution.ts";

const descriptor = {
  action: "deploy",
  summary: "Deploy web-app to production",
  permissions: ["deploy:production", "secrets:read"],
  risk: "high",
  kind: "durable-pause",
  toolCallId: "tc1",
  input: { service: "web-app", changelog: "Release…" },
};

describe("readPendingApproval", () => {
  it("reads Think's pendingApprovals entry", () => {
    expect(readPendingApproval({ executionId: "ex1", source: "action", descriptor })).toEqual({
      executionId: "ex1",
      toolCallId: "tc1",
      descriptor: {
        name: "deploy",
        summary: "Deploy web-app to production",
        risk: "high",
        permissions: ["deploy:production", "secrets:read"],
        input: { service: "web-app", changelog: "Release…" },
      },
      preview: { service: "web-app", changelog: "Release…" },
    });
  });

  it("falls back to the entry's source for a name, and refuses entries without an id", () => {
    expect(readPendingApproval({ executionId: "ex2", source: "codemode" })?.descriptor.name).toBe("codemode");
    expect(readPendingApproval({ source: "action" })).toBeUndefined();
    expect(readPendingApproval(null)).toBeUndefined();
  });
});

describe("fullArgumentsOf", () => {
  it("finds the execution in a pendingExecutions answer", () => {
    const answer = [
      { executionId: "ex1", toolCallId: "tc1", action: "deploy", input: { a: 1 }, createdAt: 5e12 },
    ];
    expect(fullArgumentsOf(answer, "ex1")).toEqual({ found: true, input: { a: 1 }, createdAt: 5e12 });
    expect(fullArgumentsOf(answer, "ex2")).toEqual({ found: false });
    expect(fullArgumentsOf({ status: "error" }, "ex1")).toEqual({ found: false });
  });
});

describe("transcriptExecutions", () => {
  const part = (output: unknown, extra: Record<string, unknown> = {}) =>
    ({
      id: "m",
      role: "assistant",
      parts: [
        {
          type: "tool-deploy",
          toolCallId: "tc1",
          state: "output-available",
          input: { service: "web-app" },
          output,
          approvalDescriptor: { ...descriptor, requestId: "ex1" },
          ...extra,
        },
      ],
    }) as unknown as UIMessage;

  it("finds a paused output with its descriptor", () => {
    const [t] = transcriptExecutions([
      part({ status: "paused", executionId: "ex1", action: "deploy", message: "needs approval" }),
    ]);
    expect(t).toMatchObject({
      executionId: "ex1",
      paused: true,
      execution: { toolCallId: "tc1", descriptor: { name: "deploy", risk: "high" } },
    });
  });

  it("a replaced output is resolved: approved when it ran, rejected with the reason", () => {
    expect(transcriptExecutions([part({ ok: true })])[0]).toMatchObject({ paused: false, approved: true });
    expect(
      transcriptExecutions([part({ status: "rejected", executionId: "ex1", reason: "Change freeze" })])[0],
    ).toMatchObject({ paused: false, approved: false, reason: "Change freeze" });
  });

  it("ignores ordinary tool outputs", () => {
    expect(
      transcriptExecutions([
        {
          id: "m",
          role: "assistant",
          parts: [{ type: "tool-x", toolCallId: "t", state: "output-available", output: { ok: 1 } }],
        } as unknown as UIMessage,
      ]),
    ).toEqual([]);
  });
});

describe("classifyExecutionAnswer", () => {
  it("an error object about a finished execution means someone else decided", () => {
    const error = 'Execution "ex1" is no longer pending — it was approved or rejected elsewhere.';
    expect(classifyExecutionAnswer({ status: "error", executionId: "ex1", error }, "ex1")).toEqual({
      kind: "elsewhere",
      error,
    });
    expect(classifyExecutionAnswer({ status: "error", error: "Execution not found" }, "ex1").kind).toBe(
      "elsewhere",
    );
  });

  it("the action's own output (or a rejection) means it was applied", () => {
    expect(classifyExecutionAnswer({ ok: true }, "ex1")).toEqual({ kind: "settled" });
    expect(classifyExecutionAnswer({ status: "rejected", executionId: "ex1" }, "ex1")).toEqual({
      kind: "settled",
    });
    expect(classifyExecutionAnswer(undefined, "ex1")).toEqual({ kind: "settled" });
  });
});

describe("executionStatus", () => {
  const record = (over: Partial<ExecutionRecord> = {}): ExecutionRecord => ({
    execution: { executionId: "ex1", descriptor: {}, preview: {} },
    argumentsState: "complete",
    pending: true,
    ...over,
  });

  it("maps records and claimed decisions to statuses", () => {
    expect(executionStatus(record(), undefined)).toEqual({ status: "requested" });
    expect(executionStatus(record(), { decision: { approved: true }, phase: "sending" })).toEqual({
      status: "submitting",
      outcome: { approved: true, by: "here" },
    });
    expect(
      executionStatus(record({ pending: false }), {
        decision: { approved: false, reason: "no" },
        phase: "settled",
      }),
    ).toEqual({ status: "denied", outcome: { approved: false, reason: "no", by: "here" } });
    expect(executionStatus(record({ pending: false, elsewhere: {} }), undefined)).toEqual({
      status: "answered-elsewhere",
    });
    // The server refused this tab's decision: someone else had decided.
    expect(executionStatus(record(), { decision: { approved: true }, phase: "elsewhere" })).toEqual({
      status: "answered-elsewhere",
    });
    expect(executionStatus(record({ pending: false, earlier: { approved: true } }), undefined)).toEqual({
      status: "approved",
      outcome: { approved: true, by: "unknown" },
    });
  });
});
