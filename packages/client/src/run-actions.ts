/**
 * What a person can do to a child run, framework-free: cancel it (the agent's `cancelAgentTool` callable by
 * default), retry or reconnect it when its recovery calls for that, and what this client saw of it (first
 * sight, end, last signal; the protocol carries no timestamps). The state lives in one instance — an
 * `AgentToolRuns` store has its own, a tray without a store has its own — so two connections never share it.
 * A view subscribes to `getSnapshot()` and calls the actions; it decides nothing itself.
 */
import {
  type AgentToolRun,
  canCancel,
  observeRun,
  type RunTimes,
  recoveryFor,
  settleCancelling,
  type TrackedRun,
  withCancelling,
} from "@runboard/protocol";

/** The part of an agent connection (an `AgentClient`, or what the official `useAgent` returns) that calls a method. */
export interface CallableAgent {
  call(method: string, args?: unknown[]): Promise<unknown>;
}

/** How the actions reach the agent, and who hears back. Every field is optional. */
export interface RunActionHandlers {
  /** Cancels a run your own way (a callable of yours). Wins over `agent`. A throw or a rejected promise is a failed cancel. */
  onCancel?: ((run: AgentToolRun) => unknown) | undefined;
  /** Cancel calls `agent.call(cancelMethod, [runId, cancelReason])`. */
  agent?: CallableAgent | undefined;
  /** The callable that cancels a run. Default `cancelAgentTool`. */
  cancelMethod?: string | undefined;
  /** The reason sent with a cancel. Default "Cancelled by the user". */
  cancelReason?: string | undefined;
  /** A cancel failed: the run reads running again and can be cancelled again. */
  onError?: ((error: unknown, run: AgentToolRun) => void) | undefined;
  /** Runs the work again (re-send the turn, call the tool). Offered for failed runs and stopped interrupted ones. */
  onRetry?: ((run: AgentToolRun) => void) | undefined;
  /** Re-attaches to a child that is still running (e.g. `agent.reconnect()`). Offered for interrupted runs whose child runs on. */
  onReconnect?: ((run: AgentToolRun) => void) | undefined;
}

/** What the actions' subscribers read. A new object whenever it changes. */
export interface RunActionsSnapshot {
  /** Runs whose cancel was sent and which have not ended yet. */
  cancelling: ReadonlySet<string>;
}

const DEFAULT_CANCEL_METHOD = "cancelAgentTool";
const DEFAULT_CANCEL_REASON = "Cancelled by the user";
// What was seen of runs is kept per instance, bounded: a long session must not grow it for ever.
const MAX_REMEMBERED = 1000;

/** Cancel, retry and reconnect for runs, and what this client saw of each one. */
export class RunActions {
  private snapshot: RunActionsSnapshot = { cancelling: new Set() };
  private readonly listeners = new Set<() => void>();
  private readonly seen = new Map<string, TrackedRun>();

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
  canCancel(run: AgentToolRun, via?: RunActionHandlers): boolean {
    return this.canSendCancel(via) && canCancel(run, this.snapshot.cancelling);
  }

  /**
   * Sends one cancel for `run`, however often it is called: the run reads `cancelling` until it ends (see
   * `settle`), or, when the call fails, reads running again and `onError` hears why. Returns false when
   * nothing was sent (see `canCancel`).
   */
  cancel(run: AgentToolRun, via?: RunActionHandlers): boolean {
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
  settle(runs: readonly AgentToolRun[]): void {
    const next = settleCancelling(this.snapshot.cancelling, runs);
    if (next !== this.snapshot.cancelling) this.publish({ cancelling: next });
  }

  /** Retry is offered for a failed run, or an interrupted one whose child stopped, when there is `onRetry`. */
  canRetry(run: AgentToolRun, via?: RunActionHandlers): boolean {
    return this.handlers(via).onRetry !== undefined && recoveryFor(run) === "retry";
  }

  /** Calls `onRetry` for `run` when `canRetry`; returns whether it did. */
  retry(run: AgentToolRun, via?: RunActionHandlers): boolean {
    if (!this.canRetry(run, via)) return false;
    this.handlers(via).onRetry?.(run);
    return true;
  }

  /** Reconnect is offered for an interrupted run whose child still runs, when there is `onReconnect`. */
  canReconnect(run: AgentToolRun, via?: RunActionHandlers): boolean {
    return this.handlers(via).onReconnect !== undefined && recoveryFor(run) === "reconnect";
  }

  /** Calls `onReconnect` for `run` when `canReconnect`; returns whether it did. */
  reconnect(run: AgentToolRun, via?: RunActionHandlers): boolean {
    if (!this.canReconnect(run, via)) return false;
    this.handlers(via).onReconnect?.(run);
    return true;
  }

  /**
   * What this client saw of `run` at `now`: its start and end times and its last signal (a new run object is
   * a frame for it). A run first seen finished (a replay) has no known start.
   */
  observe(run: AgentToolRun, now = Date.now()): TrackedRun {
    const before = this.seen.get(run.runId);
    const next = observeRun(before, run, now);
    if (next !== before) {
      if (!before && this.seen.size >= MAX_REMEMBERED) {
        const oldest = this.seen.keys().next().value;
        if (oldest !== undefined) this.seen.delete(oldest);
      }
      this.seen.set(run.runId, next);
    }
    return next;
  }

  /** `observe(run, now).times`: when this client saw `run` start and end. */
  timesOf(run: AgentToolRun, now = Date.now()): RunTimes {
    return this.observe(run, now).times;
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
      cancelMethod: via.cancelMethod ?? base.cancelMethod,
      cancelReason: via.cancelReason ?? base.cancelReason,
      onError: via.onError ?? base.onError,
      onRetry: via.onRetry ?? base.onRetry,
      onReconnect: via.onReconnect ?? base.onReconnect,
    };
  }

  private setCancelling(runId: string, on: boolean) {
    const next = withCancelling(this.snapshot.cancelling, runId, on);
    if (next !== this.snapshot.cancelling) this.publish({ cancelling: next });
  }

  private publish(snapshot: RunActionsSnapshot) {
    this.snapshot = snapshot;
    for (const fn of [...this.listeners]) fn();
  }
}
