/** One DOM node handed to several refs: the part's own (to measure or focus it) and the user's. */
import type { Ref, RefObject } from "react";

/** A callback ref that assigns the node to every ref given (callback or object; `undefined` is skipped). */
export function mergeRefs<T>(...refs: Array<Ref<T> | undefined>): (node: T | null) => void {
  return (node: T | null) => {
    for (const r of refs) {
      if (typeof r === "function") r(node);
      else if (r) (r as RefObject<T | null>).current = node;
    }
  };
}
