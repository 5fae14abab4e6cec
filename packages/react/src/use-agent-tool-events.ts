/**
 * `useAgentToolEvents`: the official hook's return shape over an `AgentToolRuns` store, plus
 * `useAgentToolRun` so a component showing one run re-renders only when that run changes. The store listens
 * from an effect (a server render touches no storage and attaches nothing); a new agent object for the same
 * agent keeps the runs seen so far, as the official hook's state does.
 */
import { AgentToolRuns, type AgentToolRunsOptions } from "@runboard/client";
import type { AgentToolRun, AgentToolRunsState } from "@runboard/protocol";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useOwned } from "./lifetime.ts";

/** What `useAgentToolEvents` returns: the runs, and the store for the selector hooks. */
export interface UseAgentToolEventsResult extends AgentToolRunsState {
  getRunsForToolCall(toolCallId: string): readonly AgentToolRun[];
  resetLocalState(): void;
  /** The store, for `useAgentToolRun`. */
  store: AgentToolRuns;
}

const runsLifecycle = {
  start: (s: AgentToolRuns) => s.attach(),
  dispose: (s: AgentToolRuns) => s.dispose(),
};

/**
 * The child runs (`agentTool` / `runAgentTool`) of an agent, grouped by the tool call that spawned them, as
 * `agents/react`'s `useAgentToolEvents` returns them; progress and milestones survive a page refresh.
 *
 * @example
 * ```tsx
 * const runs = useAgentToolEvents({ agent });
 * const children = runs.getRunsForToolCall(part.toolCallId);
 * ```
 */
export function useAgentToolEvents(options: AgentToolRunsOptions): UseAgentToolEventsResult {
  const store = useOwned("runs", () => new AgentToolRuns(options, false), runsLifecycle);
  store.setOptions(options);
  useEffect(() => store.followAgent());
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const resetLocalState = useMemo(() => () => store.resetLocalState(), [store]);
  const byCall = state.runsByToolCallId;
  const getRunsForToolCall = useMemo(
    () =>
      (id: string): readonly AgentToolRun[] =>
        byCall[id] ?? [],
    [byCall],
  );
  return {
    ...state,
    getRunsForToolCall,
    resetLocalState,
    store,
  };
}

/** One run; the component re-renders only when this run's object changes. */
export function useAgentToolRun(store: AgentToolRuns, runId: string): AgentToolRun | undefined {
  const get = () => store.getSnapshot().runsById[runId];
  return useSyncExternalStore(store.subscribe, get, get);
}
