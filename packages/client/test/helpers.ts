/** Small helpers the client's tests share. */
import type { UIMessage } from "ai";

/**
 * Polls until `pred` holds; fails naming `what` after `ms`. The limit bounds a hang, never a pace: a busy CI
 * machine (load 12 on 2 cores) took over 15 s for a research turn that takes 2 s when quiet, so no test passes
 * a shorter one. Tests never assert on the time it took.
 */
export async function until(pred: () => boolean, what = "condition", ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The text parts of a message, joined. */
export const textOf = (m: Pick<UIMessage, "parts"> | undefined): string =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

/** A fresh instance name per test, so tests never share an agent. */
export const room = (prefix: string): string => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Counts every read of an element of `array` from now on (the array keeps its identity): what a reader of a
 * published snapshot looked at. Returns the count so far.
 */
export function countReads(array: readonly unknown[]): () => number {
  let reads = 0;
  array.forEach((value, i) => {
    Object.defineProperty(array, i, {
      get: () => {
        reads++;
        return value;
      },
    });
  });
  return () => reads;
}
