/**
 * When to fetch fresh Live View URLs, and how long to wait after a failed fetch. Live View URLs expire, so a
 * fresh session is fetched a margin before they do.
 */

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
