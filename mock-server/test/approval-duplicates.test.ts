/**
 * A decision sent twice for one tool call (docs/protocol.md#duplicate-decisions): the mock applies the first
 * and drops the second silently, as the real server does. One `cf_agent_message_updated` for the decision, one
 * continuation, the closing text once in the transcript.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../src/index.ts";

type Frame = Record<string, unknown>;
let server: MockAgentServer;

beforeAll(async () => {
  server = await createMockAgentServer({ delayScale: 0.1, agents: demoAgents, log: () => {} });
});
afterAll(() => server.close());

async function open(name: string) {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/agents/chat-agent/${name}`);
  const frames: Frame[] = [];
  ws.on("message", (d, binary) => {
    if (!binary) frames.push(JSON.parse(d.toString()) as Frame);
  });
  await new Promise((res, rej) => {
    ws.once("open", res);
    ws.once("error", rej);
  });
  const waitFor = async (pred: (f: Frame) => boolean): Promise<Frame> => {
    for (let i = 0; i < 1000; i++) {
      const f = frames.find(pred);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("frame not seen");
  };
  return { ws, frames, waitFor, send: (f: unknown) => ws.send(JSON.stringify(f)) };
}

const bodies = (frames: Frame[]) =>
  frames
    .filter((f) => f.type === "cf_agent_use_chat_response" && typeof f.body === "string" && f.body)
    .map((f) => JSON.parse(f.body as string) as Frame);

async function askPay(name: string) {
  const c = await open(name);
  c.send({
    type: "cf_agent_use_chat_request",
    id: "r1",
    init: {
      method: "POST",
      body: JSON.stringify({
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "pay ACME 250" }] }],
        trigger: "submit-message",
      }),
    },
  });
  await c.waitFor((f) => f.id === "r1" && f.done === true);
  const ask = bodies(c.frames).find((b) => b.type === "tool-approval-request");
  return { c, toolCallId: ask?.toolCallId as string };
}

async function settle(c: Awaited<ReturnType<typeof open>>) {
  // The continuation ends with a done frame of a server-started stream; then a quiet while for a second one.
  await c.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.id !== "r1" && f.done === true);
  await new Promise((r) => setTimeout(r, 300));
}

async function transcriptText(name: string) {
  const res = await fetch(`${server.url}/agents/chat-agent/${name}/get-messages`);
  const messages = (await res.json()) as Array<{ parts: Array<{ type: string; text?: string }> }>;
  return messages.flatMap((m) => m.parts.filter((p) => p.type === "text").map((p) => p.text ?? ""));
}

it("the same approval twice runs the tool once and continues once", async () => {
  const name = `dup-${Date.now().toString(36)}`;
  const { c, toolCallId } = await askPay(name);
  const decision = { type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true };
  c.send(decision);
  c.send(decision);
  await settle(c);
  expect(c.frames.filter((f) => f.type === "cf_agent_message_updated")).toHaveLength(1);
  expect(
    c.frames.filter((f) => f.type === "cf_agent_use_chat_response" && f.id !== "r1" && f.done),
  ).toHaveLength(1);
  const done = (await transcriptText(name)).filter((t) => t.includes('"charged":250') && t.includes("Done."));
  expect(done).toHaveLength(1);
  c.ws.close();
});

it("an Approve then a Deny in the same tick: approved and run, never output-denied", async () => {
  const name = `dup-deny-${Date.now().toString(36)}`;
  const { c, toolCallId } = await askPay(name);
  c.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true });
  c.send({ type: "cf_agent_tool_approval", toolCallId, approved: false, autoContinue: true });
  await settle(c);
  expect(JSON.stringify(c.frames)).not.toContain("output-denied");
  expect((await transcriptText(name)).filter((t) => t.includes("Done."))).toHaveLength(1);
  c.ws.close();
});
