/**
 * `publishedChanges`: what a `MessageList` says changed between two snapshots it published. Readers (the row
 * hub of `@runboard/react`, the chat store's compaction count) trust it instead of comparing every message,
 * so each answer it gives is checked against a comparison of the two arrays.
 */
import type { UIMessage, UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { MessageList, publishedChanges } from "./message-list.ts";

const ch = (c: Record<string, unknown>) => c as unknown as UIMessageChunk;
const user = (id: string, t: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text: t }] });
const answer = (id: string, t: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text: t }],
});
const history = () => [
  user("u0", "a"),
  answer("a1", "b"),
  user("u2", "c"),
  answer("a3", "d"),
  user("u4", "e"),
];

/** The indices where `next` holds another object than `prev` (every one past its end), by comparing them. */
function compared(next: readonly UIMessage[], prev: readonly UIMessage[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < next.length; i++) if (next[i] !== prev[i]) out.push(i);
  return out;
}

/** What every hint promises: `prev` with messages changed in place (same ids) and new ones appended. */
function expectHintHolds(next: readonly UIMessage[], prev: readonly UIMessage[], hint: readonly number[]) {
  expect(next.length).toBeGreaterThanOrEqual(prev.length);
  expect(hint).toEqual(compared(next, prev));
  const before = new Set(prev.map((m) => m.id));
  for (const i of hint) {
    if (i < prev.length) expect(next[i]?.id).toBe(prev[i]?.id);
    else expect(before.has(next[i]?.id as string)).toBe(false);
  }
}

/** The hint is the comparison's answer. */
function expectExact(next: readonly UIMessage[], prev: readonly UIMessage[], expected: number[]) {
  expect(compared(next, prev)).toEqual(expected);
  const hint = publishedChanges(next, prev);
  expect(hint).toEqual(expected);
  expectHintHolds(next, prev, hint as number[]);
}

describe("publishedChanges", () => {
  it("names the one message a stream writes in the middle of the transcript, snapshot after snapshot", () => {
    const list = new MessageList(history());
    const p0 = list.messages;
    list.applyChunk("s", ch({ type: "start", messageId: "a1" }));
    list.applyChunk("s", ch({ type: "text-start", id: "t" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "t", delta: "new " }));
    const p1 = list.messages;
    expectExact(p1, p0, [1]);
    list.applyChunk("s", ch({ type: "text-delta", id: "t", delta: "text" }));
    const p2 = list.messages;
    expectExact(p2, p1, [1]);
    expect(p2[1]?.parts[0]).toMatchObject({ text: "new text" });
    // Nothing changed: the same array, and no message named.
    expect(list.messages).toBe(p2);
    expect(publishedChanges(p2, p2)).toEqual([]);
  });

  it("names both messages when a tool result lands in an earlier message while another one streams", () => {
    const withCall: UIMessage = {
      id: "a1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "call_1", state: "input-available", input: {} } as never],
    };
    const list = new MessageList([user("u0", "a"), withCall, user("u2", "c"), answer("a3", "d")]);
    list.applyChunk("s", ch({ type: "start", messageId: "a3" }));
    const p0 = list.messages;
    list.applyChunk("s", ch({ type: "text-start", id: "t" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "t", delta: "x" }));
    list.applyChunk("s", ch({ type: "tool-output-available", toolCallId: "call_1", output: 42 }));
    const p1 = list.messages;
    expectExact(p1, p0, [1, 3]);
    expect(p1[1]?.parts[0]).toMatchObject({ state: "output-available", output: 42 });
    // The earlier snapshot still shows the call waiting.
    expect(p0[1]?.parts[0]).toMatchObject({ state: "input-available" });
  });

  it("names a message whose metadata was merged, and one replaced by id", () => {
    const list = new MessageList(history());
    list.applyChunk("s", ch({ type: "start", messageId: "a3" }));
    const p0 = list.messages;
    list.applyChunk("s", ch({ type: "message-metadata", messageMetadata: { compactedTextParts: [0] } }));
    const p1 = list.messages;
    expectExact(p1, p0, [3]);
    expect(p1[3]?.metadata).toEqual({ compactedTextParts: [0] });
    list.upsert(user("u2", "edited"));
    expect(list.applyMessageUpdated(answer("a1", "from the server"))).toBe(true);
    const p2 = list.messages;
    expectExact(p2, p1, [1, 2]);
  });

  it("names appended messages past the end of the last snapshot", () => {
    const list = new MessageList(history());
    const p0 = list.messages;
    list.applyChunk("s", ch({ type: "start", messageId: "a5" }));
    const added = list.messages;
    expect(added).toHaveLength(6);
    expectExact(added, p0, [5]);
    // A user turn and a stream without a start id, together with a change to a message before them.
    list.upsert(user("u6", "f"));
    list.upsert(user("u2", "edited"));
    list.applyChunk("s2", ch({ type: "text-delta", id: "t", delta: "x" }));
    const more = list.messages;
    expect(more.map((m) => m.id)).toEqual(["u0", "a1", "u2", "a3", "u4", "a5", "u6", "stream:s2"]);
    expectExact(more, added, [2, 6, 7]);
  });

  it("says nothing when a message was removed or the transcript replaced", () => {
    const list = new MessageList(history());
    list.applyChunk("s", ch({ type: "start", messageId: "a5" }));
    list.upsert(user("u6", "f"));
    const upserted = list.messages;
    list.truncate(5);
    const truncated = list.messages;
    expect(truncated).toHaveLength(5);
    expect(publishedChanges(truncated, upserted)).toBeUndefined();
    // Removed, then one appended again: still unknown.
    list.truncate(4);
    list.upsert(user("u9", "g"));
    expect(list.messages).toHaveLength(5);
    expect(publishedChanges(list.messages, truncated)).toBeUndefined();

    // A change not yet published is dropped with the transcript it was made to; the replacement (shorter,
    // other ids) is unknown against what was shown before, not "nothing changed".
    list.upsert(user("u4", "edited"));
    const replacement = [...history().slice(0, 3), answer("a5", "other")];
    list.replaceAll(replacement);
    expect(list.messages).toBe(replacement);
    expect(publishedChanges(list.messages, truncated)).toBeUndefined();
    // A change after the replacement is named against the replacement itself, and only that change.
    list.applyChunk("s", ch({ type: "text-start", id: "t" }));
    list.applyChunk("s", ch({ type: "text-delta", id: "t", delta: "!" }));
    expectExact(list.messages, replacement, [3]);
  });

  it("links only consecutive snapshots", () => {
    const list = new MessageList(history());
    list.applyChunk("s", ch({ type: "start", messageId: "a1" }));
    const p0 = list.messages;
    list.applyChunk("s", ch({ type: "message-metadata", messageMetadata: { n: 1 } }));
    const p1 = list.messages;
    list.applyChunk("s", ch({ type: "message-metadata", messageMetadata: { n: 2 } }));
    const p2 = list.messages;
    expectExact(p2, p1, [1]);
    // A reader that missed p1 compares for itself; and p1 no longer names p0 (else every snapshot would keep
    // all those before it alive).
    expect(publishedChanges(p2, p0)).toBeUndefined();
    expect(publishedChanges(p1, p0)).toBeUndefined();
    // Arrays no list published.
    expect(publishedChanges([...p2], p2)).toBeUndefined();
  });

  it("agrees with a comparison of the arrays over a long random run of edits", () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const list = new MessageList(history());
    let prev = list.messages;
    let hinted = 0;
    let appended = 0;
    let next = 0;
    for (let step = 0; step < 2000; step++) {
      const ms = list.messages;
      const pick = ms[rnd(ms.length)] as UIMessage;
      const op = rnd(100);
      if (op < 40) {
        // A stream writing a message somewhere in the transcript (restarting it, then deltas).
        const s = `s${rnd(3)}`;
        if (!list.hasStream(s)) {
          const target = ms.filter((m) => m.role === "assistant")[rnd(3)]?.id ?? `n${next++}`;
          list.applyChunk(s, ch({ type: "start", messageId: target }));
          list.applyChunk(s, ch({ type: "text-start", id: "t" }));
        }
        list.applyChunk(s, ch({ type: "text-delta", id: "t", delta: "x" }));
        if (rnd(10) === 0) list.endStream(s);
      } else if (op < 50)
        list.applyChunk(`s${rnd(3)}`, ch({ type: "message-metadata", messageMetadata: { op } }));
      else if (op < 58) list.upsert({ ...pick, metadata: { step } });
      else if (op < 64) list.applyMessageUpdated({ ...pick, parts: [] });
      else if (op < 67) list.upsert(user(`n${next++}`, "new"));
      else if (op < 69) list.truncate(Math.max(3, ms.length - 1));
      else if (op < 70) {
        list.endAllStreams();
        list.replaceAll(history());
      }
      if (rnd(3) !== 0) continue;
      const cur = list.messages;
      const hint = publishedChanges(cur, prev);
      if (hint) {
        hinted++;
        if (cur.length > prev.length) appended++;
        expectHintHolds(cur, prev, hint);
      }
      prev = cur;
    }
    // The run exercised the hint, not only its absence.
    expect(hinted).toBeGreaterThan(200);
    expect(appended).toBeGreaterThan(10);
  });
});
