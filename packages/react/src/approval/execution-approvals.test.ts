import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  classifyExecutionAnswer,
  type ExecutionRecord,
  executionStatus,
  fullArgumentsOf,
  readPendingApproval,
  transcriptExecutions,
} from "./execution-approvals.ts";
import { ExecutionApprovalStore } from "./execution-store.ts";

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
    expect(executionStatus(record({ pending: false, earlier: { approved: true } }), undefined)).toEqual({
      status: "approved",
      outcome: { approved: true, by: "unknown" },
    });
  });
});

/** A Think agent double: answers callables from a table and records every call. */
function fakeThink(handlers: Record<string, (...args: unknown[]) => unknown>) {
  const calls: Array<[string, unknown[]]> = [];
  const listeners = new Map<string, Set<(e: Event) => void>>();
  const agent = {
    status: "open",
    calls,
    call: async (method: string, args: unknown[] = []) => {
      calls.push([method, args]);
      const h = handlers[method];
      if (!h) throw new Error(`Method ${method} does not exist`);
      return h(...args);
    },
    addEventListener: (t: string, fn: (e: Event) => void) => {
      const s = listeners.get(t) ?? new Set();
      s.add(fn);
      listeners.set(t, s);
    },
    removeEventListener: (t: string, fn: (e: Event) => void) => listeners.get(t)?.delete(fn),
    emit: (t: string) => {
      for (const fn of listeners.get(t) ?? []) fn(new Event(t));
    },
  };
  return agent;
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("ExecutionApprovalStore", () => {
  const listing = [{ executionId: "ex1", source: "action", descriptor }];
  const full = { service: "web-app", changelog: "Release 2026.11.22: the full text" };

  it("lists on start, loads the full arguments, and sends exactly one decision", async () => {
    const agent = fakeThink({
      pendingApprovals: () => listing,
      pendingExecutions: (id) => [{ executionId: id, toolCallId: "tc1", action: "deploy", input: full }],
      approveExecution: () => ({ ok: true }),
    });
    const store = new ExecutionApprovalStore(agent);
    store.start();
    await settle();
    await settle();
    const [[id, r] = []] = store.entries();
    expect(id).toBe("ex1");
    expect(r).toMatchObject({ argumentsState: "complete", full, pending: true });
    expect(store.decide("ex1", { approved: true })).toBe(true);
    expect(store.decide("ex1", { approved: true })).toBe(false);
    expect(store.decide("ex1", { approved: false })).toBe(false);
    await settle();
    expect(agent.calls.filter(([m]) => m === "approveExecution")).toEqual([["approveExecution", ["ex1"]]]);
    expect(executionStatus(r as ExecutionRecord, store.ledger.get("ex1")).status).toBe("approved");
  });

  it("refuses Approve until the full arguments are in, but lets Deny through with its reason", async () => {
    let answer: (v: unknown) => void = () => {};
    const agent = fakeThink({
      pendingApprovals: () => listing,
      pendingExecutions: () => new Promise((r) => (answer = r)),
      rejectExecution: () => ({ status: "rejected" }),
    });
    const store = new ExecutionApprovalStore(agent);
    store.start();
    await settle();
    expect(store.entries()[0]?.[1].argumentsState).toBe("loading");
    expect(store.decide("ex1", { approved: true })).toBe(false);
    expect(store.decide("ex1", { approved: false, reason: "Change freeze" })).toBe(true);
    answer([]);
    await settle();
    expect(agent.calls.filter(([m]) => m.endsWith("Execution"))).toEqual([
      ["rejectExecution", ["ex1", "Change freeze"]],
    ]);
  });

  it("an error object answer means answered elsewhere", async () => {
    const agent = fakeThink({
      pendingApprovals: () => listing,
      pendingExecutions: (id) => [{ executionId: id, input: full }],
      approveExecution: (id) => ({ status: "error", executionId: id, error: "… is no longer pending …" }),
    });
    const store = new ExecutionApprovalStore(agent);
    store.start();
    await settle();
    await settle();
    store.decide("ex1", { approved: true });
    await settle();
    const r = store.entries()[0]?.[1] as ExecutionRecord;
    expect(executionStatus(r, store.ledger.get("ex1")).status).toBe("answered-elsewhere");
  });

  it("a pause resolved in the transcript by someone else is answered elsewhere; a new one is picked up", async () => {
    const agent = fakeThink({
      pendingApprovals: () => [],
      pendingExecutions: (id) => [{ executionId: id, input: full }],
    });
    const store = new ExecutionApprovalStore(agent);
    store.start();
    const message = (output: unknown) =>
      ({
        id: "m",
        role: "assistant",
        parts: [
          {
            type: "tool-deploy",
            toolCallId: "tc1",
            state: "output-available",
            input: {},
            output,
            approvalDescriptor: { ...descriptor, requestId: "ex1" },
          },
        ],
      }) as unknown as UIMessage;
    store.observe([message({ status: "paused", executionId: "ex1", action: "deploy" })]);
    await settle();
    expect(store.entries()[0]?.[1]).toMatchObject({ pending: true, argumentsState: "complete", full });
    store.observe([message({ ok: true })]);
    const r = store.entries()[0]?.[1] as ExecutionRecord;
    expect(executionStatus(r, undefined)).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
  });

  it("a decision lost with the connection is released when the next listing still shows it", async () => {
    let pending = listing;
    const agent = fakeThink({
      pendingApprovals: () => pending,
      pendingExecutions: (id) => [{ executionId: id, input: full }],
      approveExecution: () => {
        agent.status = "closed";
        throw new Error("Connection closed");
      },
    });
    const store = new ExecutionApprovalStore(agent);
    store.start();
    await settle();
    await settle();
    expect(store.decide("ex1", { approved: true })).toBe(true);
    await settle();
    expect(store.ledger.get("ex1")?.phase).toBe("failed");
    agent.status = "open";
    agent.emit("open");
    await settle();
    expect(store.ledger.get("ex1")).toBeUndefined();
    // And when the listing no longer has it, the decision that was lost in fact landed.
    expect(store.decide("ex1", { approved: true })).toBe(true);
    await settle();
    pending = [];
    agent.status = "open";
    agent.emit("open");
    await settle();
    const r = store.entries()[0]?.[1] as ExecutionRecord;
    expect(executionStatus(r, store.ledger.get("ex1")).status).toBe("approved");
  });
});
