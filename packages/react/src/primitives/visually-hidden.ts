/** Styles that hide an element from sight but keep it in the accessibility tree (live regions, labels). */
import type { CSSProperties } from "react";

/** The usual clip-rect recipe: one pixel, clipped, no overflow, no border. */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
};
