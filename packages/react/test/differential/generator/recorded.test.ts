/**
 * The generated server's stored copy of a streamed message is what the real server stored: built from the
 * recorded chunks, it equals the transcript the real server broadcast at the end of the recorded turn.
 */
import { describe, expect, it } from "vitest";
import { loadTranscript } from "../../../../../test-support/transcripts.ts";
import { type Chunk, StoredMessage } from "./recorded.ts";

/** Every chunk body received on `conn`, in order, and the last transcript the server broadcast there. */
function recording(file: string, conn: string) {
  const frames = loadTranscript("ai-chat", file)
    .filter((l) => l.dir === "in" && l.conn === conn && l.raw)
    .map((l) => JSON.parse(l.raw as string) as Record<string, unknown>);
  const chunks = frames
    .filter((f) => f.type === "cf_agent_use_chat_response" && typeof f.body === "string" && f.body !== "")
    .map((f) => JSON.parse(f.body as string) as Chunk);
  const updates = frames.filter((f) => f.type === "cf_agent_message_updated");
  const last = frames.filter((f) => f.type === "cf_agent_chat_messages").at(-1) as { messages: unknown[] };
  return { chunks, updates, final: last.messages.at(-1) as { id: string } };
}

describe("the generated server stores a streamed message as the real server did", () => {
  for (const [file, conn] of [
    ["observer", "observer"],
    ["reconnect", "conn2"],
  ] as const)
    it(`${file}: a text turn`, () => {
      const r = recording(file, conn);
      const m = new StoredMessage(r.final.id);
      // The reconnect recording replays the stream on the new socket: each chunk once.
      const seen = new Set<string>();
      for (const c of r.chunks) {
        const key = JSON.stringify(c);
        if (c.type === "text-delta" && seen.has(key)) continue;
        seen.add(key);
        m.apply(c);
      }
      expect(m.message()).toEqual(r.final);
    });

  for (const file of ["pay", "locate"])
    it(`${file}: a tool call, the server's update after the answer, the continuation`, () => {
      const r = recording(file, "main");
      const update = (r.updates[0] as { message: { parts: Record<string, unknown>[] } }).message;
      // The turn up to the gate, then the part as the server's update has it, then the continuation's chunks.
      const gateAt = r.chunks.findIndex((c) => c.type === "finish");
      const m = new StoredMessage(r.final.id);
      for (const c of r.chunks.slice(0, gateAt + 1)) m.apply(c);
      const after = new StoredMessage(r.final.id, update.parts as never);
      for (const c of r.chunks.slice(gateAt + 1)) after.apply(c);
      expect(m.message().parts.length).toBe(update.parts.length);
      expect(after.message()).toEqual(r.final);
    });
});
