/** WorkflowApprovals without React: items in agent state, followed from state frames, decided by callables. */
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedAgent, scriptedAgent } from "../../../../test-support/scripted-agent.ts";
import { WorkflowApprovals } from "./workflow-approvals.ts";

const expense = {
  id: "exp-1",
  title: "Expense: team lunch (120 EUR)",
  amount: 120,
  requestedBy: "you",
  requestedAt: 1_800_000_000_000,
};

const settle = () => new Promise((r) => setTimeout(r, 0));
const stores: WorkflowApprovals[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});
function approvals(agent: ScriptedAgent, state?: unknown) {
  const store = new WorkflowApprovals({ agent, ...(state === undefined ? {} : { state }) });
  stores.push(store);
  return store;
}
/** The resolve callables of the human-in-the-loop docs, over the agent's state (as the mock implements them). */
function workflowAgent() {
  const resolve = (id: unknown, change: Record<string, unknown>) => {
    const st = agent.state as { pendingApprovals: Array<{ id: string }>; resolvedApprovals?: unknown[] };
    const item = st.pendingApprovals.find((a) => a.id === id);
    if (!item) throw new Error(`No pending approval ${String(id)}`);
    agent.state = {
      pendingApprovals: st.pendingApprovals.filter((a) => a !== item),
      resolvedApprovals: [...(st.resolvedApprovals ?? []), { ...item, ...change }],
    };
    return { ...item, ...change };
  };
  // The answer and the state broadcast come after the call returned, as over a socket.
  const agent = scriptedAgent({
    approve: async (id) => {
      await settle();
      return resolve(id, { status: "approved" });
    },
    reject: async (id, reason) => {
      await settle();
      return resolve(id, { status: "rejected", ...(reason ? { reason } : {}) });
    },
  });

  agent.state = { pendingApprovals: [expense] };
  return agent;
}

describe("WorkflowApprovals", () => {
  it("one decision per item; the state then shows it decided here", async () => {
    const agent = workflowAgent();
    const store = approvals(agent);
    expect(store.getSnapshot().map((r) => [r.id, r.name, r.status])).toEqual([
      ["workflow:exp-1", "Expense: team lunch (120 EUR)", "requested"],
    ]);
    expect(store.decide("exp-1", { approved: false, reason: "No receipt" })).toBe(true);
    expect(store.decide("exp-1", { approved: true })).toBe(false);
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    await settle();
    await settle();
    expect(agent.calls).toEqual([["reject", ["exp-1", "No receipt"]]]);
    expect(store.getSnapshot()[0]).toMatchObject({
      status: "denied",
      outcome: { approved: false, reason: "No receipt", by: "here" },
    });
  });

  it("two stores on one connection: an Approve and a Deny in the same tick send only the first", async () => {
    const agent = workflowAgent();
    const a = approvals(agent);
    const b = approvals(agent);
    expect(a.getSnapshot()[0]?.decide({ approved: true })).toBe(true);
    expect(b.getSnapshot()[0]?.decide({ approved: false })).toBe(false);
    await settle();
    await settle();
    expect(agent.calls).toEqual([["approve", ["exp-1"]]]);
    expect(b.getSnapshot()[0]).toMatchObject({ status: "approved", outcome: { by: "here" } });
  });

  it("follows cf_agent_state frames when the connection keeps no state (the official useAgent object)", () => {
    const agent = scriptedAgent();
    const store = approvals(agent);
    let changes = 0;
    store.subscribe(() => changes++);
    expect(store.getSnapshot()).toEqual([]);
    agent.receive({ type: "cf_agent_state", state: { pendingApprovals: [expense] } });
    expect(changes).toBe(1);
    expect(store.getSnapshot().map((r) => r.status)).toEqual(["requested"]);
    agent.receive({
      type: "cf_agent_state",
      state: { resolvedApprovals: [{ ...expense, status: "approved" }] },
    });
    expect(store.getSnapshot()[0]).toMatchObject({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
    // A server render has no connection: only a state the app passed counts there.
    expect(store.getServerSnapshot()).toEqual([]);
  });

  it("resolved by someone else after this page showed it: answered elsewhere; before: history", () => {
    const agent = scriptedAgent();
    const store = approvals(agent, { pendingApprovals: [expense] });
    expect(store.getSnapshot()[0]?.status).toBe("requested");
    store.setOptions({
      state: {
        pendingApprovals: [],
        resolvedApprovals: [
          { ...expense, status: "approved" },
          { id: "exp-0", title: "Old", status: "approved" },
        ],
      },
    });
    expect(store.getSnapshot().map((v) => [v.key, v.status, v.outcome?.by])).toEqual([
      ["exp-1", "answered-elsewhere", "elsewhere"],
      ["exp-0", "approved", "unknown"],
    ]);
  });

  it("a 'no pending approval' error means answered elsewhere", async () => {
    const agent = scriptedAgent({
      approve: () => {
        throw new Error("No pending approval exp-1");
      },
    });
    const store = approvals(agent, { pendingApprovals: [expense] });
    store.getSnapshot();
    store.decide("exp-1", { approved: true });
    await settle();
    expect(store.getSnapshot()[0]?.status).toBe("answered-elsewhere");
    expect(store.decide("exp-1", { approved: true })).toBe(false);
    expect(agent.calls).toHaveLength(1);
  });

  it("the docs' shape (items keyed workflowId, approve(workflowId, approvedBy)): listed by default, approver sent", async () => {
    const item = { workflowId: "wf-1", amount: 250, description: "Awaiting approval for $250" };
    // The docs' agent drops a decided item from the list and keeps no resolved list.
    const agent = scriptedAgent({
      approve: async () => {
        await settle();
        agent.state = { pendingApprovals: [] };
      },
    });
    agent.state = { pendingApprovals: [item] };
    const store = new WorkflowApprovals({ agent, approvedBy: "admin" });
    stores.push(store);
    expect(store.getSnapshot().map((r) => [r.key, r.summary, r.status])).toEqual([
      ["wf-1", "Awaiting approval for $250", "requested"],
    ]);
    expect(store.getSnapshot()[0]?.decide({ approved: true })).toBe(true);
    await settle();
    await settle();
    expect(agent.calls).toEqual([["approve", ["wf-1", "admin"]]]);
    expect(store.getSnapshot()[0]).toMatchObject({ status: "approved", outcome: { by: "here" } });
  });

  it("a decision lost with the connection (the agent restarted) is interrupted once it is back and the item still pending, and can be made once more", async () => {
    const agent = scriptedAgent({
      approve: () => {
        agent.status = "closed";
        throw new Error("Connection closed");
      },
    });
    const store = approvals(agent, { pendingApprovals: [expense] });
    expect(store.decide("exp-1", { approved: true })).toBe(true);
    await settle();
    expect(store.getSnapshot()[0]).toMatchObject({ status: "submitting", error: "Connection closed" });
    agent.setStatus("open");
    const [lost] = store.getSnapshot();
    expect(lost).toMatchObject({ status: "interrupted", outcome: { approved: true, by: "here" } });
    expect(lost?.error).toMatch(/restarted/);
    expect(agent.calls).toHaveLength(1);
    expect(store.decide("exp-1", { approved: true })).toBe(true);
    expect(store.decide("exp-1", { approved: false })).toBe(false);
    expect(agent.calls).toHaveLength(2);
  });
});
