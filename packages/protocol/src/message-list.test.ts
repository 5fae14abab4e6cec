import type { UIMessage, UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./chunk-applier.ts";
import { MessageList } from "./message-list.ts";

const ch = (c: Record<string, unknown>) => c as unknown as UIMessageChunk;
const text = (m: UIMessage | undefined) =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("|");
const user = (id: string, t: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text: t }] });
const tool = (list: MessageList, id = "call_1") =>
  list.messages.flatMap((m) => m.parts).find((p) => (p as { toolCallId?: string }).toolCallId === id) as
    | Record<string, unknown>
    | undefined;

function streamHello(list: MessageList, id = "req1", flags = {}) {
  list.applyChunk(id, ch({ type: "start", messageId: "a1" }), flags);
  list.applyChunk(id, ch({ type: "start-step" }), flags);
  list.applyChunk(id, ch({ type: "text-start", id: "t" }), flags);
  list.applyChunk(id, ch({ type: "text-delta", id: "t", delta: "Hello " }), flags);
  list.applyChunk(id, ch({ type: "text-delta", id: "t", delta: "world" }), flags);
  list.applyChunk(id, ch({ type: "text-end", id: "t" }), flags);
}

describe("MessageList: new streams", () => {
  it("builds the assistant message under the server-stamped id", () => {
    const list = new MessageList([user("u1", "hi")]);
    streamHello(list);
    const out = list.applyChunk("req1", ch({ type: "finish", messageMetadata: { finishReason: "stop" } }));
    expect(list.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(list.messages[1]!.parts).toEqual([
      { type: "step-start" },
      { type: "text", text: "Hello world", state: "done" },
    ]);
    expect(out.finishReason).toBe("stop");
    expect(list.messages[1]!.metadata).toEqual({ finishReason: "stop" });
  });

  it("reads Think's finish shape (finishReason at the top level)", () => {
    const list = new MessageList();
    streamHello(list);
    expect(list.applyChunk("req1", ch({ type: "finish", finishReason: "tool-calls" })).finishReason).toBe(
      "tool-calls",
    );
  });

  it("rebuilds instead of doubling when a replay starts over, however often", () => {
    const list = new MessageList();
    streamHello(list);
    streamHello(list, "req1", { replay: true });
    streamHello(list, "req1", { replay: true });
    expect(list.messages).toHaveLength(1);
    expect(text(list.messages[0])).toBe("Hello world");
  });

  it("rebuilds a message that was hydrated from the transcript when its stream starts", () => {
    const hydrated: UIMessage = {
      id: "a1",
      role: "assistant",
      parts: [{ type: "text", text: "Hello ", state: "streaming" }],
    };
    const list = new MessageList([user("u1", "hi"), hydrated]);
    streamHello(list, "req1", { replay: true });
    expect(list.messages).toHaveLength(2);
    expect(text(list.messages[1])).toBe("Hello world");
  });

  it("names a message after its stream when the stream never sent a start", () => {
    const list = new MessageList();
    list.applyChunk("s9", ch({ type: "text-delta", id: "t", delta: "joined late" }));
    expect(list.messages[0]).toMatchObject({ id: "stream:s9", role: "assistant" });
    expect(text(list.messages[0])).toBe("joined late");
  });
});

describe("MessageList: continuations", () => {
  it("append to the last assistant message and ignore any start.messageId", () => {
    const list = new MessageList([
      user("u1", "pay"),
      { id: "a1", role: "assistant", parts: [{ type: "step-start" }] },
    ]);
    const f = { continuation: true };
    list.applyChunk("c1", ch({ type: "start", messageId: "other" }), f);
    list.applyChunk("c1", ch({ type: "text-start", id: "x" }), f);
    list.applyChunk("c1", ch({ type: "text-delta", id: "x", delta: "Paid." }), f);
    expect(list.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(list.messages[1]!.parts.map((p) => p.type)).toEqual(["step-start", "text"]);
  });

  it("start over from the message as it was when a continuation is replayed (twice)", () => {
    const base: UIMessage = {
      id: "a1",
      role: "assistant",
      parts: [{ type: "text", text: "Before. ", state: "done" }],
    };
    const list = new MessageList([base]);
    const live = { continuation: true };
    const replay = { continuation: true, replay: true };
    list.applyChunk("c1", ch({ type: "start" }), live);
    list.applyChunk("c1", ch({ type: "text-start", id: "x" }), live);
    list.applyChunk("c1", ch({ type: "text-delta", id: "x", delta: "After" }), live);
    for (let i = 0; i < 2; i++) {
      list.applyChunk("c1", ch({ type: "start" }), replay);
      list.applyChunk("c1", ch({ type: "text-start", id: "x" }), replay);
      list.applyChunk("c1", ch({ type: "text-delta", id: "x", delta: "After" }), replay);
    }
    expect(text(list.messages[0])).toBe("Before. |After");
  });

  it("drop the replay of a continuation that ended here unseen, its text already in the transcript", () => {
    // The consumer suite's approval turn under load: the server held the continuation's chunks back until the
    // resume ACK, sent the transcript (text included) and the live `done`, then replayed the whole stream.
    const list = new MessageList([
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "text", text: "Paying.", state: "done" },
          { type: "text", text: "Done.", state: "done" },
        ],
      },
    ]);
    list.endStream("c1", { continuation: true });
    const replay = { continuation: true, replay: true };
    list.applyChunk("c1", ch({ type: "start" }), replay);
    list.applyChunk("c1", ch({ type: "text-start", id: "x" }), replay);
    list.applyChunk("c1", ch({ type: "text-delta", id: "x", delta: "Done." }), replay);
    list.applyChunk("c1", ch({ type: "text-end", id: "x" }), replay);
    list.endStream("c1");
    expect(text(list.messages[0])).toBe("Paying.|Done.");
    // A continuation never seen ending is still replayed in full.
    list.applyChunk("c2", ch({ type: "start" }), replay);
    list.applyChunk("c2", ch({ type: "text-start", id: "y" }), replay);
    list.applyChunk("c2", ch({ type: "text-delta", id: "y", delta: "More." }), replay);
    expect(text(list.messages[0])).toBe("Paying.|Done.|More.");
  });

  it("continue an interrupted text part when the server omits text-start", () => {
    const list = new MessageList([
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Half a sen", state: "streaming" }] },
    ]);
    list.applyChunk("r1", ch({ type: "text-delta", id: "new-id", delta: "tence." }), { continuation: true });
    expect(text(list.messages[0])).toBe("Half a sentence.");
  });
});

describe("chunk rules", () => {
  it("keeps interleaved text blocks apart by their id", () => {
    const list = new MessageList();
    list.applyChunk("s", ch({ type: "start", messageId: "a" }));
    list.applyChunk("s", ch({ type: "text-start", id: "one" }));
    list.applyChunk("s", ch({ type: "text-start", id: "two" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "one", delta: "1" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "two", delta: "2" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "one", delta: "1" }));
    expect(text(list.messages[0])).toBe("11|2");
  });

  it("merges reasoning provider metadata from delta and end (signatures survive)", () => {
    const list = new MessageList();
    list.applyChunk("s", ch({ type: "reasoning-start", id: "r" }));
    list.applyChunk(
      "s",
      ch({ type: "reasoning-delta", id: "r", delta: "think", providerMetadata: { a: { x: 1 } } }),
    );
    list.applyChunk("s", ch({ type: "reasoning-end", id: "r", providerMetadata: { b: { sig: "s" } } }));
    expect(list.messages[0]!.parts[0]).toEqual({
      type: "reasoning",
      text: "think",
      state: "done",
      providerMetadata: { a: { x: 1 }, b: { sig: "s" } },
    });
  });

  it("streams tool input, then settles it; a replayed input-start does not reset it", () => {
    const list = new MessageList();
    list.applyChunk("s", ch({ type: "tool-input-start", toolCallId: "call_1", toolName: "getWeather" }));
    list.applyChunk(
      "s",
      ch({ type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: '{"city":"Lis' }),
    );
    expect(tool(list)).toMatchObject({
      type: "tool-getWeather",
      state: "input-streaming",
      input: { city: "Lis" },
    });
    list.applyChunk("s", ch({ type: "tool-input-delta", toolCallId: "call_1", inputTextDelta: 'bon"}' }));
    list.applyChunk(
      "s",
      ch({
        type: "tool-input-available",
        toolCallId: "call_1",
        toolName: "getWeather",
        input: { city: "Lisbon" },
      }),
    );
    list.applyChunk("s", ch({ type: "tool-output-available", toolCallId: "call_1", output: { t: 21 } }));
    list.applyChunk("s", ch({ type: "tool-input-start", toolCallId: "call_1", toolName: "getWeather" }));
    expect(tool(list)).toMatchObject({
      state: "output-available",
      input: { city: "Lisbon" },
      output: { t: 21 },
    });
    expect(list.messages[0]!.parts).toHaveLength(1);
  });

  it("builds dynamic-tool parts when the chunk says so", () => {
    const list = new MessageList();
    list.applyChunk(
      "s",
      ch({ type: "tool-input-available", toolCallId: "d", toolName: "mcp_x", dynamic: true, input: {} }),
    );
    expect(tool(list, "d")).toMatchObject({
      type: "dynamic-tool",
      toolName: "mcp_x",
      state: "input-available",
    });
  });

  it("keeps the approval id and Think's descriptor, and a settled decision is never undone (#1818)", () => {
    const list = new MessageList();
    const descriptor = { summary: "Deploy", risk: "high", permissions: ["prod"] };
    list.applyChunk(
      "s",
      ch({ type: "tool-input-available", toolCallId: "call_1", toolName: "deploy", input: {} }),
    );
    list.applyChunk(
      "s",
      ch({
        type: "tool-approval-request",
        approvalId: "ap1",
        toolCallId: "call_1",
        approvalDescriptor: descriptor,
      }),
    );
    expect(tool(list)).toMatchObject({ state: "approval-requested", approval: { id: "ap1", descriptor } });
    list.applyChunk("s", ch({ type: "tool-approval-response", approvalId: "ap1", approved: true }));
    list.applyChunk("s", ch({ type: "tool-output-denied", toolCallId: "call_1" }));
    list.applyChunk("s", ch({ type: "tool-approval-request", approvalId: "ap2", toolCallId: "call_1" }));
    expect(tool(list)).toMatchObject({
      state: "approval-responded",
      approval: { id: "ap1", approved: true },
    });
  });

  it("lets the first output win, except that a final output replaces a preliminary one", () => {
    const list = new MessageList();
    list.applyChunk(
      "s",
      ch({ type: "tool-input-available", toolCallId: "call_1", toolName: "t", input: {} }),
    );
    list.applyChunk(
      "s",
      ch({ type: "tool-output-available", toolCallId: "call_1", output: 1, preliminary: true }),
    );
    list.applyChunk("s", ch({ type: "tool-output-available", toolCallId: "call_1", output: 2 }));
    const r = list.applyChunk(
      "s",
      ch({ type: "tool-output-error", toolCallId: "call_1", errorText: "late" }),
    );
    expect(r.effect).toMatchObject({ kind: "ignored" });
    expect(tool(list)).toMatchObject({ state: "output-available", output: 2 });
    expect(tool(list)!.preliminary).toBeUndefined();
  });

  it("applies an output for a tool call made in an earlier message to that message", () => {
    const list = new MessageList([
      {
        id: "a0",
        role: "assistant",
        parts: [
          {
            type: "tool-x",
            toolCallId: "old",
            toolName: "x",
            state: "approval-responded",
            input: {},
          } as never,
        ],
      },
      user("u", "next"),
    ]);
    const r = list.applyChunk("s", ch({ type: "tool-output-available", toolCallId: "old", output: "ok" }), {
      continuation: true,
    });
    expect(r.messageId).toBe("a0");
    expect(tool(list, "old")).toMatchObject({ state: "output-available", output: "ok" });
  });

  it("reconciles data parts by type and id, appends those without id, never stores transient ones", () => {
    const list = new MessageList();
    list.applyChunk("s", ch({ type: "data-weather", id: "w", data: { t: 1 } }));
    list.applyChunk("s", ch({ type: "data-weather", id: "w", data: { t: 2 } }));
    list.applyChunk("s", ch({ type: "data-log", data: "a" }));
    list.applyChunk("s", ch({ type: "data-log", data: "b" }));
    const r = list.applyChunk("s", ch({ type: "data-status", data: "busy", transient: true }));
    expect(r.effect).toEqual({ kind: "data", part: { type: "data-status", data: "busy" }, transient: true });
    expect(list.messages[0]!.parts).toEqual([
      { type: "data-weather", id: "w", data: { t: 2 } },
      { type: "data-log", data: "a" },
      { type: "data-log", data: "b" },
    ]);
  });

  it("reports an in-band error chunk and ignores chunk types it does not know", () => {
    const list = new MessageList();
    expect(list.applyChunk("s", ch({ type: "error", errorText: "rate limited" })).errorText).toBe(
      "rate limited",
    );
    expect(list.applyChunk("s", ch({ type: "custom", kind: "x.y" })).effect).toMatchObject({
      kind: "ignored",
    });
    expect(list.applyChunk("s", ch({ type: "text-end", id: "nothing-open" })).effect).toMatchObject({
      kind: "ignored",
    });
  });

  it("parses partial JSON input as it streams", () => {
    expect(parsePartialJson('{"a":1,"b":"te')).toEqual({ a: 1, b: "te" });
    expect(parsePartialJson('{"a":[1,2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a":1,"b"')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":')).toEqual({});
    expect(parsePartialJson("")).toBeUndefined();
  });
});

describe("MessageList: server updates and identity", () => {
  it("applies message_updated by id, else by tool call keeping the local id, and never appends", () => {
    const local: UIMessage = {
      id: "local-a",
      role: "assistant",
      parts: [
        {
          type: "tool-pay",
          toolCallId: "c1",
          toolName: "pay",
          state: "approval-requested",
          input: {},
        } as never,
      ],
    };
    const list = new MessageList([user("u", "pay"), local]);
    const server: UIMessage = {
      id: "server-a",
      role: "assistant",
      parts: [
        {
          type: "tool-pay",
          toolCallId: "c1",
          toolName: "pay",
          state: "approval-responded",
          input: {},
        } as never,
      ],
    };
    expect(list.applyMessageUpdated(server)).toBe(true);
    expect(list.messages[1]!.id).toBe("local-a");
    expect(tool(list, "c1")!.state).toBe("approval-responded");
    expect(list.applyMessageUpdated({ id: "ghost", role: "assistant", parts: [] })).toBe(false);
    expect(list.messages).toHaveLength(2);
  });

  it("keeps the identity of messages that did not change and never mutates a published snapshot", () => {
    const u = user("u1", "hi");
    const list = new MessageList([u]);
    streamHello(list);
    const first = list.messages;
    expect(first[0]).toBe(u);
    list.applyChunk("req1", ch({ type: "text-start", id: "t2" }));
    list.applyChunk("req1", ch({ type: "text-delta", id: "t2", delta: "more" }));
    const second = list.messages;
    expect(second).not.toBe(first);
    expect(second[0]).toBe(u);
    expect(second[1]).not.toBe(first[1]);
    // The first snapshot still shows what it showed.
    expect(text(first[1])).toBe("Hello world");
    expect(first[1]!.parts).toHaveLength(2);
    expect(text(second[1])).toBe("Hello world|more");
    expect(list.messages).toBe(second);
  });

  it("truncates for regenerate and replaces everything for a snapshot", () => {
    const list = new MessageList([user("u1", "a"), user("u2", "b"), user("u3", "c")]);
    list.truncate(1);
    expect(list.messages.map((m) => m.id)).toEqual(["u1"]);
    const snap = [user("x", "y")];
    list.replaceAll(snap);
    expect(list.messages).toBe(snap);
  });
});
