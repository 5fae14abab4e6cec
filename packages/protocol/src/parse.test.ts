import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import { MAX_JSON_DEPTH } from "./frame-limits.ts";
import { FrameType } from "./frames.ts";
import {
  type ChunkResult,
  type ParseResult,
  parseChunkBody,
  parseClientFrame,
  parseServerFrame,
} from "./parse.ts";

// The frame transcripts recorded from the real server (one copy in the repository, `test-support/`).
const FIXTURES = new URL("../../../test-support/fixtures/real-server/", import.meta.url);
const transcriptFiles = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".jsonl"))
  .map((f) => f.replaceAll("\\", "/"))
  .sort();

/** Every recorded frame of one direction, with where it came from. */
function recordedFrames(dir: "in" | "out"): Array<{ where: string; raw: string }> {
  const out: Array<{ where: string; raw: string }> = [];
  for (const file of transcriptFiles) {
    readTranscript(file).forEach((line, i) => {
      if (line.dir === dir && typeof line.raw === "string")
        out.push({ where: `${file}:${i + 1}`, raw: line.raw });
    });
  }
  return out;
}

const reasonOf = (r: ParseResult<unknown> | ChunkResult) => (r.kind === "error" ? r.reason : `<${r.kind}>`);

describe("recorded transcripts", () => {
  it("finds all the transcripts of both hosts", () => {
    expect(transcriptFiles.length).toBeGreaterThanOrEqual(15);
    expect(transcriptFiles.some((f) => f.startsWith("ai-chat/"))).toBe(true);
    expect(transcriptFiles.some((f) => f.startsWith("think/"))).toBe(true);
  });

  it("parseServerFrame reads every frame the real server sent as a known frame, unchanged", () => {
    const frames = recordedFrames("in");
    expect(frames.length).toBeGreaterThan(400);
    const failures: string[] = [];
    const types = new Set<string>();
    for (const { where, raw } of frames) {
      const r = parseServerFrame(raw);
      if (r.kind !== "frame") failures.push(`${where}: ${r.kind} ${reasonOf(r)} ${raw.slice(0, 120)}`);
      else {
        types.add(r.frame.type);
        if (JSON.stringify(r.frame) !== JSON.stringify(JSON.parse(raw)))
          failures.push(`${where}: frame altered`);
      }
    }
    expect(failures).toEqual([]);
    // The transcripts cover the frames a chat client depends on.
    for (const t of [
      FrameType.identity,
      FrameType.state,
      FrameType.mcpServers,
      FrameType.rpc,
      FrameType.chatResponse,
      FrameType.chatMessages,
      FrameType.agentToolEvent,
      FrameType.streamResumeNone,
    ])
      expect(types, t).toContain(t);
  });

  it("parseClientFrame reads every frame the recorded clients sent", () => {
    const frames = recordedFrames("out");
    expect(frames.length).toBeGreaterThan(20);
    const failures = frames
      .map(({ where, raw }) => ({ where, raw, r: parseClientFrame(raw) }))
      .filter(({ r }) => r.kind !== "frame")
      .map(({ where, raw, r }) => `${where}: ${r.kind} ${reasonOf(r)} ${raw.slice(0, 120)}`);
    expect(failures).toEqual([]);
  });

  it("every chat response body and agent-tool chunk body in the transcripts is a chunk or empty", () => {
    const failures: string[] = [];
    for (const { where, raw } of recordedFrames("in")) {
      const r = parseServerFrame(raw);
      if (r.kind !== "frame") continue;
      let body: string | undefined;
      if (r.frame.type === "cf_agent_use_chat_response" && !r.frame.error) body = r.frame.body;
      if (r.frame.type === "agent-tool-event" && r.frame.event.kind === "chunk") body = r.frame.event.body;
      if (body === undefined) continue;
      const c = parseChunkBody(body);
      if (c.kind === "error") failures.push(`${where}: ${c.reason}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("parseServerFrame: malformed input", () => {
  it.each([
    ["{", /not valid JSON/],
    ["", /not valid JSON/],
    ["cf_agent_identity", /not valid JSON/],
    ["[1]", /not a JSON object/],
    ['[{"type":"cf_agent_chat_clear"}]', /not a JSON object/],
    ["42", /not a JSON object/],
    ["null", /not a JSON object/],
    ['"cf_agent_chat_clear"', /not a JSON object/],
    ["true", /not a JSON object/],
    ["{}", /no string 'type'/],
    ['{"x":1}', /no string 'type'/],
    ['{"type":1}', /no string 'type'/],
    ['{"type":null}', /no string 'type'/],
    ['{"type":["rpc"]}', /no string 'type'/],
  ])("%s → error (%s)", (raw, reason) => {
    const r = parseServerFrame(raw);
    expect(r.kind).toBe("error");
    expect(reasonOf(r)).toMatch(reason);
  });

  it.each([
    ["a Buffer", Buffer.from('{"type":"cf_agent_chat_clear"}')],
    ["an ArrayBuffer", new TextEncoder().encode('{"type":"cf_agent_chat_clear"}').buffer],
    ["a Uint8Array", new Uint8Array([123, 125])],
    ["undefined", undefined],
    ["null", null],
    ["an already parsed object", { type: "cf_agent_chat_clear" }],
    ["a number", 42],
  ])("rejects %s as not text", (_label, raw) => {
    const r = parseServerFrame(raw);
    expect(r).toEqual({ kind: "error", reason: "frame is not text" });
    expect(parseClientFrame(raw).kind).toBe("error");
  });
});

describe("parseServerFrame: wrong field types name the frame type and the field", () => {
  const cases: Array<[string, { type: string; [field: string]: unknown }, string]> = [
    [
      "chat response done:'yes'",
      { type: "cf_agent_use_chat_response", id: "a", body: "", done: "yes" },
      "done",
    ],
    ["chat response without done", { type: "cf_agent_use_chat_response", id: "a", body: "" }, "done"],
    [
      "chat response with object body",
      { type: "cf_agent_use_chat_response", id: "a", body: {}, done: false },
      "body",
    ],
    [
      "chat response with numeric id",
      { type: "cf_agent_use_chat_response", id: 1, body: "", done: true },
      "id",
    ],
    [
      "chat response error:'true'",
      { type: "cf_agent_use_chat_response", id: "a", body: "x", done: true, error: "true" },
      "error",
    ],
    [
      "chat response replayComplete:1",
      { type: "cf_agent_use_chat_response", id: "a", body: "", done: false, replayComplete: 1 },
      "replayComplete",
    ],
    ["identity without name", { type: "cf_agent_identity", agent: "chat-agent" }, "name"],
    ["identity without agent", { type: "cf_agent_identity", name: "room" }, "agent"],
    [
      "identity stateFollows:'yes'",
      { type: "cf_agent_identity", name: "r", agent: "a", stateFollows: "yes" },
      "stateFollows",
    ],
    ["state without state", { type: "cf_agent_state" }, "state"],
    ["state error without error", { type: "cf_agent_state_error" }, "error"],
    ["mcp servers with array mcp", { type: "cf_agent_mcp_servers", mcp: [] }, "mcp"],
    ["rpc success without id", { type: "rpc", success: true, result: 1 }, "id"],
    ["rpc without success", { type: "rpc", id: "1", result: 1 }, "success"],
    ["rpc success:'true'", { type: "rpc", id: "1", success: "true" }, "success"],
    ["rpc failure without error", { type: "rpc", id: "1", success: false }, "error"],
    ["rpc success done:'no'", { type: "rpc", id: "1", success: true, done: "no" }, "done"],
    ["chat messages not an array", { type: "cf_agent_chat_messages", messages: {} }, "messages"],
    [
      "chat messages with a message without id",
      { type: "cf_agent_chat_messages", messages: [{ role: "user", parts: [] }] },
      "id",
    ],
    [
      "chat messages with an unknown role",
      { type: "cf_agent_chat_messages", messages: [{ id: "m", role: "tool", parts: [] }] },
      "role",
    ],
    [
      "chat messages with parts not an array",
      { type: "cf_agent_chat_messages", messages: [{ id: "m", role: "user", parts: "hi" }] },
      "parts",
    ],
    ["message updated without message", { type: "cf_agent_message_updated" }, "message"],
    ["recovering:'yes'", { type: "cf_agent_chat_recovering", recovering: "yes" }, "recovering"],
    ["resuming without id", { type: "cf_agent_stream_resuming" }, "id"],
    ["resuming with numeric probeId", { type: "cf_agent_stream_resuming", id: "a", probeId: 1 }, "probeId"],
    ["resume_none reason 'bogus'", { type: "cf_agent_stream_resume_none", reason: "bogus" }, "reason"],
    ["resume_none with numeric probeId", { type: "cf_agent_stream_resume_none", probeId: 2 }, "probeId"],
    ["stream pending with numeric id", { type: "cf_agent_stream_pending", id: 3 }, "id"],
    ["session error without error", { type: "cf_agent_session_error" }, "error"],
    [
      "session with an unknown phase",
      { type: "cf_agent_session", phase: "shrinking", tokenEstimate: 1, tokenThreshold: null },
      "phase",
    ],
    [
      "session without a token estimate",
      { type: "cf_agent_session", phase: "idle", tokenThreshold: 8000 },
      "tokenEstimate",
    ],
    [
      // The fuzz found it: the chat store refused a negative estimate the parse had let through, so the frame was
      // reported by the wrong channel (seed 20260601, session 0, batch 196).
      "session with a negative token estimate",
      { type: "cf_agent_session", phase: "idle", tokenEstimate: -1, tokenThreshold: null },
      "tokenEstimate",
    ],
    [
      "session with a text threshold",
      { type: "cf_agent_session", phase: "compacting", tokenEstimate: 9, tokenThreshold: "8k" },
      "tokenThreshold",
    ],
    [
      "agent-tool-event sequence '1'",
      { type: "agent-tool-event", sequence: "1", event: { kind: "chunk", runId: "r", body: "" } },
      "sequence",
    ],
    [
      "agent-tool-event without sequence",
      { type: "agent-tool-event", event: { kind: "finished", runId: "r", summary: "" } },
      "sequence",
    ],
    [
      "agent-tool-event replay:false",
      {
        type: "agent-tool-event",
        sequence: 1,
        replay: false,
        event: { kind: "finished", runId: "r", summary: "" },
      },
      "replay",
    ],
    ["agent-tool-event without event", { type: "agent-tool-event", sequence: 1 }, "event"],
    [
      "agent-tool-event without runId",
      { type: "agent-tool-event", sequence: 1, event: { kind: "finished", summary: "" } },
      "runId",
    ],
    [
      "agent-tool chunk without body",
      { type: "agent-tool-event", sequence: 1, event: { kind: "chunk", runId: "r" } },
      "body",
    ],
    [
      "agent-tool started without agentType",
      { type: "agent-tool-event", sequence: 0, event: { kind: "started", runId: "r", order: 0 } },
      "agentType",
    ],
    [
      "agent-tool started with order '0'",
      {
        type: "agent-tool-event",
        sequence: 0,
        event: { kind: "started", runId: "r", agentType: "R", order: "0" },
      },
      "order",
    ],
    [
      "agent-tool finished without summary",
      { type: "agent-tool-event", sequence: 2, event: { kind: "finished", runId: "r" } },
      "summary",
    ],
    [
      "agent-tool interrupted with an unknown reason",
      {
        type: "agent-tool-event",
        sequence: 2,
        event: { kind: "interrupted", runId: "r", error: "x", reason: "bogus" },
      },
      "reason",
    ],
    [
      "agent-tool interrupted childStillRunning:'no'",
      {
        type: "agent-tool-event",
        sequence: 2,
        event: { kind: "interrupted", runId: "r", error: "x", childStillRunning: "no" },
      },
      "childStillRunning",
    ],
  ];

  it.each(cases)("%s", (_label, frame, field) => {
    const r = parseServerFrame(JSON.stringify(frame));
    expect(r.kind).toBe("error");
    if (r.kind !== "error") return;
    expect(r.frameType).toBe(frame.type);
    expect(r.reason.startsWith(`${frame.type}:`), r.reason).toBe(true);
    // The field is named in the rest of the reason, e.g. "field 'done' must be a boolean".
    expect(r.reason.slice(frame.type.length + 1)).toMatch(new RegExp(`\\b${field}\\b`));
  });

  // Found by the client fuzz test: each of these was accepted and then reached a UI with the wrong type
  // (an object as a React child threw while rendering).
  const part = (p: Record<string, unknown>) => ({
    type: "cf_agent_message_updated",
    message: { id: "m", role: "assistant", parts: [p] },
  });
  const tool = { type: "tool-pay", toolCallId: "c1", state: "approval-requested", input: {} };
  it.each<[string, { type: string; [field: string]: unknown }, string]>([
    ["tool part approval id {}", part({ ...tool, approval: { id: {} } }), "id"],
    ["tool part approval not an object", part({ ...tool, approval: "a1" }), "approval"],
    [
      "tool part approval approved:'yes'",
      part({ ...tool, approval: { id: "a", approved: "yes" } }),
      "approved",
    ],
    ["tool part approval reason 1", part({ ...tool, approval: { id: "a", reason: 1 } }), "reason"],
    ["tool part errorText {}", part({ ...tool, state: "output-error", errorText: {} }), "errorText"],
    ["tool part title []", part({ ...tool, title: [] }), "title"],
    ["dynamic-tool part without toolName", part({ ...tool, type: "dynamic-tool" }), "toolName"],
    ["text part state {}", part({ type: "text", text: "", state: {} }), "state"],
    ["source-url part url {}", part({ type: "source-url", sourceId: "s", url: {} }), "url"],
    ["source-url part title 1", part({ type: "source-url", sourceId: "s", url: "u", title: 1 }), "title"],
    [
      "source-document part without title",
      part({ type: "source-document", sourceId: "s", mediaType: "t" }),
      "title",
    ],
    ["file part url null", part({ type: "file", mediaType: "text/plain", url: null }), "url"],
    ["data part id {}", part({ type: "data-x", id: {}, data: 1 }), "id"],
    [
      "transcript with a bad part",
      { type: "cf_agent_chat_messages", messages: [part({ type: "file", mediaType: 1, url: "u" }).message] },
      "mediaType",
    ],
    [
      "agent-tool started display.name {}",
      {
        type: "agent-tool-event",
        sequence: 0,
        event: { kind: "started", runId: "r", agentType: "R", display: { name: {} } },
      },
      "name",
    ],
    [
      "agent-tool started display.icon 1",
      {
        type: "agent-tool-event",
        sequence: 0,
        event: { kind: "started", runId: "r", agentType: "R", display: { icon: 1 } },
      },
      "icon",
    ],
    [
      "agent-tool chunk unstoredId 1",
      {
        type: "agent-tool-event",
        sequence: 1,
        event: { kind: "chunk", runId: "r", body: "", unstoredId: 1 },
      },
      "unstoredId",
    ],
  ])("%s (found by the fuzz test)", (_label, frame, field) => {
    const r = parseServerFrame(JSON.stringify(frame));
    expect(r.kind).toBe("error");
    if (r.kind !== "error") return;
    expect(r.frameType).toBe(frame.type);
    expect(r.reason.slice(frame.type.length + 1)).toMatch(new RegExp(`\\b${field}\\b`));
  });

  it("accepts well-typed parts with their optional fields", () => {
    const frame = part({
      ...tool,
      state: "approval-responded",
      title: "Pay",
      approval: { id: "a", approved: false, reason: "no", descriptor: { summary: {} } },
    });
    expect(parseServerFrame(JSON.stringify(frame))).toEqual({ kind: "frame", frame });
    const parts = [
      { type: "text", text: "t", state: "done" },
      { type: "source-url", sourceId: "s", url: "https://x", title: "X" },
      { type: "source-document", sourceId: "s", mediaType: "application/pdf", title: "D", filename: "d.pdf" },
      { type: "file", mediaType: "text/plain", url: "data:,", filename: "f" },
      { type: "dynamic-tool", toolName: "t", toolCallId: "c2", state: "output-error", errorText: "e" },
      { type: "data-x", id: "d", data: { any: [1] } },
      { type: "future-part", anything: {} },
    ];
    const all = { type: "cf_agent_chat_messages", messages: [{ id: "m", role: "assistant", parts }] };
    expect(parseServerFrame(JSON.stringify(all)).kind).toBe("frame");
  });

  it("rejects a frame nested deeper than JSON.stringify can write back (found by the fuzz test)", () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    const frame = (n: number) =>
      `{"type":"cf_agent_chat_messages","messages":[{"id":"m","role":"user","parts":[{"type":"data-x","data":${deep(n)}}]}]}`;
    expect(parseServerFrame(frame(MAX_JSON_DEPTH - 10)).kind).toBe("frame");
    const r = parseServerFrame(frame(50_000));
    expect(r).toMatchObject({ kind: "error", frameType: "cf_agent_chat_messages" });
    expect(reasonOf(r)).toMatch(/nested more than/);
    expect(parseServerFrame(`{"type":"cf_agent_future","x":${deep(MAX_JSON_DEPTH)}}`).kind).toBe("error");
    expect(
      reasonOf(parseChunkBody(`{"type":"tool-output-available","toolCallId":"c","output":${deep(5_000)}}`)),
    ).toMatch(/nested more than/);
    // The tightest nesting there is (bare brackets): one level past the limit is caught, the limit is not.
    const brackets = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(parseChunkBody(`{"type":"data-x","data":${brackets(MAX_JSON_DEPTH)}}`).kind).toBe("error");
    expect(parseChunkBody(`{"type":"data-x","data":${brackets(MAX_JSON_DEPTH - 1)}}`).kind).toBe("chunk");
  });

  it("rejects an rpc request echoed back as a server frame", () => {
    const r = parseServerFrame('{"type":"rpc","id":"1","method":"m","args":[]}');
    expect(r.kind).toBe("error");
  });

  it("rejects a transcript with the same message id twice", () => {
    const m = { id: "a", role: "user", parts: [] };
    expect(
      reasonOf(parseServerFrame(JSON.stringify({ type: "cf_agent_chat_messages", messages: [m, m] }))),
    ).toMatch(/duplicate message id 'a'/);
  });

  it("accepts the optional fields when they are well typed", () => {
    for (const frame of [
      { type: "rpc", id: "1", success: true },
      { type: "rpc", id: "1", success: true, done: false, result: { x: 1 } },
      { type: "rpc", id: "1", success: false, error: "Method m does not exist" },
      { type: "cf_agent_state", state: null },
      { type: "cf_agent_stream_resume_none" },
      { type: "cf_agent_stream_resume_none", reason: "continuation-owned", probeId: "p" },
      { type: "cf_agent_stream_pending" },
      { type: "cf_agent_use_chat_response", id: "a", body: "boom", done: true, error: true },
      { type: "agent-tool-event", sequence: 9, replay: true, event: { kind: "aborted", runId: "r" } },
      {
        type: "agent-tool-event",
        sequence: 1,
        parentToolCallId: "call_1",
        event: {
          kind: "interrupted",
          runId: "r",
          error: "e",
          reason: "budget-exceeded",
          childStillRunning: false,
        },
      },
      { type: "cf_agent_session", phase: "idle", tokenEstimate: 1, tokenThreshold: null, extra: 1 },
    ]) {
      const r = parseServerFrame(JSON.stringify(frame));
      expect(r, JSON.stringify(frame)).toEqual({ kind: "frame", frame });
    }
  });
});

describe("parseServerFrame: forward compatibility", () => {
  it("passes a well-formed frame of an unknown type through untouched", () => {
    const frame = { type: "cf_agent_future", x: [1, { y: null }], nested: { deep: "v" } };
    expect(parseServerFrame(JSON.stringify(frame))).toEqual({
      kind: "unknown",
      type: "cf_agent_future",
      frame,
    });
  });

  it("treats app broadcasts and client-only frame types as unknown, not as errors", () => {
    for (const frame of [
      { type: "my-app-event", payload: 1 },
      { type: "cf_agent_tool_result", toolCallId: "c", toolName: "t", output: 1 },
      { type: "cf_agent_use_chat_request", id: "r", init: { method: "POST", body: "{}" } },
    ]) {
      const r = parseServerFrame(JSON.stringify(frame));
      expect(r).toEqual({ kind: "unknown", type: frame.type, frame });
    }
  });

  it("passes an agent-tool event of an unknown kind through as unknown", () => {
    const frame = { type: "agent-tool-event", sequence: 1, event: { kind: "paused", runId: "r", until: 5 } };
    expect(parseServerFrame(JSON.stringify(frame))).toEqual({
      kind: "unknown",
      type: "agent-tool-event",
      frame,
    });
  });

  it.each(Object.getOwnPropertyNames(Object.prototype))(
    "treats the type %s (an Object.prototype key) as an unknown frame instead of throwing",
    (type) => {
      const raw = JSON.stringify({ type, x: 1 });
      expect(parseServerFrame(raw)).toEqual({ kind: "unknown", type, frame: { type, x: 1 } });
      expect(parseClientFrame(raw)).toEqual({ kind: "unknown", type, frame: { type, x: 1 } });
    },
  );
});

describe("parsers never throw", () => {
  const kinds = ["frame", "unknown", "error"];

  it("on 2,000 arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseServerFrame(s);
        parseClientFrame(s);
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it("on 2,000 arbitrary JSON texts", () => {
    fc.assert(
      fc.property(fc.json(), (s) => {
        expect(kinds).toContain(parseServerFrame(s).kind);
        expect(kinds).toContain(parseClientFrame(s).kind);
      }),
      { numRuns: 2000 },
    );
  });

  it("on objects with known, prototype and random types and random fields", () => {
    const type = fc.oneof(
      fc.constantFrom(...Object.values(FrameType), ...Object.getOwnPropertyNames(Object.prototype)),
      fc.string(),
    );
    const frame = fc
      .tuple(type, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }))
      .map(([t, fields]) => JSON.stringify({ ...fields, type: t }));
    fc.assert(
      fc.property(frame, (raw) => {
        for (const r of [parseServerFrame(raw), parseClientFrame(raw)]) {
          expect(kinds).toContain(r.kind);
          if (r.kind === "error") expect(r.reason.length).toBeGreaterThan(0);
          if (r.kind === "unknown") expect(r.frame).toEqual(JSON.parse(raw));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseClientFrame", () => {
  it("accepts the frames a client sends", () => {
    for (const frame of [
      { type: "cf_agent_use_chat_request", id: "r1", init: { method: "POST", body: '{"messages":[]}' } },
      { type: "cf_agent_chat_request_cancel", id: "r1" },
      {
        type: "cf_agent_tool_result",
        toolCallId: "c",
        toolName: "getLocation",
        output: { lat: 1 },
        autoContinue: true,
      },
      { type: "cf_agent_tool_result", toolCallId: "c", output: null, state: "output-error", errorText: "no" },
      { type: "cf_agent_tool_approval", toolCallId: "c", approved: false, autoContinue: true },
      { type: "cf_agent_stream_resume_request" },
      { type: "cf_agent_stream_resume_request", probeId: "p" },
      { type: "cf_agent_stream_resume_ack", id: "r1" },
      { type: "rpc", id: "1", method: "getWeather", args: ["Lisbon"] },
      { type: "cf_agent_state", state: { count: 1 } },
      { type: "cf_agent_chat_clear" },
      { type: "cf_agent_chat_messages", messages: [] },
    ]) {
      expect(parseClientFrame(JSON.stringify(frame)), frame.type).toEqual({ kind: "frame", frame });
    }
  });

  it.each([
    ["{", /not valid JSON/],
    ["[]", /not a JSON object/],
    ['{"id":"x"}', /no string 'type'/],
    ['{"type":"rpc","id":"1","method":"m"}', /rpc: field 'args'/],
    ['{"type":"rpc","id":"1","args":[]}', /rpc: field 'method'/],
    ['{"type":"rpc","method":"m","args":[]}', /rpc: field 'id'/],
    ['{"type":"cf_agent_use_chat_request","id":"r"}', /cf_agent_use_chat_request: field 'init'/],
    [
      '{"type":"cf_agent_use_chat_request","id":"r","init":{"method":"POST","body":{"messages":[]}}}',
      /cf_agent_use_chat_request: field 'init.body'/,
    ],
    ['{"type":"cf_agent_tool_result","output":1}', /cf_agent_tool_result: field 'toolCallId'/],
    [
      '{"type":"cf_agent_tool_result","toolCallId":"c","output":1,"state":"done"}',
      /cf_agent_tool_result: field 'state'/,
    ],
    [
      '{"type":"cf_agent_tool_approval","toolCallId":"c","approved":"yes"}',
      /cf_agent_tool_approval: field 'approved'/,
    ],
    ['{"type":"cf_agent_stream_resume_ack"}', /cf_agent_stream_resume_ack: field 'id'/],
    [
      '{"type":"cf_agent_stream_resume_request","probeId":5}',
      /cf_agent_stream_resume_request: field 'probeId'/,
    ],
    ['{"type":"cf_agent_chat_request_cancel"}', /cf_agent_chat_request_cancel: field 'id'/],
    ['{"type":"cf_agent_state"}', /cf_agent_state: field 'state'/],
  ])("rejects %s", (raw, reason) => {
    const r = parseClientFrame(raw);
    expect(r.kind).toBe("error");
    expect(reasonOf(r)).toMatch(reason);
  });

  it("treats server-only frame types as unknown", () => {
    const frame = { type: "cf_agent_identity", name: "n", agent: "a" };
    expect(parseClientFrame(JSON.stringify(frame))).toEqual({ kind: "unknown", type: frame.type, frame });
  });
});

describe("parseChunkBody", () => {
  it('reads "" as an empty control body', () => {
    expect(parseChunkBody("")).toEqual({ kind: "empty" });
  });

  it.each(["nope", "{", "null", "[]", "42", '"text-delta"', '{"a":1}', '{"type":7}'])(
    "rejects %s",
    (body) => {
      const r = parseChunkBody(body);
      expect(r.kind).toBe("error");
      expect(reasonOf(r)).toMatch(/chunk body/);
    },
  );

  it("returns the chunk object of a valid body", () => {
    expect(parseChunkBody('{"type":"text-delta","id":"t","delta":"x"}')).toEqual({
      kind: "chunk",
      chunk: { type: "text-delta", id: "t", delta: "x" },
    });
    expect(parseChunkBody('{"type":"data-agent-progress","data":{"p":0.5},"transient":true}')).toEqual({
      kind: "chunk",
      chunk: { type: "data-agent-progress", data: { p: 0.5 }, transient: true },
    });
  });

  // Found by the client fuzz test: the chunk applier copies these fields into parts, which a UI renders.
  it.each([
    ['{"type":"tool-approval-request","approvalId":{},"toolCallId":"c"}', "approvalId"],
    ['{"type":"tool-approval-response","approvalId":"a","approved":"yes"}', "approved"],
    ['{"type":"tool-input-start","toolCallId":"c","toolName":"t","title":{}}', "title"],
    ['{"type":"tool-input-available","toolCallId":"c","toolName":[],"input":{}}', "toolName"],
    ['{"type":"tool-input-error","toolCallId":"c","toolName":"t","input":{},"errorText":1}', "errorText"],
    ['{"type":"tool-output-error","toolCallId":"c","errorText":{}}', "errorText"],
    ['{"type":"tool-output-available","toolCallId":1,"output":{}}', "toolCallId"],
    ['{"type":"tool-output-available","toolCallId":"c","output":{},"preliminary":"no"}', "preliminary"],
    ['{"type":"text-delta","id":"t","delta":{}}', "delta"],
    ['{"type":"source-url","sourceId":"s","url":{}}', "url"],
    ['{"type":"source-document","sourceId":"s","mediaType":"m","title":null}', "title"],
    ['{"type":"file","url":"u","mediaType":7}', "mediaType"],
    ['{"type":"start","messageId":{}}', "messageId"],
    ['{"type":"error","errorText":{}}', "errorText"],
    ['{"type":"data-x","id":{},"data":1}', "id"],
  ])("rejects %s", (body, field) => {
    const r = parseChunkBody(body);
    expect(r.kind).toBe("error");
    expect(reasonOf(r)).toMatch(new RegExp(`^chunk body [a-z-]+: .*\\b${field}\\b`));
  });

  it("passes well-typed chunks and chunk types it does not apply", () => {
    for (const body of [
      '{"type":"tool-approval-request","approvalId":"a","toolCallId":"c","approvalDescriptor":{"x":[]}}',
      '{"type":"tool-output-available","toolCallId":"c","output":null,"preliminary":true}',
      '{"type":"text-delta","delta":"x"}',
      '{"type":"data-x","data":{"deep":[1]},"transient":true}',
      '{"type":"future-chunk","anything":{}}',
    ])
      expect(parseChunkBody(body).kind, body).toBe("chunk");
  });

  it("never throws", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (s) => {
        expect(["chunk", "empty", "error"]).toContain(parseChunkBody(s).kind);
      }),
      { numRuns: 2000 },
    );
  });
});
