/**
 * A reply the server stores under another id than its stream's `start.messageId`, brought by a transcript
 * snapshot in the middle of the stream: one message, the server's, which the rest of the stream writes to.
 * Issue 30 §1: also when the reply is the transcript's first message (an agent that opens the conversation).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { FakeChatAgent } from "../../../test-support/fake-chat-agent.ts";
import { ChatSession } from "./chat-session.ts";

function setup(messages: UIMessage[] = []) {
  const agent = new FakeChatAgent();
  const chat = new ChatSession({
    agent: agent as never,
    messages,
    getInitialMessages: null,
    resume: false,
    throttleMs: 0,
  });
  const snapshot = (ms: UIMessage[]) => agent.frame({ type: "cf_agent_chat_messages", messages: ms });
  const texts = () =>
    chat.getSnapshot().messages.map((m) => [
      m.id,
      m.parts
        .filter((p) => p.type === "text")
        .map((p) => (p as { text: string }).text)
        .join(""),
    ]);
  return { agent, chat, snapshot, texts };
}

const reply = (id: string, text: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text, state: "streaming" }],
});

describe("a renamed reply that is the transcript's first message", () => {
  it("an agent that opens the conversation: the rest of the stream goes into the server's copy", () => {
    const { agent, snapshot, texts } = setup();
    agent.chunk({ type: "start", messageId: "assistant_1" });
    agent.chunk({ type: "text-start", id: "t" });
    agent.chunk({ type: "text-delta", id: "t", delta: "Welcome " });
    snapshot([reply("assistant_srv", "Welcome ")]);
    agent.chunk({ type: "text-delta", id: "t", delta: "back." });
    agent.chunk(null, true);
    expect(texts()).toEqual([["assistant_srv", "Welcome back."]]);
  });

  it("a snapshot that starts with older history this tab dropped is not taken for the reply", () => {
    // The app replaced the transcript here (without telling the server), then the agent spoke again.
    const { agent, chat, snapshot, texts } = setup();
    chat.setMessages([]);
    agent.chunk({ type: "start", messageId: "assistant_2" });
    agent.chunk({ type: "text-start", id: "t" });
    agent.chunk({ type: "text-delta", id: "t", delta: "Hello again" });
    const older: UIMessage[] = [
      reply("assistant_old", "Welcome, this is where we left off"),
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
    ];
    snapshot(older);
    expect(texts()).toEqual([
      ["assistant_old", "Welcome, this is where we left off"],
      ["u1", "hi"],
      ["assistant_2", "Hello again"],
    ]);
  });

  it("a reply holding a tool call is found by that call wherever the snapshot has it", () => {
    const { agent, snapshot, chat } = setup();
    agent.chunk({ type: "start", messageId: "assistant_1" });
    agent.chunk({ type: "tool-input-available", toolCallId: "call-1", toolName: "pay", input: {} });
    agent.chunk({ type: "tool-approval-request", approvalId: "ap-1", toolCallId: "call-1" });
    const copy: UIMessage = {
      id: "assistant_srv",
      role: "assistant",
      parts: [
        {
          type: "tool-pay",
          toolCallId: "call-1",
          state: "approval-requested",
          input: {},
          approval: { id: "ap-1" },
        } as never,
      ],
    };
    snapshot([copy]);
    agent.chunk(null, true);
    const ms = chat.getSnapshot().messages;
    expect(ms.map((m) => m.id)).toEqual(["assistant_srv"]);
    expect(ms[0]?.parts.filter((p) => p.type === "tool-pay")).toHaveLength(1);
  });
});
