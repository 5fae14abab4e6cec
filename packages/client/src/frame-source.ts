/**
 * Every frame is parsed once, however many stores listen. The connection, the chat store, the run store and
 * the approval stores all hear the same `message` event object (an `AgentClient` and the official `useAgent`
 * socket hand each listener the same event), so the parse result is kept per event object, and a chat
 * chunk's body per frame object. A store that asks again gets the same result without parsing again.
 */
import {
  type ChatResponseFrame,
  type ChunkResult,
  type ParseResult,
  parseChunkBody,
  parseServerFrame,
  type ServerFrame,
} from "@runboard/protocol";

const frames = new WeakMap<object, { data: unknown; parsed: ParseResult<ServerFrame> }>();
const chunks = new WeakMap<object, ChunkResult>();

/** The parsed frame of a `message` event (or any `{ data }`), parsed on the first ask only. */
export function readFrame(event: { data?: unknown }): ParseResult<ServerFrame> {
  const cached = frames.get(event);
  // A test double may dispatch one event object again with new data: that is a new frame.
  if (cached && cached.data === event.data) return cached.parsed;
  const parsed = parseServerFrame(event.data);
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
