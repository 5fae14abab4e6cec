/**
 * The Live View session on the wire: what the `liveView({ mode })` callable and the `openBrowser` tool return
 * (the mock server and the conformance Worker send this shape), the single-URL hand-offs the docs show
 * (`getLiveViewUrl`'s answer, a tool's `{ needsHumanLogin: url }`), and the defensive reader for all of them.
 */
import { parseUrl } from "./parse-url.ts";

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

/** One Live View page handed off on its own: a URL, optionally the tab it shows and how long it stays valid. */
export interface LiveViewUrlHandOff {
  url: string;
  /** Default `"live-view"`: a refreshed hand-off for the same tab keeps its frame. */
  targetId?: string;
  /** Default `DEFAULT_LIVE_VIEW_TTL_MS`. */
  expiresInMs?: number;
  /** The address the remote tab shows, for its label; default the Live View page's origin. */
  pageUrl?: string;
  /** The tab's name; default "Live view". */
  title?: string;
  sessionId?: string;
}

/**
 * Everything a Live View can start from: a session with `targets`, a single-URL hand-off, a bare URL, or a
 * tool's `{ needsHumanLogin: <url or hand-off> }`.
 */
export type LiveViewHandOff =
  | LiveViewSession
  | LiveViewUrlHandOff
  | string
  | { needsHumanLogin: string | LiveViewUrlHandOff };

/**
 * How long a hand-off that does not say is taken to stay valid: 5 minutes (the mock server's TTL). The view
 * fetches a fresh one a margin before (when it can), and calls the URL expired after.
 */
export const DEFAULT_LIVE_VIEW_TTL_MS = 5 * 60_000;

const DEFAULT_HAND_OFF_TARGET = "live-view";

const validTtl = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** A single-URL hand-off as a one-target session; undefined unless `url` is an absolute http(s) URL. */
function fromUrl(raw: unknown, extra: Record<string, unknown> = {}): LiveViewSession | undefined {
  if (typeof raw !== "string") return undefined;
  const url = raw.trim();
  const parsed = parseUrl(url);
  // Only the address is checked here; whether it may be embedded is the URL policy's call, per frame.
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) return undefined;
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : undefined);
  return {
    sessionId: str(extra.sessionId) ?? "",
    targets: [
      {
        targetId: str(extra.targetId) ?? DEFAULT_HAND_OFF_TARGET,
        url,
        // A hand-off names no page; its origin (never its token-bearing path) keeps the tab from reading as blank.
        pageUrl: str(extra.pageUrl) ?? parsed.origin,
        title: str(extra.title) ?? "Live view",
        type: "page",
      },
    ],
    expiresInMs: validTtl(extra.expiresInMs) ? extra.expiresInMs : DEFAULT_LIVE_VIEW_TTL_MS,
  };
}

/**
 * A session read from something untyped (a tool output, a callable's result), or `undefined` when it is none
 * of the `LiveViewHandOff` shapes. A session needs a `targets` array and a finite `expiresInMs`; its object
 * targets are passed through unchecked (`visibleTargets` decides which can be shown); a missing `sessionId`
 * reads as `""`. A single-URL hand-off (`{ url, targetId?, expiresInMs? }`, a bare URL, or either under
 * `needsHumanLogin`) becomes a one-target session valid for `expiresInMs`, default `DEFAULT_LIVE_VIEW_TTL_MS`.
 */
export function parseLiveViewSession(value: unknown): LiveViewSession | undefined {
  if (typeof value === "string") return fromUrl(value);
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.needsHumanLogin !== undefined && v.targets === undefined && v.url === undefined)
    return parseLiveViewSession(v.needsHumanLogin);
  if (!Array.isArray(v.targets)) return fromUrl(v.url, v);
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
