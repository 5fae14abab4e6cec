import { describe, expect, it } from "vitest";
import {
  defaultWorkflowSelect,
  isAlreadyDecidedError,
  readWorkflowItem,
  workflowItems,
} from "./workflow-approvals.ts";
import { WorkflowApprovalStore } from "./workflow-store.ts";

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

describe("WorkflowApprovalStore", () => {
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const fakeAgent = (handler: (method: string, args: unknown[]) => unknown) => {
    const calls: Array<[string, unknown[]]> = [];
    return {
      status: "open",
      calls,
      call: async (method: string, args: unknown[] = []) => {
        calls.push([method, args]);
        return handler(method, args);
      },
      addEventListener: () => {},
      removeEventListener: () => {},
    };
  };

  it("one decision per item; the state then shows it decided here", async () => {
    const agent = fakeAgent(() => ({ ok: true }));
    const store = new WorkflowApprovalStore(agent);
    const pending = { pendingApprovals: [expense] };
    expect(store.views(pending).map((v) => v.status)).toEqual(["requested"]);
    store.committed();
    expect(store.decide("exp-1", { approved: false, reason: "No receipt" })).toBe(true);
    expect(store.decide("exp-1", { approved: true })).toBe(false);
    expect(store.views(pending)[0]?.status).toBe("submitting");
    await settle();
    expect(agent.calls).toEqual([["reject", ["exp-1", "No receipt"]]]);
    const after = {
      pendingApprovals: [],
      resolvedApprovals: [{ ...expense, status: "rejected", reason: "No receipt" }],
    };
    expect(store.views(after)[0]).toMatchObject({
      status: "denied",
      outcome: { approved: false, reason: "No receipt", by: "here" },
    });
  });

  it("resolved by someone else after this page saw it: answered elsewhere; before: history", () => {
    const store = new WorkflowApprovalStore(fakeAgent(() => null));
    store.views({ pendingApprovals: [expense] });
    store.committed();
    const after = {
      pendingApprovals: [],
      resolvedApprovals: [
        { ...expense, status: "approved" },
        { id: "exp-0", title: "Old", status: "approved" },
      ],
    };
    expect(store.views(after).map((v) => [v.item.id, v.status, v.outcome?.by])).toEqual([
      ["exp-1", "answered-elsewhere", "elsewhere"],
      ["exp-0", "approved", "unknown"],
    ]);
  });

  it("a 'no pending approval' error means answered elsewhere", async () => {
    const agent = fakeAgent(() => {
      throw new Error("No pending approval exp-1");
    });
    const store = new WorkflowApprovalStore(agent);
    store.views({ pendingApprovals: [expense] });
    store.committed();
    store.decide("exp-1", { approved: true });
    await settle();
    expect(store.views({ pendingApprovals: [expense] })[0]?.status).toBe("answered-elsewhere");
    expect(store.decide("exp-1", { approved: true })).toBe(false);
  });
});
