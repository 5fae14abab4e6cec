/**
 * Reads the failure envelope (docs/protocol.md#agent-tool-failure-envelope) from a tool part's output. Never
 * throws: an object that claims to be one (`ok: false`) but breaks the shape is a generic failure carrying its
 * raw text, cut and meant to be rendered as text, so a person still sees what came.
 */
import {
  type AgentToolFailure,
  type AgentToolFailureStatus,
  isAgentToolInterruptReason,
} from "./agent-tool-failure.ts";
import type { AgentToolInterruptReason } from "./frames.ts";
import { toolValueText } from "./tool-parts.ts";

const STATUSES: ReadonlySet<string> = new Set<AgentToolFailureStatus>(["error", "aborted", "interrupted"]);

/** What `parseAgentToolFailure` found. */
export type AgentToolFailureParse =
  /** Not a failure envelope: a successful output (any value without `ok: false`). */
  | { kind: "none" }
  | { kind: "failure"; failure: AgentToolFailure }
  /** `ok: false` with a wrong shape; `failure` is the generic one to show, `problem` says what was wrong. */
  | { kind: "malformed"; failure: AgentToolFailure; problem: string };

/** Longest raw text a malformed envelope keeps. */
export const MAX_FAILURE_TEXT = 500;

/** Parses a tool part's `output` as a failure envelope; never throws. */
export function parseAgentToolFailure(output: unknown): AgentToolFailureParse {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return { kind: "none" };
  const o = output as Record<string, unknown>;
  if (o.ok !== false) return { kind: "none" };
  const problem = shapeProblem(o);
  if (problem) {
    return {
      kind: "malformed",
      problem,
      failure: {
        ok: false,
        status: "error",
        error: toolValueText(output, MAX_FAILURE_TEXT),
        retryable: false,
        malformed: true,
      },
    };
  }
  const failure: AgentToolFailure = {
    ok: false,
    status: o.status as AgentToolFailureStatus,
    error: o.error as string,
    retryable: o.retryable as boolean,
  };
  if (o.reason !== undefined) failure.reason = o.reason as AgentToolInterruptReason;
  if (o.childStillRunning !== undefined) failure.childStillRunning = o.childStillRunning as boolean;
  return { kind: "failure", failure };
}

function shapeProblem(o: Record<string, unknown>): string | undefined {
  if (typeof o.status !== "string" || !STATUSES.has(o.status)) return "unknown 'status'";
  if (typeof o.error !== "string") return "'error' is not a string";
  if (typeof o.retryable !== "boolean") return "'retryable' is not a boolean";
  if (o.reason !== undefined && !isAgentToolInterruptReason(o.reason)) return "unknown 'reason'";
  if (o.childStillRunning !== undefined && typeof o.childStillRunning !== "boolean")
    return "'childStillRunning' is not a boolean";
  return undefined;
}
