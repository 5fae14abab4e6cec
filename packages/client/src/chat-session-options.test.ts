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
import { getAgentMessages } from "./client-tools.ts";

/** Echoes the request's extra body; "slow" streams 30 words. */
const echo: MockAgentDefinition = {
  host: "ai-chat",
  turns: [
    {
      match: "slow",
      steps: [text(Array.from({ length: 30 }, (_, i) => `w${i}`).join(" "), { delayMs: 100 })],
    },
    {
      match: "two tools",
      steps: [
        { kind: "client-tool", name: "confirm", input: { n: 1 } },
        { kind: "client-tool", name: "confirm", input: { n: 2 } },
      ],
    },
    { match: "explode", steps: [{ kind: "error", message: "Model overloaded" }] },
    { match: "auto tool", steps: [{ kind: "client-tool", name: "lookup", input: { q: "x" } }] },
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
  const wire: Array<Record<string, unknown>> = [];
  const client = new AgentClient({
    agent: "Echo",
    name,
    host: `127.0.0.1:${on.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
  });
  // What the session sends, as the server receives it.
  const send = client.send.bind(client);
  client.send = (d: string) => {
    wire.push(JSON.parse(d) as Record<string, unknown>);
    send(d);
  };
  const chat = new ChatSession({ agent: client, throttleMs: 0, ...opts });
  const last = () => chat.getSnapshot().messages.at(-1);
  const idle = () => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming;
  const close = () => {
    chat.dispose();
    client.close();
  };
  const requests = () => wire.filter((f) => f.type === "cf_agent_use_chat_request").length;
  return { client, chat, last, idle, close, name, wire, requests };
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

  it("files that are no file parts where there is no FileList (Node): onError, and nothing is sent", async () => {
    const errors: Error[] = [];
    const s = open({ onError: (e) => errors.push(e) });
    await s.chat.sendMessage({ files: { length: 0 } as unknown as FileList });
    expect(errors.map((e) => e.message)).toEqual(["FileList is not supported in the current environment"]);
    expect(s.requests()).toBe(0);
    expect(s.chat.getSnapshot().messages).toEqual([]);
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
    await until(() => server.controller.instance("Echo", keep.name)?.streaming === false);
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
    await until(() => recovering.includes(true));
    await until(() => s.idle() && !s.chat.getSnapshot().isRecovering && textOf(s.last()).endsWith("w29"));
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

  describe("deprecated official options, still honoured", () => {
    /** Tool call ids in the last message still waiting for input. */
    const waiting = (s: ReturnType<typeof open>) =>
      (s.last()?.parts ?? [])
        .filter((p) => "state" in p && p.state === "input-available")
        .map((p) => (p as { toolCallId: string }).toolCallId);

    it("toolsRequiringConfirmation: a listed tool with execute is left for the human; others run by themselves", async () => {
      const ran: unknown[] = [];
      const execute = (input: unknown) => {
        ran.push(input);
        return { ok: true };
      };
      const held = open({ tools: { lookup: { execute } }, toolsRequiringConfirmation: ["lookup"] });
      await held.chat.sendMessage({ text: "auto tool" });
      await until(() => held.idle() && waiting(held).length === 1);
      expect(ran).toEqual([]);
      expect(held.wire.some((f) => f.type === "cf_agent_tool_result")).toBe(false);
      held.close();

      const auto = open({ tools: { lookup: { execute } } });
      await auto.chat.sendMessage({ text: "auto tool" });
      await until(() => auto.wire.some((f) => f.type === "cf_agent_tool_result"));
      expect(ran).toEqual([{ q: "x" }]);
      auto.close();
    });

    it("addToolResult without auto-continue sends one follow-up once every confirmation is answered", async () => {
      const s = open({ tools: { confirm: {} }, autoContinueAfterToolResult: false });
      await s.chat.sendMessage({ text: "two tools" });
      await until(() => s.idle() && waiting(s).length === 2);
      const [a, b] = waiting(s) as [string, string];
      expect(s.requests()).toBe(1);
      s.chat.addToolResult({ tool: "confirm", toolCallId: a, output: "yes" });
      expect(s.requests()).toBe(1);
      s.chat.addToolResult({ tool: "confirm", toolCallId: b, output: "yes" });
      expect(s.requests()).toBe(2);
      const results = s.wire.filter((f) => f.type === "cf_agent_tool_result");
      expect(results.map((f) => [f.toolCallId, f.autoContinue])).toEqual([
        [a, false],
        [b, false],
      ]);
      s.close();
    });

    it("autoSendAfterAllConfirmationsResolved: false sends a follow-up after each result", async () => {
      const s = open({
        tools: { confirm: {} },
        autoContinueAfterToolResult: false,
        autoSendAfterAllConfirmationsResolved: false,
      });
      await s.chat.sendMessage({ text: "two tools" });
      await until(() => s.idle() && waiting(s).length === 2);
      const [a] = waiting(s) as [string];
      s.chat.addToolResult({ tool: "confirm", toolCallId: a, output: "yes" });
      expect(s.requests()).toBe(2);
      s.close();
    });
  });

  it("getAgentMessages reads the persisted transcript by address or URL, and yields [] when it cannot", async () => {
    const s = open();
    await s.chat.sendMessage({ text: "hi" });
    await until(() => s.idle() && textOf(s.last()).startsWith("body="));
    const host = `http://127.0.0.1:${server.port}`;
    const byAddress = await getAgentMessages({ host, agent: "Echo", name: s.name });
    expect(byAddress.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(byAddress[1])).toBe(textOf(s.last()));
    const byUrl = await getAgentMessages({ url: `${host}/agents/echo/${s.name}/get-messages` });
    expect(byUrl).toEqual(byAddress);
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await getAgentMessages({ host, agent: "NoSuchAgent", name: "x" })).toEqual([]);
      expect(await getAgentMessages({ url: "http://127.0.0.1:1/get-messages" })).toEqual([]);
    } finally {
      console.warn = warn;
    }
    s.close();
  });

  describe("AI SDK chat options the official hook passes through", () => {
    const userTexts = (s: ReturnType<typeof open>) =>
      s.chat
        .getSnapshot()
        .messages.filter((m) => m.role === "user")
        .map((m) => textOf(m));

    it("id and generateId name the chat and the messages this tab creates", async () => {
      let k = 0;
      const s = open({ id: "chat-1", generateId: () => `mine-${++k}` });
      expect(s.chat.id).toBe("chat-1");
      await s.chat.sendMessage({ text: "hi" });
      await until(s.idle);
      expect(s.chat.getSnapshot().messages[0]?.id).toBe("mine-1");
      s.close();
    });

    it("experimental_queue holds messages sent mid-response and sends them one by one afterwards", async () => {
      const s = open({ experimental_queue: true });
      await s.chat.sendMessage({ text: "slow" });
      await until(() => s.chat.getSnapshot().status === "streaming");
      await s.chat.sendMessage({ text: "second" });
      await s.chat.sendMessage({ text: "third" });
      expect(s.chat.getSnapshot().experimental_queuedMessages.map((m) => textOf(m))).toEqual([
        "second",
        "third",
      ]);
      expect(s.requests()).toBe(1);
      await until(() => s.idle() && s.requests() === 3 && textOf(s.last()).includes("said=third"));
      expect(userTexts(s)).toEqual(["slow", "second", "third"]);
      expect(s.chat.getSnapshot().experimental_queuedMessages).toEqual([]);
      s.close();
    });

    it("stop pauses the queue until the user sends again; remove and send-now act on one message", async () => {
      const s = open({ experimental_queue: true });
      await s.chat.sendMessage({ text: "slow" });
      await until(() => s.chat.getSnapshot().status === "streaming");
      await s.chat.sendMessage({ text: "a" });
      await s.chat.sendMessage({ text: "b" });
      s.chat.stop();
      await until(s.idle);
      await new Promise((r) => setTimeout(r, 50));
      expect(s.requests()).toBe(1);
      const [a, b] = s.chat.getSnapshot().experimental_queuedMessages as [UIMessage, UIMessage];
      s.chat.experimental_removeQueuedMessage(a.id);
      await s.chat.experimental_sendQueuedMessageNow(b.id);
      await until(() => s.idle() && textOf(s.last()).includes("said=b"));
      expect(userTexts(s)).toEqual(["slow", "b"]);
      expect(s.requests()).toBe(2);
      s.close();
    });

    it("sendAutomaticallyWhen sends the transcript again after a tool result when it says so", async () => {
      const s = open({
        tools: { confirm: {} },
        autoContinueAfterToolResult: false,
        sendAutomaticallyWhen: ({ messages }) =>
          !messages.at(-1)?.parts.some((p) => "state" in p && p.state === "input-available"),
      });
      await s.chat.sendMessage({ text: "two tools" });
      await until(() => s.idle() && s.last()?.role === "assistant");
      const ids = (s.last()?.parts ?? []).flatMap((p) => ("toolCallId" in p ? [p.toolCallId as string] : []));
      s.chat.addToolOutput({ toolCallId: ids[0] as string, output: 1 });
      await new Promise((r) => setTimeout(r, 20));
      expect(s.requests()).toBe(1);
      s.chat.addToolOutput({ toolCallId: ids[1] as string, output: 2 });
      await until(() => s.requests() === 2);
      s.close();
    });

    it("dataPartSchemas keep a data part that fails its schema out of the transcript and report it", async () => {
      const errors: string[] = [];
      // A Standard Schema by hand: `step` must be 2.
      const schema = {
        "~standard": {
          validate: (v: unknown) =>
            (v as { step?: number }).step === 2 ? { value: v } : { issues: [{ message: "step must be 2" }] },
        },
      };
      const seen: unknown[] = [];
      const s = open({
        dataPartSchemas: { progress: schema },
        onError: (e) => errors.push(e.message),
        onData: (p) => seen.push(p),
      });
      await s.chat.sendMessage({ text: "hi" });
      await until(() => s.idle() && textOf(s.last()).startsWith("body="));
      expect(seen).toEqual([]);
      expect(errors).toEqual([
        expect.stringContaining("data part 'data-progress' fails its schema: step must be 2"),
      ]);
      s.close();
    });

    it("clearError clears a failed turn's error without sending anything", async () => {
      const s = open({ onError: () => {} });
      await s.chat.sendMessage({ text: "explode" });
      await until(() => s.chat.getSnapshot().status === "error");
      expect(s.chat.getSnapshot().error?.message).toContain("Model overloaded");
      const sent = s.wire.length;
      s.chat.clearError();
      expect(s.chat.getSnapshot()).toMatchObject({ status: "ready", error: undefined });
      expect(s.wire.length).toBe(sent);
      s.close();
    });
  });
});
