/**
 * The run scope: one run as its parts see it (the status with `cancelling`, what this client saw of its times,
 * whether it stalled, its cancel). `AgentToolRun.Root` and each `RunTray` item provide it, so both namespaces
 * render the same run parts (`run-parts.tsx`) instead of two copies.
 */
import { type AgentToolRuns, type RunActionHandlers, RunActions } from "@runboard/client";
import type { AgentToolRunState } from "@runboard/protocol";
import type { TrayStatus } from "@runboard/protocol/view";
import { createContext, useContext, useState, useSyncExternalStore } from "react";

/** What the run parts read about their run. */
export interface RunScopeValue {
  run: AgentToolRunState;
  /** The run's status as shown: a running run whose cancel is on its way reads `cancelling`. */
  status: TrayStatus;
  cancelling: boolean;
  /** Running, and silent for longer than the tray's `stallAfterMs` (never outside a tray). */
  stalled: boolean;
  /** When this client first saw it running and saw it end; null when unknown (and always before mount). */
  startedAt: number | null;
  endedAt: number | null;
  /** The last time a frame changed the run, on this client's clock; null when unknown. */
  lastSignalAt: number | null;
  /** The title part's id, for `aria-labelledby`. */
  titleId: string;
  /** Sends the cancel; null when it cannot be sent now. */
  cancel: (() => void) | null;
  /** False when the root has no way to cancel at all (the Cancel part then warns in development). */
  canSendCancel: boolean;
  /** The status part is a polite live region: a run card speaks its own end; a tray has an announcer. */
  liveStatus: boolean;
}

/** The run scope's context. */
export const RunScopeContext = createContext<RunScopeValue | null>(null);
RunScopeContext.displayName = "RunScopeContext";

/**
 * What the run hooks (`useRunCancel`, `useRunRetry`, `useRunReconnect`, `useRunDrillIn`) act through: the
 * nearest root's run actions (the store's when it has one), its handler props and its `onDrillIn`.
 * `AgentToolRun.Root` and `RunTray.Root` both provide it, so one set of hooks serves both.
 */
export interface RunOwnerValue {
  actions: RunActions;
  handlers: RunActionHandlers;
  onDrillIn: ((run: AgentToolRunState) => void) | undefined;
}

/** The nearest run root's actions (see `RunOwnerValue`). */
export const RunOwnerContext = createContext<RunOwnerValue | null>(null);
RunOwnerContext.displayName = "RunOwnerContext";

/** Reads the run scope; outside one, throws an error naming the part and the root it belongs in. */
export function useRunScope(part: string, root: string): RunScopeValue {
  const value = useContext(RunScopeContext);
  if (value === null) throw new Error(`<${part}> must be rendered inside <${root}>. Wrap it in <${root}>.`);
  return value;
}

/**
 * The run actions a root's parts call: the store's (`useAgentToolEvents().store`) when the root has one, so
 * every view of a run on that connection agrees on its times and its cancel; else the root's own.
 */
export function useRunActions(store?: Pick<AgentToolRuns, "actions">): RunActions {
  // Made once per root, and cheap: no IO, no timer, nothing to dispose.
  const [own] = useState(() => new RunActions());
  return store?.actions ?? own;
}

const noCancel = () => false;

/** Whether `runId`'s cancel is on its way; re-renders only when that changes. */
export function useCancelling(actions: RunActions, runId: string): boolean {
  return useSyncExternalStore(actions.subscribe, () => actions.isCancelling(runId), noCancel);
}
