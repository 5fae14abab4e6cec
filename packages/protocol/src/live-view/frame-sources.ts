/**
 * Which URL each Live View frame shows. A frame a person is using must not reload under them while its URL
 * still works, so the active frame keeps its URL until it expires; frames nobody looks at take the fresh one
 * at once. Frames are never reordered either: browsers reload an iframe whose element moves.
 */
import type { LiveViewMode, LiveViewSession } from "./session.ts";
import { visibleTargets } from "./targets.ts";

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
