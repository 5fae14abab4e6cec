/**
 * Two and three tabs on one agent acting at once, both hosts: seeded steps in which several tabs send, decide
 * the same approval, or clear the chat at the same moment, with a socket dropped mid-step now and then.
 * There is no single run without faults to compare with (who wins a race is up to the server), so each run
 * must end in the state every correct client agrees on: every tab shows exactly the server's transcript and is
 * idle, each tab sends one decision per approval however many tabs press (unless a drop lost it in transit),
 * each approval is decided once on the server (no tool call twice, no continuation played twice), and nothing
 * is left waiting for a decision.
 *
 * `RUNBOARD_FAULT_RUNS=<n>` changes the number of runs (default 500); `RUNBOARD_FAULT_SEED=<n>` replays one.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  AGENT,
  assertSame,
  equal,
  type FaultServer,
  HOSTS,
  type Host,
  openTab,
  room,
  runSeeds,
  serverView,
  settle,
  startFaultServer,
  type Tab,
  until,
} from "./harness.ts";
import { type Rng, rng } from "./prng.ts";

const FILE = "packages/client/test/faults/tabs.test.ts";

let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterAll(() => srv.server.close());

type Action = { kind: "send"; text: string } | { kind: "decide"; approved: boolean } | { kind: "clear" };

function chooseAction(r: Rng): Action {
  const roll = r.next();
  if (roll < 0.45)
    return {
      kind: "send",
      text: r.pick(["hello", "what's the weather in Porto?", `please pay ACME ${r.int(1, 500)}`]),
    };
  if (roll < 0.85) return { kind: "decide", approved: r.chance(0.6) };
  return { kind: "clear" };
}

type ToolPart = { type: string; state?: string; toolCallId?: string; approval?: { id: string } };

const pendingApprovals = (t: Tab) =>
  t.chat
    .getSnapshot()
    .messages.flatMap((m) => m.parts as ToolPart[])
    .filter((p) => p.state === "approval-requested" && p.approval);

function act(t: Tab, a: Action) {
  switch (a.kind) {
    case "send":
      return void t.chat.sendMessage({ text: a.text });
    case "clear":
      return t.chat.clearHistory();
    case "decide":
      for (const p of pendingApprovals(t))
        t.chat.addToolApprovalResponse({ id: p.approval?.id as string, approved: a.approved });
  }
}

/** Approval decisions each tab put on the wire, by tool call id. */
function countDecisions(t: Tab): Map<string, number> {
  const sent = new Map<string, number>();
  const send = t.client.send.bind(t.client);
  t.client.send = (data: string) => {
    if (data.includes('"cf_agent_tool_approval"')) {
      const id = (JSON.parse(data) as { toolCallId: string }).toolCallId;
      sent.set(id, (sent.get(id) ?? 0) + 1);
    }
    send(data);
  };
  return sent;
}

/**
 * Cuts the first socket of the agent that gets `at` more frames (whichever tab's it is), once: the rule is
 * cleared as soon as a tab sees its socket close, before partysocket reconnects.
 */
function dropOne(tabs: Tab[], host: Host, name: string, at: number) {
  srv.controller.dropSocketAfter(at, { agent: AGENT[host], name });
  const onClose = () => {
    srv.controller.clearFaults();
    for (const t of tabs) t.client.removeEventListener("close", onClose);
  };
  for (const t of tabs) t.client.addEventListener("close", onClose);
}

const serverIdle = (host: Host, name: string) =>
  srv.controller.instance(AGENT[host], name)?.streaming === false;

type Msg = {
  role: string;
  parts: Array<{ type: string; text?: string; toolCallId?: string; state?: string }>;
};

/**
 * What the server's transcript must satisfy whatever the interleaving: no tool call twice, nothing left
 * waiting for a decision, and no more continuations than decisions. (Two payments decided at once continue
 * once each; on the mock, whose replies are scripted, both replies land in the latest message, so the count,
 * not the uniqueness, of the reply text is what shows a decision that was applied twice.)
 */
function assertServerConsistent(host: Host, name: string) {
  const messages = (srv.controller.instance(AGENT[host], name)?.messages ?? []) as unknown as Msg[];
  const parts = messages.flatMap((m) => m.parts);
  const calls = parts.map((p) => p.toolCallId).filter(Boolean);
  expect(new Set(calls).size, "a tool call appears twice in the server's transcript").toBe(calls.length);
  for (const p of parts)
    expect(p.state, `${p.type} is still waiting for a decision`).not.toBe("approval-requested");
  const payments = parts.filter((p) => p.type === "tool-processPayment");
  const approved = payments.filter((p) => p.state !== "output-denied").length;
  const denied = payments.length - approved;
  const replies = (start: string) =>
    parts.filter((p) => p.type === "text" && p.text?.startsWith(start)).length;
  expect(replies("Tool processPayment returned"), "an approval continued twice").toBeLessThanOrEqual(
    approved,
  );
  expect(replies("Understood, I did not run processPayment"), "a denial continued twice").toBeLessThanOrEqual(
    denied,
  );
}

it("two and three tabs acting at once all end on the server's transcript", async () => {
  await runSeeds("tabs", FILE, async (seed, note) => {
    const r = rng(seed * 7_753 + 11);
    const host = HOSTS[seed % HOSTS.length] as Host;
    const count = r.chance(0.5) ? 2 : 3;
    const steps = Array.from({ length: r.int(2, 5) }, () => ({
      actors: Array.from({ length: count }, (_, i) => i).filter(() => r.chance(0.6)),
      action: chooseAction(r),
      drop: r.chance(0.2) ? { at: r.int(1, 12) } : undefined,
    }));
    note(`${host} ×${count} ${JSON.stringify(steps)}`);
    const name = room(`tabs${seed}`);
    const tabs = Array.from({ length: count }, () => openTab(srv, host, name));
    const decisions = tabs.map(countDecisions);
    srv.controller.clearFaults();
    try {
      await until("the tabs to load", () => tabs.every((t) => t.client.status === "open" && t.loaded()));
      for (const step of steps) {
        if (step.drop) dropOne(tabs, host, name, step.drop.at);
        // The same action from several tabs in the same tick: the server sees them back to back.
        for (const i of step.actors) act(tabs[i] as Tab, step.action);
        await until("the server to finish the step", () => serverIdle(host, name), 60_000);
        await Promise.all(tabs.map((t) => settle(t, 30_000)));
        srv.controller.clearFaults();
      }
      // Whatever is still waiting for a human is decided by the first tab, so the run ends idle.
      for (let round = 0; round < 4 && pendingApprovals(tabs[0] as Tab).length > 0; round++) {
        act(tabs[0] as Tab, { kind: "decide", approved: true });
        await until("the server to finish the decisions", () => serverIdle(host, name), 60_000);
        await Promise.all(tabs.map((t) => settle(t)));
      }
      // The server can still be finishing the last decision: a continuation starts after a short pause that
      // gathers parallel answers, and meanwhile nothing streams (a decision sent again after a reconnect lands
      // just before the tabs settle). The tabs are compared once they agree with it, or when the hang guard
      // runs out (the comparison below then shows what differs).
      await until(
        "the tabs to agree with the server",
        () =>
          serverIdle(host, name) &&
          tabs.every(
            (t) =>
              t.idle() &&
              equal((t.view() as { chat: { messages: unknown } }).chat.messages, serverView(srv, host, name)),
          ),
        30_000,
      ).catch(() => undefined);
      const server = serverView(srv, host, name);
      for (const [i, t] of tabs.entries()) {
        const view = t.view() as { chat: { status: string; isStreaming: boolean; messages: unknown } };
        assertSame(view.chat.messages, server, `tab ${i}'s transcript`);
        expect(t.idle(), `tab ${i} is not idle`).toBe(true);
        expect(view.chat.isStreaming, `tab ${i} still shows a stream`).toBe(false);
        // A decision sent just before a drop can be lost in transit; the tab sends it again after the reconnect
        // when the server still asks. Without drops, one per approval however many times it was pressed.
        if (steps.every((s) => !s.drop))
          for (const [id, n] of decisions[i] as Map<string, number>)
            expect(n, `tab ${i} sent ${n} decisions for ${id}`).toBe(1);
      }
      assertServerConsistent(host, name);
    } finally {
      srv.controller.clearFaults();
      for (const t of tabs) t.close();
    }
  });
}, 600_000);
