import { describe, expect, it } from "vitest";
import {
  defaultWorkflowSelect,
  isAlreadyDecidedError,
  readWorkflowItem,
  workflowItemId,
  workflowItems,
  workflowStatus,
} from "./workflow.ts";

const expense = {
  id: "exp-1",
  title: "Expense: team lunch (120 EUR)",
  amount: 120,
  requestedBy: "you",
  requestedAt: 1_800_000_000_000,
};

describe("readWorkflowItem", () => {
  it("reads the demo's expense item: title as the name, the rest as arguments", () => {
    expect(readWorkflowItem(expense)).toEqual({
      id: "exp-1",
      name: "Expense: team lunch (120 EUR)",
      title: "Expense: team lunch (120 EUR)",
      arguments: { amount: 120, requestedBy: "you" },
      requestedAt: 1_800_000_000_000,
    });
  });

  it("prefers explicit action, summary, risk, permissions, input and expiry", () => {
    expect(
      readWorkflowItem({
        id: 7,
        action: "refund",
        title: "Refund order 7",
        risk: "High",
        permissions: ["payments:refund"],
        input: { order: 7 },
        expiresAt: "2027-01-01T00:00:00Z",
      }),
    ).toEqual({
      id: "7",
      name: "refund",
      title: "Refund order 7",
      summary: "Refund order 7",
      risk: "high",
      permissions: ["payments:refund"],
      arguments: { order: 7 },
      expiresAt: Date.UTC(2027, 0, 1),
    });
  });

  it("a resolved item carries its decision", () => {
    expect(
      readWorkflowItem({ ...expense, status: "rejected", reason: "No receipt" }, true)?.resolved,
    ).toEqual({
      approved: false,
      reason: "No receipt",
    });
    expect(readWorkflowItem({ ...expense, status: "approved" }, true)?.resolved).toEqual({ approved: true });
  });

  it("reads the human-in-the-loop docs' item, keyed workflowId, by default", () => {
    const docs = {
      workflowId: "wf-9",
      amount: 0,
      description: "Awaiting approval for $250",
      requestedBy: "user",
      requestedAt: 1_800_000_000_000,
    };
    expect(readWorkflowItem(docs)).toEqual({
      id: "wf-9",
      name: "approval",
      summary: "Awaiting approval for $250",
      arguments: { amount: 0, requestedBy: "user" },
      requestedAt: 1_800_000_000_000,
    });
    expect(workflowItems({ pendingApprovals: [docs] }).pending.map((p) => p.id)).toEqual(["wf-9"]);
    // `id` wins when an item has both.
    expect(workflowItemId({ id: "a", workflowId: "b" })).toBe("a");
  });

  it("refuses items without an id", () => {
    expect(readWorkflowItem({ title: "x" })).toBeUndefined();
    expect(readWorkflowItem("exp-1")).toBeUndefined();
  });
});

describe("workflowItems", () => {
  it("reads pendingApprovals and resolvedApprovals; a pending id wins over a resolved one", () => {
    const state = {
      counter: 0,
      pendingApprovals: [expense],
      resolvedApprovals: [
        { ...expense, status: "approved" },
        { id: "exp-0", status: "approved" },
      ],
    };
    const { pending, resolved } = workflowItems(state);
    expect(pending.map((p) => p.id)).toEqual(["exp-1"]);
    expect(resolved.map((p) => p.id)).toEqual(["exp-0"]);
  });

  it("a state without them, or a throwing selector, gives nothing", () => {
    expect(workflowItems(undefined)).toEqual({ pending: [], resolved: [] });
    expect(defaultWorkflowSelect({ pendingApprovals: "x" })).toEqual({ pending: [], resolved: [] });
    expect(
      workflowItems({}, () => {
        throw new Error("bad");
      }),
    ).toEqual({ pending: [], resolved: [] });
  });

  it("recognises an already-decided error", () => {
    expect(isAlreadyDecidedError("No pending approval exp-1")).toBe(true);
    expect(isAlreadyDecidedError("Method approve is not callable")).toBe(false);
  });
});

describe("workflowStatus", () => {
  const claim = (approved: boolean, phase: "sending" | "settled" | "elsewhere" = "sending") => ({
    decision: { approved },
    phase,
  });

  it("pending: requested, submitting while this tab's decision travels, decided once the callable answered", () => {
    expect(workflowStatus({ pending: true, local: undefined, seenPending: true })).toEqual({
      status: "requested",
    });
    expect(workflowStatus({ pending: true, local: claim(true), seenPending: true })).toEqual({
      status: "submitting",
      outcome: { approved: true, by: "here" },
    });
    expect(workflowStatus({ pending: true, local: claim(false, "settled"), seenPending: true }).status).toBe(
      "denied",
    );
    expect(workflowStatus({ pending: true, local: claim(true, "elsewhere"), seenPending: true })).toEqual({
      status: "answered-elsewhere",
    });
  });

  it("resolved: this tab's decision, someone else's when it differs or was seen pending, else history", () => {
    const approved = { approved: true };
    expect(
      workflowStatus({ pending: false, decided: approved, local: claim(true), seenPending: true }),
    ).toEqual({ status: "approved", outcome: { approved: true, by: "here" } });
    expect(
      workflowStatus({ pending: false, decided: approved, local: claim(false), seenPending: true }),
    ).toEqual({ status: "answered-elsewhere", outcome: { approved: true, by: "elsewhere" } });
    expect(
      workflowStatus({ pending: false, decided: approved, local: undefined, seenPending: true }),
    ).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
    expect(
      workflowStatus({ pending: false, decided: approved, local: undefined, seenPending: false }),
    ).toEqual({
      status: "approved",
      outcome: { approved: true, by: "unknown" },
    });
    // Gone from both lists after this page saw it: someone decided, nobody says what.
    expect(workflowStatus({ pending: false, local: undefined, seenPending: true })).toEqual({
      status: "answered-elsewhere",
    });
  });
});
