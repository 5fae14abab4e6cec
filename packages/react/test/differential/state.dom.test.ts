/**
 * What the hook returns across renders and turns, differential: action identities, callbacks and options
 * read fresh, and `status` with the streaming flags through continuations, resumes, pending client tools
 * and `stop()` (issue 13 §1, bullets 4, 5 and 7).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { resuming, ServerStream } from "./frames.ts";
import { ACTIONS, both, compare, type Driver, dump } from "./harness.ts";
import { approvalTurn, continuation, finishContinuation, toolApplied, toolCallTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";
const FLAGS = ["status", "isStreaming", "isServerStreaming", "isToolContinuation", "isRecovering"] as const;

describe("bullet 4: action functions keep their identity across renders", () => {
  it("through re-renders and a whole turn", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await d.renderAgain();
      await d.renderAgain();
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.pushAll("answer", [...s.textTurn("assistant_1", ["Hi"]), s.done({ messageIds: r.userIds })]);
      await d.renderAgain();
    });
    // The official hook keeps these stable (useCallback or the AI SDK Chat's bound methods)...
    for (const name of ["sendMessage", "regenerate", "stop", "addToolOutput", "resumeStream", "clearError"])
      expect(official.identityChanges[name] ?? 0, name).toBe(0);
    // ...and makes these new on every render; the issue asks for all of them stable here.
    for (const name of ["setMessages", "clearHistory", "addToolResult", "addToolApprovalResponse"])
      expect(official.identityChanges[name] ?? 0, name).toBeGreaterThan(0);
    const changed = Object.fromEntries(ACTIONS.map((a) => [a, ours.identityChanges[a] ?? 0]));
    expect(changed).toEqual(Object.fromEntries(ACTIONS.map((a) => [a, 0])));
  });
});

describe("bullet 5: callbacks and options are read on every render", () => {
  /** One version of every callback and option the scenario checks, recorded under `#n`. */
  const version = (d: Driver, n: number) => ({
    onTurnEnd: d.cb(`onTurnEnd#${n}`),
    onFinish: d.cb(`onFinish#${n}`),
    onData: d.cb(`onData#${n}`),
    onError: d.cb(`onError#${n}`),
    sendAutomaticallyWhen: d.cb(`sendAutomaticallyWhen#${n}`, () => false),
    prepareSendMessagesRequest: d.cb(`prepareSendMessagesRequest#${n}`, () => ({ body: { prepared: n } })),
    body: { version: n },
    tools: { getLocation: { description: `where (v${n})`, parameters: { type: "object" } } },
  });

  it(
    "onTurnEnd, onFinish, onData, sendAutomaticallyWhen, prepareSendMessagesRequest, body and tools",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount(version(d, 1));
        await d.rerender(version(d, 2));
        await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
        const r = d.lastRequest();
        const s = new ServerStream(r.id);
        await d.pushAll("answer", [
          s.chunk({ type: "start", messageId: "assistant_1" }),
          s.chunk({ type: "data-progress", data: { pct: 50 }, transient: true }),
          ...s.textTurn("assistant_1", ["Hi"]).slice(1),
          s.done({ messageIds: r.userIds }),
        ]);
      });
      const names = (d: Driver) =>
        d.steps.flatMap((s) => s.calls.map((c) => c.name)).filter((n) => n.includes("#"));
      expect(names(official).filter((n) => n.endsWith("#1"))).toEqual([]);
      expect(names(official)).toEqual(
        expect.arrayContaining([
          "onTurnEnd#2",
          "onFinish#2",
          "onData#2",
          "sendAutomaticallyWhen#2",
          "prepareSendMessagesRequest#2",
        ]),
      );
      const diffs = compare(official, ours, { fields: ["calls", "sent"], callNamesOnly: true });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );

  it("onToolCall", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ onToolCall: d.cb("onToolCall#1") });
      await d.rerender({ onToolCall: d.cb("onToolCall#2") });
      await toolCallTurn(d, {
        text: "locate me",
        messageId: "assistant_1",
        toolCallId: "call-loc-1",
        toolName: "getLocation",
        input: {},
      });
    });
    expect(official.callsOf("onToolCall").map((c) => c.name)).toEqual(["onToolCall#2"]);
    const diffs = compare(official, ours, { fields: ["calls"], calls: ["onToolCall"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("tools[name].execute (with experimental_automaticToolResolution)", T, async () => {
    const tools = (d: Driver, n: number) => ({
      getLocation: { description: "where", execute: d.cb(`execute#${n}`, async () => ({ lat: n })) },
    });
    const { official, ours } = await both(async (d) => {
      await d.mount({ tools: tools(d, 1), experimental_automaticToolResolution: true });
      await d.rerender({ tools: tools(d, 2), experimental_automaticToolResolution: true });
      await toolCallTurn(d, {
        text: "locate me",
        messageId: "assistant_1",
        toolCallId: "call-loc-1",
        toolName: "getLocation",
        input: {},
      });
      await d.step("settled");
    });
    expect(official.callsOf("execute").map((c) => c.name)).toEqual(["execute#2"]);
    expect(
      ours.callsOf("execute").map((c) => c.name),
      dump(ours),
    ).toEqual(["execute#2"]);
    expect(
      ours.sentOf("cf_agent_tool_result").map((f) => f.output),
      dump(ours),
    ).toEqual([{ lat: 2 }]);
  });
});

const PAY = {
  text: "please pay ACME 250",
  messageId: "assistant_1",
  toolCallId: "call-pay-1",
  toolName: "processPayment",
  input: { amount: 250, recipient: "ACME" },
  approvalId: "approval-1",
};
const payPart = (state: string, extra: Record<string, unknown> = {}) => ({
  type: "tool-processPayment",
  toolCallId: PAY.toolCallId,
  toolName: PAY.toolName,
  state,
  input: PAY.input,
  approval: { id: PAY.approvalId, approved: true },
  ...extra,
});
const payApplied = {
  id: "assistant_1",
  role: "assistant",
  parts: [{ type: "step-start" }, payPart("approval-responded")],
} as UIMessage;
const payFinal = (userId: string) =>
  [
    { id: userId, role: "user", parts: [{ type: "text", text: PAY.text }] },
    {
      id: "assistant_1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        payPart("output-available", { output: { ok: true } }),
        { type: "step-start" },
        { type: "text", text: "Paid.", state: "done" },
      ],
    },
  ] as UIMessage[];

describe("bullet 7: status and flags", () => {
  it("through an approval's tool continuation: submitted, then streaming, then ready", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      const r = await approvalTurn(d, PAY);
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: PAY.approvalId, approved: true }));
      await toolApplied(d, payApplied);
      await continuation(d, {
        words: ["Paid."],
        replayed: [{ type: "tool-output-available", toolCallId: PAY.toolCallId, output: { ok: true } }],
        final: payFinal(r.userIds[0] as string),
      });
    });
    const from = official.steps.findIndex((s) => s.label === "approve");
    const diffs = compare(official, ours, { fields: [...FLAGS, "sent"], steps: (_l, i) => i >= from });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("through a stream resumed on mount: submitted, then streaming, then ready", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.autoIdle = false;
      await d.mount();
      const probe = d.lastProbe();
      const s = new ServerStream("turn-live");
      await d.pushAll("offer", [resuming("turn-live", probe)]);
      const acked = d.acked("turn-live");
      await d.pushAll(
        "replay",
        acked
          ? [
              s.replay({ type: "start", messageId: "assistant_9" }),
              s.replay({ type: "start-step" }),
              s.replay({ type: "text-start", id: "t" }),
              s.replay({ type: "text-delta", id: "t", delta: "Half " }),
              s.replayComplete(),
            ]
          : [],
      );
      await d.pushAll("live", acked ? [s.chunk({ type: "text-delta", id: "t", delta: "done." })] : []);
      await d.pushAll("end", [
        ...(acked
          ? [
              s.chunk({ type: "text-end", id: "t" }),
              s.chunk({ type: "finish", messageMetadata: { finishReason: "stop" } }),
            ]
          : []),
        s.done(),
      ]);
    });
    const diffs = compare(official, ours, { fields: [...FLAGS, "messages", "sent"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("while onToolCall is still running: isServerStreaming and isStreaming are true", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({
        onToolCall: d.cb(
          "onToolCall",
          async ({
            toolCall,
            addToolOutput,
          }: {
            toolCall: { toolCallId: string };
            addToolOutput: (o: { toolCallId: string; output: unknown }) => void;
          }) => {
            await d.gate("tool");
            addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 1 } });
          },
        ),
      });
      await toolCallTurn(d, {
        text: "locate me",
        messageId: "assistant_1",
        toolCallId: "call-loc-1",
        toolName: "getLocation",
        input: {},
      });
      await d.step("tool running");
      await d.release("tool", "tool answers");
    });
    const diffs = compare(official, ours, {
      fields: [...FLAGS, "sent"],
      steps: (l) => ["push control[done]", "tool running", "tool answers"].includes(l),
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it(
    "a turn waiting for its first chunk: status submitted, isStreaming false; streaming from the first content chunk",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount();
        await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
        const r = d.lastRequest();
        const s = new ServerStream(r.id);
        await d.push(...s.textTurn("assistant_1", ["Hi"]), s.done({ messageIds: r.userIds }));
      });
      expect(official.steps.map((s) => `${s.label}: ${s.view?.status} ${s.view?.isStreaming}`)).toEqual([
        "mount: ready false",
        "sendMessage: submitted false",
        "push start: submitted false",
        "push start-step: submitted false",
        "push text-start: streaming true",
        "push text-delta: streaming true",
        "push text-end: streaming true",
        "push finish-step: streaming true",
        "push finish: streaming true",
        "push control[done]: ready false",
      ]);
      const diffs = compare(official, ours, { fields: [...FLAGS] });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );

  it("stop() during a tool continuation clears isToolContinuation at once", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await approvalTurn(d, PAY);
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: PAY.approvalId, approved: true }));
      await toolApplied(d, payApplied);
      const s = await continuation(d, { words: ["Pai"], upTo: "text" });
      await d.act("stop", (c) => c.stop());
      // The server confirms the cancel with the terminal frame.
      await finishContinuation(d, s);
    });
    const from = official.steps.findIndex((s) => s.label === "stop");
    expect(official.steps[from]?.view?.isToolContinuation).toBe(false);
    const diffs = compare(official, ours, { fields: [...FLAGS, "sent"], steps: (_l, i) => i >= from });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("stop() before the server announced the continuation", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      await approvalTurn(d, PAY);
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: PAY.approvalId, approved: true }));
      await d.act("stop", (c) => c.stop());
      await toolApplied(d, payApplied);
    });
    const from = official.steps.findIndex((s) => s.label === "approve");
    const diffs = compare(official, ours, { fields: [...FLAGS, "sent"], steps: (_l, i) => i >= from });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});
