/**
 * The scripted agents through MSW, with no Node server: jsdom's WebSocket and fetch are intercepted and
 * answered by the same hub, so components and hooks can be tested (and shown in Storybook) in one process.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { createMockAgentHandlers } from "../src/msw.ts";

type Frame = Record<string, unknown>;
const logs: string[] = [];
const mock = createMockAgentHandlers({ agents: demoAgents, delayScale: 0, log: (l) => logs.push(l) });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

function open(path: string) {
  const socket = new WebSocket(`ws://mock-agent.local${path}`);
  const frames: Frame[] = [];
  let closed: { code: number; reason: string } | undefined;
  socket.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  socket.addEventListener("close", (e) => {
    closed = { code: e.code, reason: e.reason };
  });
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
    if (!pred()) throw new Error("timed out");
  };
  const opened = new Promise((r) => socket.addEventListener("open", r, { once: true }));
  return { socket, frames, waitFor, opened, closed: () => closed };
}

const request = (id: string, text: string) =>
  JSON.stringify({
    type: "cf_agent_use_chat_request",
    id,
    init: {
      method: "POST",
      body: JSON.stringify({
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
        trigger: "submit-message",
      }),
    },
  });

it("connects with the AIChatAgent connect frames in the real order", async () => {
  const c = open("/agents/chat-agent/room1");
  await c.waitFor(() => c.frames.length >= 3);
  expect(c.frames.map((f) => f.type)).toEqual([
    "cf_agent_identity",
    "cf_agent_state",
    "cf_agent_mcp_servers",
  ]);
  expect(c.frames[0]).toEqual({
    type: "cf_agent_identity",
    name: "room1",
    agent: "chat-agent",
    stateFollows: true,
  });
  expect(c.frames[1]).toEqual({ type: "cf_agent_state", state: { counter: 0 } });
  c.socket.close();
});

it("streams a scripted turn, and the transcript is readable over fetch afterwards", async () => {
  const c = open("/agents/chat-agent/room2");
  await c.opened;
  c.socket.send(request("r1", "hello"));
  await c.waitFor(() => c.frames.some((f) => f.done === true));
  const text = c.frames
    .filter((f) => f.type === "cf_agent_use_chat_response" && String(f.body).includes("text-delta"))
    .map((f) => (JSON.parse(String(f.body)) as { delta: string }).delta)
    .join("");
  expect(text).toBe("Hello! How can I help you today?");
  expect(c.frames.at(-1)).toMatchObject({ done: true, id: "r1", messageIds: ["u1"] });
  const res = await fetch("http://mock-agent.local/agents/chat-agent/room2/get-messages");
  const messages = (await res.json()) as Array<{ role: string }>;
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  c.socket.close();
});

it("refuses an unknown agent with 1008 Not Found", async () => {
  const c = open("/agents/nobody/room");
  await c.waitFor(() => c.closed() !== undefined);
  expect(c.closed()).toEqual({ code: 1008, reason: "Not Found" });
});

it("answers RPC, broadcasts state, and survives a malformed frame", async () => {
  const c = open("/agents/chat-agent/room3");
  await c.opened;
  c.socket.send("not json");
  c.socket.send(JSON.stringify({ type: "rpc", id: "1", method: "increment", args: [2] }));
  await c.waitFor(() => c.frames.some((f) => f.type === "rpc"));
  expect(c.frames.find((f) => f.type === "rpc")).toEqual({
    type: "rpc",
    id: "1",
    success: true,
    done: true,
    result: 2,
  });
  expect(c.frames.filter((f) => f.type === "cf_agent_state").at(-1)).toEqual({
    type: "cf_agent_state",
    state: { counter: 2 },
  });
  expect(logs.some((l) => l.includes("room3") && l.includes("ignored frame"))).toBe(true);
  expect(c.closed()).toBeUndefined();
  c.socket.close();
});

it("closes a frame over the size limit with 1009, like the Node server", async () => {
  const c = open("/agents/chat-agent/room4");
  await c.opened;
  c.socket.send("x".repeat((1 << 20) + 1));
  await c.waitFor(() => c.closed() !== undefined);
  expect(c.closed()?.code).toBe(1009);
});
