/** ExecutionApprovals without React, against a scripted Think agent: what it lists, shows and calls. */
import type { UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedAgent, scriptedAgent } from "../../../../test-support/scripted-agent.ts";
import { ledgerFor } from "./decision-ledger.ts";
import { ExecutionApprovals } from "./execution-approvals.ts";

const descriptor = {
  action: "deploy",
  summary: "Deploy web-app to production",
  permissions: ["deploy:production", "secrets:read"],
  risk: "high",
  kind: "durable-pause",
  toolCallId: "tc1",
  input: { service: "web-app", changelog: "Release…" },
};
const listing = [{ executionId: "ex1", source: "action", descriptor }];
const full = { service: "web-app", changelog: "Release 2026.11.22: the full text" };

const settle = () => new Promise((r) => setTimeout(r, 0));
const stores: ExecutionApprovals[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.dispose();
});
function approvals(agent: ScriptedAgent, methods?: Record<string, string>) {
  const store = new ExecutionApprovals({ agent, ...(methods ? { methods } : {}) });
  stores.push(store);
  return store;
}
const decisions = (agent: ScriptedAgent) =>
  agent.calls.filter(([m]) => /Execution$/.test(m) && m !== "pendingExecutions");

describe("ExecutionApprovals", () => {
  it("lists on attach, loads the full arguments, and sends exactly one decision", async () => {
    const agent = scriptedAgent({
      pendingApprovals: () => listing,
      pendingExecutions: (id) => [{ executionId: id, toolCallId: "tc1", action: "deploy", input: full }],
      approveExecution: () => ({ ok: true }),
    });
    const store = approvals(agent);
    await settle();
    await settle();
    const [request] = store.getSnapshot();
    expect(request).toMatchObject({
      id: "execution:ex1",
      source: "execution",
      name: "deploy",
      risk: "high",
      arguments: full,
      argumentsComplete: true,
      status: "requested",
    });
    expect(request?.decide({ approved: true })).toBe(true);
    expect(request?.decide({ approved: true })).toBe(false);
    expect(store.decide("ex1", { approved: false })).toBe(false);
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    await settle();
    expect(decisions(agent)).toEqual([["approveExecution", ["ex1"]]]);
    expect(store.getSnapshot()[0]).toMatchObject({
      status: "approved",
      outcome: { approved: true, by: "here" },
    });
  });

  it("two stores on one connection: an Approve and a Deny in the same tick send only the first", async () => {
    const agent = scriptedAgent({
      pendingApprovals: () => listing,
      pendingExecutions: (id) => [{ executionId: id, input: full }],
      approveExecution: () => ({ ok: true }),
      rejectExecution: () => ({ status: "rejected" }),
    });
    const a = approvals(agent);
    const b = approvals(agent);
    await settle();
    await settle();
    expect(a.getSnapshot()[0]?.decide({ approved: true })).toBe(true);
    expect(b.getSnapshot()[0]?.decide({ approved: false, reason: "No" })).toBe(false);
    expect(b.getSnapshot()[0]?.status).toBe("submitting");
    await settle();
    expect(decisions(agent)).toEqual([["approveExecution", ["ex1"]]]);
    expect(b.getSnapshot()[0]?.status).toBe("approved");
  });

  it("refuses Approve until the full arguments are in, but lets Deny through with its reason", async () => {
    let answer: (v: unknown) => void = () => {};
    const agent = scriptedAgent({
      pendingApprovals: () => listing,
      pendingExecutions: () => new Promise((r) => (answer = r)),
      rejectExecution: () => ({ status: "rejected" }),
    });
    const store = approvals(agent);
    await settle();
    expect(store.getSnapshot()[0]).toMatchObject({ argumentsComplete: false, arguments: descriptor.input });
    expect(store.decide("ex1", { approved: true })).toBe(false);
    expect(store.decide("ex1", { approved: false, reason: "Change freeze" })).toBe(true);
    answer([]);
    await settle();
    expect(decisions(agent)).toEqual([["rejectExecution", ["ex1", "Change freeze"]]]);
  });

  it("an error object answer means answered elsewhere, and nothing more is sent", async () => {
    const agent = scriptedAgent({
      pendingApprovals: () => listing,
      pendingExecutions: (id) => [{ executionId: id, input: full }],
      approveExecution: (id) => ({ status: "error", executionId: id, error: "… is no longer pending …" }),
    });
    const store = approvals(agent);
    await settle();
    await settle();
    store.decide("ex1", { approved: true });
    await settle();
    expect(store.getSnapshot()[0]?.status).toBe("answered-elsewhere");
    expect(store.decide("ex1", { approved: true })).toBe(false);
    expect(decisions(agent)).toHaveLength(1);
  });

  it("a pause resolved in the transcript by someone else is answered elsewhere; a new one is picked up", async () => {
    const agent = scriptedAgent({
      pendingApprovals: () => [],
      pendingExecutions: (id) => [{ executionId: id, input: full }],
    });
    const store = approvals(agent);
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
    expect(store.getSnapshot()[0]).toMatchObject({
      status: "requested",
      argumentsComplete: true,
      arguments: full,
    });
    store.observe([message({ ok: true })]);
    expect(store.getSnapshot()[0]).toMatchObject({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
  });

  it("a decision lost with the connection (the agent restarted) is interrupted when the next listing still shows it, and can be made once more", async () => {
    let pending = listing;
    const agent = scriptedAgent({
      pendingApprovals: () => pending,
      pendingExecutions: (id) => [{ executionId: id, input: full }],
      approveExecution: () => {
        agent.status = "closed";
        throw new Error("Connection closed");
      },
    });
    const store = approvals(agent);
    await settle();
    await settle();
    expect(store.decide("ex1", { approved: true })).toBe(true);
    await settle();
    expect(ledgerFor(agent).get("execution:ex1")?.phase).toBe("failed");
    expect(store.getSnapshot()[0]?.error).toBe("Connection closed");
    agent.setStatus("open");
    await settle();
    const [lost] = store.getSnapshot();
    expect(lost).toMatchObject({ status: "interrupted", outcome: { approved: true, by: "here" } });
    expect(lost?.error).toMatch(/restarted/);
    // Nothing was sent again by itself: one approveExecution call so far.
    expect(agent.calls.filter(([m]) => m === "approveExecution")).toHaveLength(1);
    // And when the listing no longer has it, the decision that was lost in fact landed.
    expect(store.decide("ex1", { approved: true })).toBe(true);
    expect(store.decide("ex1", { approved: false })).toBe(false);
    await settle();
    pending = [];
    agent.setStatus("open");
    await settle();
    expect(store.getSnapshot()[0]?.status).toBe("approved");
  });

  it("uses the agent's own callable names, and `online: false` refuses", async () => {
    const agent = scriptedAgent({
      listPaused: () => listing,
      argumentsOf: (id) => [{ executionId: id, input: full }],
      go: () => ({ ok: true }),
    });
    const store = approvals(agent, {
      pendingApprovals: "listPaused",
      pendingExecutions: "argumentsOf",
      approveExecution: "go",
    });
    await settle();
    await settle();
    store.setOptions({
      methods: { pendingApprovals: "listPaused", pendingExecutions: "argumentsOf", approveExecution: "go" },
      online: false,
    });
    expect(store.getSnapshot()[0]?.online).toBe(false);
    expect(store.decide("ex1", { approved: true })).toBe(false);
    store.setOptions({ methods: { approveExecution: "go" } });
    expect(store.decide("ex1", { approved: true })).toBe(true);
    expect(agent.calls.map(([m]) => m)).toEqual(["listPaused", "argumentsOf", "go"]);
  });

  it("made without attaching, it calls nothing and listens to nothing until attached", async () => {
    const agent = scriptedAgent({ pendingApprovals: () => listing });
    const store = new ExecutionApprovals({ agent }, false);
    stores.push(store);
    await settle();
    expect(agent.calls).toEqual([]);
    expect(agent.listenerCount("open")).toBe(0);
    expect(store.getServerSnapshot()).toEqual([]);
    store.attach();
    expect(agent.calls.map(([m]) => m)).toEqual(["pendingApprovals"]);
  });
});
