/**
 * A dispatch the agent refused because too many agent tools already run: agents 0.32 checks
 * `maxConcurrentAgentTools` before starting the child and ends the run at once with `started` and an `error`
 * event whose text is `maxConcurrentAgentTools (<n>) exceeded` (docs/protocol.md#concurrency-limit); a detached
 * dispatch answers `{ runId, status: "error", error }` with the same text.
 */

const LIMIT = /^maxConcurrentAgentTools \((\d+)\) exceeded$/;

/** The limit a run's error text says was exceeded, or null when the error is something else. */
export function concurrencyLimitOf(error: unknown): number | null {
  if (typeof error !== "string") return null;
  const m = LIMIT.exec(error.trim());
  return m ? Number(m[1]) : null;
}

/** The headline of a run the concurrency limit refused. */
export const CONCURRENCY_LIMIT_HEADLINE = "The helper was not started.";

/** Why, in words: the limit and what to do. */
export function concurrencyLimitText(limit: number): string {
  const runs = limit === 1 ? "1 helper" : `${limit} helpers`;
  return `The agent runs at most ${runs} at once and all were busy; try again when one finishes.`;
}
