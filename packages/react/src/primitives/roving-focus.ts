/**
 * Roving focus for a composite widget (tabs, toolbars, lists): one item in the Tab order, arrow keys move
 * between items, Home/End jump to the ends. `dir="rtl"` swaps Left and Right, as Radix does, so "next" is
 * the arrow pointing the way the text reads. With `activation: "automatic"` moving focus also selects
 * (the WAI-ARIA tabs default); with `"manual"` the user selects with Enter or Space (the item's click).
 */
import type { KeyboardEvent } from "react";

/** Which arrows move, which way is "next", whether moving selects, and whether the ends wrap. */
export interface RovingFocusOptions {
  orientation?: "horizontal" | "vertical";
  dir?: "ltr" | "rtl";
  activation?: "automatic" | "manual";
  loop?: boolean;
}

/** The index focus should move to for `key`, or `null` when the key is not a roving key. */
export function rovingTarget(
  key: string,
  from: number,
  count: number,
  { orientation = "horizontal", dir = "ltr", loop = true }: RovingFocusOptions = {},
): number | null {
  if (count === 0 || from < 0) return null;
  const horizontal = orientation === "horizontal";
  const prevKey = horizontal ? (dir === "rtl" ? "ArrowRight" : "ArrowLeft") : "ArrowUp";
  const nextKey = horizontal ? (dir === "rtl" ? "ArrowLeft" : "ArrowRight") : "ArrowDown";
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (key === prevKey) return from > 0 ? from - 1 : loop ? count - 1 : from;
  if (key === nextKey) return from < count - 1 ? from + 1 : loop ? 0 : from;
  return null;
}

/**
 * A keydown handler for the container: finds which item holds focus, moves focus to the target item and,
 * with automatic activation, selects it. `items` are the item elements in display order.
 */
export function rovingKeyDown<E extends HTMLElement>(
  items: () => readonly (HTMLElement | null | undefined)[],
  select: (index: number) => void,
  options: RovingFocusOptions = {},
): (event: KeyboardEvent<E>) => void {
  return (event) => {
    const list = items();
    const from = list.findIndex((el) => el != null && el === event.target);
    const to = rovingTarget(event.key, from, list.length, options);
    if (to === null) return;
    event.preventDefault();
    list[to]?.focus();
    if ((options.activation ?? "automatic") === "automatic") select(to);
  };
}
