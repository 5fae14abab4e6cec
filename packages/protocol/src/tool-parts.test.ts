import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import {
  findToolCallIdForApproval,
  getToolName,
  getToolPartState,
  isToolUIPart,
  selectPendingInteractions,
  type ToolPartLike,
  type ToolPartState,
  toolValueText,
} from "./tool-parts.ts";

const part = (state: string | undefined, extra: Partial<ToolPartLike> = {}): ToolPartLike => ({
  type: "tool-getWeather",
  toolCallId: "call_1",
  ...(state === undefined ? {} : { state }),
  ...extra,
});

/** A message built from loosely typed parts (tool parts of any name, as they come off the wire). */
const msg = (id: string, role: UIMessage["role"], parts: Array<Record<string, unknown>>): UIMessage =>
  ({ id, role, parts }) as unknown as UIMessage;

const tool = (name: string, toolCallId: string, state: string, extra: Record<string, unknown> = {}) => ({
  type: `tool-${name}`,
  toolCallId,
  state,
  input: {},
  ...extra,
});

describe("getToolPartState (docs/protocol.md#tool-part-classification)", () => {
  const table: Array<[string | undefined, ToolPartState]> = [
    ["input-streaming", "streaming"],
    ["input-available", "loading"],
    ["approval-requested", "waiting-approval"],
    ["approval-responded", "approved"],
    ["output-available", "complete"],
    ["output-error", "error"],
    ["output-denied", "denied"],
    [undefined, "loading"],
    ["something-new", "loading"],
  ];
  it.each(table)("%s → %s", (state, expected) => {
    expect(getToolPartState(part(state))).toBe(expected);
  });

  it("reports approval-responded as approved even when the local record says denied", () => {
    expect(
      getToolPartState(
        part("approval-responded", { approval: { id: "ap_1", approved: false, reason: "no" } }),
      ),
    ).toBe("approved");
  });

  it("reports a server-denied part as denied", () => {
    expect(getToolPartState(part("output-denied", { approval: { id: "ap_1", approved: false } }))).toBe(
      "denied",
    );
  });
});

describe("getToolName", () => {
  it("prefers toolName", () => {
    expect(getToolName({ type: "dynamic-tool", toolCallId: "c", toolName: "search" })).toBe("search");
    expect(getToolName({ type: "tool-a", toolCallId: "c", toolName: "b" })).toBe("b");
  });

  it("falls back to the part type without tool-", () => {
    expect(getToolName({ type: "tool-getWeather", toolCallId: "c" })).toBe("getWeather");
    expect(getToolName({ type: "tool-get-weather", toolCallId: "c" })).toBe("get-weather");
    expect(getToolName({ type: "tool-getWeather", toolCallId: "c", toolName: "" })).toBe("getWeather");
  });

  it("is empty for a dynamic tool without a name", () => {
    expect(getToolName({ type: "dynamic-tool", toolCallId: "c" })).toBe("");
  });
});

describe("isToolUIPart", () => {
  it("recognises tool-<name> and dynamic-tool parts that carry a toolCallId", () => {
    expect(isToolUIPart({ type: "tool-x", toolCallId: "c" } as never)).toBe(true);
    expect(isToolUIPart({ type: "dynamic-tool", toolCallId: "c", toolName: "x" } as never)).toBe(true);
    expect(isToolUIPart({ type: "tool-x" })).toBe(false);
    expect(isToolUIPart({ type: "text", text: "tool-x" } as never)).toBe(false);
    expect(isToolUIPart({ type: "step-start" })).toBe(false);
  });
});

describe("selectPendingInteractions", () => {
  it("is empty for a transcript without tools", () => {
    expect(
      selectPendingInteractions([
        msg("u1", "user", [{ type: "text", text: "hi" }]),
        msg("a1", "assistant", [{ type: "text", text: "hello" }]),
      ]),
    ).toEqual([]);
    expect(selectPendingInteractions([])).toEqual([]);
  });

  it("reports every approval request, across messages and parallel calls, oldest first", () => {
    const messages = [
      msg("u1", "user", [{ type: "text", text: "pay two people" }]),
      msg("a1", "assistant", [
        tool("processPayment", "call_1", "approval-requested", { approval: { id: "ap_1" } }),
        tool("processPayment", "call_2", "approval-requested", { approval: { id: "ap_2" } }),
        tool("lookup", "call_3", "output-available", { output: 1 }),
      ]),
      msg("u2", "user", [{ type: "text", text: "and delete the file" }]),
      msg("a2", "assistant", [
        {
          type: "dynamic-tool",
          toolName: "deleteFile",
          toolCallId: "call_4",
          state: "approval-requested",
          approval: { id: "ap_4" },
        },
      ]),
    ];
    const pending = selectPendingInteractions(messages);
    expect(pending.map((p) => [p.kind, p.messageId, p.toolCallId, p.toolName])).toEqual([
      ["approval", "a1", "call_1", "processPayment"],
      ["approval", "a1", "call_2", "processPayment"],
      ["approval", "a2", "call_4", "deleteFile"],
    ]);
    expect(pending.map((p) => (p.kind === "approval" ? p.approvalId : undefined))).toEqual([
      "ap_1",
      "ap_2",
      "ap_4",
    ]);
    // The part is handed over so a UI can show the input.
    expect(pending[0]?.part).toBe(messages[1]?.parts[0]);
  });

  it("does not report approvals that were answered or denied", () => {
    const messages = [
      msg("a1", "assistant", [
        tool("pay", "call_1", "approval-responded", { approval: { id: "ap_1", approved: true } }),
        tool("pay", "call_2", "output-denied", { approval: { id: "ap_2", approved: false } }),
        tool("pay", "call_3", "output-available", { approval: { id: "ap_3", approved: true }, output: "ok" }),
      ]),
    ];
    expect(selectPendingInteractions(messages)).toEqual([]);
  });

  it("reports client tools waiting for output only for listed names", () => {
    const messages = [
      msg("u1", "user", [{ type: "text", text: "where am I and what's the weather" }]),
      msg("a1", "assistant", [
        tool("getLocation", "call_loc", "input-available"),
        // A server tool also passes through input-available while it runs (#1614): not the client's to answer.
        tool("getWeather", "call_weather", "input-available"),
      ]),
    ];
    const pending = selectPendingInteractions(messages, { clientToolNames: ["getLocation"] });
    expect(pending).toEqual([
      {
        kind: "client-tool",
        messageId: "a1",
        toolCallId: "call_loc",
        toolName: "getLocation",
        part: messages[1]?.parts[0],
      },
    ]);
    // Without a list of client tools, nothing in input-available is the client's.
    expect(selectPendingInteractions(messages)).toEqual([]);
    // Any iterable of names works.
    expect(selectPendingInteractions(messages, { clientToolNames: new Set(["getWeather"]) })).toHaveLength(1);
  });

  it("reports client tools only in the last assistant message", () => {
    const messages = [
      msg("a1", "assistant", [tool("getLocation", "call_old", "input-available")]),
      msg("u1", "user", [{ type: "text", text: "again" }]),
      msg("a2", "assistant", [tool("getLocation", "call_new", "input-available")]),
    ];
    const pending = selectPendingInteractions(messages, { clientToolNames: ["getLocation"] });
    expect(pending.map((p) => p.toolCallId)).toEqual(["call_new"]);
  });

  it("does not report client tools that are still streaming input or already have output", () => {
    const messages = [
      msg("a1", "assistant", [
        tool("getLocation", "call_1", "input-streaming"),
        tool("getLocation", "call_2", "output-available", { output: { lat: 1 } }),
        tool("getLocation", "call_3", "output-error", { errorText: "denied" }),
      ]),
    ];
    expect(selectPendingInteractions(messages, { clientToolNames: ["getLocation"] })).toEqual([]);
  });

  it("matches dynamic client tools by toolName", () => {
    const messages = [
      msg("a1", "assistant", [
        {
          type: "dynamic-tool",
          toolName: "getLocation",
          toolCallId: "call_1",
          state: "input-available",
          input: {},
        },
      ]),
    ];
    expect(selectPendingInteractions(messages, { clientToolNames: ["getLocation"] })).toMatchObject([
      { kind: "client-tool", toolCallId: "call_1", toolName: "getLocation" },
    ]);
  });

  it("reports approvals and client tools together, in transcript order", () => {
    const messages = [
      msg("a1", "assistant", [
        tool("getLocation", "call_1", "input-available"),
        tool("pay", "call_2", "approval-requested", { approval: { id: "ap_2" } }),
      ]),
    ];
    expect(
      selectPendingInteractions(messages, { clientToolNames: ["getLocation"] }).map((p) => [
        p.kind,
        p.toolCallId,
      ]),
    ).toEqual([
      ["client-tool", "call_1"],
      ["approval", "call_2"],
    ]);
  });

  it("finds the approval the real Think server asked for, and nothing once it is answered", () => {
    const snapshots = readTranscript("think/pay.jsonl")
      .filter((l) => l.dir === "in" && l.raw?.includes('"cf_agent_chat_messages"'))
      .map((l) => (JSON.parse(l.raw as string) as { messages: UIMessage[] }).messages);
    const asking = snapshots.find((m) => JSON.stringify(m).includes("approval-requested"));
    expect(asking).toBeDefined();
    const pending = selectPendingInteractions(asking as UIMessage[]);
    expect(pending).toMatchObject([
      {
        kind: "approval",
        toolCallId: "call-pay-mwrpo94y-10",
        approvalId: "aitxt-bD0YPx0XkkeVDJdFcFfZ6iA0",
        toolName: "processPayment",
      },
    ]);
    const last = snapshots.at(-1) as UIMessage[];
    expect(JSON.stringify(last)).toContain("output-available");
    expect(selectPendingInteractions(last)).toEqual([]);
  });
});

describe("findToolCallIdForApproval", () => {
  const messages = [
    msg("a1", "assistant", [tool("pay", "call_1", "approval-requested", { approval: { id: "ap_1" } })]),
    msg("a2", "assistant", [
      { type: "text", text: "and one more" },
      tool("pay", "call_2", "approval-requested", { approval: { id: "ap_2" } }),
      tool("pay", "call_3", "approval-responded", { approval: { id: "ap_3", approved: false } }),
    ]),
  ];

  it("maps an approval id to its tool call id, in any message", () => {
    expect(findToolCallIdForApproval(messages, "ap_1")).toBe("call_1");
    expect(findToolCallIdForApproval(messages, "ap_2")).toBe("call_2");
    expect(findToolCallIdForApproval(messages, "ap_3")).toBe("call_3");
  });

  it("returns undefined for an unknown approval id, or a tool call id passed by mistake", () => {
    expect(findToolCallIdForApproval(messages, "ap_missing")).toBeUndefined();
    expect(findToolCallIdForApproval(messages, "call_1")).toBeUndefined();
    expect(findToolCallIdForApproval([], "ap_1")).toBeUndefined();
  });

  it("gives the tool call id the real client sent for the real approval", () => {
    const lines = readTranscript("think/pay.jsonl");
    const asking = lines
      .filter((l) => l.dir === "in" && l.raw?.includes("approval-requested"))
      .map((l) => JSON.parse(l.raw as string) as { messages: UIMessage[] })[0];
    const sent = lines
      .filter((l) => l.dir === "out" && l.raw?.includes('"cf_agent_tool_approval"'))
      .map((l) => JSON.parse(l.raw as string) as { toolCallId: string })[0];
    expect(asking && sent).toBeTruthy();
    expect(findToolCallIdForApproval(asking?.messages ?? [], "aitxt-bD0YPx0XkkeVDJdFcFfZ6iA0")).toBe(
      sent?.toolCallId,
    );
  });
});

describe("toolValueText", () => {
  it("shows any input or output a parsed tool part can hold, as bounded text", () => {
    expect(toolValueText(null)).toBe("");
    expect(toolValueText(undefined)).toBe("");
    expect(toolValueText({})).toBe("");
    expect(toolValueText([])).toBe("");
    expect(toolValueText("")).toBe("");
    expect(toolValueText("<b>x</b>")).toBe("<b>x</b>");
    expect(toolValueText(42)).toBe("42");
    expect(toolValueText(false)).toBe("false");
    expect(toolValueText([1, "two", null])).toBe('[1,"two",null]');
    expect(toolValueText(JSON.parse('{"__proto__":{"a":1}}'))).toBe('{"__proto__":{"a":1}}');
    expect(toolValueText("x".repeat(1_000_000)).length).toBeLessThanOrEqual(2_001);
    expect(toolValueText({ a: "y".repeat(50) }, 10)).toMatch(/…$/);
    const cyclic: Record<string, unknown> = Object.create(null);
    cyclic.self = cyclic;
    expect(toolValueText(cyclic)).toBe("[object Object]");
  });
});
