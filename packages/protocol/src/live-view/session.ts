/**
 * The Live View session on the wire: what the `liveView({ mode })` callable and the `openBrowser` tool return
 * (the mock server and the conformance Worker send this shape), and the defensive reader for it.
 */

/** What the Live View shows: the remote tab, or its DevTools. */
export type LiveViewMode = "tab" | "devtools";

/** One target of a Live View session: a tab (or worker) of the remote browser. */
export interface LiveViewTarget {
  /** The remote browser's id for the target; stable while the tab lives, so frames are keyed by it. */
  targetId: string;
  /** The Live View page to embed. Short-lived: fetch a fresh one before the session's `expiresInMs`. */
  url: string;
  /** The address the remote tab is showing (for labels only; never embedded or linked). */
  pageUrl: string;
  /** The remote page's title; empty when it has none. */
  title: string;
  /** `"page"` for a tab; others (`service_worker`, `background_page`, …) are not shown. */
  type: string;
}

/** A Live View session, as the `liveView({ mode })` callable or the `openBrowser` tool returns it. */
export interface LiveViewSession {
  /** The remote browser session's id. */
  sessionId: string;
  targets: readonly LiveViewTarget[];
  /** How long the URLs stay valid, from when the session was returned. */
  expiresInMs: number;
}

/**
 * A session read from something untyped (a tool output, a callable's result), or `undefined` when it has no
 * `targets` array or no finite `expiresInMs`. Object targets are passed through unchecked (`visibleTargets`
 * decides which can be shown); a missing `sessionId` reads as `""`.
 */
export function parseLiveViewSession(value: unknown): LiveViewSession | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.targets)) return undefined;
  if (typeof v.expiresInMs !== "number" || !Number.isFinite(v.expiresInMs) || v.expiresInMs < 0)
    return undefined;
  const targets = v.targets.filter(
    (t): t is LiveViewTarget => typeof t === "object" && t !== null && !Array.isArray(t),
  );
  return {
    sessionId: typeof v.sessionId === "string" ? v.sessionId : "",
    targets,
    expiresInMs: v.expiresInMs,
  };
}
