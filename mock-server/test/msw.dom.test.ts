/**
 * The scripted agents through MSW, with no Node server: jsdom's WebSocket and fetch are intercepted and
 * answered by the same hub, so components and hooks can be tested (and shown in Storybook) in one process.
 * Everything is imported from the `msw` entry alone, as a browser bundle would.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { createMockAgentHandlers, demoAgents } from "../src/msw.ts";

type Frame = Record<string, unknown>;
const ORIGIN = "http://mock-agent.local";
const logs: string[] = [];
const mock = createMockAgentHandlers({ agents: demoAgents, delayScale: 0, log: (l) => logs.push(l) });
const server = setupServer(...mock.handlers);
const sockets: WebSocket[] = [];

// "error": a request no handler answers is a test failure, not a silent pass-through to the network.
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
  mock.controller.clearFaults();
  mock.controller.release();
});
afterAll(() => server.close());

/** A client socket on the mock origin that records frames and how it closed. */
function open(path: string) {
  const socket = new WebSocket(`ws://mock-agent.local${path}`);
  sockets.push(socket);
  const frames: Frame[] = [];
  let opened = false;
  let closed: { code: number; reason: string } | undefined;
  socket.addEventListener("open", () => {
    opened = true;
  });
  socket.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data)) as Frame));
  socket.addEventListener("close", (e) => {
    closed = { code: e.code, reason: e.reason };
  });
  return {
    socket,
    frames,
    opened: () => vi.waitFor(() => expect(opened).toBe(true), { timeout: 30_000, interval: 5 }),
    closed: () => closed,
    waitClosed: () =>
      vi.waitFor(
        () => {
          if (!closed) throw new Error("socket still open");
          return closed;
        },
        { timeout: 30_000, interval: 5 },
      ),
    waitFor: (pred: (f: Frame) => boolean) =>
      vi.waitFor(
        () => {
          const f = frames.find(pred);
          if (!f) throw new Error(`no matching frame in ${JSON.stringify(frames.map((x) => x.type))}`);
          return f;
        },
        { timeout: 30_000, interval: 5 },
      ),
    wasOpened: () => opened,
  };
}

const chatRequest = (id: string, text: string) =>
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

/** Sends one chat turn and resolves with every frame of its response stream, up to the `done` frame. */
async function chatTurn(path: string, text: string) {
  const c = open(path);
  await c.opened();
  c.socket.send(chatRequest("r1", text));
  await c.waitFor((f) => f.done === true);
  return { c, stream: c.frames.filter((f) => f.type === "cf_agent_use_chat_response") };
}

const rpc = (id: string, method: string, args: unknown[]) =>
  JSON.stringify({ type: "rpc", id, method, args });

it("connects with identity, state and MCP servers, in that order", async () => {
  const c = open("/agents/chat-agent/room1");
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  expect(c.frames).toEqual([
    { type: "cf_agent_identity", name: "room1", agent: "chat-agent", stateFollows: true },
    { type: "cf_agent_state", state: { counter: 0 } },
    { type: "cf_agent_mcp_servers", mcp: { prompts: [], resources: [], servers: {}, tools: [] } },
  ]);
});

it("streams a scripted turn and ends it with done and the request's message ids", async () => {
  const { stream } = await chatTurn("/agents/chat-agent/room1", "hello");
  const chunks = stream
    .filter((f) => typeof f.body === "string" && f.body !== "")
    .map((f) => JSON.parse(String(f.body)) as { type: string; delta?: string });
  const text = chunks
    .filter((ch) => ch.type === "text-delta")
    .map((ch) => ch.delta)
    .join("");
  expect(text).toBe("Hello! How can I help you today?");
  expect(stream.filter((f) => f.done === true)).toHaveLength(1);
  expect(stream.at(-1)).toMatchObject({ id: "r1", done: true, messageIds: ["u1"] });
});

it("serves the transcript over fetch: empty before a turn, user and assistant after", async () => {
  const url = `${ORIGIN}/agents/chat-agent/transcript/get-messages`;
  expect(await (await fetch(url)).json()).toEqual([]);
  await chatTurn("/agents/chat-agent/transcript", "hello");
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  const messages = (await res.json()) as Array<{ id: string; role: string; parts: Array<{ text?: string }> }>;
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(messages[0]?.id).toBe("u1");
  expect(messages[1]?.parts.map((p) => p.text).join("")).toContain("Hello! How can I help you today?");
});

it("answers the other HTTP routes like the Node server", async () => {
  expect(await (await fetch(`${ORIGIN}/health`)).json()).toEqual({ ok: true });
  expect((await fetch(`${ORIGIN}/agents/nobody/x/get-messages`)).status).toBe(404);
  expect((await fetch(`${ORIGIN}/agents/chat-agent/x/get-messages`, { method: "POST" })).status).toBe(405);
  expect((await fetch(`${ORIGIN}/live-view/unknown-token`)).status).toBe(404);
});

it("refuses unknown agents and bad names with 1008, before the socket opens", async () => {
  const unknown = open("/agents/nobody/room");
  expect(await unknown.waitClosed()).toEqual({ code: 1008, reason: "Not Found" });
  const extra = open("/agents/chat-agent/room/extra");
  expect(await extra.waitClosed()).toEqual({ code: 1008, reason: "Not Found" });
  const noName = open("/agents/chat-agent/");
  expect(await noName.waitClosed()).toEqual({ code: 1008, reason: "Bad Request" });
  expect([unknown, extra, noName].some((c) => c.wasOpened() || c.frames.length > 0)).toBe(false);
});

it("answers an RPC and broadcasts the new state to every socket of the instance", async () => {
  const a = open("/agents/chat-agent/counter");
  const b = open("/agents/chat-agent/counter");
  await Promise.all([a.opened(), b.opened()]);
  await b.waitFor((f) => f.type === "cf_agent_mcp_servers");
  a.socket.send(rpc("1", "increment", [2]));
  expect(await a.waitFor((f) => f.type === "rpc")).toEqual({
    type: "rpc",
    id: "1",
    success: true,
    done: true,
    result: 2,
  });
  const isNewState = (f: Frame) =>
    f.type === "cf_agent_state" && (f.state as { counter: number }).counter !== 0;
  expect(await b.waitFor(isNewState)).toEqual({ type: "cf_agent_state", state: { counter: 2 } });
  expect(b.frames.some((f) => f.type === "rpc")).toBe(false);
});

it("ignores malformed and binary frames without closing the socket", async () => {
  const c = open("/agents/chat-agent/room3");
  await c.opened();
  c.socket.send("not json");
  c.socket.send(new Uint8Array([1, 2, 3]));
  c.socket.send(rpc("1", "increment", [2]));
  expect(await c.waitFor((f) => f.type === "rpc")).toMatchObject({ id: "1", success: true, result: 2 });
  expect(logs.filter((l) => l.includes("chat-agent/room3") && l.includes("ignored frame"))).toHaveLength(2);
  expect(c.closed()).toBeUndefined();
});

it("closes a frame over 1 MiB with 1009, counting UTF-8 bytes, like the Node server", async () => {
  const ascii = open("/agents/chat-agent/big1");
  await ascii.opened();
  ascii.socket.send("x".repeat((1 << 20) + 1));
  expect((await ascii.waitClosed()).code).toBe(1009);
  // 400 000 UTF-16 units but 1.2 MB of UTF-8: over the limit although `length` is under it.
  const euros = open("/agents/chat-agent/big2");
  await euros.opened();
  euros.socket.send("€".repeat(400_000));
  expect((await euros.waitClosed()).code).toBe(1009);
  // Exactly at the limit passes (and, not being JSON, is ignored).
  const edge = open("/agents/chat-agent/big3");
  await edge.opened();
  edge.socket.send("x".repeat(1 << 20));
  edge.socket.send(rpc("1", "getInfo", []));
  await edge.waitFor((f) => f.type === "rpc");
  expect(edge.closed()).toBeUndefined();
});

it("terminates a socket on the controller's request; the client sees 1006", async () => {
  mock.controller.dropSocketAfter(4, { name: "dropped" });
  const c = open("/agents/chat-agent/dropped");
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  c.socket.send(rpc("1", "getInfo", []));
  expect((await c.waitClosed()).code).toBe(1006);
  // The fourth frame was delivered before the drop, as with the Node server.
  expect(c.frames.map((f) => f.type)).toEqual([
    "cf_agent_identity",
    "cf_agent_state",
    "cf_agent_mcp_servers",
    "rpc",
  ]);
});

it("terminates during the connect frames after delivering the ones counted", async () => {
  mock.controller.dropSocketAfter(1, { name: "dropped-early" });
  const c = open("/agents/chat-agent/dropped-early");
  expect((await c.waitClosed()).code).toBe(1006);
  expect(c.frames.map((f) => f.type)).toEqual(["cf_agent_identity"]);
});

it("delivers the frames sent just before a restart's 1012 close", async () => {
  const c = open("/agents/chat-agent/restarted");
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  mock.controller.hold();
  c.socket.send(rpc("1", "increment", [5]));
  await vi.waitFor(() => expect(mock.controller.heldCount).toBe(2));
  // Sent and closed in the same tick, as when an agent is evicted right after answering.
  mock.controller.release();
  expect(mock.controller.restart("ChatAgent", "restarted")).toBe(true);
  expect(await c.waitClosed()).toEqual({ code: 1012, reason: "Agent restarting" });
  expect(c.frames.slice(3)).toEqual([
    { type: "cf_agent_state", state: { counter: 5 } },
    { type: "rpc", id: "1", success: true, done: true, result: 5 },
  ]);
  // A new socket finds the persisted state.
  const again = open("/agents/chat-agent/restarted");
  expect(await again.waitFor((f) => f.type === "cf_agent_state")).toEqual({
    type: "cf_agent_state",
    state: { counter: 5 },
  });
});
