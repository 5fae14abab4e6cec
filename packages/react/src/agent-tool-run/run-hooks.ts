/**
 * The run hooks, one set for both run components: inside `AgentToolRun.Root` or a `RunTray` item they act on
 * that run (or on the run you pass) through the root's run actions — the store's when the root has `store`,
 * so a cancel, retry or reconnect sent from one view of a run reads in every other view of it.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { useContext } from "react";
import { RunOwnerContext, type RunOwnerValue, RunScopeContext } from "./run-scope.ts";

function useOwner(
  hook: string,
  run: AgentToolRunState | undefined,
): [RunOwnerValue, AgentToolRunState | undefined] {
  const owner = useContext(RunOwnerContext);
  const scope = useContext(RunScopeContext);
  if (owner === null)
    throw new Error(
      `${hook} must be called inside <AgentToolRun.Root> or <RunTray.Root>. Wrap the part in one of them.`,
    );
  return [owner, run ?? scope?.run];
}

/**
 * Cancel for `run` (default: the run of the surrounding `AgentToolRun.Root` or `RunTray` item), or null when it
 * cannot be sent: the run is not running, its cancel is already on its way (from this view or another view of
 * the same store), or the root has neither `onCancel`, `agent` nor a store with an agent. Sends one call however
 * often it is invoked; the run reads `cancelling` until its terminal frame, or goes back to running and
 * `onError` hears why if the call fails.
 */
export function useRunCancel(run?: AgentToolRunState): (() => void) | null {
  const [{ actions, handlers }, target] = useOwner("useRunCancel", run);
  if (!target || !actions.canCancel(target, handlers)) return null;
  return () => actions.cancel(target, handlers);
}

/**
 * Retry for `run` (default: the current run), or null when it is not offered: its recovery is not a retry
 * (`recoveryFor`), a retry or reconnect of it is on its way, or the root has neither `onRetry` nor an agent.
 * One call however often it is invoked; a failed call makes it available again and `onError` hears why.
 */
export function useRunRetry(run?: AgentToolRunState): (() => void) | null {
  const [{ actions, handlers }, target] = useOwner("useRunRetry", run);
  if (!target || !actions.canRetry(target, handlers)) return null;
  return () => actions.retry(target, handlers);
}

/** Reconnect for an interrupted run whose child still runs, with the rules of `useRunRetry`; else null. */
export function useRunReconnect(run?: AgentToolRunState): (() => void) | null {
  const [{ actions, handlers }, target] = useOwner("useRunReconnect", run);
  if (!target || !actions.canReconnect(target, handlers)) return null;
  return () => actions.reconnect(target, handlers);
}

/** Opens the run's own chat through the root's `onDrillIn`; null when the root has none. */
export function useRunDrillIn(run?: AgentToolRunState): (() => void) | null {
  const [{ onDrillIn }, target] = useOwner("useRunDrillIn", run);
  if (!target || !onDrillIn) return null;
  return () => onDrillIn(target);
}
