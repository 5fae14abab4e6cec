/**
 * Keeps a Live View session fresh: adopts the `session` prop, fetches a new one through `refresh` before
 * the URLs expire, at once when the mode changes (or when there is none yet), and again after failures with
 * growing waits. A result that arrives after the mode changed again, or after unmount, is dropped.
 */

import {
  type LiveViewMode,
  type LiveViewSession,
  parseLiveViewSession,
  refreshDelay,
  retryDelay,
} from "@runboard/protocol";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLatest } from "../lifetime.ts";

/** A session as received: for which mode, and when (the URLs expire `expiresInMs` after it). */
export interface ReceivedSession {
  session: LiveViewSession;
  mode: LiveViewMode;
  receivedAt: number;
}

/** The last fetch's failure: what it threw, how many in a row, for which mode, and when the next try is due. */
export interface RefreshFailure {
  error: unknown;
  attempts: number;
  mode: LiveViewMode;
  retryAt: number;
}

export interface SessionFeed {
  received: ReceivedSession | undefined;
  /** The mode a fetch is under way for, if any. */
  fetching: LiveViewMode | undefined;
  failure: RefreshFailure | undefined;
}

export interface SessionFeedOptions {
  session: LiveViewSession | undefined | null;
  refresh: ((opts: { mode: LiveViewMode }) => Promise<LiveViewSession>) | undefined;
  mode: LiveViewMode;
  refreshMarginMs: number | undefined;
}

/**
 * What identifies a session's content. Apps often rebuild the prop object on every render; adopting it again
 * each time would keep pushing the refresh back, so only new content counts as a new session.
 */
function contentKey(s: LiveViewSession | undefined): string | undefined {
  if (!s) return undefined;
  return JSON.stringify([s.sessionId, s.expiresInMs, s.targets.map((t) => [t.targetId, t.url])]);
}

class InvalidSessionError extends Error {
  constructor() {
    super("refresh() resolved to something that is not a Live View session ({ targets, expiresInMs }).");
    this.name = "InvalidSessionError";
  }
}

export function useSessionFeed({
  session: sessionProp,
  refresh,
  mode,
  refreshMarginMs,
}: SessionFeedOptions): SessionFeed {
  // Typed, but often a tool output passed straight through: read it defensively.
  const session = useMemo(() => parseLiveViewSession(sessionProp), [sessionProp]);
  const key = contentKey(session);
  const [received, setReceived] = useState<ReceivedSession | undefined>(() =>
    session ? { session, mode, receivedAt: Date.now() } : undefined,
  );
  const [adoptedKey, setAdoptedKey] = useState(key);
  // A new session prop (a new tool output) replaces whatever was fetched: adjust during render, not in an effect.
  if (key !== adoptedKey) {
    setAdoptedKey(key);
    if (session) setReceived({ session, mode, receivedAt: Date.now() });
  }
  const [fetching, setFetching] = useState<LiveViewMode | undefined>(undefined);
  const [failure, setFailure] = useState<RefreshFailure | undefined>(undefined);

  // Each fetch gets a number; only the newest may land, so a slow answer for the old mode never overwrites.
  const generation = useRef(0);
  const latest = useLatest({ refresh, mode });
  useEffect(
    () => () => {
      generation.current += 1;
    },
    [],
  );

  const fetchFor = useCallback(
    (forMode: LiveViewMode) => {
      const fn = latest.current.refresh;
      if (!fn) return;
      const id = ++generation.current;
      setFetching(forMode);
      let pending: Promise<LiveViewSession>;
      try {
        pending = Promise.resolve(fn({ mode: forMode }));
      } catch (e) {
        pending = Promise.reject(e);
      }
      pending
        .then((value) => {
          const next = parseLiveViewSession(value);
          if (!next) throw new InvalidSessionError();
          if (id !== generation.current) return;
          setFetching(undefined);
          // The user switched back before it came: the session already shown is for the right mode.
          if (latest.current.mode !== forMode) return;
          setReceived({ session: next, mode: forMode, receivedAt: Date.now() });
          setFailure(undefined);
        })
        .catch((error: unknown) => {
          if (id !== generation.current) return;
          setFailure((prev) => {
            const attempts = prev && prev.mode === forMode ? prev.attempts + 1 : 1;
            return { error, attempts, mode: forMode, retryAt: Date.now() + retryDelay(attempts) };
          });
          setFetching(undefined);
        });
    },
    [latest],
  );

  const canRefresh = refresh !== undefined;
  useEffect(() => {
    if (!canRefresh || fetching === mode) return;
    let due: number;
    if (failure && failure.mode === mode) due = failure.retryAt;
    else if (received && received.mode === mode && !failure)
      due = received.receivedAt + refreshDelay(received.session.expiresInMs, refreshMarginMs);
    // No session yet, one for the other mode, or a failure for the other mode: fetch for this mode now.
    else due = Date.now();
    const timer = setTimeout(() => fetchFor(mode), Math.max(0, due - Date.now()));
    return () => clearTimeout(timer);
  }, [canRefresh, fetching, mode, failure, received, refreshMarginMs, fetchFor]);

  // Until the timer above fires, a fetch that is due at once already counts as under way.
  const dueNow =
    canRefresh &&
    fetching === undefined &&
    !(failure && failure.mode === mode) &&
    !(received && received.mode === mode);
  return { received, fetching: fetching ?? (dueNow ? mode : undefined), failure };
}
