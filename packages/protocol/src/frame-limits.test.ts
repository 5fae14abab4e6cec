import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAX_FRAME_BYTES, MAX_JSON_DEPTH, oversize, scanNesting } from "./frame-limits.ts";
import { parseChunkBody, parseServerFrame } from "./parse.ts";

afterEach(() => vi.restoreAllMocks());

/** How deeply a parsed JSON value nests (the root object or array is level 1). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe("scanNesting", () => {
  it("rejects a 5-million-level frame without calling JSON.parse", () => {
    const n = 5_000_000;
    const raw = `{"type":"cf_agent_state","state":${"[".repeat(n)}${"]".repeat(n)}}`;
    const parse = vi.spyOn(JSON, "parse");
    const r = parseServerFrame(raw);
    expect(r).toEqual({
      kind: "error",
      reason: `frame is nested more than ${MAX_JSON_DEPTH} levels deep`,
      limit: "depth",
      frameType: "cf_agent_state",
    });
    expect(parse.mock.calls.some(([text]) => text === raw)).toBe(false);
  });

  it("rejects a deep chunk body without calling JSON.parse", () => {
    const body = `{"type":"data-x","data":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`;
    const parse = vi.spyOn(JSON, "parse");
    expect(parseChunkBody(body)).toMatchObject({ kind: "error", limit: "depth" });
    expect(parse).not.toHaveBeenCalled();
  });

  it("ignores brackets inside strings", () => {
    const brackets = "[{".repeat(5_000);
    const raw = `{"type":"cf_agent_future","text":"${brackets}","more":["]]]}}}"]}`;
    expect(scanNesting(raw)).toEqual({ tooDeep: false });
    expect(parseServerFrame(raw).kind).toBe("unknown");
  });

  it("does not end a string at an escaped quote", () => {
    // After \" the string goes on, so the brackets are still text.
    const inString = `{"type":"x","s":"a\\"${"[".repeat(3_000)}\\"b"}`;
    expect(JSON.parse(inString).s).toContain("[[[");
    expect(scanNesting(inString).tooDeep).toBe(false);
    // After \\ (an escaped backslash) the next quote does end the string, so the brackets count.
    const n = MAX_JSON_DEPTH + 1;
    const afterBackslash = `{"type":"x","s":"a\\\\","d":${"[".repeat(n)}${"]".repeat(n)}}`;
    expect(depthOf(JSON.parse(afterBackslash))).toBe(n + 1);
    expect(scanNesting(afterBackslash)).toEqual({ tooDeep: true, type: "x" });
  });

  it("counts the root as level 1: the limit passes, one more level does not", () => {
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(scanNesting(nest(MAX_JSON_DEPTH)).tooDeep).toBe(false);
    expect(scanNesting(nest(MAX_JSON_DEPTH + 1)).tooDeep).toBe(true);
  });

  it("reads the top-level type only, wherever it sits, escapes included", () => {
    const deep = `${"[".repeat(30)}${"]".repeat(30)}`;
    expect(scanNesting(`{"a":{"type":"inner"},"type" : "out\\"er","d":${deep}}`, 10)).toEqual({
      tooDeep: true,
      type: 'out"er',
    });
    expect(scanNesting(`{"a":"type","b":${deep}}`, 10)).toEqual({ tooDeep: true });
    expect(scanNesting(`{"type":7,"b":${deep}}`, 10)).toEqual({ tooDeep: true });
  });

  it("agrees with the parsed depth on arbitrary JSON, strings with brackets and escapes included", () => {
    const text = fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", " ") });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(text, tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 4 }), (v, limit) => {
        const raw = JSON.stringify(v);
        expect(scanNesting(raw, limit).tooDeep).toBe(depthOf(v) > limit);
      }),
      { numRuns: 500 },
    );
  });
});

describe("oversize", () => {
  it("measures text as UTF-8 and binary data by its byte length", () => {
    expect(oversize("x".repeat(11), 10)).toBe(11);
    expect(oversize("x".repeat(10), 10)).toBeUndefined();
    // Four characters, nine bytes: é is two, € three, and the emoji (a surrogate pair) four.
    expect(oversize("é€😀", 8)).toBe(9);
    // Text longer than the limit is over it whatever it holds: its length is the answer, not a count of every
    // byte (counting 64 MiB took 138–300 ms, issue 26 §3).
    expect(oversize("€".repeat(11), 10)).toBe(11);
    expect(oversize("é€😀", 9)).toBeUndefined();
    expect(oversize(new ArrayBuffer(12), 10)).toBe(12);
    expect(oversize(new Uint8Array(12), 10)).toBe(12);
    expect(oversize(new Blob(["x".repeat(12)]), 10)).toBe(12);
    expect(DEFAULT_MAX_FRAME_BYTES).toBe(16 * 1024 * 1024);
  });

  it("refuses a frame over maxBytes before parsing it, naming sizes but no content", () => {
    const raw = JSON.stringify({ type: "cf_agent_state", state: { secret: "s3cret".repeat(100) } });
    const parse = vi.spyOn(JSON, "parse");
    const r = parseServerFrame(raw, { maxBytes: 100 });
    expect(r).toEqual({
      kind: "error",
      reason: `frame of at least ${raw.length} bytes exceeds the limit of 100 bytes`,
      limit: "size",
    });
    expect(parse).not.toHaveBeenCalled();
    expect(parseServerFrame(raw, { maxBytes: raw.length }).kind).toBe("frame");
    expect(parseServerFrame(new ArrayBuffer(200), { maxBytes: 100 })).toMatchObject({ limit: "size" });
  });
});
