/**
 * How a child run is shown, whatever draws it: which label and icon a run gets, which recovery action fits
 * a run that did not complete, how a long result is cut, which runs belong beside a tool part, and what this
 * client saw of a run's start and end. Pure, so every view (the React parts, a tray, a log, another
 * framework's adapter) shows runs the same way.
 */
import type { AgentToolRunState, AgentToolRunStatus, AgentToolRunsState } from "./agent-tool-runs.ts";

/** True once a run will not change status on its own again (`interrupted` can still be replaced). */
export function isRunFinished(status: AgentToolRunStatus): boolean {
  return status !== "running";
}

/** The name a person sees: `agentTool({ displayName })` when the server sent one, else the class name. */
export function runTitle(run: Pick<AgentToolRunState, "display" | "agentType">): string {
  const name = run.display?.name;
  return typeof name === "string" && name.trim() !== "" ? name : run.agentType;
}

/** The icon the server chose (`agentTool({ icon })`), if it is a non-empty string. */
export function runIcon(run: Pick<AgentToolRunState, "display">): string | undefined {
  const icon = run.display?.icon;
  return typeof icon === "string" && icon !== "" ? icon : undefined;
}

/** Default status words, for the status part and screen readers. */
export const RUN_STATUS_LABELS: Readonly<Record<AgentToolRunStatus, string>> = {
  running: "Running",
  completed: "Completed",
  error: "Failed",
  aborted: "Cancelled",
  interrupted: "Interrupted",
};

/** Default explanations of the server's interrupt reasons (docs/protocol.md#agent-tool-event-frame). */
export const INTERRUPT_REASON_LABELS: Readonly<Record<string, string>> = {
  "no-progress": "The run stopped reporting progress.",
  "window-exceeded": "The run took longer than its time window.",
  "not-tailable": "The run's output could not be followed.",
  "inspect-timeout": "Checking on the run timed out.",
  "inspect-failed": "Checking on the run failed.",
  "recovery-deadline": "The run could not be recovered in time.",
  "budget-exceeded": "The run used up its budget.",
};

/** A reason the server sent, in words; unknown reasons are shown as sent rather than dropped. */
export function interruptReasonLabel(reason: string | undefined): string | undefined {
  if (reason === undefined || reason === "") return undefined;
  return INTERRUPT_REASON_LABELS[reason] ?? reason;
}

/** The action that can help a run that did not complete. */
export type RunRecovery = "retry" | "reconnect";

/**
 * `reconnect` when an interrupted child is still running (a new connection replays it and its end will
 * arrive); `retry` only when the run is `retryable`, the failure envelope's flag
 * (docs/protocol.md#agent-tool-failure-envelope: agents 0.32 sets it for `interrupted` only; a run without the
 * flag counts as retryable when interrupted). A failed (`error`), a cancelled and a completed run offer neither.
 */
export function recoveryFor(
  run: Pick<AgentToolRunState, "status" | "childStillRunning" | "retryable">,
): RunRecovery | null {
  if (run.status === "running" || run.status === "completed") return null;
  if (run.status === "interrupted" && run.childStillRunning) return "reconnect";
  return (run.retryable ?? run.status === "interrupted") ? "retry" : null;
}

/** A value shown as text: strings as they are, anything else as indented JSON (never as HTML). */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value); // cyclic or BigInt: still show something
  }
}

/** A long text cut for display. */
export interface Truncated {
  text: string;
  truncated: boolean;
}

/**
 * Cuts `text` to at most `maxLength` characters (and `maxLines` lines), preferring a word or line
 * boundary in the last fifth so words are not split; the cut is marked with an ellipsis.
 */
export function truncateText(
  text: string,
  maxLength: number,
  maxLines = Number.POSITIVE_INFINITY,
): Truncated {
  let end = text.length;
  if (Number.isFinite(maxLines) && maxLines > 0) {
    let at = -1;
    for (let line = 0; line < maxLines; line++) {
      at = text.indexOf("\n", at + 1);
      if (at < 0) break;
    }
    if (at >= 0) end = at;
  }
  if (end > maxLength) {
    end = Math.max(0, maxLength);
    const soft = Math.max(text.lastIndexOf(" ", end), text.lastIndexOf("\n", end));
    if (soft > end * 0.8) end = soft;
  }
  if (end >= text.length) return { text, truncated: false };
  // Never split a surrogate pair (an emoji) in two.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: `${text.slice(0, end).trimEnd()}…`, truncated: true };
}

const NO_RUNS: readonly AgentToolRunState[] = Object.freeze([]);

/**
 * The runs to show beside a chat tool part: matched on `part.toolCallId` (the docs' `type === "tool-call"`
 * check never matches AI SDK v5+ parts, docs/protocol.md#agent-tool-grouping). Any part without a tool call id has none.
 */
export function getRunsForToolCall(
  state: Pick<AgentToolRunsState, "runsByToolCallId">,
  part: { toolCallId?: unknown } | string,
): readonly AgentToolRunState[] {
  const id = typeof part === "string" ? part : part.toolCallId;
  if (typeof id !== "string") return NO_RUNS;
  return state.runsByToolCallId[id] ?? NO_RUNS;
}

/** When a run was seen to start and end, on this client's clock (the protocol carries no timestamps). */
export interface RunTimes {
  startedAt: number | null;
  endedAt: number | null;
}

/**
 * Folds one observation of a run's status into its times. A run first seen already finished (a replay)
 * has no known start, so its elapsed time is unknown rather than a wrong zero.
 */
export function observeRunTimes(
  prev: RunTimes | undefined,
  status: AgentToolRunStatus,
  now: number,
): RunTimes {
  if (!prev)
    return status === "running" ? { startedAt: now, endedAt: null } : { startedAt: null, endedAt: now };
  if (status !== "running" && prev.endedAt === null) return { ...prev, endedAt: now };
  return prev;
}
