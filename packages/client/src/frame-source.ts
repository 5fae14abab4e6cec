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

const frames = new WeakMap<object, { data: unknown; parsed: ParseResult<ServerFrame> }>();
const chunks = new WeakMap<object, ChunkResult>();

/**
 * The parsed frame of a `message` event (or any `{ data }`), parsed on the first ask only. A frame larger than
 * `maxBytes` is refused unparsed. The first reader's limit is the one applied: an `AgentClient` reads each
 * frame with its `maxFrameBytes` before any store hears it; stores on another socket read with the default.
 */
export function readFrame(
  event: { data?: unknown },
  maxBytes: number = DEFAULT_MAX_FRAME_BYTES,
): ParseResult<ServerFrame> {
  const cached = frames.get(event);
  // A test double may dispatch one event object again with new data: that is a new frame.
  if (cached && cached.data === event.data) return cached.parsed;
  const parsed = parseServerFrame(event.data, { maxBytes });
  frames.set(event, { data: event.data, parsed });
  return parsed;
}

/** The chunk in a chat response frame's `body`, parsed on the first ask only. */
export function readChunk(frame: ChatResponseFrame): ChunkResult {
  const cached = chunks.get(frame);
  if (cached) return cached;
  const parsed = parseChunkBody(frame.body);
  chunks.set(frame, parsed);
  return parsed;
}
