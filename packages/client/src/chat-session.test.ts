/**
 * ChatSession against the mock server (which the fidelity tests hold to the real server's frames), through
 * the public API only: what a user of the kit sees at the end of each scenario.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import type { UIMessage } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadTranscript, Normalizer } from "../../../test-support/normalize.ts";
import { room, textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { ChatSession, type ChatSessionOptions } from "./chat-session.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());

const open: Array<{ client: AgentClient; chat: ChatSession }> = [];
afterEach(() => {
  for (const o of open.splice(0)) {
    o.chat.dispose();
    o.client.close();
  }
});

function connect(agent: "ChatAgent" | "ThinkAgent", name: string, opts: Partial<ChatSessionOptions> = {}) {
  const client = new AgentClient({
    agent,
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0, ...opts });
  open.push({ client, chat });
  return { client, chat };
}

const last = (chat: ChatSession) => chat.getSnapshot().messages.at(-1);
const idle = (chat: ChatSession) => {
  const s = chat.getSnapshot();
  return s.status === "ready" && !s.isServerStreaming && !s.isToolContinuation;
};
const tool = (chat: ChatSession, name: string) =>
  last(chat)?.parts.find((p) => p.type === `tool-${name}`) as
    | { toolCallId: string; state: string; approval?: { id: string }; output?: unknown; errorText?: string }
    | undefined;

/** Roles, part types, texts, tool states, inputs and outputs, ids normalised. */
function comparable(messages: readonly UIMessage[]) {
  const norm = new Normalizer();
  norm.learn(messages);
  const drop = new Set([
    "toolName",
    "providerExecuted",
    "preliminary",
    "providerMetadata",
    "callProviderMetadata",
  ]);
  return messages.map((m) => ({
    role: m.role,
    parts: m.parts
      .filter((p) => p.type !== "step-start")
      .map((p) =>
        norm.apply(
          Object.fromEntries(
            Object.entries(p).filter(([k]) => !drop.has(k) && !(p.type === "text" && k === "state")),
          ),
        ),
      ),
  }));
}
function realFinal(host: "ai-chat" | "think", scenario: string): UIMessage[] {
  const snaps = loadTranscript(host, scenario).filter(
    (r) => r.dir === "in" && r.raw?.includes("cf_agent_chat_messages"),
  );
  return (JSON.parse(snaps.at(-1)?.raw as string) as { messages: UIMessage[] }).messages;
}

describe("ChatSession against the mock server", () => {
  it("plain text: submitted, streaming, ready; the transcript is the server's", async () => {
    const { chat } = connect("ChatAgent", room("cs"));
    const seen = new Set<string>();
    chat.subscribe(() => seen.add(chat.getSnapshot().status));
    await chat.sendMessage({ text: "hello" });
    await until(() => idle(chat) && textOf(last(chat)) !== "");
    expect(textOf(last(chat))).toBe("Hello! How can I help you today?");
    expect([...seen]).toEqual(["submitted", "streaming", "ready"]);
    expect(chat.getSnapshot().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("an approval, approved: the continuation lands in the same message, as the server persists it", async () => {
    const { chat } = connect("ChatAgent", room("cs"));
    await chat.sendMessage({ text: "please pay ACME 250" });
    await until(() => tool(chat, "processPayment")?.state === "approval-requested" && idle(chat));
    chat.addToolApprovalResponse({ id: tool(chat, "processPayment")?.approval?.id ?? "", approved: true });
    expect(chat.getSnapshot().isToolContinuation).toBe(true);
    await until(() => idle(chat) && textOf(last(chat)).endsWith("Done."));
    expect(comparable(chat.getSnapshot().messages)).toEqual(comparable(realFinal("ai-chat", "pay")));
  });

  it("an approval, denied: output-denied and the agent says it did not run the tool", async () => {
    const { chat } = connect("ChatAgent", room("cs"));
    await chat.sendMessage({ text: "please pay ACME 99" });
    await until(() => tool(chat, "processPayment")?.state === "approval-requested" && idle(chat));
    chat.addToolApprovalResponse({ id: tool(chat, "processPayment")?.approval?.id ?? "", approved: false });
    await until(() => idle(chat) && textOf(last(chat)).includes("did not run"));
    expect(tool(chat, "processPayment")?.state).toBe("output-denied");
    expect(chat.getSnapshot().messages).toHaveLength(2);
  });

  it("Think: the approval continuation ends as the server's transcript, without the duplicate the official client keeps", async () => {
    const { chat } = connect("ThinkAgent", room("cs"));
    await chat.sendMessage({ text: "please pay ACME 250" });
    await until(() => tool(chat, "processPayment")?.state === "approval-requested" && idle(chat));
    chat.addToolApprovalResponse({ id: tool(chat, "processPayment")?.approval?.id ?? "", approved: true });
    await until(() => idle(chat) && textOf(last(chat)).endsWith("Done."));
    expect(comparable(chat.getSnapshot().messages)).toEqual(comparable(realFinal("think", "pay")));
  });

  it("a client tool through onToolCall continues the turn; no duplicate message", async () => {
    const { chat } = connect("ChatAgent", room("cs"), {
      onToolCall: ({ toolCall, addToolOutput }) => {
        if (toolCall.toolName === "getLocation")
          addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 38.72, lng: -9.14 } });
      },
    });
    await chat.sendMessage({ text: "locate me please" });
    await until(() => idle(chat) && textOf(last(chat)).endsWith("Done."));
    expect(comparable(chat.getSnapshot().messages)).toEqual(comparable(realFinal("ai-chat", "locate")));
  });

  it("a custom denial of a client tool (output-error with a reason) reaches the server", async () => {
    const name = room("cs");
    const { chat } = connect("ChatAgent", name, {
      onToolCall: ({ toolCall, addToolOutput }) =>
        addToolOutput({
          toolCallId: toolCall.toolCallId,
          state: "output-error",
          errorText: "User declined to share location",
        }),
    });
    await chat.sendMessage({ text: "locate me please" });
    await until(() => idle(chat) && tool(chat, "getLocation")?.state === "output-error");
    expect(tool(chat, "getLocation")?.errorText).toBe("User declined to share location");
    // The tool result frame is on its way: the server's copy catches up a moment after this one.
    const serverPart = () =>
      server.controller
        .instance("ChatAgent", name)
        ?.messages.at(-1)
        ?.parts.find((p) => p.type === "tool-getLocation") as
        | { state?: string; errorText?: string }
        | undefined;
    await until(() => serverPart()?.state !== "input-available").catch(() => {});
    const part = serverPart();
    expect(part).toMatchObject({ state: "output-error", errorText: "User declined to share location" });
    // A denial ends the turn: no continuation is asked for, so the model does not go on (docs/protocol.md#client-tools).
    await new Promise((r) => setTimeout(r, 150));
    expect(textOf(last(chat))).not.toContain("returned");
    expect(chat.getSnapshot().isToolContinuation).toBe(false);
  });

  it("a reconnect in the middle of a long stream loses and repeats nothing", async () => {
    const { chat, client } = connect("ChatAgent", room("cs"));
    await chat.sendMessage({ text: "slow stream please" });
    await until(() => textOf(last(chat)).includes("word5"));
    client.reconnect();
    await until(() => idle(chat) && textOf(last(chat)).endsWith("word39"));
    expect(textOf(last(chat))).toBe(Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "));
    expect(chat.getSnapshot().messages).toHaveLength(2);
  });

  it("two tabs: the second sees the first one's stream and messages, and its clear", async () => {
    const name = room("cs");
    const a = connect("ChatAgent", name);
    const b = connect("ChatAgent", name);
    await until(() => a.client.status === "open" && b.client.status === "open");
    await a.chat.sendMessage({ text: "hello from a" });
    await until(() => b.chat.getSnapshot().isServerStreaming);
    await until(() => idle(a.chat) && idle(b.chat) && textOf(last(b.chat)) !== "");
    expect(comparable(b.chat.getSnapshot().messages)).toEqual(comparable(a.chat.getSnapshot().messages));
    a.chat.clearHistory();
    await until(() => b.chat.getSnapshot().messages.length === 0);
  });

  it("stop() cancels the live turn: the server ends it aborted and the partial text stays", async () => {
    // The stop goes out from the store's own notification of word3 (not from a poll), and this turn runs at the
    // script's own pace (150 ms a word, 5 s to word39) rather than the suite's tenfold speed-up, so a busy
    // machine cannot let the turn finish before the cancel reaches the server.
    const paced = await createMockAgentServer({ agents: demoAgents, log: () => {} });
    try {
      const client = new AgentClient({
        agent: "ChatAgent",
        name: room("cs"),
        host: `127.0.0.1:${paced.port}`,
        WebSocket,
      });
      const chat = new ChatSession({ agent: client, throttleMs: 0 });
      open.push({ client, chat });
      const stopAtWord3 = chat.subscribe(() => {
        if (textOf(last(chat)).includes("word3")) {
          stopAtWord3();
          chat.stop();
        }
      });
      await chat.sendMessage({ text: "slow stream please" });
      await until(() => textOf(last(chat)).includes("word3") && idle(chat));
      const text = textOf(last(chat));
      await new Promise((r) => setTimeout(r, 300));
      expect(textOf(last(chat))).toBe(text);
      expect(text.startsWith("word0 word1 word2 word3")).toBe(true);
      expect(text).not.toContain("word39");
    } finally {
      await paced.close();
    }
  });

  it("a detached run: the turn ends, later the notify message and the follow-up turn arrive", async () => {
    const { chat } = connect("ChatAgent", room("cs"));
    await chat.sendMessage({ text: "start background research on websockets" });
    await until(() => chat.getSnapshot().messages.some((m) => m.id.startsWith("detached-finish:")));
    await until(() => idle(chat) && textOf(last(chat)).startsWith("Noted"));
    const roles = chat.getSnapshot().messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("loads the transcript over HTTP on connect, and a Think agent pushes it", async () => {
    const name = room("cs");
    const first = connect("ChatAgent", name);
    await first.chat.sendMessage({ text: "hello" });
    await until(() => idle(first.chat) && textOf(last(first.chat)) !== "");
    const second = connect("ChatAgent", name);
    await until(() => second.chat.getSnapshot().messages.length === 2);
    const thinkName = room("cs");
    const t1 = connect("ThinkAgent", thinkName);
    await t1.chat.sendMessage({ text: "hello" });
    await until(() => idle(t1.chat) && textOf(last(t1.chat)) !== "");
    const t2 = connect("ThinkAgent", thinkName, { getInitialMessages: null });
    await until(() => t2.chat.getSnapshot().messages.length === 2);
  });
});
