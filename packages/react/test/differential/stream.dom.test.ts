/**
 * Stream edge cases, differential: an error frame without `done`, a streaming message the server's
 * transcript holds under another id, and exceptions thrown by the app's callbacks (issue 13 §1, bullets
 * 10, 11 and 12).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { chatMessages, ServerStream, userMessage } from "./frames.ts";
import { both, compare, type Driver, dump } from "./harness.ts";
import { toolCallTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";
const FLAGS = ["status", "error", "isStreaming", "isServerStreaming", "isToolContinuation"] as const;

describe("bullet 10: an error frame without done", () => {
  it("ends this tab's turn with the error (then the bare done changes nothing)", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.pushAll("first words", [
        s.chunk({ type: "start", messageId: "assistant_1" }),
        s.chunk({ type: "start-step" }),
        s.chunk({ type: "text-start", id: "t" }),
        s.chunk({ type: "text-delta", id: "t", delta: "Let me" }),
      ]);
      await d.push(s.error("Model overloaded"), s.done({ messageIds: r.userIds }));
    });
    const diffs = compare(official, ours, {
      fields: [...FLAGS, "messages", "calls", "errors"],
      calls: ["onError", "onTurnEnd"],
      looseStart: true,
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("ends another tab's stream this tab was showing", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      d.learn(["u-other"]);
      await d.push(chatMessages([userMessage("u-other", "from the other tab")]));
      const s = new ServerStream("other-turn");
      await d.pushAll("other tab's stream", [
        s.chunk({ type: "start", messageId: "assistant_o" }),
        s.chunk({ type: "start-step" }),
        s.chunk({ type: "text-start", id: "t" }),
        s.chunk({ type: "text-delta", id: "t", delta: "Partial" }),
      ]);
      await d.push(s.error("Model overloaded"), s.done({ messageIds: ["u-other"] }));
    });
    const diffs = compare(official, ours, {
      fields: [...FLAGS, "messages", "calls", "errors"],
      calls: ["onError", "onTurnEnd"],
      looseStart: true,
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe("bullet 11: the server's transcript holds a streaming message under another id", () => {
  it("a stream without start.messageId, transcript just before done: the message shows once", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      // A plain-text reply: the server synthesises text chunks and no `start`.
      await d.pushAll("text", [
        s.chunk({ type: "text-start", id: r.id }),
        s.chunk({ type: "text-delta", id: r.id, delta: "Plain answer" }),
        s.chunk({ type: "text-end", id: r.id }),
      ]);
      const persisted: UIMessage[] = [
        { id: r.userIds[0] as string, role: "user", parts: [{ type: "text", text: "hello" }] },
        {
          id: "assistant_srv",
          role: "assistant",
          parts: [{ type: "text", text: "Plain answer", state: "done" }],
        },
      ];
      await d.push(chatMessages(persisted), s.done({ messageIds: r.userIds }));
      await d.renderAgain("settled");
    });
    const diffs = compare(official, ours, {
      fields: ["messages"],
      steps: (l) => l.startsWith("push") || l === "settled",
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("a stream with start.messageId, renamed in a transcript that arrives mid-stream", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.pushAll("first words", [
        s.chunk({ type: "start", messageId: "assistant_1" }),
        s.chunk({ type: "start-step" }),
        s.chunk({ type: "text-start", id: "t" }),
        s.chunk({ type: "text-delta", id: "t", delta: "Hello " }),
      ]);
      const persisted: UIMessage[] = [
        { id: r.userIds[0] as string, role: "user", parts: [{ type: "text", text: "hello" }] },
        {
          id: "assistant_renamed",
          role: "assistant",
          parts: [{ type: "text", text: "Hello ", state: "streaming" }],
        },
      ];
      await d.push(chatMessages(persisted));
      await d.pushAll("rest", [
        s.chunk({ type: "text-delta", id: "t", delta: "world" }),
        s.chunk({ type: "text-end", id: "t" }),
        s.chunk({ type: "finish", messageMetadata: { finishReason: "stop" } }),
        s.done({ messageIds: r.userIds }),
      ]);
    });
    // A deliberate difference: the official hook keeps its own copy beside the server's, so the reply shows
    // twice; ours takes the server's copy and streams the rest into it, so it shows once.
    const assistants = (d: typeof ours) =>
      ((d.steps.at(-1)?.view?.messages ?? []) as UIMessage[]).filter((m) => m.role === "assistant");
    expect(assistants(official)).toHaveLength(2);
    const mine = assistants(ours);
    expect(mine.map((m) => m.id)).toEqual(["assistant_renamed"]);
    expect(mine[0]?.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual([
      "Hello world",
    ]);
  });
});

describe("bullet 12: an exception thrown by the app's callback", () => {
  // The official hook never reports such an exception and goes on (each case pins what it does instead).
  // The issue asks ours to report it through onError and carry on as if the callback had returned: a
  // difference to list in the README.
  const boom = (where: string) => () => {
    throw new Error(`app bug in ${where}`);
  };

  /** Reported through onError, nothing thrown at the app, the turn finished normally. */
  function expectCarriedOn(d: Driver, where: string, text?: string) {
    const reported = d.callsOf("onError").map((c) => JSON.stringify(c.args));
    expect(reported.join("\n"), dump(d)).toContain(`app bug in ${where}`);
    expect(d.errors, dump(d)).toEqual([]);
    expect(d.last?.status, dump(d)).toBe("ready");
    expect(d.last?.error, dump(d)).toBeUndefined();
    if (text !== undefined) {
      const assistants = ((d.last?.messages ?? []) as UIMessage[]).filter((m) => m.role === "assistant");
      expect(assistants, dump(d)).toHaveLength(1);
      const shown = assistants[0]?.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
      expect(shown, dump(d)).toBe(text);
    }
  }

  it("onData, in this tab's turn", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ onData: d.cb("onData", boom("onData")) });
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.push(
        s.chunk({ type: "start", messageId: "assistant_1" }),
        s.chunk({ type: "data-progress", data: { pct: 50 }, transient: true }),
        ...s.textTurn("assistant_1", ["still ", "streaming"]).slice(1),
        s.done({ messageIds: r.userIds }),
      );
    });
    // Official: the AI SDK fails the turn with the app's error (status "error", onError called), and the
    // rest of the stream shows up as a second assistant message.
    const failed = official.steps.find((x) => x.label === "push data-progress")?.view;
    expect(failed?.status).toBe("error");
    expect(official.callsOf("onError")).toEqual([{ name: "onError", args: { error: "app bug in onData" } }]);
    expect(
      ((official.last?.messages ?? []) as UIMessage[]).filter((m) => m.role === "assistant"),
    ).toHaveLength(2);
    expectCarriedOn(ours, "onData", "still streaming");
  });

  it("onData, in another tab's stream", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ onData: d.cb("onData", boom("onData")) });
      const s = new ServerStream("other-turn");
      await d.push(
        s.chunk({ type: "start", messageId: "assistant_o" }),
        s.chunk({ type: "data-progress", data: { pct: 50 }, transient: true }),
        ...s.textTurn("assistant_o", ["still ", "streaming"]).slice(1),
        s.done(),
      );
    });
    // Official: caught and logged as a chunk it could not parse; the stream goes on; onError is not called.
    expect(official.callsOf("onError")).toEqual([]);
    expect(official.steps.flatMap((x) => x.warnings).join("\n")).toContain("app bug in onData");
    const diffs = compare(official, ours, { fields: ["messages", "status", "isServerStreaming", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expectCarriedOn(ours, "onData", "still streaming");
  });

  it("onFinish", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ onFinish: d.cb("onFinish", boom("onFinish")) });
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.pushAll("answer", s.textTurn("assistant_1", ["Hi"]));
      await d.push(s.done({ messageIds: r.userIds }));
      await d.act("sendMessage", (c) => c.sendMessage({ text: "again" }));
    });
    // Official: the promise sendMessage returned rejects with the app's error; onError is not called.
    expect(official.errors).toEqual(["sendMessage rejected: app bug in onFinish"]);
    expect(official.callsOf("onError")).toEqual([]);
    expect(ours.sentOf("cf_agent_use_chat_request"), dump(ours)).toHaveLength(2);
    const reported = ours.callsOf("onError").map((c) => JSON.stringify(c.args));
    expect(reported.join("\n"), dump(ours)).toContain("app bug in onFinish");
    expect(ours.errors, dump(ours)).toEqual([]);
  });

  it("onToolCall", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ onToolCall: d.cb("onToolCall", boom("onToolCall")) });
      await toolCallTurn(d, {
        text: "locate me",
        messageId: "assistant_1",
        toolCallId: "call-loc-1",
        toolName: "getLocation",
        input: {},
      });
      await d.step("settled");
    });
    // Official: rethrown from an effect, so the component tree fails (an error boundary catches it).
    expect(official.errors).toEqual(["render/effect error (error boundary): app bug in onToolCall"]);
    expect(official.callsOf("onError")).toEqual([]);
    expectCarriedOn(ours, "onToolCall");
  });
});
