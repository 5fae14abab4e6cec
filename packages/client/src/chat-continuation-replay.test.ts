/**
 * A continuation replayed after this tab already saw it end (a second resume offer for the same stream,
 * ACKed after the stream finished, as on a loaded machine: docs/protocol.md#resume-handshake). The replay
 * rebuilds the continuation; it must not append its text a second time to the message that holds it.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { room, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { ChatSession } from "./chat-session.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 1, log: () => {} });
});
afterAll(() => server.close());

it("a late replay of a finished approval continuation leaves its text once", async () => {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: room("late-replay"),
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const frames: Array<Record<string, unknown>> = [];
  client.addEventListener("message", (e) => {
    const data = (e as MessageEvent).data;
    if (typeof data === "string") frames.push(JSON.parse(data) as Record<string, unknown>);
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  const texts = () =>
    chat
      .getSnapshot()
      .messages.flatMap((m) => m.parts)
      .filter((p) => p.type === "text" && p.text.includes("Done."));
  const tool = () =>
    chat
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((p) => p.type === "tool-processPayment") as
      | { state: string; approval?: { id: string } }
      | undefined;
  const idle = () => {
    const s = chat.getSnapshot();
    return s.status === "ready" && !s.isServerStreaming && !s.isToolContinuation;
  };
  try {
    await chat.sendMessage({ text: "pay ACME 250" });
    await until(() => tool()?.state === "approval-requested" && idle());
    chat.addToolApprovalResponse({ id: tool()?.approval?.id ?? "", approved: true });
    await until(() => idle() && texts().length > 0);
    const continuation = frames.find(
      (f) => f.type === "cf_agent_use_chat_response" && f.continuation === true && f.done === true,
    );
    expect(continuation).toBeDefined();
    const before = frames.length;
    client.send(JSON.stringify({ type: "cf_agent_stream_resume_ack", id: continuation?.id }));
    await until(() => frames.slice(before).some((f) => f.done === true && f.replay === true) && idle());
    expect(texts()).toHaveLength(1);
  } finally {
    chat.dispose();
    client.close();
  }
});

it("a second offer of a live approval continuation leaves its text once", async () => {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: room("late-replay"),
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const frames: Array<Record<string, unknown>> = [];
  client.addEventListener("message", (e) => {
    const data = (e as MessageEvent).data;
    if (typeof data === "string") frames.push(JSON.parse(data) as Record<string, unknown>);
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  const texts = () =>
    chat
      .getSnapshot()
      .messages.flatMap((m) => m.parts)
      .filter((p) => p.type === "text" && p.text.includes("Done."));
  const tool = () =>
    chat
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((p) => p.type === "tool-processPayment") as
      | { state: string; approval?: { id: string } }
      | undefined;
  const idle = () => {
    const s = chat.getSnapshot();
    return s.status === "ready" && !s.isServerStreaming && !s.isToolContinuation;
  };
  try {
    await chat.sendMessage({ text: "pay ACME 250" });
    await until(() => tool()?.state === "approval-requested" && idle());
    chat.addToolApprovalResponse({ id: tool()?.approval?.id ?? "", approved: true });
    await until(() =>
      frames.some((f) => f.type === "cf_agent_use_chat_response" && f.continuation === true && f.body),
    );
    client.send(JSON.stringify({ type: "cf_agent_stream_resume_request" }));
    await until(() => idle() && texts().length > 0);
    await new Promise((r) => setTimeout(r, 300));
    await until(() => idle());
    const continuation = frames.find(
      (f) => f.type === "cf_agent_use_chat_response" && f.continuation === true && f.done === true,
    );
    expect(continuation).toBeDefined();
    const before = frames.length;
    client.send(JSON.stringify({ type: "cf_agent_stream_resume_ack", id: continuation?.id }));
    await until(() => frames.slice(before).some((f) => f.done === true && f.replay === true) && idle());
    expect(texts()).toHaveLength(1);
  } finally {
    chat.dispose();
    client.close();
  }
});
