/**
 * The one polite live region every component speaks through. A screen reader hears `message` when it
 * changes; sighted users see nothing unless `visible` is set. Parts wrap it (`RunTray.Announcer`,
 * `MilestoneTimeline.Announcer`, …) and only decide what to say and when.
 */
import type { ReactElement, ReactNode } from "react";
import { type DataAttributes, type PrimitiveProps, renderPart } from "./primitive.tsx";
import { VISUALLY_HIDDEN } from "./visually-hidden.ts";

/** Props every announcer part accepts. */
export interface AnnouncerProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Show the region instead of hiding it visually. */
  visible?: boolean;
}

/** Renders the region (`role="status"`, `aria-live="polite"`, `aria-atomic`) holding `message`. */
export function renderAnnouncer(
  message: ReactNode,
  { visible, style, ...props }: AnnouncerProps & DataAttributes,
): ReactElement {
  return renderPart("div", {
    role: "status",
    "aria-live": "polite",
    "aria-atomic": true,
    style: visible ? style : { ...VISUALLY_HIDDEN, ...style },
    children: message,
    ...props,
  });
}
