/**
 * Keeps the conversation's end in view while it grows, as long as the person is at the end: someone who scrolled
 * up to read is left where they are. The scroller is the nearest element around the conversation that scrolls
 * (the conversation itself on wide screens, the area that also holds the side column on narrow ones), looked up
 * each time, so a resize across the breakpoint needs nothing.
 */
import { type RefObject, useEffect } from "react";

/** How close to the end still counts as "at the end", in pixels. */
const SLACK = 80;

/** The nearest element from `el` outwards that scrolls vertically, else the page. */
function scrollerOf(el: HTMLElement): HTMLElement {
  for (let e: HTMLElement | null = el; e; e = e.parentElement) {
    const y = getComputedStyle(e).overflowY;
    if (y === "auto" || y === "scroll") return e;
  }
  return document.scrollingElement as HTMLElement;
}

export function useStickToBottom(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const atEnd = (s: HTMLElement) => s.scrollHeight - s.scrollTop - s.clientHeight <= SLACK;
    let stuck = true;
    // Scroll events do not bubble; listening in the capture phase hears whichever element scrolls.
    const onScroll = () => {
      stuck = atEnd(scrollerOf(el));
    };
    const follow = () => {
      if (!stuck) return;
      const s = scrollerOf(el);
      s.scrollTop = s.scrollHeight;
    };
    document.addEventListener("scroll", onScroll, { capture: true, passive: true });
    const sizes = new ResizeObserver(follow);
    // Only the conversation: a panel opening in the side column (above it on narrow screens) is scrolled to
    // by that panel, not followed to the conversation's end.
    sizes.observe(el.firstElementChild ?? el);
    return () => {
      sizes.disconnect();
      document.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [ref]);
}
