/** Eviction mid-stream: orphaned streams end on the next ACK; with recovery the turn is finished for the user. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../src/index.ts";

type Frame = Record<string, unknown>;
let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());

async function open(room: string) {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/agents/chat-agent/${room}`);
  const frames: Frame[] = [];
  let closeCode: number | undefined;
  ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
  // The close handshake takes a round trip or two: on a loaded machine that is more than any fixed sleep.
  const closed = new Promise<number>((r) =>
    ws.on("close", (code) => {
      closeCode = code;
      r(code);
    }),
  );
  await new Promise((r) => ws.once("open", r));
  const waitFor = async (pred: (f: Frame) => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const f = frames.find(pred);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error("frame not seen");
  };
  return { ws, frames, waitFor, closed, closeCode: () => closeCode };
}

const ask = (text: string) =>
  JSON.stringify({
    type: "cf_agent_use_chat_request",
    id: "req-slow",
    init: {
      method: "POST",
      body: JSON.stringify({
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
        trigger: "submit-message",
      }),
    },
  });

const deltas = (frames: Frame[]) =>
  frames
    .filter(
      (f) =>
        f.type === "cf_agent_use_chat_response" &&
        typeof f.body === "string" &&
        f.body.includes("text-delta"),
    )
    .map((f) => (JSON.parse(f.body as string) as { delta: string }).delta);

it("an orphaned stream is offered after a restart, its ACK replays it and ends it, and the partial text is kept", async () => {
  const a = await open("orphan");
  a.ws.send(ask("slow please"));
  await a.waitFor((f) => typeof f.body === "string" && f.body.includes("word3 "));
  expect(server.controller.restart("ChatAgent", "orphan")).toBe(true);
  expect(await a.closed).toBe(1012);
  const cut = deltas(a.frames).length;

  const b = await open("orphan");
  const offer = await b.waitFor((f) => f.type === "cf_agent_stream_resuming");
  expect(b.frames[0]).toEqual(offer); // before identity, as the real server does
  b.ws.send(JSON.stringify({ type: "cf_agent_stream_resume_ack", id: offer.id }));
  const end = await b.waitFor((f) => f.done === true);
  expect(end).toMatchObject({ replay: true, body: "" });
  expect(deltas(b.frames)).toEqual(deltas(a.frames).slice(0, cut));
  const res = await fetch(`${server.url}/agents/chat-agent/orphan/get-messages`);
  const messages = (await res.json()) as Array<{
    role: string;
    parts: Array<{ type: string; text?: string }>;
  }>;
  expect(messages.at(-1)?.parts.find((p) => p.type === "text")?.text).toBe(
    deltas(a.frames).slice(0, cut).join(""),
  );
  b.ws.close();
});

it("with recovery, a reconnecting client is told the chat is recovering and ends with every word exactly once", async () => {
  const a = await open("recover");
  a.ws.send(ask("slow please"));
  await a.waitFor((f) => typeof f.body === "string" && f.body.includes("word5 "));
  server.controller.restart("ChatAgent", "recover", { recover: true });
  const b = await open("recover");
  const on = await b.waitFor((f) => f.type === "cf_agent_chat_recovering");
  expect(on).toMatchObject({ recovering: true });
  const off = await b.waitFor((f) => f.type === "cf_agent_chat_recovering" && f.recovering === false);
  expect(off.id).toBe(on.id);
  // The continuation resumes the cut text part without a text-start.
  const cont = b.frames.filter((f) => f.id === on.id && typeof f.body === "string" && f.body !== "");
  expect(cont.every((f) => f.continuation === true)).toBe(true);
  expect(cont.some((f) => (f.body as string).includes('"text-start"'))).toBe(false);
  const res = await fetch(`${server.url}/agents/chat-agent/recover/get-messages`);
  const messages = (await res.json()) as Array<{
    role: string;
    parts: Array<{ type: string; text?: string }>;
  }>;
  const textParts = messages.at(-1)?.parts.filter((p) => p.type === "text") ?? [];
  expect(textParts).toHaveLength(1);
  expect(textParts[0]?.text).toBe(Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "));
  b.ws.close();
});
