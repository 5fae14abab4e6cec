/** One run per failure status and per interrupt reason, and a malformed envelope: the Failure stories' fixtures. */

import type { AgentToolFailure, AgentToolInterruptReason, AgentToolRunState } from "@runboard/protocol";
import { AGENT_TOOL_FAILURE_REASON_TEXT } from "@runboard/protocol/view";

const base = (runId: string, name: string, failure: AgentToolFailure): AgentToolRunState => ({
  runId,
  agentType: "Crawler",
  display: { name },
  order: 0,
  status: failure.malformed ? "error" : failure.status,
  parts: [],
  milestones: [],
  subAgent: { agent: "Crawler", name: runId },
  error: failure.error,
  failure,
  retryable: failure.retryable,
  ...(failure.reason ? { reason: failure.reason } : {}),
  ...(failure.childStillRunning === undefined ? {} : { childStillRunning: failure.childStillRunning }),
});

/** Every interrupt reason agents 0.32 sends, in its order. */
export const REASONS = Object.keys(AGENT_TOOL_FAILURE_REASON_TEXT) as AgentToolInterruptReason[];

/** Failed, cancelled, each interrupt reason (the last two with the child still running) and a malformed one. */
export const FAILURE_RUNS: AgentToolRunState[] = [
  base("f-error", "Verify invoice", {
    ok: false,
    status: "error",
    error: "Verifier crashed: upstream timeout",
    retryable: false,
  }),
  base("f-aborted", "Crawl shop", {
    ok: false,
    status: "aborted",
    error: "agent tool run was cancelled",
    retryable: false,
  }),
  ...REASONS.map((reason, i) =>
    base(`f-${reason}`, `Interrupted: ${reason}`, {
      ok: false,
      status: "interrupted",
      error: "agent tool run was interrupted before it finished; it can be retried",
      retryable: true,
      reason,
      childStillRunning: i >= REASONS.length - 2,
    }),
  ),
  base("f-malformed", "Unreadable report", {
    ok: false,
    status: "error",
    error: '{"ok":false,"status":"exploded","error":"<b>boom</b>"}',
    retryable: false,
    malformed: true,
  }),
];
