import { encodeStreamResumeAck } from "@runboard/protocol";
import { afterEach, expect, it, vi } from "vitest";
import { FakeWebSocket, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { AgentToolRuns } from "./agent-tool-runs.ts";
import { ChatSession } from "./chat-session.ts";
import { readFrame } from "./frame-source.ts";

afterEach(() => vi.restoreAllMocks());

it("parses a chat chunk once for the connection, the chat store and the run store together", async () => {
  const errors: Error[] = [];
  const client = new AgentClient({
    agent: "ChatAgent",
    name: "parse-once",
    host: "agents.example",
    WebSocket: FakeWebSocket,
    onError: (e) => errors.push(e),
  });
  const chat = new ChatSession({ agent: client, getInitialMessages: null, resume: false, throttleMs: 0 });
  const runs = new AgentToolRuns({ agent: client, storage: null, onError: (e) => errors.push(e) });
  await until(() => client.status === "open");
  const socket = FakeWebSocket.last as FakeWebSocket;
  await chat.sendMessage({ text: "hi" });
  const request = JSON.parse(socket.sent.at(-1) as string) as { type: string; id: string };
  expect(request.type).toBe("cf_agent_use_chat_request");

  const body = JSON.stringify({ type: "text-start", id: "t1" });
  const frame = JSON.stringify({ type: "cf_agent_use_chat_response", id: request.id, body, done: false });
  const parse = vi.spyOn(JSON, "parse");
  socket.push(frame);
  socket.push(
    JSON.stringify({
      type: "cf_agent_use_chat_response",
      id: request.id,
      body: JSON.stringify({ type: "text-delta", id: "t1", delta: "hello" }),
      done: false,
    }),
  );

  expect(parse.mock.calls.filter(([text]) => text === frame)).toHaveLength(1);
  expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  // The parse that was shared is the one every store applied.
  const reply = chat.getSnapshot().messages.find((m) => m.role === "assistant");
  expect(reply?.parts).toEqual([expect.objectContaining({ type: "text", text: "hello" })]);
  expect(errors).toEqual([]);
  chat.dispose();
  runs.dispose();
  client.close();
});

it("parses a large transcript frame once for the connection and the chat store too", async () => {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: "parse-once-large",
    host: "agents.example",
    WebSocket: FakeWebSocket,
  });
  const chat = new ChatSession({ agent: client, getInitialMessages: null, resume: false, throttleMs: 0 });
  await until(() => client.status === "open");
  const socket = FakeWebSocket.last as FakeWebSocket;
  // Over the size the recent-parse ring keeps (64 K units): such frames are cached per event object instead.
  const messages = Array.from({ length: 400 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [{ type: "text", text: `${"x".repeat(300)} ${i}` }],
  }));
  const frame = JSON.stringify({ type: "cf_agent_chat_messages", messages });
  expect(frame.length).toBeGreaterThan(64 * 1024);
  const parse = vi.spyOn(JSON, "parse");
  socket.push(frame);
  expect(parse.mock.calls.filter(([text]) => text === frame)).toHaveLength(1);
  expect(chat.getSnapshot().messages).toHaveLength(400);
  chat.dispose();
  client.close();
});

it("parses again when one event object is dispatched again with other data", () => {
  const event = { data: encodeStreamResumeAck("a") };
  const first = readFrame(event);
  expect(readFrame(event)).toBe(first);
  event.data = JSON.stringify({ type: "cf_agent_chat_clear" });
  expect(readFrame(event)).toEqual({ kind: "frame", frame: { type: "cf_agent_chat_clear" } });
});
