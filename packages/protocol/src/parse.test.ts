import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import { parseChunkBody, parseClientFrame, parseServerFrame } from "./parse.ts";

const files = [
  "ai-chat/background.jsonl",
  "ai-chat/clear.jsonl",
  "ai-chat/connect.jsonl",
  "ai-chat/hello.jsonl",
  "ai-chat/locate.jsonl",
  "ai-chat/observer.jsonl",
  "ai-chat/pay.jsonl",
  "ai-chat/reconnect.jsonl",
  "ai-chat/research.jsonl",
  "ai-chat/rpc.jsonl",
  "ai-chat/weather.jsonl",
  "think/connect.jsonl",
  "think/hello.jsonl",
  "think/pay.jsonl",
  "think/research.jsonl",
];

describe("parseServerFrame", () => {
  it("reads every frame the real server sent as a known frame, and every client frame", () => {
    let n = 0;
    for (const f of files)
      for (const l of readTranscript(f)) {
        if (!l.raw) continue;
        const r = l.dir === "in" ? parseServerFrame(l.raw) : parseClientFrame(l.raw);
        expect(r.kind, `${f}: ${l.raw.slice(0, 80)}`).toBe("frame");
        n++;
      }
    expect(n).toBeGreaterThan(500);
  });

  it("rejects malformed input with a reason instead of throwing", () => {
    const cases: Array<[unknown, RegExp]> = [
      ["{", /not valid JSON/],
      ["[1]", /not a JSON object/],
      ["null", /not a JSON object/],
      ['{"x":1}', /no string 'type'/],
      [new Uint8Array([1]), /not text/],
      [
        '{"type":"cf_agent_use_chat_response","id":"a","body":"","done":"yes"}',
        /cf_agent_use_chat_response: field 'done'/,
      ],
      ['{"type":"cf_agent_identity","agent":"a"}', /cf_agent_identity: field 'name'/],
      ['{"type":"rpc","success":true}', /rpc: field 'id'/],
      [
        '{"type":"agent-tool-event","sequence":"1","event":{"kind":"chunk","runId":"r","body":""}}',
        /field 'sequence'/,
      ],
      [
        '{"type":"agent-tool-event","sequence":1,"event":{"kind":"chunk","runId":"r"}}',
        /event chunk: field 'body'/,
      ],
      [
        '{"type":"agent-tool-event","sequence":1,"event":{"kind":"interrupted","runId":"r","error":"x","reason":"bogus"}}',
        /reason/,
      ],
      [
        '{"type":"cf_agent_stream_resume_none","reason":"bogus"}',
        /cf_agent_stream_resume_none: field 'reason'/,
      ],
      [
        '{"type":"cf_agent_chat_messages","messages":[{"id":"a","role":"user","parts":[]},{"id":"a","role":"user","parts":[]}]}',
        /duplicate message id/,
      ],
    ];
    for (const [raw, reason] of cases) {
      const r = parseServerFrame(raw);
      expect(r.kind, String(raw)).toBe("error");
      expect(r.kind === "error" && r.reason).toMatch(reason);
    }
  });

  it("passes well-formed frames of unknown types (and unknown event kinds) through untouched", () => {
    expect(parseServerFrame('{"type":"cf_agent_future","x":[1]}')).toEqual({
      kind: "unknown",
      type: "cf_agent_future",
      frame: { type: "cf_agent_future", x: [1] },
    });
    expect(
      parseServerFrame('{"type":"agent-tool-event","sequence":1,"event":{"kind":"paused","runId":"r"}}').kind,
    ).toBe("unknown");
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (s) =>
        ["frame", "unknown", "error"].includes(parseServerFrame(s).kind),
      ),
      {
        numRuns: 1000,
        seed: 7,
      },
    );
  });
});

describe("parseChunkBody", () => {
  it("tells control frames, bad bodies and chunks apart", () => {
    expect(parseChunkBody("")).toEqual({ kind: "empty" });
    expect(parseChunkBody("nope").kind).toBe("error");
    expect(parseChunkBody('{"a":1}').kind).toBe("error");
    expect(parseChunkBody('{"type":"text-delta","id":"t","delta":"x"}')).toEqual({
      kind: "chunk",
      chunk: { type: "text-delta", id: "t", delta: "x" },
    });
  });
});
