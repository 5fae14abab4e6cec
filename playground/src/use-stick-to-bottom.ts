/**
 * Keeps the conversation's end in view while it grows, as long as the person is at the end: someone who scrolled
 * up to read is left where they are. The scroller is the element when it scrolls itself (the wide layout) and the
 * page when it does not (the narrow layout, where the page scrolls).
 */
import { type RefObject, useEffect } from "react";

/** How close to the end still counts as "at the end", in pixels. */
const SLACK = 80;

export function useStickToBottom(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const content = el.firstElementChild ?? el;
    const scroller = () => {
      const y = getComputedStyle(el).overflowY;
      return y === "auto" || y === "scroll" ? el : (document.scrollingElement as HTMLElement);
    };
    const atEnd = (s: HTMLElement) => s.scrollHeight - s.scrollTop - s.clientHeight <= SLACK;
    let stuck = true;
    const onScroll = () => {
      stuck = atEnd(scroller());
    };
    const follow = () => {
      if (!stuck) return;
      const s = scroller();
      s.scrollTop = s.scrollHeight;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("scroll", onScroll, { passive: true });
    const sizes = new ResizeObserver(follow);
    sizes.observe(content);
    return () => {
      sizes.disconnect();
      el.removeEventListener("scroll", onScroll);
      window.removeEventListener("scroll", onScroll);
    };
  }, [ref]);
}
