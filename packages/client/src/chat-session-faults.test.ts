/**
 * Bad input and faults between the mock server and a ChatSession: nothing throws into the app, `onError`
 * says what happened, the transcript stays consistent, and the next turn works.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { room, textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { ChatSession } from "./chat-session.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(() => server.controller.clearFaults());

const WORDS = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");

function connect(name: string) {
  const errors: Error[] = [];
  const client = new AgentClient({
    agent: "ChatAgent",
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
    onError: (e) => errors.push(e),
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0, onError: (e) => errors.push(e) });
  const last = () => chat.getSnapshot().messages.at(-1);
  const idle = () => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming;
  /** Sends a raw frame from the server to this agent's sockets. */
  const inject = (raw: string) => {
    for (const c of server.controller.instance("ChatAgent", name)?.conns ?? []) c.send(raw);
  };
  const close = () => {
    chat.dispose();
    client.close();
  };
  return { client, chat, errors, last, idle, inject, close };
}

describe("ChatSession under bad input and faults", () => {
  it("a malformed chat frame is reported through onError and changes nothing; the next turn works", async () => {
    const s = connect(room("cf"));
    await s.chat.sendMessage({ text: "hello" });
    await until(() => s.idle() && textOf(s.last()) !== "");
    const before = s.chat.getSnapshot().messages;
    s.inject('{"type":"cf_agent_use_chat_response","id":5,"body":"x"}');
    s.inject('{"type":"cf_agent_chat_messages","messages":"nope"}');
    s.inject("not json at all");
    s.inject('{"type":"some_future_frame","x":1}');
    await until(() => s.errors.length >= 2);
    expect(s.errors.map((e) => e.message).join("\n")).toMatch(/cf_agent_use_chat_response/);
    expect(s.chat.getSnapshot().messages).toBe(before);
    await s.chat.sendMessage({ text: "hello again" });
    await until(() => s.idle() && s.chat.getSnapshot().messages.length === 4);
    expect(textOf(s.last())).toBe("Hello! How can I help you today?");
    s.close();
  });

  it("a chunk body that is not JSON is reported and skipped; the stream goes on", async () => {
    const name = room("cf");
    const s = connect(name);
    await s.chat.sendMessage({ text: "slow stream please" });
    await until(() => textOf(s.last()).includes("word2"));
    const id = [...(server.controller.sent ?? [])]
      .reverse()
      .find((f) => f.name === name && f.frame.type === "cf_agent_use_chat_response")?.frame.id as string;
    s.inject(JSON.stringify({ type: "cf_agent_use_chat_response", id, body: "{broken", done: false }));
    await until(() => s.idle() && textOf(s.last()).endsWith("word39"));
    expect(textOf(s.last())).toBe(WORDS);
    expect(s.errors.some((e) => e.message.includes(id))).toBe(true);
    s.close();
  });

  it("the server drops the socket mid-stream: the client reconnects, resumes, and ends with every word once", async () => {
    const name = room("cf");
    const s = connect(name);
    await s.chat.sendMessage({ text: "slow stream please" });
    await until(() => textOf(s.last()).includes("word4"));
    for (const c of server.controller.instance("ChatAgent", name)?.conns ?? []) c.terminate();
    await until(() => s.idle() && textOf(s.last()).endsWith("word39"));
    expect(textOf(s.last())).toBe(WORDS);
    expect(s.chat.getSnapshot().messages).toHaveLength(2);
    s.close();
  });

  it("a duplicated offer is acknowledged once: the replay is applied once", async () => {
    const name = room("cf");
    const s = connect(name);
    await s.chat.sendMessage({ text: "slow stream please" });
    await until(() => textOf(s.last()).includes("word3"));
    server.controller.duplicate((f) => f.name === name && f.frame.type === "cf_agent_stream_resuming");
    s.client.reconnect();
    await until(() => s.idle() && textOf(s.last()).endsWith("word39"));
    expect(textOf(s.last())).toBe(WORDS);
    s.close();
  });

  it("a resume_none for a stale probe does not tear down a live stream", async () => {
    const name = room("cf");
    const observer = connect(name);
    const sender = connect(name);
    await until(() => observer.client.status === "open" && sender.client.status === "open");
    await sender.chat.sendMessage({ text: "slow stream please" });
    await until(
      () => observer.chat.getSnapshot().isServerStreaming && textOf(observer.last()).includes("word2"),
    );
    observer.inject('{"type":"cf_agent_stream_resume_none","reason":"idle","probeId":"stale-probe"}');
    await new Promise((r) => setTimeout(r, 50));
    expect(observer.chat.getSnapshot().isServerStreaming).toBe(true);
    await until(() => observer.idle() && textOf(observer.last()).endsWith("word39"));
    expect(textOf(observer.last())).toBe(WORDS);
    observer.close();
    sender.close();
  });

  it("a stream whose done never comes is closed by the next reconnect's authoritative idle", async () => {
    const name = room("cf");
    const s = connect(name);
    // The terminal frame is held back far longer than the test runs.
    server.controller.delay((f) => f.name === name && f.frame.done === true, 60_000);
    await s.chat.sendMessage({ text: "hello" });
    await until(() => textOf(s.last()) === "Hello! How can I help you today?");
    await new Promise((r) => setTimeout(r, 100));
    expect(s.chat.getSnapshot().status).toBe("streaming");
    server.controller.clearFaults();
    s.client.reconnect();
    await until(() => s.chat.getSnapshot().status === "ready");
    await s.chat.sendMessage({ text: "hello again" });
    await until(() => s.idle() && s.chat.getSnapshot().messages.length === 4);
    s.close();
  });

  it("RPC replies for unknown ids are reported through onError and ignored; calls keep working", async () => {
    const s = connect(room("cf"));
    await until(() => s.client.status === "open");
    s.inject('{"type":"rpc","id":"never-sent","success":true,"result":1,"done":true}');
    s.inject('{"type":"rpc","id":"never-sent-2","success":false,"error":"boom"}');
    await until(() => s.errors.length >= 2);
    expect(s.errors.map((e) => e.message)).toEqual([
      'rpc reply for unknown call id "never-sent": ignored',
      'rpc reply for unknown call id "never-sent-2": ignored',
    ]);
    await expect(s.client.call("getInfo")).resolves.toMatchObject({ messageCount: 0 });
    expect(s.errors).toHaveLength(2);
    s.close();
  });
});
