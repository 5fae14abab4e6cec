import { describe, expect, it } from "vitest";
import { MAX_BLOCK, type MessageBlock, messageBlocks } from "./message-blocks.ts";

const idsOf = (n: number, prefix = "m") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function flatten(blocks: readonly MessageBlock[]): string[] {
  return blocks.flatMap((b) => (b.blocks ? flatten(b.blocks) : [...(b.ids ?? [])]));
}

function everyBlock(blocks: readonly MessageBlock[]): MessageBlock[] {
  return blocks.flatMap((b) => [b, ...(b.blocks ? everyBlock(b.blocks) : [])]);
}

/** Fibers React begins work on to re-render the row of `id`: at every level, the siblings on its path. */
function walkedFor(blocks: readonly MessageBlock[], id: string): number {
  let walked = blocks.length;
  let level: readonly MessageBlock[] = blocks;
  for (;;) {
    const on = level.find((b) => flatten([b]).includes(id)) as MessageBlock;
    if (!on.blocks) return walked + (on.ids?.length ?? 0);
    walked += on.blocks.length;
    level = on.blocks;
  }
}

describe("messageBlocks", () => {
  it("keeps every id once, in order, in blocks of at most MAX_BLOCK", () => {
    for (const n of [0, 1, 7, 2_000, 20_000]) {
      const ids = idsOf(n);
      const blocks = messageBlocks(ids);
      expect(flatten(blocks)).toEqual(ids);
      for (const b of everyBlock(blocks)) {
        expect((b.ids ?? b.blocks)?.length).toBeGreaterThan(0);
        expect((b.ids ?? b.blocks)?.length).toBeLessThanOrEqual(MAX_BLOCK);
        expect(b.key).toBe(flatten([b])[0]);
      }
    }
  });

  it("re-renders one row by walking a bounded number of fibers, not one per message", () => {
    for (const n of [2_000, 20_000]) {
      const ids = idsOf(n);
      const blocks = messageBlocks(ids);
      // A flat list walks n; here the last row (the one that streams) costs a few dozen.
      expect(walkedFor(blocks, ids.at(-1) as string)).toBeLessThan(n === 2_000 ? 120 : 200);
    }
  });

  it("appending a message keeps every block off its path as the same object", () => {
    const ids = idsOf(2_000);
    const before = messageBlocks(ids);
    const after = messageBlocks([...ids, "a1"], before);
    const kept = new Set(everyBlock(before));
    const changed = everyBlock(after).filter((b) => !kept.has(b));
    // The blocks holding a1: one per level (or a new one where a1 starts a block).
    expect(changed.length).toBeLessThanOrEqual(3);
    expect(changed.every((b) => flatten([b]).includes("a1"))).toBe(true);
  });

  it("removing a message keeps the blocks of every other part of the transcript", () => {
    const ids = idsOf(2_000);
    const before = messageBlocks(ids);
    const gone = "m1000";
    const after = messageBlocks(
      ids.filter((id) => id !== gone),
      before,
    );
    const kept = new Set(everyBlock(before));
    const changed = everyBlock(after).filter((b) => !kept.has(b));
    expect(changed.length).toBeLessThanOrEqual(3);
    // Every block that changed held the removed message (it is the one on its path).
    for (const b of changed) {
      const was = everyBlock(before).find((x) => x.level === b.level && x.key === b.key);
      expect(was && flatten([was]).includes(gone)).toBe(true);
    }
  });
});

describe("messageBlocks after an append (previousIds)", () => {
  it("builds the same tree as from scratch, keeping the same blocks, for appends of any size", () => {
    for (const n of [0, 1, 31, 33, 600, 2_000, 5_000]) {
      for (const added of [1, 2, 40, 700]) {
        const ids = idsOf(n, `r${n}-`);
        const before = messageBlocks(ids);
        const more = [...ids, ...idsOf(added, `n${n}-${added}-`)];
        const incremental = messageBlocks(more, before, ids);
        const fromScratch = messageBlocks(more, before);
        expect(incremental).toEqual(fromScratch);
        // The very same blocks are kept (a memoized block skips): the same ones as a full build keeps.
        const kept = new Set(everyBlock(before));
        expect(everyBlock(incremental).map((b) => kept.has(b))).toEqual(
          everyBlock(fromScratch).map((b) => kept.has(b)),
        );
      }
    }
  });

  it("builds from scratch when the ids are not the previous ones plus more", () => {
    const ids = idsOf(2_000);
    const before = messageBlocks(ids);
    const removed = ids.filter((id) => id !== "m10");
    expect(messageBlocks(removed, before, ids)).toEqual(messageBlocks(removed));
    const replaced = ["x", ...ids.slice(1), "a1"];
    expect(messageBlocks(replaced, before, ids)).toEqual(messageBlocks(replaced));
  });
});
