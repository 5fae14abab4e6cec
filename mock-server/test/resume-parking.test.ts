/** A probe that arrives before a continuation streams is parked, then offered the stream (docs/protocol.md#resume-handshake, rule B). */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../src/index.ts";

type Frame = Record<string, unknown>;
let server: MockAgentServer;
beforeAll(async () => {
  // Scaled delays, not 0: the test needs the 50 ms coalesce window to exist (here 25 ms).
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.5, log: () => {} });
});
afterAll(() => server.close());

async function open(room: string) {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/agents/chat-agent/${room}`);
  const frames: Frame[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
  await new Promise((r) => ws.once("open", r));
  const waitFor = async (pred: (f: Frame) => boolean) => {
    for (let i = 0; i < 1000; i++) {
      const f = frames.find(pred);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error("frame not seen");
  };
  return { ws, frames, waitFor, send: (f: Frame) => ws.send(JSON.stringify(f)) };
}

it("a probe inside the continuation's coalesce window gets stream_pending, then one unsolicited offer", async () => {
  const c = await open("parked");
  c.send({
    type: "cf_agent_use_chat_request",
    id: "r1",
    init: {
      method: "POST",
      body: JSON.stringify({
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "pay ACME 10" }] }],
        trigger: "submit-message",
      }),
    },
  });
  const request = await c.waitFor(
    (f) => typeof f.body === "string" && f.body.includes("tool-approval-request"),
  );
  const { toolCallId } = JSON.parse(request.body as string) as { toolCallId: string };
  await c.waitFor((f) => f.done === true);
  c.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true });
  c.send({ type: "cf_agent_stream_resume_request", probeId: "p1" });
  const pending = await c.waitFor((f) => f.type === "cf_agent_stream_pending");
  expect(pending.probeId).toBe("p1");
  const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
  expect(offer).toEqual({ type: "cf_agent_stream_resuming", id: pending.id });
  c.send({ type: "cf_agent_stream_resume_ack", id: offer.id });
  await c.waitFor((f) => f.id === offer.id && f.done === true);
  expect(c.frames.filter((f) => f.type === "cf_agent_stream_resuming")).toHaveLength(1);
  const text = c.frames
    .filter((f) => f.id === offer.id && typeof f.body === "string" && f.body.includes("text-delta"))
    .map((f) => (JSON.parse(f.body as string) as { delta: string }).delta)
    .join("");
  expect(text).toContain('"charged":10');
  c.ws.close();
});
