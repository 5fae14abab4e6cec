/**
 * The options of `AgentToolRuns` (the store in `agent-tool-runs.ts`) and its progress storage adapter.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import type { ChatAgentLike } from "./chat-session.ts";
import type { CallableAgent } from "./run-actions.ts";

/** Where run progress survives a page refresh. `sessionStorage` fits. */
export interface ProgressStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  /** Drops a cleared run's progress. Without it, a cleared run's entry stays until the tab closes (never shown). */
  removeItem?(key: string): void;
}

/** Options of `AgentToolRuns` (and of `useAgentToolEvents`). */
export interface AgentToolRunsOptions {
  /** The connection whose frames to follow. With `call` (an `AgentClient`, `useAgent()`), `cancel` works too. */
  agent: Pick<ChatAgentLike, "addEventListener" | "removeEventListener"> & {
    getHttpUrl?: () => string;
    call?: CallableAgent["call"];
  };
  /** Default: `sessionStorage` when it exists. `null` keeps nothing. */
  storage?: ProgressStorage | null;
  /**
   * Namespace for stored progress, used as given. Default: a hash of the agent's address (host and path of its
   * HTTP URL), never its query or user info, so no token reaches the storage and a rotated token keeps the key.
   */
  storageKey?: string;
  /**
   * Least time between two saves of one run's progress, in ms. Default 1000. Frames in between only mark the
   * run; the save writes its latest state. Pending saves are written at once when the page is hidden
   * (`pagehide`, `visibilitychange` to hidden) and on `dispose()`, so the last state is never lost.
   */
  storageWriteMs?: number;
  /** Frames the reducer rejected (bad bodies, milestones without a name). */
  onError?: (error: Error) => void;
  /**
   * The clock a run's frames are stamped with when they arrive (its progress time, last signal, start and end
   * as this client saw them). Default `Date.now`. Read when the store is made.
   */
  now?: () => number;
  /** See `ChatSessionOptions.throttleMs`. */
  throttleMs?: number;
  /** The callable `cancel` calls with `[runId, cancelReason]`. Default `cancelAgentTool`. */
  cancelMethod?: string;
  /** The reason sent with a cancel. Default "Cancelled by the user". */
  cancelReason?: string;
  /** A cancel failed (the run reads running again). */
  onCancelError?: (error: unknown, run: AgentToolRunState) => void;
  /** Runs the work of a failed run again your own way, instead of the agent's `retryMethod` callable. */
  onRetry?: (run: AgentToolRunState) => unknown;
  /** Re-attaches to an interrupted child that still runs your own way, instead of the `reconnectMethod` callable. */
  onReconnect?: (run: AgentToolRunState) => unknown;
  /** The callable `retry` calls with `[runId]` (it re-dispatches the same run id). Default `retryAgentTool`. */
  retryMethod?: string;
  /** The callable `reconnect` calls with `[runId]`. Default: `retryMethod`. */
  reconnectMethod?: string;
  /** A retry or reconnect failed (the run can be retried again). */
  onRetryError?: (error: unknown, run: AgentToolRunState) => void;
  /**
   * The callable `clearRuns` calls with no arguments to delete the agent's retained runs (on agents 0.32 a
   * `@callable()` calling `this.clearAgentToolRuns()`). Default `clearHelperRuns`. An agent without it is fine:
   * only the local runs are forgotten.
   */
  clearRunsMethod?: string;
  /** Clearing the runs failed (nothing was cleared; it can be tried again). Default: `onError`. */
  onClearError?: (error: unknown) => void;
  /**
   * How many finished runs to keep (read when the store is made). Beyond it the run that finished first is
   * evicted: it leaves the state, its saved progress is removed from `storage`, and the replay of the next
   * connect does not bring it back. Running runs are never evicted. Default 1,000
   * (`DEFAULT_MAX_FINISHED_RUNS`); `Infinity` keeps every run, as the official hook does. A long session stays
   * as fast and as small as a short one: a kept run with one progress and a short transcript costs about
   * 2.5 KB (bench/RESULTS.md "Runs over a long session"; a transcript's parts come on top), and a read after
   * a change copies the run indexes, so it costs O(runs kept), not O(runs ever seen).
   */
  maxFinishedRuns?: number;
  /**
   * How many milestones each run keeps, the newest by sequence (read when the store is made); the run's
   * `omittedMilestones` counts the earlier ones, which `MilestoneTimeline` shows as one entry. Default 1,000
   * (`DEFAULT_MAX_MILESTONES`); `Infinity` keeps every one.
   */
  maxMilestones?: number;
}
