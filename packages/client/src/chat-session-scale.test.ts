/**
 * Long chat sessions (issue 26 §2): streams that never end are capped, and a frame's snapshot reads only what
 * changed, however long the transcript. Counted, not timed.
 */
import { MAX_OTHER_LIVE_STREAMS } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { FakeChatAgent as FakeAgent } from "../../../test-support/fake-chat-agent.ts";
import { ChatSession } from "./chat-session.ts";

const response = (id: string, body: unknown, done = false) => ({
  type: "cf_agent_use_chat_response",
  id,
  body: body ? JSON.stringify(body) : "",
  done,
});
const textOf = (m: UIMessage | undefined) =>
  (m?.parts ?? []).map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join("");

describe("streams that never end", () => {
  it("past the cap the stream heard of least recently is reported once through onError, and its later chunks change nothing", () => {
    const agent = new FakeAgent();
    const errors: Error[] = [];
    const chat = new ChatSession({
      agent: agent as never,
      getInitialMessages: null,
      resume: false,
      throttleMs: 0,
      onError: (e) => errors.push(e),
    });
    const open = (i: number) => {
      agent.frame(response(`s${i}`, { type: "start", messageId: `m${i}` }));
      agent.frame(response(`s${i}`, { type: "text-start", id: "t" }));
      agent.frame(response(`s${i}`, { type: "text-delta", id: "t", delta: `stream ${i}` }));
    };
    for (let i = 0; i < MAX_OTHER_LIVE_STREAMS; i++) open(i);
    expect(errors).toEqual([]);
    open(MAX_OTHER_LIVE_STREAMS);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^chat stream s0 dropped: more than 32 /),
    ]);
    // Its message stays as it was; its later chunks and its done are ignored, and not reported again.
    agent.frame(response("s0", { type: "text-delta", id: "t", delta: " more" }));
    agent.frame(response("s0", null, true));
    const snap = chat.getSnapshot();
    expect(snap.messages).toHaveLength(MAX_OTHER_LIVE_STREAMS + 1);
    expect(textOf(snap.messages[0])).toBe("stream 0");
    expect(errors).toHaveLength(1);
    // The streams still followed go on.
    agent.frame(response("s1", { type: "text-delta", id: "t", delta: " more" }));
    expect(textOf(chat.getSnapshot().messages[1])).toBe("stream 1 more");
    expect(chat.getSnapshot()).toMatchObject({ isServerStreaming: true, status: "ready" });

    // A thousand more: what the store keeps per stream stays at the cap.
    for (let i = 100; i < 1_100; i++) open(i);
    const core = (
      chat as unknown as { core: { list: { activeStreams(): string[] }; streamMessage: Map<string, string> } }
    ).core;
    expect(core.list.activeStreams().length).toBe(MAX_OTHER_LIVE_STREAMS);
    expect(core.streamMessage.size).toBe(MAX_OTHER_LIVE_STREAMS);
    expect(chat.getSnapshot().messages).toHaveLength(MAX_OTHER_LIVE_STREAMS + 1 + 1_000);
    expect(errors).toHaveLength(1 + 1_000);
    chat.dispose();
  });
});

/** `n` assistant messages (no user message among them) whose `id` and `role` reads are counted. */
function countedHistory(n: number) {
  let reads = 0;
  const messages = Array.from({ length: n }, (_, i) => {
    const m = { parts: [{ type: "text", text: `answer ${i}` }] } as unknown as UIMessage;
    const counted = (value: string) => ({
      enumerable: true,
      get: () => {
        reads++;
        return value;
      },
    });
    Object.defineProperty(m, "id", counted(`h${i}`));
    Object.defineProperty(m, "role", counted("assistant"));
    return m;
  });
  return {
    messages,
    reads: () => reads,
    reset: () => {
      reads = 0;
    },
  };
}

describe("a long transcript", () => {
  it("another tab's turns read only the messages they change, not the transcript, at every frame", () => {
    const agent = new FakeAgent();
    const history = countedHistory(3_000);
    const finished: Array<string | undefined> = [];
    const chat = new ChatSession({
      agent: agent as never,
      messages: history.messages,
      getInitialMessages: null,
      resume: false,
      throttleMs: 0,
      // Another tab's turns end with onTurnEnd (onFinish is only for this tab's own responses, as upstream).
      onTurnEnd: ({ requestId }) => finished.push(requestId),
    });
    const published: boolean[] = [];
    chat.subscribe(() => published.push(chat.getSnapshot().isServerStreaming));
    history.reset();
    for (let t = 0; t < 5; t++) {
      const id = `t${t}`;
      agent.frame(response(id, { type: "start", messageId: `a${t}` }));
      agent.frame(response(id, { type: "start-step" }));
      agent.frame(response(id, { type: "text-start", id: "x" }));
      agent.frame(response(id, { type: "text-delta", id: "x", delta: `turn ${t}` }));
      agent.frame(response(id, { type: "text-end", id: "x" }));
      agent.frame(response(id, { type: "finish" }));
      agent.frame(response(id, null, true));
    }
    // Every frame published a snapshot that knew another tab was streaming (its prompt looked up each time).
    expect(published.filter(Boolean).length).toBeGreaterThanOrEqual(5 * 6);
    expect(finished).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    expect(chat.getSnapshot().messages.slice(-2).map(textOf)).toEqual(["turn 3", "turn 4"]);
    // Reading back to the last user message, or finding a turn's message by id, read all 3,000 per frame.
    expect(history.reads()).toBeLessThan(100);
    chat.dispose();
  });
});
