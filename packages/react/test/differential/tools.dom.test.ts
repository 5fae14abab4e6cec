/**
 * Client tools, differential: `tools[name].execute`, tool calls waiting in a loaded transcript, and
 * `dynamic-tool` parts (issue 13 §1, bullets 1, 3 and 13).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { assistantWaitingTool, userMessage } from "./frames.ts";
import { both, compare, type Driver, dump } from "./harness.ts";
import { continuation, toolApplied, toolCallTurn } from "./turns.ts";

const T = { timeout: 60_000 };
const LOCATION = { lat: 38.72, lng: -9.14 };

/** The client tool of the scenarios, with `execute` recorded. */
const locationTool = (d: Driver, name = "execute") => ({
  getLocation: {
    description: "Where the user is",
    parameters: { type: "object", properties: {} },
    execute: d.cb(name, async () => LOCATION),
  },
});

/** The persisted transcript after the location turn and its continuation. */
const locatedTranscript = (userId: string): UIMessage[] =>
  [
    userMessage(userId, "locate me please"),
    {
      id: "assistant_1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-getLocation",
          toolCallId: "call-loc-1",
          toolName: "getLocation",
          state: "output-available",
          input: {},
          output: LOCATION,
          preliminary: false,
        },
        { type: "step-start" },
        { type: "text", text: "You are in Lisbon.", state: "done" },
      ],
    },
  ] as UIMessage[];

const appliedLocation = {
  id: "assistant_1",
  role: "assistant",
  parts: [
    { type: "step-start" },
    {
      type: "tool-getLocation",
      toolCallId: "call-loc-1",
      toolName: "getLocation",
      state: "output-available",
      input: {},
      output: LOCATION,
      preliminary: false,
    },
  ],
} as UIMessage;

/** A location turn: the model calls `getLocation`, the client answers, the server continues. */
async function locateTurn(d: Driver) {
  const { r } = await toolCallTurn(d, {
    text: "locate me please",
    messageId: "assistant_1",
    toolCallId: "call-loc-1",
    toolName: "getLocation",
    input: {},
  });
  if (d.sentOf("cf_agent_tool_result").length > 0) await toolApplied(d, appliedLocation);
  else await d.step("no tool result sent");
  await continuation(d, {
    words: ["You are ", "in Lisbon."],
    final: locatedTranscript(r.userIds[0] as string),
  });
}

const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";

describe("bullet 1: tools[name].execute", () => {
  it(
    "with experimental_automaticToolResolution, execute runs once and its result goes out as the official sends it",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount({ tools: locationTool(d), experimental_automaticToolResolution: true });
        await locateTurn(d);
      });
      // What the official hook does, pinned so that a change upstream shows here.
      expect(official.callsOf("execute")).toHaveLength(1);
      expect(official.sentOf("cf_agent_tool_result")).toEqual([
        {
          type: "cf_agent_tool_result",
          toolCallId: "call-loc-1",
          toolName: "getLocation",
          output: LOCATION,
          autoContinue: true,
          clientTools: [
            {
              name: "getLocation",
              description: "Where the user is",
              parameters: { type: "object", properties: {} },
            },
          ],
        },
      ]);
      // The official runs `execute` as soon as the call's input is complete, before the stream ends, and it
      // shows the continuation's text as a separate assistant message (the AI SDK starts a new message when it
      // resumes after an `output-available` part). Compared here: what ran, what was sent, and the end state.
      expect(ours.callsOf("execute"), dump(ours)).toEqual(official.callsOf("execute"));
      expect(ours.sentOf("cf_agent_tool_result"), dump(ours)).toEqual(
        official.sentOf("cf_agent_tool_result"),
      );
      const diffs = compare(official, ours, {
        fields: ["status", "isStreaming", "isServerStreaming", "isToolContinuation", "errors"],
        steps: (l) => l === "continuation ends",
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );

  it(
    "without the flag and without onToolCall: documented difference, ours runs execute (the official never does)",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await d.mount({ tools: locationTool(d) });
        await locateTurn(d);
      });
      expect(official.callsOf("execute")).toHaveLength(0);
      expect(official.sentOf("cf_agent_tool_result")).toHaveLength(0);
      // README, "Where the kit deliberately differs": client tools with `execute` run by themselves.
      expect(ours.callsOf("execute"), dump(ours)).toHaveLength(1);
      expect(ours.sentOf("cf_agent_tool_result"), dump(ours)).toEqual([
        {
          type: "cf_agent_tool_result",
          toolCallId: "call-loc-1",
          toolName: "getLocation",
          output: LOCATION,
          autoContinue: true,
          clientTools: [
            {
              name: "getLocation",
              description: "Where the user is",
              parameters: { type: "object", properties: {} },
            },
          ],
        },
      ]);
    },
  );
});

describe("bullet 3: tool calls waiting in a loaded transcript", () => {
  const transcript = [
    userMessage("u1", "locate me please"),
    assistantWaitingTool("assistant_1", "call-loc-1", "getLocation", {}),
  ];

  it("are handed to onToolCall once after the load, as the official does", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.learn(transcript);
      await d.mount({
        getInitialMessages: async () => transcript,
        onToolCall: d.cb("onToolCall"),
      });
      await d.renderAgain();
    });
    expect(official.callsOf("onToolCall")).toEqual([
      {
        name: "onToolCall",
        args: { toolCall: { toolCallId: "call-loc-1", toolName: "getLocation", input: {} } },
      },
    ]);
    const diffs = compare(official, ours, {
      fields: ["calls", "sent", "messages", "isServerStreaming", "isStreaming", "errors"],
      calls: ["onToolCall"],
      looseParts: true,
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });

  it(
    "run through tools[name].execute with experimental_automaticToolResolution, and the result is sent",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        d.learn(transcript);
        await d.mount({
          getInitialMessages: async () => transcript,
          tools: locationTool(d),
          experimental_automaticToolResolution: true,
        });
        await d.step("after load");
      });
      expect(official.callsOf("execute")).toHaveLength(1);
      expect(official.sentOf("cf_agent_tool_result")).toHaveLength(1);
      const diffs = compare(official, ours, {
        fields: ["calls", "sent", "messages", "isToolContinuation", "errors"],
        calls: ["execute"],
        looseParts: true,
      });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
    },
  );
});

describe("bullet 13: dynamic-tool parts", () => {
  it("onToolCall and the tool-result frame carry the part's toolName", T, async () => {
    const { official, ours } = await both(async (d) => {
      await d.mount({
        onToolCall: d.cb(
          "onToolCall",
          ({
            toolCall,
            addToolOutput,
          }: {
            toolCall: { toolCallId: string };
            addToolOutput: (o: { toolCallId: string; output: unknown }) => void;
          }) => addToolOutput({ toolCallId: toolCall.toolCallId, output: { hits: 3 } }),
        ),
      });
      await toolCallTurn(d, {
        text: "look it up",
        messageId: "assistant_1",
        toolCallId: "call-dyn-1",
        toolName: "mcp_lookup",
        input: { q: "x" },
        dynamic: true,
      });
    });
    expect(official.callsOf("onToolCall")).toEqual([
      {
        name: "onToolCall",
        args: { toolCall: { toolCallId: "call-dyn-1", toolName: "mcp_lookup", input: { q: "x" } } },
      },
    ]);
    expect(official.sentOf("cf_agent_tool_result")).toEqual([
      {
        type: "cf_agent_tool_result",
        toolCallId: "call-dyn-1",
        toolName: "mcp_lookup",
        output: { hits: 3 },
        autoContinue: true,
      },
    ]);
    const diffs = compare(official, ours, {
      fields: ["calls", "sent", "messages", "errors"],
      calls: ["onToolCall"],
      looseParts: true,
    });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
  });
});
