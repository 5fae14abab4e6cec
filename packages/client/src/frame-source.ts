/**
 * Every frame is parsed once, however many stores listen. The connection, the chat store, the run store and
 * the approval stores all hear the same `message` event object (an `AgentClient` and the official `useAgent`
 * socket hand each listener the same event), so the parse result is kept per event object, and a chat
 * chunk's body per frame object. A store that asks again gets the same result without parsing again. The
 * limits (size, nesting) are checked with that one parse, before `JSON.parse`.
 */
import {
  type ChatResponseFrame,
  type ChunkResult,
  DEFAULT_MAX_FRAME_BYTES,
  type ParseResult,
  parseChunkBody,
  parseServerFrame,
  type ServerFrame,
} from "@runboard/protocol";

/**
 * The last few parses of small frames, newest at `next - 1`. Every listener of one socket event runs before the
 * next event is dispatched, so a handful of entries serves them all (a nested dispatch in between at most costs
 * a parse again). A `WeakMap` keyed by each event cost as much as the parse itself on the streaming path (an
 * ephemeron entry per frame, and the GC work of dropping it): see the paced chat bench in bench/RESULTS.md.
 * Large frames (a transcript) are rare and keyed weakly, so a ring never holds megabytes after a chat is idle.
 */
const RECENT = 8;
/** Frames (and chunk bodies) longer than this, in UTF-16 units, are cached by a `WeakMap` instead. */
const SMALL = 64 * 1024;
const frameKeys: ({ data?: unknown } | undefined)[] = new Array(RECENT).fill(undefined);
const frameData: unknown[] = new Array(RECENT).fill(undefined);
const frameParsed: (ParseResult<ServerFrame> | undefined)[] = new Array(RECENT).fill(undefined);
let nextFrame = 0;
const chunkKeys: (ChatResponseFrame | undefined)[] = new Array(RECENT).fill(undefined);
const chunkParsed: (ChunkResult | undefined)[] = new Array(RECENT).fill(undefined);
let nextChunk = 0;
const largeFrames = new WeakMap<object, { data: unknown; parsed: ParseResult<ServerFrame> }>();
const largeChunks = new WeakMap<object, ChunkResult>();

const isSmall = (data: unknown): boolean => typeof data === "string" && data.length <= SMALL;

/** The slot of `key` among the recent entries (newest first), or -1. */
function slotOf<K>(keys: readonly (K | undefined)[], key: K, next: number): number {
  for (let k = 1; k <= RECENT; k++) {
    const i = (next - k + RECENT) % RECENT;
    if (keys[i] === key) return i;
  }
  return -1;
}

/**
 * The parsed frame of a `message` event (or any `{ data }`), parsed on the first ask only. A frame larger than
 * `maxBytes` is refused unparsed. The first reader's limit is the one applied: an `AgentClient` reads each
 * frame with its `maxFrameBytes` before any store hears it; stores on another socket read with the default.
 */
export function readFrame(
  event: { data?: unknown },
  maxBytes: number = DEFAULT_MAX_FRAME_BYTES,
): ParseResult<ServerFrame> {
  if (!isSmall(event.data)) {
    const cached = largeFrames.get(event);
    if (cached && cached.data === event.data) return cached.parsed;
    const parsed = parseServerFrame(event.data, { maxBytes });
    largeFrames.set(event, { data: event.data, parsed });
    return parsed;
  }
  const i = slotOf(frameKeys, event, nextFrame);
  // A test double may dispatch one event object again with new data: that is a new frame.
  if (i >= 0 && frameData[i] === event.data) return frameParsed[i] as ParseResult<ServerFrame>;
  const parsed = parseServerFrame(event.data, { maxBytes });
  const at = i >= 0 ? i : nextFrame;
  if (i < 0) nextFrame = (nextFrame + 1) % RECENT;
  frameKeys[at] = event;
  frameData[at] = event.data;
  frameParsed[at] = parsed;
  return parsed;
}

/** The chunk in a chat response frame's `body`, parsed on the first ask only. */
export function readChunk(frame: ChatResponseFrame): ChunkResult {
  if (!isSmall(frame.body)) {
    const cached = largeChunks.get(frame);
    if (cached) return cached;
    const parsed = parseChunkBody(frame.body);
    largeChunks.set(frame, parsed);
    return parsed;
  }
  const i = slotOf(chunkKeys, frame, nextChunk);
  if (i >= 0) return chunkParsed[i] as ChunkResult;
  const parsed = parseChunkBody(frame.body);
  chunkKeys[nextChunk] = frame;
  chunkParsed[nextChunk] = parsed;
  nextChunk = (nextChunk + 1) % RECENT;
  return parsed;
}
