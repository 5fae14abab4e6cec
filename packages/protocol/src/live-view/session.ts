/**
 * The timing of a Live View: when to fetch fresh URLs, how long to wait after a failed fetch, and which URL
 * each frame shows. Live View URLs expire, but a frame a person is using must not reload under them while
 * its URL still works, so the active frame keeps its URL until it expires; frames nobody looks at take the
 * fresh one at once.
 */
import { type LiveViewTarget, visibleTargets } from "./targets.ts";

/** What the Live View shows: the remote tab, or its DevTools. */
export type LiveViewMode = "tab" | "devtools";

/** A Live View session, as the `liveView({ mode })` callable or the `openBrowser` tool returns it. */
export interface LiveViewSession {
  sessionId?: string;
  targets: readonly LiveViewTarget[];
  /** How long the URLs stay valid, from when the session was returned. */
  expiresInMs: number;
}

/**
 * A session read from something untyped (a tool output, a callable's result), or `undefined` when it has no
 * `targets` array or no finite `expiresInMs`. Targets are kept as they are; the component filters them.
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
    ...(typeof v.sessionId === "string" ? { sessionId: v.sessionId } : {}),
    targets,
    expiresInMs: v.expiresInMs,
  };
}

/** Fetches never come closer together than this, so a zero or tiny TTL cannot spin. */
export const MIN_REFRESH_DELAY_MS = 1000;
/** The longest wait between retries of a failed fetch. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** Default lead time before expiry: 20% of the TTL, at most 30 s (so 5 minutes → 30 s, 10 s → 2 s). */
export function defaultRefreshMargin(ttlMs: number): number {
  return Math.min(30_000, ttlMs * 0.2);
}

/** How long after receiving a session to fetch the next: `ttl - margin`, at least `MIN_REFRESH_DELAY_MS`. */
export function refreshDelay(ttlMs: number, marginMs?: number): number {
  const margin = marginMs ?? defaultRefreshMargin(ttlMs);
  return Math.max(MIN_REFRESH_DELAY_MS, ttlMs - margin);
}

/** Wait before retry number `attempt` (1 = first retry): 1 s, 2 s, 4 s … up to 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempt - 1));
}

/** The URL one frame uses, when it stops working, and which mode it shows. */
export interface FrameSource {
  url: string;
  expiresAt: number;
  mode: LiveViewMode;
}

/** Every visible target's URL in a session received at `receivedAt`, by target id. */
export function sessionSources(
  session: LiveViewSession,
  mode: LiveViewMode,
  receivedAt: number,
): Map<string, FrameSource> {
  const expiresAt = receivedAt + session.expiresInMs;
  return new Map(visibleTargets(session.targets).map((t) => [t.targetId, { url: t.url, expiresAt, mode }]));
}

/**
 * The URL each frame should show now. A target new to the session, one nobody looks at, and the active one
 * once its URL expired (or when the mode changed) take the latest URL; the active one otherwise keeps what it
 * shows, so refreshing never reloads the frame a person is using. Targets gone from the session are dropped.
 * Returns `shown` itself when nothing changes.
 */
export function reconcileSources(
  shown: ReadonlyMap<string, FrameSource>,
  latest: ReadonlyMap<string, FrameSource>,
  activeId: string | undefined,
  now: number,
): ReadonlyMap<string, FrameSource> {
  const next = new Map<string, FrameSource>();
  let changed = shown.size !== latest.size;
  for (const [id, fresh] of latest) {
    const prev = shown.get(id);
    const keep = prev !== undefined && id === activeId && prev.mode === fresh.mode && now < prev.expiresAt;
    const pick = keep || (prev && sameSource(prev, fresh)) ? (prev as FrameSource) : fresh;
    if (pick !== prev) changed = true;
    next.set(id, pick);
  }
  return changed ? next : shown;
}

function sameSource(a: FrameSource, b: FrameSource): boolean {
  return a.url === b.url && a.expiresAt === b.expiresAt && a.mode === b.mode;
}

/**
 * Ids in a stable order: those already known keep their place, new ones are appended in the order given.
 * Browsers reload an iframe whose element moves in the document, so frames must never be reordered.
 */
export function stableOrder(prev: readonly string[], next: readonly string[]): readonly string[] {
  const present = new Set(next);
  const kept = prev.filter((id) => present.has(id));
  const known = new Set(kept);
  const out = [...kept, ...next.filter((id) => !known.has(id))];
  return out.length === prev.length && out.every((id, i) => id === prev[i]) ? prev : out;
}
