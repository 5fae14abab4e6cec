/**
 * A small status glyph drawn as inline SVG (headless browsers and many systems have no emoji font, and the
 * server's run icons are emoji): a turning arc while something runs, a check when done, a cross when it
 * failed, a bar when it was cancelled or denied, a pause when it was interrupted, a dot while it waits for a
 * person. Decorative: the status is always also said in words beside it.
 */
import type { ToolStatusKind } from "@runboard/protocol/view";

/** A tool's kind of status or a run's (`TrayStatus`) status. */
export type GlyphStatus = ToolStatusKind | "completed" | "error" | "aborted" | "interrupted" | "cancelling";

const SHAPE: Record<GlyphStatus, "spin" | "check" | "cross" | "bar" | "pause" | "dot"> = {
  running: "spin",
  cancelling: "spin",
  waiting: "dot",
  done: "check",
  completed: "check",
  failed: "cross",
  error: "cross",
  denied: "bar",
  aborted: "bar",
  interrupted: "pause",
};

export function StatusIcon({ status }: { status: GlyphStatus }) {
  const shape = SHAPE[status] ?? "dot";
  return (
    <svg
      className="status-icon"
      data-shape={shape}
      data-status={status}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      {shape === "spin" ? (
        <>
          <circle
            cx="8"
            cy="8"
            r="6"
            fill="none"
            stroke="currentColor"
            strokeOpacity="0.25"
            strokeWidth="2"
          />
          <path
            d="M8 2a6 6 0 0 1 6 6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </>
      ) : (
        <circle cx="8" cy="8" r="7" fill="currentColor" />
      )}
      {shape === "check" && (
        <path
          d="M4.8 8.2l2.1 2.1 4.3-4.5"
          fill="none"
          stroke="var(--icon-mark, #fff)"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      )}
      {shape === "cross" && (
        <path
          d="M5.5 5.5l5 5m0-5l-5 5"
          stroke="var(--icon-mark, #fff)"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      )}
      {shape === "bar" && (
        <path d="M5 8h6" stroke="var(--icon-mark, #fff)" strokeWidth="1.8" strokeLinecap="round" />
      )}
      {shape === "pause" && (
        <path d="M6.5 5v6m3-6v6" stroke="var(--icon-mark, #fff)" strokeWidth="1.8" strokeLinecap="round" />
      )}
      {shape === "dot" && <circle cx="8" cy="8" r="2.2" fill="var(--icon-mark, #fff)" />}
    </svg>
  );
}
