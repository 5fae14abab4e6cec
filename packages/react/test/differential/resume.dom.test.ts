/**
 * Streaming, resume and state, differential (issue 30 §1): `resumeStream()` while another tab's stream is on
 * screen, a renamed reply that is the transcript's first message, `resume: false` and a dropped socket, app
 * actions shown in the same React batch, an approval stored without an id, and a pending continuation that
 * ends unseen.
 */
import { act } from "@testing-library/react";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { chatMessages, resuming, ServerStream, toolCallChunks, userMessage } from "./frames.ts";
import { both, type Chat, compare, type Driver, dump, OMIT } from "./harness.ts";
import { approvalTurn, textTurn, toolCallTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";
const FLAGS = ["status", "isStreaming", "isServerStreaming", "isToolContinuation"] as const;
const assistants = (d: Driver) =>
  ((d.last?.messages ?? []) as UIMessage[]).filter((m) => m.role === "assistant");

/** Another tab's turn, seen here from its first chunk (this socket never ACKed it). */
async function otherTabStream(d: Driver) {
  d.learn(["u-other"]);
  await d.push(chatMessages([userMessage("u-other", "from the other tab")]));
  const s = new ServerStream("other-turn");
  await d.pushAll("other tab's stream", [
    s.chunk({ type: "start", messageId: "assistant_o" }),
    s.chunk({ type: "start-step" }),
    s.chunk({ type: "text-start", id: "t" }),
    s.chunk({ type: "text-delta", id: "t", delta: "Partial " }),
  ]);
  return s;
}

describe("resumeStream() while another tab's stream is on screen", () => {
  it(
    "status submitted, then streaming; isServerStreaming stays on until done; one promise per resume",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount();
        const s = await otherTabStream(d);
        d.autoIdle = false;
        const same = d.cb("same promise");
        await d.act("resumeStream twice", (c) => {
          const a = c.resumeStream();
          same(a === c.resumeStream());
          return a;
        });
        // The real server answers a probe while a stream is live with that stream (rule A'), then replays it
        // to the socket that ACKed, and goes on live.
        await d.push(resuming("other-turn", d.lastProbe()));
        const replay = new ServerStream("other-turn");
        await d.pushAll("replay", [
          replay.replay({ type: "start", messageId: "assistant_o" }),
          replay.replay({ type: "start-step" }),
          replay.replay({ type: "text-start", id: "t" }),
          replay.replay({ type: "text-delta", id: "t", delta: "Partial " }),
          replay.replayComplete(),
        ]);
        await d.act("resumeStream again while it streams", (c) => {
          const a = c.resumeStream();
          same(a === c.resumeStream());
          return a;
        });
        await d.push(s.chunk({ type: "text-delta", id: "t", delta: "and the rest" }));
        await d.push(s.chunk({ type: "text-end", id: "t" }), s.done());
      });
      const diffs = compare(official, ours, {
        fields: [...FLAGS, "messages", "sent", "calls"],
        calls: ["same promise"],
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      const at = (label: string) => ours.steps.find((x) => x.label === label)?.view;
      expect(at("push stream_resuming")).toMatchObject({ status: "submitted", isServerStreaming: true });
      expect(at("push text-delta")).toMatchObject({ status: "streaming", isServerStreaming: true });
      expect(ours.callsOf("same promise").map((c) => c.args)).toEqual([true, true]);
    },
  );
});

describe("resumeStream() with resume: false", () => {
  it("the app's own call still resumes the stream on screen, as the official hook's", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({ resume: false });
      const s = await otherTabStream(d);
      d.autoIdle = false;
      await d.act("resumeStream", (c) => c.resumeStream());
      await d.push(resuming("other-turn", d.lastProbe()));
      const acked = d.acked("other-turn");
      const replay = new ServerStream("other-turn");
      await d.pushAll(
        "replay",
        acked
          ? [
              replay.replay({ type: "start", messageId: "assistant_o" }),
              replay.replay({ type: "start-step" }),
              replay.replay({ type: "text-start", id: "t" }),
              replay.replay({ type: "text-delta", id: "t", delta: "Partial " }),
              replay.replayComplete(),
            ]
          : [],
      );
      await d.push(s.chunk({ type: "text-delta", id: "t", delta: "and the rest" }));
      await d.push(s.chunk({ type: "text-end", id: "t" }), s.done());
    });
    const diffs = compare(official, ours, { fields: [...FLAGS, "messages", "sent"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(ours.sentOf("cf_agent_stream_resume_ack")).toEqual([
      { type: "cf_agent_stream_resume_ack", id: "other-turn" },
    ]);
  });
});

describe("resumeStream() while a stream offered without a probe is on screen", () => {
  it(
    "the same flags; the official hook probes and ACKs the stream a second time on this socket, ours does neither",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount();
        d.learn(["u-other"]);
        await d.push(chatMessages([userMessage("u-other", "from the other tab")]));
        // An offer nobody here asked for (a parked socket told a stream started): both hooks ACK and show it.
        d.autoIdle = false;
        await d.push(resuming("other-turn"));
        const s = new ServerStream("other-turn");
        const replayed = [
          s.replay({ type: "start", messageId: "assistant_o" }),
          s.replay({ type: "start-step" }),
          s.replay({ type: "text-start", id: "t" }),
          s.replay({ type: "text-delta", id: "t", delta: "Partial " }),
          s.replayComplete(),
        ];
        await d.pushAll("replay", replayed);
        await d.act("resumeStream", (c) => c.resumeStream());
        await d.push(resuming("other-turn", d.lastProbe()));
        // The server replays the whole stream to every ACK it gets.
        const acks = d.sentRaw.filter((f) => f.type === "cf_agent_stream_resume_ack").length;
        await d.pushAll("replay after a second ACK", acks > 1 ? replayed : []);
        await d.push(s.chunk({ type: "text-delta", id: "t", delta: "and the rest" }));
        await d.push(s.chunk({ type: "text-end", id: "t" }), s.done());
      });
      // The deliberate difference (react README, "Resume handshake"; docs/protocol.md#probe-after-ack): ours
      // sends no probe for a stream this socket ACKed, since the real server would then withhold its live
      // chunks from this socket until a second ACK. Its answer is known, so ours shows "submitted" at the call,
      // where the official hook stays "ready" until the server answers; and "streaming" at the next live
      // chunk, where the official hook turns it at its second replay. Everything else is compared.
      const diffs = [
        ...compare(official, ours, { fields: ["isServerStreaming", "messages"] }),
        ...compare(official, ours, {
          fields: ["status", "isStreaming"],
          steps: (label) => label !== "resumeStream" && label !== "replay after a second ACK",
        }),
      ];
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      const step = (d: Driver, label: string) => d.steps.find((x) => x.label === label);
      expect(step(official, "resumeStream")?.view).toMatchObject({ status: "ready", isStreaming: true });
      expect(step(official, "resumeStream")?.sent).toHaveLength(1);
      expect(step(ours, "resumeStream")?.view).toMatchObject({ status: "submitted", isStreaming: true });
      expect(step(ours, "resumeStream")?.sent, dump(ours)).toEqual([]);
      expect(official.sentOf("cf_agent_stream_resume_ack")).toHaveLength(2);
      expect(ours.sentOf("cf_agent_stream_resume_ack")).toHaveLength(1);
      const at = (label: string) => step(ours, label)?.view;
      expect(at("push stream_resuming")).toMatchObject({ isServerStreaming: true, isStreaming: true });
      expect(at("push text-delta")).toMatchObject({ status: "streaming", isServerStreaming: true });
    },
  );
});

describe("a renamed reply that is the transcript's first message", () => {
  it("an agent that opens the conversation: the snapshot's copy replaces ours, shown once", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      const s = new ServerStream("agent-opens");
      await d.pushAll("opening words and an approval", [
        s.chunk({ type: "start", messageId: "assistant_1" }),
        s.chunk({ type: "start-step" }),
        s.chunk({ type: "text-start", id: "t" }),
        s.chunk({ type: "text-delta", id: "t", delta: "Welcome! " }),
        s.chunk({ type: "text-end", id: "t" }),
        ...toolCallChunks(s, "call-pay-1", "pay", { amount: 5 }),
        s.chunk({ type: "tool-approval-request", approvalId: "ap-1", toolCallId: "call-pay-1" }),
      ]);
      const persisted = {
        id: "assistant_renamed",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "text", text: "Welcome! ", state: "done" },
          {
            type: "tool-pay",
            toolCallId: "call-pay-1",
            toolName: "pay",
            state: "approval-requested",
            input: { amount: 5 },
            approval: { id: "ap-1" },
          },
        ],
      } as UIMessage;
      await d.push(chatMessages([persisted]));
      await d.pushAll("end of the stream", [
        s.chunk({ type: "finish-step" }),
        s.chunk({ type: "finish", messageMetadata: { finishReason: "tool-calls" } }),
        s.done(),
      ]);
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: "ap-1", approved: true }));
    });
    // The official hook keeps its own copy beside the server's: the text and the approval show twice.
    expect(assistants(official), dump(official)).toHaveLength(2);
    const mine = assistants(ours);
    expect(
      mine.map((m) => m.id),
      dump(ours),
    ).toEqual(["assistant_renamed"]);
    const tools = mine[0]?.parts.filter((p) => p.type === "tool-pay") ?? [];
    expect(tools, dump(ours)).toHaveLength(1);
    expect(mine[0]?.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual([
      "Welcome! ",
    ]);
    expect(ours.sentOf("cf_agent_tool_approval"), dump(ours)).toEqual([
      { type: "cf_agent_tool_approval", toolCallId: "call-pay-1", approved: true, autoContinue: true },
    ]);
  });
});

describe("resume: false and a dropped socket", () => {
  it(
    "isServerStreaming clears on close; after the reconnect one probe goes out, its answer is not ACKed",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount({ resume: false });
        const s = await otherTabStream(d);
        await d.drop();
        d.autoIdle = false;
        await d.reopen();
        // The server offers the live stream on connect and in answer to the probe; neither is taken.
        await d.push(resuming("other-turn"));
        const probe = d.lastProbe();
        await d.pushAll("probe answered", probe ? [resuming("other-turn", probe)] : []);
        await d.push(s.done());
      });
      const diffs = compare(official, ours, { fields: [...FLAGS, "sent"] });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      const closed = ours.steps.find((x) => x.label === "socket close")?.view;
      expect(closed).toMatchObject({ isServerStreaming: false, isStreaming: false });
    },
  );
});

describe("app actions reach React in the same batch", () => {
  /** Runs `fn` inside one React batch and reads what the hook rendered before any timer or frame ran. */
  async function inOneBatch(d: Driver, label: string, fn: (c: Chat) => unknown) {
    await act(async () => {
      const r = fn(d.latest as Chat);
      if (r instanceof Promise) r.catch(() => {});
    });
    const c = d.latest as Chat;
    d.cb(`${label} shown`)({ messages: c.messages.length, status: c.status });
    await d.step(label);
  }

  it(
    "setMessages, sendMessage, stop and clearHistory; streamed chunks still wait for the next frame",
    T,
    async () => {
      const chunkSeen: boolean[] = [];
      const { official, ours } = await both(async (d) => {
        // Ours with its default (one publish per animation frame); the official with its throttle off, since
        // its default throttle shows an action at once only 50 ms after the last change (a leading edge).
        await d.mount({ throttle: d.side === "ours" ? OMIT : false });
        await textTurn(d, "hi", "assistant_1", ["Hello"]);
        await inOneBatch(d, "setMessages", (c) => c.setMessages((m) => m.slice(0, 1)));
        await inOneBatch(d, "sendMessage", (c) => c.sendMessage({ text: "again" }));
        const r = d.lastRequest();
        const s = new ServerStream(r.id);
        await act(async () => {
          for (const f of s.textTurn("assistant_2", ["Streamed"]).slice(0, 4)) d.agent.push(f);
        });
        if (d.side === "ours") chunkSeen.push((d.latest as Chat).messages.length === 3);
        await d.waitFor(() => (d.latest as Chat).messages.length === 3, "the chunks on the next frame");
        if (d.side === "ours") chunkSeen.push((d.latest as Chat).messages.length === 3);
        await inOneBatch(d, "stop", (c) => c.stop());
        await inOneBatch(d, "clearHistory", (c) => c.clearHistory());
      });
      const shown = (d: Driver) => d.steps.flatMap((s) => s.calls.filter((c) => c.name.endsWith(" shown")));
      expect(shown(ours)).toEqual(shown(official));
      expect(shown(official).map((c) => c.args)).toEqual([
        { messages: 1, status: "ready" },
        { messages: 2, status: "submitted" },
        { messages: 3, status: "ready" },
        { messages: 0, status: "ready" },
      ]);
      // Chunks of a stream are still coalesced here: one commit per animation frame.
      expect(chunkSeen).toEqual([false, true]);
    },
  );

  it("addToolApprovalResponse and addToolOutput show at once", T, async () => {
    const { ours } = await both(async (d) => {
      await d.mount({ throttle: d.side === "ours" ? OMIT : false });
      await approvalTurn(d, {
        text: "pay",
        messageId: "assistant_1",
        toolCallId: "call-pay-1",
        toolName: "pay",
        input: { amount: 5 },
        approvalId: "ap-1",
      });
      await inOneBatch(d, "approve", (c) => c.addToolApprovalResponse({ id: "ap-1", approved: true }));
      d.continuation = undefined;
      await toolCallTurn(d, {
        text: "locate me",
        messageId: "assistant_2",
        toolCallId: "call-loc-1",
        toolName: "getLocation",
        input: {},
      });
      await inOneBatch(d, "addToolOutput", (c) =>
        c.addToolOutput({ toolCallId: "call-loc-1", toolName: "getLocation", output: { lat: 1 } }),
      );
    });
    const states = (label: string) => {
      const s = ours.steps.find((x) => x.label === label);
      return { status: s?.calls[0]?.args, parts: s?.view?.messages };
    };
    const partState = (label: string, type: string) =>
      ((states(label).parts ?? []) as UIMessage[]).flatMap((m) => m.parts).find((p) => p.type === type) as
        | { state?: string }
        | undefined;
    expect(states("approve").status, dump(ours)).toMatchObject({ status: "submitted" });
    expect(partState("approve", "tool-pay")?.state).toBe("approval-responded");
    expect(states("addToolOutput").status, dump(ours)).toMatchObject({ status: "submitted" });
    expect(partState("addToolOutput", "tool-getLocation")?.state).toBe("output-available");
  });
});

describe("an approval stored without an approval id (an older or hand-seeded transcript)", () => {
  const seeded = (): UIMessage[] =>
    [
      userMessage("u-1", "pay the invoice"),
      {
        id: "assistant_1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          {
            type: "tool-pay",
            toolCallId: "call-pay-1",
            toolName: "pay",
            state: "approval-requested",
            input: { amount: 5 },
            // No id in it. (A part with no `approval` at all makes the official hook's AI SDK throw an
            // unhandled rejection; ours is checked with that shape in packages/client/src/approvals/chat-approvals.test.ts.)
            approval: {},
          },
        ],
      },
    ] as UIMessage[];

  it("is approved by its tool call id, the id the server gives it", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(seeded());
      await d.mount();
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: "call-pay-1", approved: true }));
    });
    // The official hook finds no part with that approval id: it only warns, and the server never hears of it.
    expect(official.sentOf("cf_agent_tool_approval")).toEqual([]);
    expect(official.steps.flatMap((s) => s.warnings).join("\n")).toContain("Could not find toolCallId");
    expect(ours.sentOf("cf_agent_tool_approval"), dump(ours)).toEqual([
      { type: "cf_agent_tool_approval", toolCallId: "call-pay-1", approved: true, autoContinue: true },
    ]);
    const part = assistants(ours)[0]?.parts.find((p) => p.type === "tool-pay");
    expect(part, dump(ours)).toMatchObject({
      state: "approval-responded",
      approval: { id: "call-pay-1", approved: true },
    });
    expect(ours.callsOf("onError"), dump(ours)).toEqual([]);
  });
});

describe("a probe answered 'pending' whose continuation is never offered here", () => {
  it("ends the awaited continuation at that continuation's done", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount();
      const r = await approvalTurn(d, {
        text: "pay",
        messageId: "assistant_1",
        toolCallId: "call-pay-1",
        toolName: "pay",
        input: { amount: 5 },
        approvalId: "ap-1",
      });
      await d.act("approve", (c) => c.addToolApprovalResponse({ id: "ap-1", approved: true }));
      const cont = d.continuation?.id as string;
      // The continuation runs and ends without this socket being offered it (it went to another socket, or
      // the offer was lost): only the final transcript and the bare terminal frame arrive.
      const final = [
        userMessage(r.userIds[0] as string, "pay"),
        {
          id: "assistant_1",
          role: "assistant",
          parts: [
            { type: "step-start" },
            {
              type: "tool-pay",
              toolCallId: "call-pay-1",
              toolName: "pay",
              state: "output-available",
              input: { amount: 5 },
              output: { ok: true },
              approval: { id: "ap-1", approved: true },
            },
            { type: "step-start" },
            { type: "text", text: "Paid.", state: "done" },
          ],
        },
      ] as UIMessage[];
      await d.pushAll("continuation ends unseen", [
        chatMessages(final),
        new ServerStream(cont, { continuation: true }).done(),
      ]);
      d.continuation = undefined;
    });
    // Both report the turn ended (upstream reports every `done` it sees).
    const diffs = compare(official, ours, {
      fields: ["calls"],
      calls: ["onTurnEnd"],
      steps: (label) => label === "continuation ends unseen",
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    const ended = ours.steps.find((x) => x.label === "continuation ends unseen");
    expect(ended?.calls.map((c) => c.name)).toContain("onTurnEnd");
    const approved = ours.steps.find((x) => x.label === "approve")?.view;
    expect(approved).toMatchObject({ status: "submitted", isToolContinuation: true });
    expect(ours.sentOf("cf_agent_stream_resume_request").length).toBeGreaterThan(0);
    // The official hook waits out its 60 s pending timer.
    expect(official.last).toMatchObject({ status: "submitted", isToolContinuation: true });
    expect(ours.last, dump(ours)).toMatchObject({
      status: "ready",
      isToolContinuation: false,
      isStreaming: false,
    });
    expect(assistants(ours)[0]?.parts.at(-1)).toMatchObject({ type: "text", text: "Paid." });
  });
});

describe("a decision whose continuation another tab owns", () => {
  it(
    "the probe's 'continuation-owned' answer ends the wait; the continuation shows as another's",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount();
        await approvalTurn(d, {
          text: "pay",
          messageId: "assistant_1",
          toolCallId: "call-pay-1",
          toolName: "pay",
          input: { amount: 5 },
          approvalId: "ap-1",
        });
        // Another tab's decision on the same call reached the server first: the continuation is that tab's
        // socket's, and already streams, so this tab's probe is answered `continuation-owned` (rule A).
        d.continuation = { id: "cont-other", streaming: true, elsewhere: true };
        await d.act("approve", (c) => c.addToolApprovalResponse({ id: "ap-1", approved: true }));
        // Its live chunks reach every socket not waiting for a replay, this one too.
        const s = new ServerStream("cont-other", { continuation: true });
        await d.pushAll("the continuation, live", [
          s.chunk({ type: "start" }),
          s.chunk({ type: "start-step" }),
          s.chunk({ type: "text-start", id: "txt-after-tool" }),
          s.chunk({ type: "text-delta", id: "txt-after-tool", delta: "Paid." }),
        ]);
        await d.pushAll("its end", [
          s.chunk({ type: "text-end", id: "txt-after-tool" }),
          s.chunk({ type: "finish-step" }),
          s.chunk({ type: "finish", messageMetadata: { finishReason: "stop" } }),
          s.done(),
        ]);
        d.continuation = undefined;
      });
      const diffs = compare(official, ours, { fields: [...FLAGS] });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      expect(ours.sentOf("cf_agent_stream_resume_request").length, dump(ours)).toBeGreaterThan(0);
      expect(ours.last, dump(ours)).toMatchObject({
        status: "ready",
        isToolContinuation: false,
        isStreaming: false,
      });
    },
  );
});
