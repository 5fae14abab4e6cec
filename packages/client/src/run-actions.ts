/**
 * What a person can do to a child run, framework-free: cancel it (the agent's `cancelAgentTool` callable by
 * default), retry or reconnect it when its recovery calls for that (the agent's `retryAgentTool` callable by
 * default, docs/protocol.md#retry-and-reconnect), and what this client saw of it (first sight, end, last
 * signal; the protocol carries no timestamps, so a store records them as frames arrive). The state lives in
 * one instance — an `AgentToolRuns` store has its own, shared by every view of its runs; a tray or card without
 * a store has its own — so two connections never share it. A view subscribes to `getSnapshot()` and calls the
 * actions; it decides nothing itself.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import {
  canCancel,
  observeRun,
  observeRunTimes,
  type RunTimes,
  recoveryFor,
  settleCancelling,
  type TrackedRun,
  withCancelling,
} from "@runboard/protocol/view";

/** The part of an agent connection (an `AgentClient`, or what the official `useAgent` returns) that calls a method. */
export interface CallableAgent {
  call(method: string, args?: unknown[]): Promise<unknown>;
}

/** How the actions reach the agent, and who hears back. Every field is optional. */
export interface RunActionHandlers {
  /** Cancels a run your own way (a callable of yours). Wins over `agent`. A throw or a rejected promise is a failed cancel. */
  onCancel?: ((run: AgentToolRunState) => unknown) | undefined;
  /** Cancel calls `agent.call(cancelMethod, [runId, cancelReason])`. */
  agent?: CallableAgent | undefined;
  /** The callable that cancels a run. Default `cancelAgentTool`. */
  cancelMethod?: string | undefined;
  /** The reason sent with a cancel. Default "Cancelled by the user". */
  cancelReason?: string | undefined;
  /** A cancel failed: the run reads running again and can be cancelled again. */
  onError?: ((error: unknown, run: AgentToolRunState) => void) | undefined;
  /**
   * Runs the work again your own way. Wins over `agent`. Offered for runs whose recovery is a retry. A throw or
   * a rejected promise is a failed retry.
   */
  onRetry?: ((run: AgentToolRunState) => unknown) | undefined;
  /**
   * Re-attaches to a child that is still running your own way. Wins over `agent`. Offered for interrupted runs
   * whose child runs on. A throw or a rejected promise is a failed reconnect.
   */
  onReconnect?: ((run: AgentToolRunState) => unknown) | undefined;
  /**
   * The callable retry calls with `[runId]`: it re-dispatches the same run id (on agents 0.32,
   * `runAgentTool(cls, { runId })` re-attaches to the run's child and collects its real end). Default
   * `retryAgentTool`.
   */
  retryMethod?: string | undefined;
  /** The callable reconnect calls with `[runId]`. Default: the `retryMethod`, since re-dispatching re-attaches. */
  reconnectMethod?: string | undefined;
  /** A retry or reconnect failed: the run can be retried again. Default: `onError`. */
  onRetryError?: ((error: unknown, run: AgentToolRunState) => void) | undefined;
}

/** What the actions' subscribers read. A new object whenever it changes. */
export interface RunActionsSnapshot {
  /** Runs whose cancel was sent and which have not ended yet. */
  cancelling: ReadonlySet<string>;
  /** Runs whose retry or reconnect is on its way (the call has not answered and the run has not moved on). */
  recovering: ReadonlySet<string>;
}

const DEFAULT_CANCEL_METHOD = "cancelAgentTool";
const DEFAULT_CANCEL_REASON = "Cancelled by the user";
/** The callable `retry` (and `reconnect`) call by default, with `[runId]`. */
export const DEFAULT_RETRY_METHOD = "retryAgentTool";
// A run in one of these still waits for its recovery; any other status means the retry or reconnect took.
const AWAITING_RECOVERY = new Set(["error", "interrupted"]);
// What was seen of runs is kept per instance, bounded: a long session must not grow it for ever.
const MAX_REMEMBERED = 1000;

/** Cancel, retry and reconnect for runs, and what this client saw of each one. */
export class RunActions {
  private snapshot: RunActionsSnapshot = { cancelling: new Set(), recovering: new Set() };
  private readonly listeners = new Set<() => void>();
  private readonly seen = new Map<string, TrackedRun>();
  /** Set once a store records its frames (`record`): its times are receive times, never a render's. */
  private recording = false;

  /**
   * `defaults` (or a function returning the latest ones) say how to reach the agent when a call passes no
   * handlers of its own.
   */
  constructor(private readonly defaults: RunActionHandlers | (() => RunActionHandlers) = {}) {}

  /** The current snapshot; the same object until something changes. */
  getSnapshot = (): RunActionsSnapshot => this.snapshot;

  /** Calls `fn` after every change; returns the unsubscribe function. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** True while `runId`'s cancel is on its way and the run has not ended. */
  isCancelling(runId: string): boolean {
    return this.snapshot.cancelling.has(runId);
  }

  /** True when `via` (or the defaults) give a way to send a cancel at all. */
  canSendCancel(via?: RunActionHandlers): boolean {
    const h = this.handlers(via);
    return h.onCancel !== undefined || h.agent !== undefined;
  }

  /** A cancel can be sent now: there is a way to send it, the run is running, and none is on its way. */
  canCancel(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    return this.canSendCancel(via) && canCancel(run, this.snapshot.cancelling);
  }

  /**
   * Sends one cancel for `run`, however often it is called: the run reads `cancelling` until it ends (see
   * `settle`), or, when the call fails, reads running again and `onError` hears why. Returns false when
   * nothing was sent (see `canCancel`).
   */
  cancel(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    if (!this.canCancel(run, via)) return false;
    const h = this.handlers(via);
    this.setCancelling(run.runId, true);
    let sent: Promise<unknown>;
    try {
      sent = Promise.resolve(
        h.onCancel
          ? h.onCancel(run)
          : h.agent?.call(h.cancelMethod ?? DEFAULT_CANCEL_METHOD, [
              run.runId,
              h.cancelReason ?? DEFAULT_CANCEL_REASON,
            ]),
      );
    } catch (error) {
      sent = Promise.reject(error);
    }
    // On success nothing changes here: the run ends by a frame, and `settle` sees it.
    sent.catch((error: unknown) => {
      this.setCancelling(run.runId, false);
      h.onError?.(error, run);
    });
    return true;
  }

  /** Runs that ended leave `cancelling` (their cancel worked, or they ended on their own). */
  settle(runs: readonly AgentToolRunState[]): void {
    const next = settleCancelling(this.snapshot.cancelling, runs);
    const recovering = this.settleRecovering(runs);
    if (next !== this.snapshot.cancelling || recovering !== this.snapshot.recovering)
      this.publish({ cancelling: next, recovering });
  }

  /** True while `runId`'s retry or reconnect is on its way. */
  isRecovering(runId: string): boolean {
    return this.snapshot.recovering.has(runId);
  }

  /**
   * Retry is offered when the run's recovery is a retry (`recoveryFor`), there is `onRetry` or an `agent`, and
   * no retry or reconnect of it is on its way.
   */
  canRetry(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    const h = this.handlers(via);
    return this.canRecover(run, "retry", h.onRetry !== undefined || h.agent !== undefined);
  }

  /**
   * Sends one retry for `run` (`onRetry`, else `agent.call(retryMethod, [runId])`), however often it is called:
   * the run reads recovering until the call answers or the run moves on; a failed call makes it retryable
   * again and `onError` hears why. Returns false when nothing was sent (see `canRetry`).
   */
  retry(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    if (!this.canRetry(run, via)) return false;
    const h = this.handlers(via);
    const method = h.retryMethod ?? DEFAULT_RETRY_METHOD;
    this.recover(run, h, () => (h.onRetry ? h.onRetry(run) : h.agent?.call(method, [run.runId])));
    return true;
  }

  /**
   * Reconnect is offered for an interrupted run whose child still runs, when there is `onReconnect` or an
   * `agent` and no retry or reconnect of it is on its way.
   */
  canReconnect(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    const h = this.handlers(via);
    return this.canRecover(run, "reconnect", h.onReconnect !== undefined || h.agent !== undefined);
  }

  /**
   * Sends one reconnect for `run` (`onReconnect`, else `agent.call(reconnectMethod, [runId])`), with the same
   * in-flight and failure rules as `retry`. Returns false when nothing was sent (see `canReconnect`).
   */
  reconnect(run: AgentToolRunState, via?: RunActionHandlers): boolean {
    if (!this.canReconnect(run, via)) return false;
    const h = this.handlers(via);
    const method = h.reconnectMethod ?? h.retryMethod ?? DEFAULT_RETRY_METHOD;
    this.recover(run, h, () => (h.onReconnect ? h.onReconnect(run) : h.agent?.call(method, [run.runId])));
    return true;
  }

  private canRecover(run: AgentToolRunState, kind: "retry" | "reconnect", canSend: boolean): boolean {
    return canSend && recoveryFor(run) === kind && !this.snapshot.recovering.has(run.runId);
  }

  private recover(run: AgentToolRunState, h: RunActionHandlers, send: () => unknown) {
    this.setRecovering(run.runId, true);
    let sent: Promise<unknown>;
    try {
      sent = Promise.resolve(send());
    } catch (error) {
      sent = Promise.reject(error);
    }
    // Answered either way, the button comes back: a retry that changed nothing can be pressed again.
    sent.then(
      () => this.setRecovering(run.runId, false),
      (error: unknown) => {
        this.setRecovering(run.runId, false);
        (h.onRetryError ?? h.onError)?.(error, run);
      },
    );
  }

  private settleRecovering(runs: readonly AgentToolRunState[]): ReadonlySet<string> {
    const before = this.snapshot.recovering;
    if (before.size === 0) return before;
    let next: Set<string> | undefined;
    for (const r of runs) {
      if (AWAITING_RECOVERY.has(r.status) || !before.has(r.runId)) continue;
      next ??= new Set(before);
      next.delete(r.runId);
    }
    return next ?? before;
  }

  private setRecovering(runId: string, on: boolean) {
    const next = withCancelling(this.snapshot.recovering, runId, on);
    if (next !== this.snapshot.recovering) this.publish({ ...this.snapshot, recovering: next });
  }

  /**
   * What this client saw of `run` at `now`: its start and end times and its last signal (a new run object is
   * a frame for it). A run first seen finished (a replay) has no known start.
   */
  observe(run: AgentToolRunState, now = Date.now()): TrackedRun {
    const before = this.seen.get(run.runId);
    const next = observeRun(before, run, now);
    if (next !== before) this.remember(run.runId, next);
    return next;
  }

  /** `seenOf(run, now).times`: when this client saw `run` start and end. */
  timesOf(run: AgentToolRunState, now = Date.now()): RunTimes {
    return this.seenOf(run, now).times;
  }

  /**
   * A frame for `run` arrived at `now`: its last signal is `now`, and its status may start or end its times.
   * The store calls it as frames arrive (whatever object the run is, so frames between two publishes count),
   * and from then on views read what it recorded (`seenOf`) instead of stamping their own render's time.
   */
  record(run: AgentToolRunState, now: number): void {
    this.recording = true;
    const before = this.seen.get(run.runId);
    this.remember(run.runId, {
      run,
      times: observeRunTimes(before?.times, run.status, now),
      lastSignalAt: now,
    });
  }

  /**
   * What this client saw of `run`: what `record` took when its frames arrived, when a store records them;
   * else (runs handed to a view without a store, or a run not recorded) `observe(run, now)`.
   */
  seenOf(run: AgentToolRunState, now = Date.now()): TrackedRun {
    return (this.recording ? this.seen.get(run.runId) : undefined) ?? this.observe(run, now);
  }

  private remember(runId: string, next: TrackedRun) {
    if (!this.seen.has(runId) && this.seen.size >= MAX_REMEMBERED) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    this.seen.set(runId, next);
  }

  private handlers(via?: RunActionHandlers): RunActionHandlers {
    const base = typeof this.defaults === "function" ? this.defaults() : this.defaults;
    if (!via) return base;
    // A caller with its own way to cancel replaces the defaults' way as a whole, so "onCancel wins over
    // agent" holds within each source; the other fields fall back one by one.
    const sender = via.onCancel !== undefined || via.agent !== undefined ? via : base;
    return {
      onCancel: sender.onCancel,
      agent: sender.agent,
      retryMethod: via.retryMethod ?? base.retryMethod,
      reconnectMethod: via.reconnectMethod ?? base.reconnectMethod,
      cancelMethod: via.cancelMethod ?? base.cancelMethod,
      cancelReason: via.cancelReason ?? base.cancelReason,
      onError: via.onError ?? base.onError,
      onRetryError: via.onRetryError ?? base.onRetryError,
      onRetry: via.onRetry ?? base.onRetry,
      onReconnect: via.onReconnect ?? base.onReconnect,
    };
  }

  private setCancelling(runId: string, on: boolean) {
    const next = withCancelling(this.snapshot.cancelling, runId, on);
    if (next !== this.snapshot.cancelling) this.publish({ ...this.snapshot, cancelling: next });
  }

  private publish(snapshot: RunActionsSnapshot) {
    this.snapshot = snapshot;
    for (const fn of [...this.listeners]) fn();
  }
}
