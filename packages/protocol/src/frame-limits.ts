/**
 * Limits a frame must meet before it is parsed: its size, and how deeply it nests. Both are read from the raw
 * text in one pass at most, so a hostile frame is refused without building its structure (a 10 MB frame nested
 * 5 million levels deep took seconds to parse and walk).
 */

/**
 * How deeply a frame (or a chunk body) may nest objects and arrays. `JSON.parse` reads any depth, but
 * `JSON.stringify` recurses and overflows the stack at a few thousand levels: a transcript that deep was
 * accepted, and every later `sendMessage` then failed with a RangeError, since a request carries the transcript
 * back (found by the fuzz test). No server can produce such a frame with `JSON.stringify` either.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * The default largest frame a client accepts, in bytes (16 MiB). A chat transcript with long tool outputs can
 * be several MB; anything far beyond is refused before it is parsed.
 */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The UTF-8 size of `text` in bytes, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    // A surrogate pair is two units and four bytes; any other unit past ASCII is two or three bytes.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 2;
        i++;
        continue;
      }
    }
    bytes += c < 0x800 ? 1 : 2;
  }
  return bytes;
}

/** A `Blob` (a socket's binary frame by default), told by its shape: this package has no DOM types. */
const isBlob = (v: unknown): v is { size: number } =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { size?: unknown }).size === "number" &&
  typeof (v as { arrayBuffer?: unknown }).arrayBuffer === "function";

/**
 * The size in bytes of a frame's data when it is more than `max`, else undefined. Text is measured as UTF-8
 * (what came over the wire); binary data (`ArrayBuffer`, typed arrays, `Blob`) by its byte length. Text is only
 * counted when its length alone cannot decide: every UTF-16 unit is one to three UTF-8 bytes, so text of at most
 * `max / 3` units fits, and text of more than `max` units does not — then its length is returned, a lower bound
 * of its size, since counting 64 MiB of text took 138–300 ms (issue 26 §3).
 *
 * @example
 * oversize("x".repeat(20), 10); // 20
 * oversize("€".repeat(20), 10); // 20 (at least; 60 bytes in UTF-8)
 * oversize("short", 10); // undefined
 */
export function oversize(data: unknown, max: number): number | undefined {
  let size: number;
  if (typeof data === "string") {
    if (data.length * 3 <= max) return undefined;
    if (data.length > max) return data.length;
    size = utf8Length(data);
  } else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) size = data.byteLength;
  else if (isBlob(data)) size = data.size;
  else return undefined;
  return size > max ? size : undefined;
}

/** What the depth scan found: whether the text nests too deeply, and its top-level `type` when it saw one. */
export interface NestingScan {
  tooDeep: boolean;
  /** The top-level object's string `type`, read only when the text was too deep (so it can be reported). */
  type?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** The index of the quote that closes the string whose opening quote is at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let i = open;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i < 0) return -1;
    // A quote preceded by an odd run of backslashes is escaped.
    let slashes = 0;
    for (let j = i - 1; text.charCodeAt(j) === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return i;
  }
}

/**
 * Scans raw JSON text for nesting deeper than `limit` without parsing it: one pass that counts brackets
 * outside strings (strings are skipped whole, escaped quotes included) and stops at the first level past the
 * limit. Text of up to twice the limit is not scanned, since each level costs two characters: that is every
 * frame of a streaming reply. The root object or array is level 1. Malformed text is left to `JSON.parse`.
 *
 * @example
 * scanNesting('{"type":"x","a":"[[[["}', 2).tooDeep; // false: brackets in a string do not count
 * scanNesting('{"type":"x","a":[[1]]}', 2); // { tooDeep: true, type: "x" }
 */
export function scanNesting(text: string, limit: number = MAX_JSON_DEPTH): NestingScan {
  if (text.length <= 2 * limit) return { tooDeep: false };
  let depth = 0;
  // The top-level key just read and where its string ended, to recover the frame's `type` for the report.
  let type: string | undefined;
  let lastKeyWasType = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return { tooDeep: false };
      if (depth === 1) {
        if (lastKeyWasType) {
          type = readString(text, i, end);
          lastKeyWasType = false;
        } else lastKeyWasType = end - i === 5 && text.startsWith('"type"', i) && nextIsColon(text, end + 1);
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      lastKeyWasType = false;
      if (++depth > limit) return type === undefined ? { tooDeep: true } : { tooDeep: true, type };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c !== 0x3a && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) lastKeyWasType = false;
  }
  return { tooDeep: false };
}

function nextIsColon(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

/** The JSON string between the quotes at `open` and `end`, or undefined if it is not valid. */
function readString(text: string, open: number, end: number): string | undefined {
  const inner = text.slice(open + 1, end);
  if (!inner.includes("\\")) return inner;
  try {
    return JSON.parse(text.slice(open, end + 1)) as string;
  } catch {
    return undefined;
  }
}
