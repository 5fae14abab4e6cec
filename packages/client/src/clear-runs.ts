/**
 * Clearing a chat's runs on the agent (docs/protocol.md#clearing-runs): the agent's clear-runs callable, called
 * with no arguments, deletes its retained agent-tool runs (on agents 0.32 a `@callable()` that calls
 * `this.clearAgentToolRuns()`), so a reconnect replays none of them. An agent without such a callable is not
 * an error: only the local runs are forgotten.
 */
import type { CallableAgent } from "./run-actions.ts";

/** The callable `clearRuns` calls by default, with no arguments (the name the agents' helper example uses). */
export const DEFAULT_CLEAR_RUNS_METHOD = "clearHelperRuns";

// What agents 0.32 answers for a method the agent lacks or did not mark `@callable()` (the mock answers alike).
const MISSING = /^Method \S+ (?:does not exist|is not callable)$/;

/** True when `error` says the agent has no such callable. */
export function isMissingCallable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return MISSING.test(message);
}

/**
 * One clear at a time: a second `run()` while one is on its way shares it. Resolves true when the agent's runs
 * are gone (or it has no callable for it) and `reset` ran; false when the call failed (`onError` heard why and
 * nothing local changed, so what is shown still matches what a reconnect replays).
 */
export class ClearRunsCall {
  private pending: Promise<boolean> | undefined;
  private readonly listeners = new Set<() => void>();

  /** True while a clear is on its way. */
  get clearing(): boolean {
    return this.pending !== undefined;
  }

  /** Calls `fn` when `clearing` changes; returns the unsubscribe function. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** Calls `method` on `agent` (when there is one), then `reset` unless the call failed. */
  run(
    agent: CallableAgent | undefined,
    method: string,
    reset: () => void,
    onError: ((error: unknown) => void) | undefined,
  ): Promise<boolean> {
    if (this.pending) return this.pending;
    let sent: Promise<unknown>;
    try {
      sent = Promise.resolve(agent?.call(method, []));
    } catch (error) {
      sent = Promise.reject(error);
    }
    this.pending = sent
      .then(
        () => true,
        (error: unknown) => {
          if (isMissingCallable(error)) return true;
          onError?.(error);
          return false;
        },
      )
      .then((ok) => {
        if (ok) reset();
        return ok;
      })
      .finally(() => {
        this.pending = undefined;
        this.notify();
      });
    this.notify();
    return this.pending;
  }

  private notify() {
    for (const fn of [...this.listeners]) fn();
  }
}
