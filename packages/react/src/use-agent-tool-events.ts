/**
 * `useAgentToolEvents`: the official hook's return shape over an `AgentToolRuns` store, plus
 * `useAgentToolRun` so a component showing one run re-renders only when that run changes.
 */
import { AgentToolRuns, type AgentToolRunsOptions } from "@runboard/client";
import type { AgentToolRun, AgentToolRunsState } from "@runboard/protocol";
import { useCallback, useSyncExternalStore } from "react";
import { idOf, useOwned } from "./lifetime.ts";

export interface UseAgentToolEventsResult extends AgentToolRunsState {
  getRunsForToolCall(toolCallId: string): readonly AgentToolRun[];
  resetLocalState(): void;
  /** The store, for `useAgentToolRun`. */
  store: AgentToolRuns;
}

export function useAgentToolEvents(options: AgentToolRunsOptions): UseAgentToolEventsResult {
  const dispose = useCallback((s: AgentToolRuns) => s.dispose(), []);
  const store = useOwned(`${idOf(options.agent)}`, () => new AgentToolRuns(options), dispose);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return {
    ...state,
    getRunsForToolCall: (id) => state.runsByToolCallId[id] ?? [],
    resetLocalState: () => store.resetLocalState(),
    store,
  };
}

/** One run; the component re-renders only when this run's object changes. */
export function useAgentToolRun(store: AgentToolRuns, runId: string): AgentToolRun | undefined {
  const get = () => store.getSnapshot().runsById[runId];
  return useSyncExternalStore(store.subscribe, get, get);
}
