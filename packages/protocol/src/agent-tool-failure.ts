/**
 * The failure envelope `agentTool()` returns as the parent tool part's output when its child did not complete
 * (docs/protocol.md#agent-tool-failure-envelope): `{ ok: false, status, error, retryable, reason?,
 * childStillRunning? }`. It arrives as a tool part in state `output-available`, not `output-error`. The parser
 * never throws: an object that claims to be one (`ok: false`) but breaks the shape is a generic failure carrying
 * its raw text, so a person still sees what came, as text.
 */
import { CONCURRENCY_LIMIT_HEADLINE, concurrencyLimitOf, concurrencyLimitText } from "./concurrency-limit.ts";
import type { AgentToolInterruptReason } from "./frames.ts";

/** How a child that did not complete ended, as the envelope says. */
export type AgentToolFailureStatus = "error" | "aborted" | "interrupted";

/** A parsed failure envelope. */
export interface AgentToolFailure {
  ok: false;
  status: AgentToolFailureStatus;
  /** The server's words (or, when `malformed`, the envelope's raw text, cut): render as text, never HTML. */
  error: string;
  /** Running the same work again may succeed (agents 0.32: only `interrupted`). */
  retryable: boolean;
  reason?: AgentToolInterruptReason;
  /** The child still works after the parent stopped waiting for it. */
  childStillRunning?: boolean;
  /** Set when the envelope broke the shape: it is shown as a generic failure. */
  malformed?: true;
}

/** Default words per interrupt reason: what happened, for a person. */
export const AGENT_TOOL_FAILURE_REASON_TEXT: Readonly<Record<AgentToolInterruptReason, string>> = {
  "no-progress": "The helper stopped making progress.",
  "window-exceeded": "The helper ran past the time it was given.",
  "not-tailable": "The helper's work could no longer be followed from here.",
  "inspect-timeout": "Checking on the helper took too long.",
  "inspect-failed": "Checking on the helper failed.",
  "recovery-deadline": "The helper could not be picked up again in time after a restart.",
  "budget-exceeded": "The helper used up its budget.",
};

/** Default headline per failure status. */
export const AGENT_TOOL_FAILURE_STATUS_TEXT: Readonly<Record<AgentToolFailureStatus, string>> = {
  error: "The helper failed.",
  aborted: "The helper was cancelled.",
  interrupted: "The helper was interrupted before it finished.",
};

/** Said of a malformed envelope, before its raw text. */
export const MALFORMED_FAILURE_TEXT = "The helper did not finish, and its report could not be read.";

/** True for a reason agents 0.32 sends. */
export function isAgentToolInterruptReason(value: unknown): value is AgentToolInterruptReason {
  return typeof value === "string" && Object.hasOwn(AGENT_TOOL_FAILURE_REASON_TEXT, value);
}

/** What a person reads about a failure: a headline, the reason in words, and the server's own text. */
export interface AgentToolFailureWords {
  headline: string;
  /** The reason in words (an unknown reason is not invented: undefined). */
  reason?: string;
  /** What the server said (or the raw text of a malformed envelope); plain text. */
  detail: string;
  /** The agent's limit of agent tools at once, when that limit refused the run (it never started). */
  concurrencyLimit?: number;
}

/** The words for a failure, with optional overrides per status and per reason. */
export function describeAgentToolFailure(
  failure: Pick<AgentToolFailure, "status" | "error" | "reason" | "malformed">,
  words: {
    status?: Partial<Record<AgentToolFailureStatus, string>>;
    reason?: Partial<Record<string, string>>;
  } = {},
): AgentToolFailureWords {
  if (failure.malformed) return { headline: MALFORMED_FAILURE_TEXT, detail: failure.error };
  const out: AgentToolFailureWords = {
    headline: words.status?.[failure.status] ?? AGENT_TOOL_FAILURE_STATUS_TEXT[failure.status],
    detail: failure.error,
  };
  const r = failure.reason;
  const reason =
    r === undefined
      ? undefined
      : (words.reason?.[r] ??
        (isAgentToolInterruptReason(r) ? AGENT_TOOL_FAILURE_REASON_TEXT[r] : undefined));
  if (reason !== undefined) out.reason = reason;
  const limit = failure.status === "error" ? concurrencyLimitOf(failure.error) : null;
  if (limit !== null) {
    out.headline = words.status?.error ?? CONCURRENCY_LIMIT_HEADLINE;
    out.reason = words.reason?.["concurrency-limit"] ?? concurrencyLimitText(limit);
    out.concurrencyLimit = limit;
  }
  return out;
}

/** The `error` agents 0.32's `agentTool()` puts in an envelope when the child's result has none. */
export const FAILURE_DEFAULT_ERROR: Readonly<Record<AgentToolFailureStatus, string>> = {
  error: "agent tool run failed",
  aborted: "agent tool run was cancelled",
  interrupted: "agent tool run was interrupted before it finished; it can be retried",
};

/**
 * The failure a run's terminal event tells, in the envelope's shape: `agentTool()` builds its envelope from the
 * same result (`interrupted` is the only retryable status). An unknown reason is left out.
 */
export function failureOfRunEnd(run: {
  status: string;
  error?: string;
  reason?: string;
  childStillRunning?: boolean;
}): AgentToolFailure {
  const status = run.status === "aborted" || run.status === "interrupted" ? run.status : "error";
  // An event without words gets the words agentTool() puts in its envelope then (seen on the real server: a
  // cancel's `aborted` event carries no reason), so a run reads the same whichever of the two came first.
  const error = run.error || FAILURE_DEFAULT_ERROR[status];
  const failure: AgentToolFailure = { ok: false, status, error, retryable: status === "interrupted" };
  if (status === "interrupted") {
    if (isAgentToolInterruptReason(run.reason)) failure.reason = run.reason;
    if (run.childStillRunning !== undefined) failure.childStillRunning = run.childStillRunning;
  }
  return failure;
}

/** Two envelopes that say the same. */
export function sameFailure(a: AgentToolFailure, b: AgentToolFailure): boolean {
  return (
    a.status === b.status &&
    a.error === b.error &&
    a.retryable === b.retryable &&
    a.reason === b.reason &&
    a.childStillRunning === b.childStillRunning &&
    a.malformed === b.malformed
  );
}
