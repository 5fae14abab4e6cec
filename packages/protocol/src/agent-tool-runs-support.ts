/**
 * The published types and options of the agent-tool run reducer (`agent-tool-runs.ts`), and the pure helpers it
 * keeps its bounded indexes with (issue 26 §2: a long session must not get slower or bigger with age).
 */
import type { UIMessageChunk } from "ai";
import type { AgentToolFailure } from "./agent-tool-failure.ts";
import type { AgentToolMilestone, AgentToolRunState } from "./agent-tool-run-state.ts";
import type { PartContext, PartsTarget } from "./chunk-applier.ts";

/** The published state: the shape of the official `useAgentToolEvents`. */
export interface AgentToolRunsState {
  runsById: Readonly<Record<string, AgentToolRunState>>;
  runsByToolCallId: Readonly<Record<string, readonly AgentToolRunState[]>>;
  unboundRuns: readonly AgentToolRunState[];
}

/** What applying one frame did. */
export type AgentToolApplyResult =
  | { kind: "applied"; runId: string }
  | { kind: "duplicate"; runId: string }
  /** Arrived ahead of a missing chunk; applied once the gap fills. */
  | { kind: "buffered"; runId: string }
  | { kind: "ignored"; runId: string; reason: string }
  | { kind: "error"; runId: string; reason: string };

/** Options of the reducer. */
export interface AgentToolRunsOptions {
  /** Clock for progress receive times. Default `Date.now`. */
  now?: () => number;
  /**
   * How many finished runs (`completed`, `error`, `aborted`, `interrupted`) to keep. Beyond it the run that
   * finished first is evicted (from the state, and its id remembered so a replay does not bring it back);
   * running runs are never evicted and do not count. Default `DEFAULT_MAX_FINISHED_RUNS` (1,000);
   * `Infinity` keeps every run, as the official hook does.
   */
  maxFinishedRuns?: number;
  /**
   * How many milestones each run keeps: the newest by sequence. An earlier one is counted in the run's
   * `omittedMilestones` instead. Default `DEFAULT_MAX_MILESTONES` (1,000); `Infinity` keeps every one.
   */
  maxMilestones?: number;
}

/** Finished runs a reducer keeps by default (`maxFinishedRuns`). */
export const DEFAULT_MAX_FINISHED_RUNS = 1000;
/** Milestones a run keeps by default (`maxMilestones`). */
export const DEFAULT_MAX_MILESTONES = 1000;

/** Adds `value` to an insertion-ordered set and drops its oldest entry beyond `max`. */
export function addRecent<T>(set: Set<T>, value: T, max: number): void {
  set.add(value);
  if (set.size > max) set.delete(set.values().next().value as T);
}

/** A cap from an option: a whole number ≥ 0 (or `Infinity`); anything else is the default. */
export const capOf = (value: unknown, fallback: number): number =>
  typeof value === "number" && value >= 0
    ? value === Number.POSITIVE_INFINITY
      ? value
      : Math.floor(value)
    : fallback;

/** The first index of `list` (sorted by sequence) whose sequence is not below `sequence`. */
export function lowerBound(list: readonly AgentToolMilestone[], sequence: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as AgentToolMilestone).sequence < sequence) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The indexes are keyed by ids from the wire, so they have no prototype: with `{}`, a run or tool call id such as
 * `__proto__`, `constructor` or `toString` found (or set) a member of `Object.prototype`, and an app doing
 * `runsByToolCallId[id] ?? []` got a function or an object instead of an array (found by the client fuzz test).
 */
export const record = <T>(from?: Readonly<Record<string, T>>): Record<string, T> =>
  Object.assign(Object.create(null) as Record<string, T>, from);

/**
 * A server time a `Date` can hold (±8.64e15 ms). A milestone's `at` outside that range, such as `1e308`, made
 * `new Date(at).toISOString()` throw while rendering the timeline (found by the fuzz test); it is replaced by the
 * receive time, as a missing one is.
 */
export const isTime = (v: unknown): v is number => typeof v === "number" && Math.abs(v) <= 8.64e15;

/** Compares runs for display: `order` ascending, then `runId`. */
export function compareRuns(
  a: Pick<AgentToolRunState, "order" | "runId">,
  b: Pick<AgentToolRunState, "order" | "runId">,
) {
  return a.order - b.order || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
}

const runBefore = (a: AgentToolRunState, b: AgentToolRunState) => compareRuns(a, b) < 0;

/** Where `run` is, or goes, in a group kept in display order (binary search: `order` and `runId` never change). */
export function runIndex(list: readonly AgentToolRunState[], run: AgentToolRunState): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runBefore(list[mid] as AgentToolRunState, run)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Puts a run into a group kept in display order, replacing the previous object of the same run. A run's
 * `order` and `runId` never change, so its place is found by binary search instead of re-sorting the group.
 */
export function placeRun(list: AgentToolRunState[], run: AgentToolRunState): void {
  const lo = runIndex(list, run);
  if (list[lo]?.runId === run.runId) list[lo] = run;
  else if (lo === list.length) list.push(run);
  else list.splice(lo, 0, run);
}

/** What the reducer keeps per run beside the run itself (see `AgentToolRunsReducer`). */
export interface RunBook {
  run: AgentToolRunState;
  storedHigh: number;
  progressSeq: number;
  /** Ids of the latest progress frames at `progressSeq` (see `progress`); the newest `RECENT_IDS`. */
  progressIds: Set<string>;
  /** `unstoredId`s applied, the newest `RECENT_IDS` (see `chunk`). */
  unstoredIds: Set<string>;
  milestoneHigh: number;
  /** Sequences of milestones not kept (see `milestone`), the newest `RECENT_IDS`, so a repeat is not counted. */
  omittedSeqs: Set<number>;
  /** First seen in a replay, ahead of every run this reducer held: older than them (see `start`). */
  stale: boolean;
  ctx: PartContext;
  /** Stored chunks that arrived ahead of a missing one, by sequence. */
  early: Map<number, UIMessageChunk>;
  /** Reused while the run's parts array is the same, so a chunk allocates nothing it does not keep. */
  target?: PartsTarget;
  /** The parent tool part's failure envelope, once seen. */
  envelope?: AgentToolFailure;
  /** The two common results, made once per run: a text delta allocates nothing it does not keep. */
  applied: AgentToolApplyResult;
  duplicate: AgentToolApplyResult;
}

/**
 * How many ids each dedupe set of a run holds: the newest ones. Enough for the repeats a link makes (a duplicate
 * comes right after its original); a repeat of an id older than that is applied again (see where each is used).
 */
export const RECENT_IDS = 256;

/**
 * Evicted run ids remembered, per finished run kept (at least `DEFAULT_MAX_FINISHED_RUNS`): a replay brings
 * every retained run again. Past that, a run evicted long ago comes back `stale` (see `start`) and goes first.
 */
export const EVICTED_MEMORY = 10;

/** The empty list of changed ids, shared. */
export const NO_IDS: readonly string[] = Object.freeze([]);

/** The state of a reducer that holds no run. */
export const EMPTY_STATE: AgentToolRunsState = Object.freeze({
  runsById: Object.freeze(record<AgentToolRunState>()),
  runsByToolCallId: Object.freeze(record<readonly AgentToolRunState[]>()),
  unboundRuns: Object.freeze([]) as readonly AgentToolRunState[],
});
