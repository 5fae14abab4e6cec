/**
 * A decision across a restart of the mock's agent (`controller.restart`, an eviction): the real runtime applies
 * a decision that reaches it after its restart to the stored part, still asking, and continues the turn
 * (conformance/approval-restart.test.ts, docs/protocol.md#duplicate-decisions). The mock must too: the tab's
 * approval must not stay "submitting" while the part stays `approval-requested` forever.
 */
import type { UIMessage } from "ai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, ChatApprovals, ChatSession } from "../../packages/client/src/index.ts";
import { demoAgents } from "../src/index.ts";
import { room, startServer, type TestServer, until } from "./ws-client.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ agents: demoAgents, delayScale: 0 });
});
afterAll(() => t.close());

type ToolPart = { type: string; toolCallId: string; state: string; approval?: { id: string } };
const payment = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).find((p) => p.type === "tool-processPayment") as ToolPart | undefined;
const allText = (ms: readonly UIMessage[]) =>
  ms
    .flatMap((m) => m.parts)
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");

/** The mock's stored transcript of the room at `path`. */
const stored = (path: string) => t.messages(path) as Promise<unknown> as Promise<UIMessage[]>;

/** A chat on the mock with an approval store, asked to pay: resolves once the request is stored. */
async function askToPay(name: string) {
  const client = new AgentClient({
    agent: "ChatAgent",
    name,
    host: t.server.url.replace(/^http:\/\//, ""),
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 100 },
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  const approvals = new ChatApprovals({ chat, agent: client });
  await chat.sendMessage({ text: "please pay ACME 250" });
  await until(
    () => payment(chat.getSnapshot().messages)?.state === "approval-requested",
    "the approval request",
  );
  const approvalId = payment(chat.getSnapshot().messages)?.approval?.id ?? "";
  const dispose = () => {
    approvals.dispose();
    chat.dispose();
    client.close();
  };
  return { client, chat, approvals, approvalId, stored: () => stored(`/agents/chat-agent/${name}`), dispose };
}

/** Polls an async condition (the stored transcript) until it holds. */
async function eventually(cond: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("a decision made after the agent restarted is applied: the tool runs, the turn goes on, the store settles", async () => {
  const name = room("approve-after-restart");
  const s = await askToPay(name);
  const closed = until(() => s.client.status !== "open", "the socket closes");
  expect(t.server.controller.restart("ChatAgent", name)).toBe(true);
  await closed;
  await until(() => s.client.status === "open", "reconnected");
  // The transcript read back on connect: the request survived the restart, still asking.
  await until(
    () => payment(s.chat.getSnapshot().messages)?.state === "approval-requested",
    "the request after the restart",
  );

  expect(s.approvals.decide(s.approvalId, { approved: true })).toBe(true);
  await eventually(async () => payment(await s.stored())?.state === "output-available", "the tool ran");
  await eventually(async () => allText(await s.stored()).includes("Done."), "the continuation is stored");
  await until(() => s.approvals.getSnapshot()[0]?.status === "approved", "the store shows it approved");
  const final = await s.stored();
  expect(allText(final).split("Tool processPayment returned").length - 1).toBe(1);
  s.dispose();
});

it("a decision lost with the restart is sent again once and applied once: the store does not stay submitting", async () => {
  const name = room("lost-in-restart");
  const s = await askToPay(name);
  const decisions: string[] = [];
  const send = s.client.send.bind(s.client);
  s.client.send = (data: string) => {
    if (data.includes('"cf_agent_tool_approval"')) decisions.push(data);
    send(data);
  };
  // The decision goes out and the agent restarts in the same tick: the old instance never reads it.
  expect(s.approvals.decide(s.approvalId, { approved: true })).toBe(true);
  expect(t.server.controller.restart("ChatAgent", name)).toBe(true);
  expect(s.approvals.getSnapshot()[0]?.status).toBe("submitting");

  await eventually(async () => payment(await s.stored())?.state === "output-available", "the tool ran");
  await eventually(async () => allText(await s.stored()).includes("Done."), "the continuation is stored");
  await until(() => s.approvals.getSnapshot()[0]?.status === "approved", "the store shows it approved");
  // Sent once before the restart, once again after it (the transcript read back still asked); applied once.
  expect(decisions).toHaveLength(2);
  expect(allText(await s.stored()).split("Tool processPayment returned").length - 1).toBe(1);
  s.dispose();
});

it("a client tool's result sent after a restart settles the stored part and continues the turn", async () => {
  const name = room("locate-after-restart");
  const path = `/agents/chat-agent/${name}`;
  const c = await t.open(path);
  c.ask("r1", "locate me");
  const call = await c.chunk("r1", (x) => x.type === "tool-input-available");
  await c.done("r1");
  t.server.controller.restart("ChatAgent", name);
  await c.waitForClose();

  const again = await t.open(path);
  await again.waitFor((f) => f.type === "cf_agent_mcp_servers");
  again.send({
    type: "cf_agent_tool_result",
    toolCallId: call.toolCallId,
    toolName: "getLocation",
    output: { lat: 52.5, lng: 13.4 },
    autoContinue: true,
  });
  await eventually(async () => {
    const messages = await stored(path);
    const located = messages
      .flatMap((m) => m.parts as Array<{ toolCallId?: unknown; state?: unknown }>)
      .find((p) => p.toolCallId === call.toolCallId);
    return located?.state === "output-available" && allText(messages).includes("Done.");
  }, "the tool result stored and the turn continued");
});
