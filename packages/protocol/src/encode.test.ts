import { readdirSync } from "node:fs";
import type { UIMessage } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import {
  encodeChatClear,
  encodeChatMessages,
  encodeChatRequest,
  encodeChatRequestCancel,
  encodeClientFrame,
  encodeRpcRequest,
  encodeSetState,
  encodeStreamResumeAck,
  encodeStreamResumeRequest,
  encodeToolApproval,
  encodeToolResult,
} from "./encode.ts";
import type { ClientFrame } from "./frames.ts";
import { parseClientFrame } from "./parse.ts";

const messages: UIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "pay ACME 250" }] },
  {
    id: "a1",
    role: "assistant",
    parts: [{ type: "tool-pay", toolCallId: "call-1", state: "input-available", input: { amount: 250 } }],
  },
];

/** Parses an encoded frame back, failing the test with the parser's reason when it does not parse. */
function back(text: string): ClientFrame {
  const r = parseClientFrame(text);
  if (r.kind !== "frame") throw new Error(r.kind === "error" ? r.reason : `unknown frame type ${r.type}`);
  return r.frame;
}

describe("each encoder's frame parses back to the same frame", () => {
  const cases: Array<[name: string, text: string, frame: ClientFrame]> = [
    ["setState", encodeSetState({ counter: 1 }), { type: "cf_agent_state", state: { counter: 1 } }],
    [
      "rpc",
      encodeRpcRequest("r1", "increment", [2]),
      { type: "rpc", id: "r1", method: "increment", args: [2] },
    ],
    [
      "chat request",
      encodeChatRequest("q1", { messages, trigger: "submit-message", clientTools: [{ name: "locate" }] }),
      {
        type: "cf_agent_use_chat_request",
        id: "q1",
        init: {
          method: "POST",
          body: JSON.stringify({ messages, trigger: "submit-message", clientTools: [{ name: "locate" }] }),
        },
      },
    ],
    ["chat messages", encodeChatMessages(messages), { type: "cf_agent_chat_messages", messages }],
    ["chat clear", encodeChatClear(), { type: "cf_agent_chat_clear" }],
    ["cancel", encodeChatRequestCancel("q1"), { type: "cf_agent_chat_request_cancel", id: "q1" }],
    [
      "tool result",
      encodeToolResult({
        toolCallId: "call-1",
        toolName: "locate",
        output: { city: "Oslo" },
        autoContinue: true,
      }),
      {
        type: "cf_agent_tool_result",
        toolCallId: "call-1",
        toolName: "locate",
        output: { city: "Oslo" },
        autoContinue: true,
      },
    ],
    [
      "tool denial",
      encodeToolResult({
        toolCallId: "call-1",
        toolName: "pay",
        output: undefined,
        state: "output-error",
        errorText: "no",
        autoContinue: false,
        clientTools: [{ name: "locate", description: "where am I" }],
      }),
      {
        type: "cf_agent_tool_result",
        toolCallId: "call-1",
        toolName: "pay",
        output: undefined,
        state: "output-error",
        errorText: "no",
        autoContinue: false,
        clientTools: [{ name: "locate", description: "where am I" }],
      },
    ],
    [
      "approval",
      encodeToolApproval({ toolCallId: "call-1", approved: false, autoContinue: true }),
      { type: "cf_agent_tool_approval", toolCallId: "call-1", approved: false, autoContinue: true },
    ],
    [
      "resume request",
      encodeStreamResumeRequest("p1"),
      { type: "cf_agent_stream_resume_request", probeId: "p1" },
    ],
    ["uncorrelated resume request", encodeStreamResumeRequest(), { type: "cf_agent_stream_resume_request" }],
    ["resume ack", encodeStreamResumeAck("s1"), { type: "cf_agent_stream_resume_ack", id: "s1" }],
  ];

  it.each(cases)("%s", (_name, text, frame) => {
    // `output: undefined` is not on the wire; the parsed frame simply lacks it.
    expect(back(text)).toEqual(JSON.parse(JSON.stringify(frame)));
    // The generic encoder writes the same bytes as the typed one.
    expect(encodeClientFrame(frame)).toBe(text);
  });

  it("covers every client frame type", () => {
    const types = new Set(cases.map(([, , f]) => f.type));
    const all: Record<ClientFrame["type"], true> = {
      cf_agent_state: true,
      rpc: true,
      cf_agent_use_chat_request: true,
      cf_agent_chat_messages: true,
      cf_agent_chat_clear: true,
      cf_agent_chat_request_cancel: true,
      cf_agent_tool_result: true,
      cf_agent_tool_approval: true,
      cf_agent_stream_resume_request: true,
      cf_agent_stream_resume_ack: true,
    };
    expect([...types].sort()).toEqual(Object.keys(all).sort());
  });

  it("keeps the field order the client has always sent (the bytes on the wire do not change)", () => {
    expect(encodeToolResult({ toolCallId: "c", toolName: "t", output: 1, autoContinue: true })).toBe(
      '{"type":"cf_agent_tool_result","toolCallId":"c","toolName":"t","output":1,"autoContinue":true}',
    );
    expect(encodeChatRequest("q", { messages: [], trigger: "regenerate-message" })).toBe(
      '{"type":"cf_agent_use_chat_request","id":"q","init":{"method":"POST","body":"{\\"messages\\":[],\\"trigger\\":\\"regenerate-message\\"}"}}',
    );
    expect(encodeRpcRequest("r", "m", [])).toBe('{"type":"rpc","id":"r","method":"m","args":[]}');
  });

  it("round-trips arbitrary tool results and approvals", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.jsonValue(),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.boolean(),
        (toolCallId, toolName, output, autoContinue, approved) => {
          const result = {
            toolCallId,
            toolName,
            output,
            ...(autoContinue === undefined ? {} : { autoContinue }),
          };
          expect(back(encodeToolResult(result))).toEqual(
            JSON.parse(JSON.stringify({ type: "cf_agent_tool_result", ...result })),
          );
          const approval = { toolCallId, approved, ...(autoContinue === undefined ? {} : { autoContinue }) };
          expect(back(encodeToolApproval(approval))).toEqual({ type: "cf_agent_tool_approval", ...approval });
        },
      ),
    );
  });
});

describe("frames the official client sent to the real server", () => {
  const FIXTURES = new URL("../../../test-support/fixtures/real-server/", import.meta.url);
  const sent = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => f.replaceAll("\\", "/"))
    .flatMap((file) =>
      readTranscript(file)
        .filter((line) => line.dir === "out" && typeof line.raw === "string")
        .map((line) => line.raw as string),
    );

  it("encode to the same frames", () => {
    expect(sent.length).toBeGreaterThanOrEqual(10);
    for (const raw of sent) {
      const frame = back(raw);
      expect(back(encodeClientFrame(frame))).toEqual(frame);
    }
  });

  it("are byte for byte what the encoders write, except the chat request's field order", () => {
    for (const raw of sent) {
      const frame = back(raw);
      if (frame.type === "cf_agent_use_chat_request") continue;
      expect(encodeClientFrame(frame)).toBe(raw);
    }
  });
});
