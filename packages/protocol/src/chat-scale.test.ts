// Long chat sessions (issue 26 §2): what a frame costs must not grow with the session. Counted, not timed: the
// entries of Maps and Sets a frame walks, and the parts a tool chunk reads.
import type { UIMessage, UIMessageChunk } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatResponseFrame } from "./frames.ts";
import { MessageList } from "./message-list.ts";
import { MAX_OTHER_LIVE_STREAMS, type ResumeCommand, ResumeMachine } from "./resume-machine.ts";

const machine = () => {
  let n = 0;
  return new ResumeMachine({ createId: () => `p${++n}` });
};
const resp = (id: string, extra: Partial<ChatResponseFrame> = {}): ChatResponseFrame => ({
  type: "cf_agent_use_chat_response",
  id,
  body: '{"type":"text-delta","id":"t","delta":"x"}',
  done: false,
  ...extra,
});
const ended = (cmds: ResumeCommand[]) =>
  cmds.flatMap((c) => (c.type === "stream-ended" ? [[c.streamId, c.reason]] : []));
const commandsOf = (m: ResumeMachine, frame: ChatResponseFrame) => {
  const r = m.route(frame);
  return r.accept ? r.commands : [];
};

/**
 * Counts the entries every Map and Set iteration hands out while `fn` runs (`for…of`, spread, `keys()`,
 * `values()`, `entries()`, `forEach`), whoever iterates.
 */
const restore: Array<() => void> = [];
afterEach(() => {
  for (const r of restore.splice(0)) r();
});
function countIterated(fn: () => void): number {
  let visited = 0;
  for (const proto of [Map.prototype, Set.prototype] as unknown as Array<Record<PropertyKey, unknown>>) {
    for (const key of ["entries", "keys", "values", Symbol.iterator, "forEach"] as PropertyKey[]) {
      const original = Object.getOwnPropertyDescriptor(proto, key);
      if (!original || typeof original.value !== "function") continue;
      const method = original.value as (...a: unknown[]) => unknown;
      Object.defineProperty(proto, key, {
        ...original,
        value(this: unknown, ...args: unknown[]) {
          if (key === "forEach") {
            const cb = args[0] as (...a: unknown[]) => unknown;
            return method.call(
              this,
              (...a: unknown[]) => {
                visited++;
                return cb(...a);
              },
              args[1],
            );
          }
          const it = method.apply(this, args) as Iterator<unknown>;
          const next = it.next.bind(it);
          return Object.assign(Object.create(Object.getPrototypeOf(it)), {
            next() {
              const r = next();
              if (!r.done) visited++;
              return r;
            },
            [Symbol.iterator]() {
              return this;
            },
          });
        },
      });
      restore.push(() => Object.defineProperty(proto, key, original));
    }
  }
  try {
    fn();
  } finally {
    for (const r of restore.splice(0)) r();
  }
  return visited;
}

describe("ResumeMachine: streams that never end", () => {
  it("keeps at most MAX_OTHER_LIVE_STREAMS streams it did not request: the one heard of least recently is dropped, once", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "mine" });
    const drops: unknown[] = [];
    for (let i = 0; i < MAX_OTHER_LIVE_STREAMS; i++) drops.push(...ended(commandsOf(m, resp(`s${i}`))));
    // This tab's own request does not count against the cap.
    expect(drops).toEqual([]);
    expect(m.activeStreams.size).toBe(MAX_OTHER_LIVE_STREAMS + 1);
    // s0 is heard of again, so s1 is now the one heard of least recently.
    commandsOf(m, resp("s0"));
    expect(ended(commandsOf(m, resp("late1")))).toEqual([["s1", "dropped"]]);
    expect(ended(commandsOf(m, resp("late2")))).toEqual([["s2", "dropped"]]);
    expect(m.activeStreams.size).toBe(MAX_OTHER_LIVE_STREAMS + 1);
    expect(m.activeStreams.get("mine")).toBe("local");
    expect(m.activeStreams.has("s0")).toBe(true);
    // A dropped stream's later chunks, and its done, are ignored: it is not followed again, nor dropped twice.
    expect(m.route(resp("s1"))).toEqual({ accept: false, reason: "stream already ended" });
    expect(m.route(resp("s1", { body: "", done: true }))).toMatchObject({ accept: false });
    expect(m.activeStreams.has("s1")).toBe(false);
    expect(m.isServerStreaming).toBe(true);
  });

  it("a stream the cap dropped no longer holds a probe that waits for it", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "frame", frame: { type: "cf_agent_stream_resuming", id: "acked" } });
    // A continuation's probe waits while a stream this socket ACKed is live (docs/protocol.md#probe-after-ack).
    expect(m.handle({ type: "expect-continuation" })).toEqual([]);
    const out: ResumeCommand[] = [];
    for (let i = 0; i < MAX_OTHER_LIVE_STREAMS; i++) out.push(...commandsOf(m, resp(`s${i}`)));
    expect(ended(out)).toEqual([["acked", "dropped"]]);
    expect(out).toContainEqual({
      type: "send",
      frame: { type: "cf_agent_stream_resume_request", probeId: "p1" },
    });
  });

  it("a frame and the reads of the live streams visit a bounded number of entries, however many streams never ended", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    for (let i = 0; i < 2_000; i++) m.route(resp(`s${i}`));
    // What the chat store does per frame: route it, then read the live streams for its snapshot.
    const visited = countIterated(() => {
      for (let i = 0; i < 10; i++) {
        m.route(resp(`more${i}`));
        for (const _ of m.activeStreams);
        void m.isServerStreaming;
      }
    });
    expect(visited).toBeLessThanOrEqual(10 * 4 * (MAX_OTHER_LIVE_STREAMS + 1));
  });

  it("reading the live streams again without a change visits nothing", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    for (let i = 0; i < 20; i++) m.route(resp(`s${i}`));
    const first = m.activeStreams;
    const visited = countIterated(() => {
      for (let i = 0; i < 100; i++) {
        m.route(resp("s3"));
        expect(m.activeStreams).toBe(first);
      }
    });
    expect(visited).toBe(0);
  });
});

const ch = (c: Record<string, unknown>) => c as unknown as UIMessageChunk;

/** An assistant message with `n` tool calls awaiting their output, whose `toolCallId` reads are counted in `reads.n`. */
function manyTools(n: number, reads: { n: number }): UIMessage {
  const parts = Array.from({ length: n }, (_, i) => {
    const part: Record<string, unknown> = {
      type: "tool-search",
      state: "input-available",
      input: { i },
    };
    Object.defineProperty(part, "toolCallId", {
      enumerable: true,
      get: () => {
        reads.n++;
        return `old_${i}`;
      },
    });
    return part;
  });
  return { id: "a1", role: "assistant", parts: parts as UIMessage["parts"] };
}

describe("MessageList: a message with thousands of tool calls", () => {
  it("a tool chunk finds its part without reading every part", () => {
    const reads = { n: 0 };
    const list = new MessageList([manyTools(5_000, reads)]);
    // A continuation appends to the last assistant message, keeping its 5,000 calls.
    const flags = { continuation: true };
    list.applyChunk("c", ch({ type: "start" }), flags);
    list.applyChunk(
      "c",
      ch({ type: "tool-input-available", toolCallId: "new_0", toolName: "search", input: {} }),
      flags,
    );
    reads.n = 0;
    for (let i = 1; i <= 100; i++) {
      const id = `new_${i}`;
      list.applyChunk(
        "c",
        ch({ type: "tool-input-available", toolCallId: id, toolName: "search", input: {} }),
        flags,
      );
      list.applyChunk("c", ch({ type: "tool-output-available", toolCallId: id, output: i }), flags);
      // Published every other call, as a store does per animation frame: the index survives copy-on-write.
      if (i % 2 === 0) void list.messages;
    }
    // 200 tool chunks; a walk over the parts per chunk read 5,000 ids each.
    expect(reads.n).toBeLessThan(200);
    const parts = list.messages[0]!.parts as Array<{ toolCallId: string; state: string; output?: unknown }>;
    expect(parts).toHaveLength(5_101);
    expect(parts[5_100]).toMatchObject({ toolCallId: "new_100", state: "output-available", output: 100 });
    // An output for an old call still lands on it.
    list.applyChunk("c", ch({ type: "tool-output-available", toolCallId: "old_7", output: "late" }), flags);
    expect(list.messages[0]!.parts[7]).toMatchObject({ state: "output-available", output: "late" });
  });

  it("a tool chunk after the parts were replaced finds the part where it is now", () => {
    const list = new MessageList([{ id: "u1", role: "user", parts: [{ type: "text", text: "go" }] }]);
    const call = (id: string) =>
      list.applyChunk(
        "r",
        ch({ type: "tool-input-available", toolCallId: id, toolName: "search", input: {} }),
      );
    list.applyChunk("r", ch({ type: "start", messageId: "a1" }));
    call("x");
    call("y");
    // The server's copy puts the calls in another order, with text before them (a `cf_agent_message_updated`).
    list.applyMessageUpdated({
      id: "a1",
      role: "assistant",
      parts: [
        { type: "text", text: "first" },
        { type: "tool-search", toolCallId: "y", state: "input-available", input: {} },
        { type: "tool-search", toolCallId: "x", state: "input-available", input: {} },
      ] as UIMessage["parts"],
    });
    list.applyChunk("r", ch({ type: "tool-output-available", toolCallId: "x", output: "X" }));
    // A call the replaced parts gained is found, not added twice.
    list.upsert({
      ...list.messages[1]!,
      parts: [
        ...list.messages[1]!.parts,
        { type: "tool-search", toolCallId: "z", state: "input-streaming", input: undefined },
      ] as UIMessage["parts"],
    });
    list.applyChunk(
      "r",
      ch({ type: "tool-input-available", toolCallId: "z", toolName: "search", input: { q: 1 } }),
    );
    const parts = list.messages[1]!.parts as Array<Record<string, unknown>>;
    expect(parts.map((p) => [p.toolCallId, p.state, p.output])).toEqual([
      [undefined, undefined, undefined],
      ["y", "input-available", undefined],
      ["x", "output-available", "X"],
      ["z", "input-available", undefined],
    ]);
  });
});
