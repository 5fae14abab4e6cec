/**
 * The rules of a tray of runs: what a run's status reads (with `cancelling`), when a run counts as stalled,
 * which runs are shown after dismissal, how many are active, what is announced when one ends, and which
 * cancels are in flight. Pure (no timers: the caller passes the time), so they are tested without a UI and
 * shared by every view of runs.
 */
import type { AgentToolRunState, AgentToolRunStatus } from "./agent-tool-runs.ts";
import { observeRunTimes, RUN_STATUS_LABELS, type RunTimes, runTitle } from "./run-display.ts";

/** A run's status as the run parts show it: a running run whose cancel was sent reads `cancelling`. */
export type TrayStatus = AgentToolRunStatus | "cancelling";

/** Default status words. */
export const TRAY_STATUS_LABELS: Readonly<Record<TrayStatus, string>> = {
  ...RUN_STATUS_LABELS,
  cancelling: "Cancelling…",
};

/** `cancelling` only while the run is still running: once it ends, its real status wins. */
export function trayStatus(status: AgentToolRunStatus, cancelling: boolean): TrayStatus {
  return status === "running" && cancelling ? "cancelling" : status;
}

/** When a running run becomes stalled (epoch ms), or null when stall detection is off (`stallAfterMs <= 0`). */
export function stallDueAt(lastSignalAt: number, stallAfterMs: number): number | null {
  if (!(stallAfterMs > 0) || !Number.isFinite(stallAfterMs)) return null;
  return lastSignalAt + stallAfterMs;
}

/** A running run that sent nothing for `stallAfterMs`; a finished run is never stalled. */
export function isStalled(
  status: AgentToolRunStatus,
  lastSignalAt: number,
  now: number,
  stallAfterMs: number,
): boolean {
  const due = stallDueAt(lastSignalAt, stallAfterMs);
  return status === "running" && due !== null && now >= due;
}

/** What this client saw of a run: its times and when it last changed (the protocol has no timestamps). */
export interface TrackedRun {
  run: AgentToolRunState;
  times: RunTimes;
  /** The last time this client saw the run change: a new run object means a frame arrived for it. */
  lastSignalAt: number;
}

/**
 * Folds one sight of `run` into what was seen of it: a run object not seen before (the store publishes a new
 * object per applied frame) is a signal at `now`, and its status may start or end its times. Returns `prev`
 * itself when the object is the one already seen.
 */
export function observeRun(prev: TrackedRun | undefined, run: AgentToolRunState, now: number): TrackedRun {
  if (prev && prev.run === run) return prev;
  return { run, times: observeRunTimes(prev?.times, run.status, now), lastSignalAt: now };
}

/**
 * Folds the current runs into what was seen of them (`observeRun` for each). Runs no longer listed are
 * forgotten. Returns `prev` itself when nothing changed, so it can be kept across renders.
 */
export function trackRuns(
  prev: ReadonlyMap<string, TrackedRun>,
  runs: readonly AgentToolRunState[],
  now: number,
): ReadonlyMap<string, TrackedRun> {
  let changed = prev.size !== runs.length;
  const next = new Map<string, TrackedRun>();
  for (const run of runs) {
    const before = prev.get(run.runId);
    const seen = observeRun(before, run, now);
    if (seen !== before) changed = true;
    next.set(run.runId, seen);
  }
  return changed ? next : prev;
}

/** Only finished runs can be dismissed: a running one would vanish while it still works. */
export function canDismiss(run: Pick<AgentToolRunState, "status">): boolean {
  return run.status !== "running";
}

/** The dismissed ids with this run added, or the same list when it cannot be or already is dismissed. */
export function withDismissed(dismissed: readonly string[], run: AgentToolRunState): readonly string[] {
  if (!canDismiss(run) || dismissed.includes(run.runId)) return dismissed;
  return [...dismissed, run.runId];
}

/** The runs the list shows: all but the dismissed finished ones (a dismissed id that runs again shows). */
export function visibleRuns(
  runs: readonly AgentToolRunState[],
  dismissed: readonly string[],
): AgentToolRunState[] {
  if (dismissed.length === 0) return [...runs];
  const hidden = new Set(dismissed);
  return runs.filter((r) => !(hidden.has(r.runId) && canDismiss(r)));
}

/** How many runs are still working (the badge). */
export function activeCount(runs: readonly Pick<AgentToolRunState, "status">[]): number {
  let n = 0;
  for (const r of runs) if (r.status === "running") n++;
  return n;
}

/** `Research finished`, `Research failed: <error>`, `Research was cancelled`, `Research was interrupted`. */
export function runEndAnnouncement(run: AgentToolRunState): string {
  const name = runTitle(run);
  const error = run.error?.trim();
  switch (run.status) {
    case "completed":
      return `${name} finished`;
    case "error":
      return error ? `${name} failed: ${error}` : `${name} failed`;
    case "aborted":
      return `${name} was cancelled`;
    case "interrupted":
      return error ? `${name} was interrupted: ${error}` : `${name} was interrupted`;
    default:
      return "";
  }
}

/**
 * Which runs ended since the last look. `watched` holds the last status of runs seen running while the
 * tray was mounted: a run first seen finished (history, a replay) is never announced, and a progress tick
 * (same status) says nothing. A run that ends twice (interrupted, then its real end) is announced twice.
 */
export function observeEndings(
  watched: ReadonlyMap<string, AgentToolRunStatus>,
  runs: readonly AgentToolRunState[],
): { watched: ReadonlyMap<string, AgentToolRunStatus>; ended: AgentToolRunState[] } {
  let next: Map<string, AgentToolRunStatus> | undefined;
  const ended: AgentToolRunState[] = [];
  for (const run of runs) {
    const before = watched.get(run.runId);
    if (before === run.status) continue;
    if (run.status !== "running" && before === undefined) continue;
    next ??= new Map(watched);
    next.set(run.runId, run.status);
    if (run.status !== "running") ended.push(run);
  }
  return { watched: next ?? watched, ended };
}

/** The runs seen running now: where `observeEndings` starts at mount. */
export function watchRunning(runs: readonly AgentToolRunState[]): ReadonlyMap<string, AgentToolRunStatus> {
  return new Map(runs.filter((r) => r.status === "running").map((r) => [r.runId, r.status]));
}

/** Several endings at once, in one sentence each. */
export function endingsAnnouncement(ended: readonly AgentToolRunState[]): string {
  return ended.map(runEndAnnouncement).join(". ");
}

/** A cancel can be sent for a running run whose cancel is not already on its way. */
export function canCancel(
  run: Pick<AgentToolRunState, "status" | "runId">,
  cancelling: ReadonlySet<string>,
): boolean {
  return run.status === "running" && !cancelling.has(run.runId);
}

/** The cancelling ids with `runId` added or removed; the same set when that changes nothing. */
export function withCancelling(
  cancelling: ReadonlySet<string>,
  runId: string,
  on: boolean,
): ReadonlySet<string> {
  if (cancelling.has(runId) === on) return cancelling;
  const next = new Set(cancelling);
  if (on) next.add(runId);
  else next.delete(runId);
  return next;
}

/**
 * Drops runs that reached a terminal status from the cancelling set: the cancel worked (or the run ended on
 * its own). Runs not listed stay: their cancel may still be answered. The same set when nothing ended.
 */
export function settleCancelling(
  cancelling: ReadonlySet<string>,
  runs: readonly Pick<AgentToolRunState, "status" | "runId">[],
): ReadonlySet<string> {
  if (cancelling.size === 0) return cancelling;
  let next: Set<string> | undefined;
  for (const r of runs) {
    if (r.status === "running" || !cancelling.has(r.runId)) continue;
    next ??= new Set(cancelling);
    next.delete(r.runId);
  }
  return next ?? cancelling;
}

/** `No update for 30 seconds`: the default stall notice, from the threshold. */
export function stalledLabel(stallAfterMs: number): string {
  const s = Math.max(1, Math.round(stallAfterMs / 1000));
  if (s >= 120 && s % 60 === 0) return `No update for ${s / 60} minutes`;
  return `No update for ${s} ${s === 1 ? "second" : "seconds"}`;
}
