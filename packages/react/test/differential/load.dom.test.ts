/**
 * How a chat is keyed and its transcript loaded, differential (issue 30 §1): a thread switch that keeps the URL
 * path (custom routing), an HTTP URL that is `""` until the socket has one, the exact arguments of the
 * transcript fetch, and client tools left waiting in a loaded transcript.
 */
import { getAgentMessages as getOfficialAgentMessages } from "@cloudflare/ai-chat/react";
import type { UIMessage } from "ai";
import { describe, expect, it, vi } from "vitest";
import { getAgentMessages } from "../../src/official-helpers.ts";
import { assistantText, assistantWaitingTool, ServerStream, userMessage } from "./frames.ts";
import { both, compare, type Driver, dump } from "./harness.ts";
import { continuation } from "./turns.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";

const earlier: UIMessage[] = [userMessage("u0", "earlier question"), assistantText("a0", "earlier answer")];
const other: UIMessage[] = [userMessage("u9", "other thread"), assistantText("a9", "other answer")];

describe("a thread switch without a path change (custom routing)", () => {
  it("a new agent object with another name is a new chat with that thread's transcript", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.agent = d.newAgent(d.room, { basePath: "chat" });
      d.serve(earlier);
      d.serve(other, { room: `${d.room}-b` });
      await d.mount();
      await d.useAgent(d.newAgent(`${d.room}-b`, { basePath: "chat" }), {}, "agent name changes");
    });
    // Pinned: the official hook reads the other thread (same path, another query) and shows it alone.
    expect(official.steps.map((s) => s.fetches)).toEqual([
      ["http://HOST/chat/get-messages?thread=ROOM"],
      ["http://HOST/chat/get-messages?thread=ROOM-b"],
    ]);
    expect(official.last?.messages.map((m) => (m as UIMessage).id)).toEqual(["u9", "a9"]);
    const diffs = compare(official, ours, { fields: ["fetches", "messages", "suspended", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("with getInitialMessages: called again for the new name, and its answer shown", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.agent = d.newAgent(d.room, { basePath: "chat" });
      d.learn(earlier);
      d.learn(other);
      const load = d.cb("getInitialMessages", async (o: { name?: string }) =>
        o.name?.endsWith("-b") ? other : earlier,
      );
      await d.mount({ getInitialMessages: load });
      await d.useAgent(
        d.newAgent(`${d.room}-b`, { basePath: "chat" }),
        { getInitialMessages: load },
        "agent name changes",
      );
    });
    expect(official.callsOf("getInitialMessages")).toHaveLength(2);
    const diffs = compare(official, ours, {
      fields: ["calls", "messages", "suspended", "errors"],
      calls: ["getInitialMessages"],
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe('an HTTP URL that is "" is not ready yet', () => {
  it(
    "a message sent before the URL is known is kept; the late transcript goes in front of it",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        d.agent.urlKnown = false;
        d.serve(earlier);
        await d.mount();
        await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
        d.agent.urlKnown = true;
        await d.renderAgain("the URL is known");
        const r = d.lastRequest();
        const s = new ServerStream(r.id);
        await d.pushAll("answer", [...s.textTurn("assistant_1", ["Hi"]), s.done({ messageIds: r.userIds })]);
      });
      expect(official.steps.map((s) => s.fetches)).toEqual([
        [],
        [],
        ["http://HOST/agents/chat-agent/ROOM/get-messages"],
        [],
      ]);
      expect(official.last?.messages.map((m) => (m as UIMessage).id)).toEqual([
        "u0",
        "a0",
        "m1",
        "assistant_1",
      ]);
      const diffs = compare(official, ours, {
        fields: ["fetches", "messages", "status", "suspended", "errors"],
        steps: (label) => label !== "sendMessage",
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      expect(ours.sentOf("cf_agent_use_chat_request"), dump(ours)).toEqual(
        official.sentOf("cf_agent_use_chat_request"),
      );
      // README, "Where the kit deliberately differs": a chat already on screen is not replaced by the Suspense
      // fallback while a late transcript loads (the official hook shows the fallback during that step).
      expect(official.steps.map((s) => s.suspendedDuring)).toEqual([false, false, true, false]);
      expect(ours.steps.map((s) => s.suspendedDuring)).toEqual([false, false, false, false]);
    },
  );

  it("a custom getInitialMessages is called once, at mount, without a url", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.agent.urlKnown = false;
      d.learn(earlier);
      const load = d.cb("getInitialMessages", async () => earlier);
      await d.mount({ getInitialMessages: load });
      await d.act("sendMessage", (c) => c.sendMessage({ text: "hello" }));
      d.agent.urlKnown = true;
      await d.renderAgain("the URL is known");
    });
    expect(official.callsOf("getInitialMessages")).toEqual([
      { name: "getInitialMessages", args: { agent: "chat-agent", name: "ROOM" } },
    ]);
    const diffs = compare(official, ours, {
      fields: ["calls", "messages", "suspended", "errors"],
      calls: ["getInitialMessages"],
      steps: (label) => label !== "sendMessage",
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe("the transcript fetch's arguments", () => {
  it("a string URL and { credentials, headers } as the options give them (both undefined)", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(earlier);
      await d.mount();
    });
    expect(official.steps[0]?.fetchArgs).toEqual([
      {
        input: "string",
        url: "http://HOST/agents/chat-agent/ROOM/get-messages",
        init: { credentials: "(undefined)", headers: "(undefined)" },
      },
    ]);
    const diffs = compare(official, ours, { fields: ["fetchArgs", "messages"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it("credentials and headers passed through as given, the query kept", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.agent = d.newAgent(d.room, { basePath: "chat" });
      d.serve(earlier);
      await d.mount({ credentials: "include", headers: new Headers({ authorization: "Bearer t" }) });
    });
    expect(official.steps[0]?.fetchArgs).toEqual([
      {
        input: "string",
        url: "http://HOST/chat/get-messages?thread=ROOM",
        init: { credentials: "include", headers: { Headers: [["authorization", "Bearer t"]] } },
      },
    ]);
    const diffs = compare(official, ours, { fields: ["fetchArgs", "messages"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});

describe("getAgentMessages calls fetch as upstream does", () => {
  for (const extra of [{}, { credentials: "include" as const, headers: { authorization: "Bearer t" } }]) {
    it(`with ${Object.keys(extra).join(" and ") || "no options"}`, async () => {
      const calls: Record<string, unknown[][]> = {};
      for (const [side, fn] of [
        ["official", getOfficialAgentMessages],
        ["ours", getAgentMessages],
      ] as const) {
        const spy = vi.fn(async (..._args: unknown[]) => new Response(JSON.stringify(earlier)));
        vi.stubGlobal("fetch", spy);
        try {
          const got = await fn({ url: "https://app.example/chat/get-messages?thread=a", ...extra });
          expect(got).toEqual(earlier);
        } finally {
          vi.unstubAllGlobals();
        }
        // Every own key of the init, an undefined one included.
        calls[side] = spy.mock.calls.map(([input, init]) => [
          input,
          Object.entries(init as object).map(([k, v]) => [k, v === undefined ? "(undefined)" : v]),
        ]);
      }
      expect(calls.ours).toEqual(calls.official);
    });
  }
});

describe("client tools waiting in a transcript loaded on mount", () => {
  const transcript = [
    userMessage("u1", "locate me please"),
    assistantWaitingTool("assistant_1", "call-loc-1", "getLocation", {}),
  ];
  const LOCATION = { lat: 38.72, lng: -9.14 };

  it("onToolCall runs when the transcript renders, not after the resume probe's answer", T, async () => {
    const { official, ours } = await both(async (d) => {
      // The socket never answers the mount's probe (a server that is slow, or an old one).
      d.autoIdle = false;
      d.learn(transcript);
      await d.mount({ getInitialMessages: async () => transcript, onToolCall: d.cb("onToolCall") });
    });
    expect(official.steps[0]?.calls.filter((c) => c.name === "onToolCall")).toEqual([
      {
        name: "onToolCall",
        args: { toolCall: { toolCallId: "call-loc-1", toolName: "getLocation", input: {} } },
      },
    ]);
    const diffs = compare(official, ours, { fields: ["calls", "errors"], calls: ["onToolCall"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  for (const autoContinueAfterToolResult of [true, false]) {
    it(
      `its answer is sent at once (autoContinueAfterToolResult: ${autoContinueAfterToolResult}), and the call runs once`,
      T,
      async () => {
        const { official, ours } = await both(async (d) => {
          d.autoIdle = false;
          d.learn(transcript);
          await d.mount({
            getInitialMessages: async () => transcript,
            autoContinueAfterToolResult,
            onToolCall: d.cb(
              "onToolCall",
              ({
                toolCall,
                addToolOutput,
              }: {
                toolCall: { toolCallId: string };
                addToolOutput: (o: { toolCallId: string; output: unknown }) => void;
              }) => addToolOutput({ toolCallId: toolCall.toolCallId, output: LOCATION }),
            ),
          });
          await d.renderAgain();
        });
        expect(official.steps[0]?.sent).toContainEqual({
          type: "cf_agent_tool_result",
          toolCallId: "call-loc-1",
          toolName: "getLocation",
          output: LOCATION,
          autoContinue: autoContinueAfterToolResult,
        });
        expect(official.callsOf("onToolCall")).toHaveLength(1);
        const diffs = compare(official, ours, {
          fields: ["calls", "sent", "messages", "isToolContinuation", "errors"],
          calls: ["onToolCall"],
          frames: ["cf_agent_tool_result"],
          looseParts: true,
        });
        expect(diffs, report(official, ours, diffs)).toEqual([]);
      },
    );
  }

  it(
    "answered after the mount's probe went out: that probe's idle answer leaves the continuation awaited, and it streams",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        d.learn(transcript);
        await d.mount({
          getInitialMessages: async () => transcript,
          experimental_automaticToolResolution: true,
          tools: {
            getLocation: { description: "Where the user is", execute: d.cb("execute", async () => LOCATION) },
          },
        });
        await continuation(d, { words: ["You are ", "in Lisbon."] });
      });
      // Pinned: the official probes, sends the result, then probes again for the continuation once the first
      // probe is answered, and shows the continuation.
      expect(official.steps[0]?.sent.map((f) => (f as { type: string }).type)).toEqual([
        "cf_agent_stream_resume_request",
        "cf_agent_tool_result",
        "cf_agent_stream_resume_request",
      ]);
      expect(official.steps.map((s) => s.view?.isToolContinuation)).toEqual([true, true, true, true, false]);
      const diffs = compare(official, ours, {
        fields: ["status", "isToolContinuation", "isServerStreaming", "calls", "sent", "errors"],
        calls: ["execute"],
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );

  it("a tool's execute (experimental_automaticToolResolution) runs and its result is sent", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.autoIdle = false;
      d.learn(transcript);
      await d.mount({
        getInitialMessages: async () => transcript,
        experimental_automaticToolResolution: true,
        tools: {
          getLocation: {
            description: "Where the user is",
            execute: d.cb("execute", async () => LOCATION),
          },
        },
      });
    });
    expect(official.callsOf("execute")).toHaveLength(1);
    expect(official.sentOf("cf_agent_tool_result")).toHaveLength(1);
    const diffs = compare(official, ours, {
      fields: ["calls", "sent", "messages", "errors"],
      calls: ["execute"],
      frames: ["cf_agent_tool_result"],
      looseParts: true,
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});
