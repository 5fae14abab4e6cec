/**
 * The chat store's compaction count while messages change one at a time: it re-counts only the messages the
 * transcript says changed (`publishedChanges`), so every kind of change must reach the count, and a streamed
 * delta must not make it read the rest of the transcript.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { FakeChatAgent as FakeAgent } from "../../../test-support/fake-chat-agent.ts";
import { countReads, until } from "../test/helpers.ts";
import { ChatSession } from "./chat-session.ts";

const msg = (i: number, metadata?: unknown): UIMessage => ({
  id: `m${i}`,
  role: i % 2 ? "assistant" : "user",
  parts: [{ type: "text", text: `message ${i}` }],
  ...(metadata ? { metadata } : {}),
});

function setup(messages: UIMessage[], throttleMs = 0) {
  const agent = new FakeAgent();
  const chat = new ChatSession({
    agent: agent as never,
    messages,
    getInitialMessages: null,
    resume: false,
    throttleMs,
  });
  return { agent, chat, count: () => chat.getSnapshot().compaction };
}

describe("compaction count, message by message", () => {
  it("follows marks streamed onto a message in the middle, a tool result elsewhere, a snapshot and a new message", async () => {
    const withCall: UIMessage = {
      ...msg(1, { compactedToolOutputs: ["old"] }),
      parts: [{ type: "tool-x", toolCallId: "call_1", state: "input-available", input: {} } as never],
    };
    const history = [msg(0), withCall, msg(2), msg(3), msg(4), msg(5)];
    const { agent, chat, count } = setup(history);
    expect(count()).toEqual({ summaries: 0, toolOutputs: 1, textParts: 0 });

    agent.chunk({ type: "start", messageId: "m3" });
    agent.chunk({ type: "message-metadata", messageMetadata: { compactedTextParts: [0] } });
    expect(count()).toEqual({ summaries: 0, toolOutputs: 1, textParts: 1 });
    agent.chunk({ type: "message-metadata", messageMetadata: { compactedToolOutputs: ["a", "b"] } });
    expect(count()).toEqual({ summaries: 0, toolOutputs: 3, textParts: 1 });

    // A tool result for the call in m1 rewrites m1 (its marks stay); then m3's marks go.
    agent.chunk({ type: "tool-output-available", toolCallId: "call_1", output: "ok" });
    expect(chat.getSnapshot().messages[1]?.parts[0]).toMatchObject({ state: "output-available" });
    expect(count()).toEqual({ summaries: 0, toolOutputs: 3, textParts: 1 });
    agent.chunk({
      type: "message-metadata",
      messageMetadata: { compactedToolOutputs: [], compactedTextParts: [] },
    });
    expect(count()).toEqual({ summaries: 0, toolOutputs: 1, textParts: 0 });

    // A server snapshot with the same ids that drops m1's marks, then a message added with marks of its own.
    agent.frame({
      type: "cf_agent_chat_messages",
      messages: [...history.slice(0, 1), msg(1), ...history.slice(2)],
    });
    expect(count()).toBeUndefined();
    agent.chunk({ type: "start", messageId: "m6", messageMetadata: { compactedTextParts: [0, 1] } });
    expect(chat.getSnapshot().messages).toHaveLength(7);
    expect(count()).toEqual({ summaries: 0, toolOutputs: 0, textParts: 2 });
    chat.dispose();
  });

  it("counts two messages whose marks changed in one published snapshot", async () => {
    const history = [msg(0), msg(1, { compactedToolOutputs: ["old"] }), msg(2), msg(3)];
    // Changes are published together once the throttle's timer fires.
    const { agent, chat, count } = setup(history, 5);
    agent.chunk({ type: "start", messageId: "m3" });
    await until(() => chat.getSnapshot().messages[3] !== history[3], "stream started");
    agent.chunk({ type: "message-metadata", messageMetadata: { compactedTextParts: [0] } });
    agent.frame({ type: "cf_agent_message_updated", message: msg(1) });
    await until(() => chat.getSnapshot().messages[1] !== history[1], "both published");
    expect(chat.getSnapshot().messages[3]?.metadata).toEqual({ compactedTextParts: [0] });
    expect(count()).toEqual({ summaries: 0, toolOutputs: 0, textParts: 1 });
    chat.dispose();
  });

  it("reads only the changed message of the last snapshot on a streamed delta", () => {
    const { agent, chat } = setup(Array.from({ length: 200 }, (_, i) => msg(i)));
    agent.chunk({ type: "start", messageId: "m101" });
    agent.chunk({ type: "text-start", id: "t" });
    const reads = countReads(chat.getSnapshot().messages);
    agent.chunk({ type: "text-delta", id: "t", delta: "one" });
    expect(chat.getSnapshot().messages[101]?.parts.at(-1)).toMatchObject({ text: "one" });
    // Comparing every message with the last snapshot's read all 200.
    expect(reads()).toBeLessThanOrEqual(1);
    chat.dispose();
  });
});
