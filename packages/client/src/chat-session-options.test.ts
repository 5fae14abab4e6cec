/** The useAgentChat options a user relies on, each observed on the wire or in the store (mock server). */
import {
  createMockAgentServer,
  data,
  type MockAgentDefinition,
  type MockAgentServer,
  type TurnContext,
  text,
} from "@runboard/mock-server";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { ChatSession, type ChatSessionOptions } from "./chat-session.ts";

/** Echoes the request's extra body; "slow" streams 30 words. */
const echo: MockAgentDefinition = {
  host: "ai-chat",
  turns: [
    {
      match: "slow",
      steps: [text(Array.from({ length: 30 }, (_, i) => `w${i}`).join(" "), { delayMs: 100 })],
    },
    {
      match: /./,
      steps: [
        data("data-progress", { step: 1 }, { transient: true }),
        text((ctx: TurnContext) => `body=${JSON.stringify(ctx.body)} said=${ctx.userText}`),
      ],
    },
  ],
};

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ delayScale: 0.1, log: () => {}, agents: { Echo: echo } });
});
afterAll(() => server.close());

let n = 0;
function open(opts: Partial<ChatSessionOptions> = {}, name = `opt-${++n}-${Date.now()}`, on = server) {
  const client = new AgentClient({
    agent: "Echo",
    name,
    host: `127.0.0.1:${on.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0, ...opts });
  const last = () => chat.getSnapshot().messages.at(-1);
  const idle = () => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming;
  const close = () => {
    chat.dispose();
    client.close();
  };
  return { client, chat, last, idle, close, name };
}

describe("ChatSession options", () => {
  it("body (object or async function), prepareSendMessagesRequest and per-call body reach the server, later ones winning", async () => {
    const s = open({
      body: async () => ({ plan: "pro", tz: "UTC" }),
      prepareSendMessagesRequest: ({ body }) => ({ body: { ...body, tz: "Europe/Lisbon", trace: "t1" } }),
    });
    await s.chat.sendMessage({ text: "hi" }, { body: { trace: "t2" } });
    await until(() => s.idle() && textOf(s.last()).startsWith("body="));
    expect(textOf(s.last())).toBe('body={"plan":"pro","tz":"Europe/Lisbon","trace":"t2"} said=hi');
    s.close();
  });

  it("onData gets transient data parts, which are not stored; onFinish gets the finished message", async () => {
    const seen: unknown[] = [];
    const finished: Array<UIMessage | undefined> = [];
    const s = open({ onData: (p) => seen.push(p), onFinish: ({ message }) => finished.push(message) });
    await s.chat.sendMessage({ text: "hi" });
    await until(() => s.idle() && finished.length === 1);
    expect(seen).toEqual([{ type: "data-progress", data: { step: 1 }, transient: true }]);
    expect(s.last()?.parts.some((p) => p.type === "data-progress")).toBe(false);
    expect(finished[0]?.id).toBe(s.last()?.id);
    s.close();
  });

  it("regenerate replaces the last answer, here and on the server", async () => {
    const s = open();
    await s.chat.sendMessage({ text: "first" });
    await until(() => s.idle() && textOf(s.last()).includes("said=first"));
    const before = s.last()?.id;
    await s.chat.regenerate();
    await until(() => s.idle() && s.last()?.id !== before && textOf(s.last()).includes("said=first"));
    expect(s.chat.getSnapshot().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const onServer = server.controller.instance("Echo", s.name)?.messages ?? [];
    expect(onServer.map((m) => m.id)).toEqual(s.chat.getSnapshot().messages.map((m) => m.id));
    s.close();
  });

  it("setMessages syncs to the server unless syncMessagesToServer is false", async () => {
    const s = open();
    await s.chat.sendMessage({ text: "keep" });
    await until(() => s.idle() && textOf(s.last()).includes("said=keep"));
    s.chat.setMessages((prev) => prev.slice(0, 1));
    await until(() => server.controller.instance("Echo", s.name)?.messages.length === 1);
    s.close();
    const quiet = open({ syncMessagesToServer: false });
    await quiet.chat.sendMessage({ text: "keep" });
    await until(() => quiet.idle() && textOf(quiet.last()).includes("said=keep"));
    quiet.chat.setMessages([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(quiet.chat.getSnapshot().messages).toEqual([]);
    expect(server.controller.instance("Echo", quiet.name)?.messages.length).toBe(2);
    quiet.close();
  });

  it("getInitialMessages replaces the HTTP fetch", async () => {
    const initial: UIMessage[] = [
      { id: "seed", role: "user", parts: [{ type: "text", text: "from storage" }] },
    ];
    const s = open({ getInitialMessages: async () => initial });
    await until(() => s.chat.getSnapshot().messages.length === 1);
    expect(s.chat.getSnapshot().messages[0]?.id).toBe("seed");
    s.close();
  });

  it("cancelOnClientAbort: disposing cancels the server turn; by default the turn goes on", async () => {
    const keep = open();
    await keep.chat.sendMessage({ text: "slow" });
    await until(() => textOf(keep.last()).includes("w2"));
    keep.chat.dispose();
    await until(() => server.controller.instance("Echo", keep.name)?.streaming === false, 15_000);
    expect(textOf(server.controller.instance("Echo", keep.name)?.messages.at(-1))).toContain("w29");
    keep.client.close();

    const cancel = open({ cancelOnClientAbort: true });
    await cancel.chat.sendMessage({ text: "slow" });
    await until(() => textOf(cancel.last()).includes("w2"));
    cancel.chat.dispose();
    await until(() => server.controller.instance("Echo", cancel.name)?.streaming === false);
    expect(textOf(server.controller.instance("Echo", cancel.name)?.messages.at(-1))).not.toContain("w29");
    cancel.client.close();
  });

  it("isRecovering follows the server's chat_recovering, and the recovered turn completes", {
    timeout: 30_000,
  }, async () => {
    // Real-time delays here: the recovery starts 500 ms after the eviction, long enough to reconnect first.
    const realTime = await createMockAgentServer({ agents: { Echo: echo }, log: () => {} });
    const s = open({}, `recover-${Date.now()}`, realTime);
    await s.chat.sendMessage({ text: "slow" });
    await until(() => textOf(s.last()).includes("w3"));
    const recovering: boolean[] = [];
    s.chat.subscribe(() => recovering.push(s.chat.getSnapshot().isRecovering));
    realTime.controller.restart("Echo", s.name, { recover: true });
    await until(() => recovering.includes(true), 10_000);
    await until(
      () => s.idle() && !s.chat.getSnapshot().isRecovering && textOf(s.last()).endsWith("w29"),
      15_000,
    );
    expect(textOf(s.last())).toBe(Array.from({ length: 30 }, (_, i) => `w${i}`).join(" "));
    s.close();
    await realTime.close();
  });

  it("onTurnEnd reports each request's end with its user message ids, and aborted for a stopped one", async () => {
    const ends: Array<{ requestId: string; messageIds?: string[]; outcome: string }> = [];
    const s = open({ onTurnEnd: (e) => ends.push(e) });
    await s.chat.sendMessage({ id: "u-1", role: "user", parts: [{ type: "text", text: "hi" }] });
    await until(() => ends.length === 1);
    expect(ends[0]).toMatchObject({ messageIds: ["u-1"], outcome: "completed" });
    await s.chat.sendMessage({ id: "u-2", role: "user", parts: [{ type: "text", text: "slow" }] });
    await until(() => textOf(s.last()).includes("w2"));
    s.chat.stop();
    await until(() => ends.length === 2);
    expect(ends[1]).toMatchObject({ messageIds: ["u-2"], outcome: "aborted" });
    s.close();
  });
});
