/**
 * Groups a transcript's message ids into a shallow tree of blocks for `ChatMessageList`. Why: to re-render one
 * row React walks every sibling of it (`bailoutOnAlreadyFinishedWork` clones the parent's child fibers) and,
 * for each fiber it walked, every child of that fiber (`bubbleProperties` when it completes). A flat list of
 * 2,000 memoized rows therefore costs thousands of fiber visits on every streamed commit although only one row
 * renders; flat blocks of 40 still cost about 2,000 (each block walks its rows). In a tree of blocks of about
 * `FANOUT` children, `LEVELS` deep, a commit visits about `FANOUT²` fibers per level: a few hundred at any
 * length up to tens of thousands of messages.
 *
 * Where a block starts depends on the ids themselves (content-defined, like rsync's chunks), not on positions,
 * and the depth is fixed: adding or removing a message changes only the blocks on its path, every other block
 * keeps its object (its memoized component skips) and its key, so rows keep their state. Pure, no React.
 */

/** About one block in this many starts a block of the level above (a power of two). */
const FANOUT = 8;
const FANOUT_BITS = 3;
/** Levels of blocks above the rows: 8³ = 512 messages per top block. */
const LEVELS = 3;
/** No block holds more children than this (a run of which none starts a block is cut here). */
export const MAX_BLOCK = 4 * FANOUT;

/** One block: the ids of its rows (level 0) or its blocks (above). `key` is its first id. */
export interface MessageBlock {
  readonly key: string;
  readonly level: number;
  readonly ids?: readonly string[];
  readonly blocks?: readonly MessageBlock[];
}

/**
 * The highest level at which `id` starts a block: a stable hash (FNV-1a), so the same id starts the same
 * blocks in every transcript; one id in `FANOUT^k` starts a block of level k.
 */
function levelOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  const zeros = h === 0 ? 32 : 31 - Math.clz32(h & -h);
  return Math.floor(zeros / FANOUT_BITS);
}

function same<T>(kept: readonly T[] | undefined, items: readonly T[], from: number, to: number): boolean {
  if (!kept || kept.length !== to - from) return false;
  for (let i = from; i < to; i++) if (kept[i - from] !== items[i]) return false;
  return true;
}

function* all(blocks: readonly MessageBlock[]): Generator<MessageBlock> {
  for (const b of blocks) {
    yield b;
    if (b.blocks) yield* all(b.blocks);
  }
}

/**
 * `ids` in order as the top blocks of a tree `LEVELS` deep. A block with the same content as one of `previous`
 * (same ids, or the same child blocks) is that same object, so a memoized block component does not re-render.
 * `previousIds`, the ids `previous` was made from, makes an append cheap: when `ids` starts with them, only the
 * last top block is built again (where every block starts depends only on the ids up to it, so the blocks
 * before it are the same), instead of reading all ids.
 */
export function messageBlocks(
  ids: readonly string[],
  previous: readonly MessageBlock[] = [],
  previousIds?: readonly string[],
): readonly MessageBlock[] {
  const last = previous.at(-1);
  const from = last && previousIds ? appendedFrom(ids, previousIds, last) : undefined;
  if (last && from !== undefined) return [...previous.slice(0, -1), ...build(ids.slice(from), [last])];
  return build(ids, previous);
}

function leaves(block: MessageBlock): number {
  return block.ids ? block.ids.length : (block.blocks ?? []).reduce((n, b) => n + leaves(b), 0);
}

/** Where the last top block `last` starts in `ids`, when `ids` is `previousIds` with ids appended. */
function appendedFrom(ids: readonly string[], previousIds: readonly string[], last: MessageBlock) {
  if (ids.length < previousIds.length) return undefined;
  for (let i = 0; i < previousIds.length; i++) if (ids[i] !== previousIds[i]) return undefined;
  const from = previousIds.length - leaves(last);
  return ids[from] === last.key ? from : undefined;
}

function build(ids: readonly string[], previous: readonly MessageBlock[]): readonly MessageBlock[] {
  const before = new Map<string, MessageBlock>();
  for (const b of all(previous)) before.set(`${b.level}:${b.key}`, b);
  const levels = ids.map(levelOf);
  const at = new Map<string, number>();
  ids.forEach((id, i) => {
    at.set(id, i);
  });
  // Level 0: runs of ids; each level above: runs of the blocks below, cut where a first id starts that level.
  const cut = <T>(
    items: readonly T[],
    first: (t: T) => string,
    level: number,
    make: (run: T[]) => MessageBlock,
  ) => {
    const out: MessageBlock[] = [];
    let start = 0;
    for (let i = 1; i <= items.length; i++) {
      if (
        i < items.length &&
        i - start < MAX_BLOCK &&
        (levels[at.get(first(items[i] as T)) as number] as number) <= level
      )
        continue;
      const key = first(items[start] as T);
      const kept = before.get(`${level}:${key}`);
      const content = level === 0 ? kept?.ids : kept?.blocks;
      out.push(kept && same<unknown>(content, items, start, i) ? kept : make(items.slice(start, i)));
      start = i;
    }
    return out;
  };
  let blocks = cut(
    ids,
    (id) => id,
    0,
    (run) => ({ key: run[0] as string, level: 0, ids: run }),
  );
  for (let level = 1; level < LEVELS; level++) {
    blocks = cut(
      blocks,
      (b) => b.key,
      level,
      (run) => ({ key: run[0]?.key as string, level, blocks: run }),
    );
  }
  return blocks;
}
