/**
 * `useAgentToolEvents`: the official hook's return shape over an `AgentToolRuns` store, plus
 * `useAgentToolRun` so a component showing one run re-renders only when that run changes. The store listens
 * from an effect (a server render touches no storage and attaches nothing); a new agent object for the same
 * agent keeps the runs seen so far, as the official hook's state does.
 */
import { AgentToolRuns, type AgentToolRunsOptions } from "@runboard/client";
import type { AgentToolRunPart, AgentToolRunState, Part } from "@runboard/protocol";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useOwned } from "./lifetime.ts";

/**
 * What `useAgentToolEvents` returns, as the official hook: the runs by id, by the tool call that spawned them,
 * and those not bound to a tool call yet; plus the store, for the selector hook `useAgentToolRun`. `P` types the
 * runs' parts, as the official hook's type argument. The arrays are the store's: read them, do not change them.
 */
export interface UseAgentToolEventsResult<P extends AgentToolRunPart = Part> {
  /** Every run, by id. */
  runsById: Record<string, AgentToolRunState<P>>;
  /** The runs each chat tool call spawned, in display order. */
  runsByToolCallId: Record<string, AgentToolRunState<P>[]>;
  /** Runs not bound to a tool call yet, in display order. */
  unboundRuns: AgentToolRunState<P>[];
  /** The runs one chat tool call spawned, in display order (empty when none). */
  getRunsForToolCall(toolCallId: string): AgentToolRunState<P>[];
  /** Forgets every run here (not on the server: the next reconnect replays them). */
  resetLocalState(): void;
  /**
   * Clears the runs on the agent (its `clearRunsMethod` callable, default `clearHelperRuns`) and here; false
   * when the call failed (`onClearError` ?? `onError` heard why; nothing changed). See `AgentToolRuns.clearRuns`.
   */
  clearRuns(): Promise<boolean>;
  /** Clears the runs, then the chat's history (`useAgentChat().clearHistory`); see `AgentToolRuns.clearChat`. */
  clearChat(chat: { clearHistory(): void }): Promise<boolean>;
  /** True while a clear is on its way: disable your Clear button. */
  clearing: boolean;
  /** The store, for `useAgentToolRun`. */
  store: AgentToolRuns;
}

const runsLifecycle = {
  start: (s: AgentToolRuns) => s.attach(),
  dispose: (s: AgentToolRuns) => s.dispose(),
};

/**
 * The child runs (`agentTool` / `runAgentTool`) of an agent, grouped by the tool call that spawned them, as
 * `agents/react`'s `useAgentToolEvents` returns them. The store behind it is `AgentToolRuns` from
 * `@runboard/client`; it listens from an effect, so a server render touches no storage.
 *
 * Deliberate differences: each run's last progress and milestones are kept in `sessionStorage` (option
 * `storage`), since the server does not replay progress on connect, so a refreshed page still shows how far a
 * background run got; events are de-duplicated per run and events that arrive before a run's `started` are
 * held; malformed events go to `onError`; and a long session is bounded: `maxFinishedRuns` (default 1,000)
 * finished runs are kept, the one that ended first is evicted beyond it (running runs never are), and each
 * run keeps its newest `maxMilestones` (default 1,000) milestones, counting the rest in `omittedMilestones`.
 *
 * @example
 * ```tsx
 * function ToolCall({ agent, part }: { agent: AgentClient; part: { toolCallId: string } }) {
 *   const runs = useAgentToolEvents({ agent });
 *   return runs.getRunsForToolCall(part.toolCallId).map((run) => <p key={run.runId}>{run.status}</p>);
 * }
 * ```
 */
export function useAgentToolEvents<P extends AgentToolRunPart = Part>(
  options: AgentToolRunsOptions,
): UseAgentToolEventsResult<P> {
  const store = useOwned("runs", () => new AgentToolRuns(options, false), runsLifecycle);
  store.setOptions(options);
  useEffect(() => store.followAgent());
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const resetLocalState = useMemo(() => () => store.resetLocalState(), [store]);
  const clearRuns = useMemo(() => () => store.clearRuns(), [store]);
  const clearChat = useMemo(() => (chat: { clearHistory(): void }) => store.clearChat(chat), [store]);
  const readClearing = () => store.clearing;
  const clearing = useSyncExternalStore(store.subscribeClearing, readClearing, readClearing);
  const byCall = state.runsByToolCallId;
  const getRunsForToolCall = useMemo(
    () =>
      (id: string): AgentToolRunState<P>[] =>
        (byCall[id] ?? []) as AgentToolRunState<P>[],
    [byCall],
  );
  // The store's runs, under the official types: parts typed by `P` as the app asked (the reducer builds AI SDK
  // parts), arrays typed mutable as upstream's (they are the store's, never to be changed).
  const runs = state as unknown as Pick<
    UseAgentToolEventsResult<P>,
    "runsById" | "runsByToolCallId" | "unboundRuns"
  >;
  return {
    ...runs,
    getRunsForToolCall,
    resetLocalState,
    clearRuns,
    clearChat,
    clearing,
    store,
  };
}

/**
 * One run, read from `useAgentToolEvents(...).store`; the component re-renders only when this run changes.
 *
 * @example
 * ```tsx
 * const run = useAgentToolRun(runs.store, runId);
 * ```
 */
export function useAgentToolRun(
  store: Pick<AgentToolRuns, "subscribe" | "getSnapshot">,
  runId: string,
): AgentToolRunState | undefined {
  const get = () => store.getSnapshot().runsById[runId];
  return useSyncExternalStore(store.subscribe, get, get);
}
