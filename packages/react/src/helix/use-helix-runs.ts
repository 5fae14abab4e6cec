/**
 * `useHelixRuns` and `useHelixChildren`: the helix stores of `@runboard/client/helix` (docs/helix.md) as hooks.
 * The stores are made during render without IO; a `url` is followed from an effect (an `EventSource`), closed on
 * unmount or when the url changes, so a server render opens nothing.
 */
import {
  HelixChildren,
  type HelixChildrenOptions,
  type HelixChildrenState,
  HelixRuns,
  type HelixRunsOptions,
  type HelixRunsState,
} from "@runboard/client/helix";
import type { HelixRun } from "@runboard/protocol/helix";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { useLatest, useOwned } from "../lifetime.ts";

/** Options of `useHelixRuns`. */
export interface UseHelixRunsOptions extends Omit<HelixRunsOptions, "onError"> {
  /** An SSE URL to follow with `EventSource`; without it, feed `store` yourself (`apply`, `consume`, `fromResponse`). */
  url?: string;
  /** Passed to `EventSource` with `url`. */
  withCredentials?: boolean;
  /** Rejected chunks, unknown chunk types (once each) and failed reads; the latest function is called. */
  onError?: (error: Error) => void;
}

/** What `useHelixRuns` returns: the snapshot (the `useAgentToolEvents` shape plus `root`) and the store. */
export interface UseHelixRunsResult extends HelixRunsState {
  /** The runs one tool part spawned (a `tool-subagent__<type>` part), in start order. */
  getRunsForToolCall(toolCallId: string): readonly HelixRun[];
  /** The store: pass it as `runs` to `AgentToolRun.Root`, or feed it chunks. */
  store: HelixRuns;
}

/**
 * helix-agents sub-agent runs, in the shape `useAgentToolEvents` returns, so `AgentToolRun`, `RunTray`,
 * `Progress` and `MilestoneTimeline` render them unchanged. A new `url` starts a new stream on a fresh store.
 *
 * @example
 * ```tsx
 * const helix = useHelixRuns({ url: "/api/agent/stream" });
 * helix.root.parts.map((part) =>
 *   isToolUIPart(part)
 *     ? helix.getRunsForToolCall(part.toolCallId).map((r) => <AgentToolRun.Root key={r.runId} store={helix.store} runId={r.runId} />)
 *     : <Text part={part} />,
 * );
 * ```
 */
export function useHelixRuns(options: UseHelixRunsOptions = {}): UseHelixRunsResult {
  const { url, withCredentials, onError, ...storeOptions } = options;
  const latestError = useLatest(onError);
  const store = useOwned(
    `helix:${url ?? ""}`,
    () => new HelixRuns({ ...storeOptions, onError: (e) => latestError.current?.(e) }),
    (s: HelixRuns) => s.dispose(),
  );
  useEffect(() => {
    if (url === undefined) return;
    // A stream has no ids to resume from: following again (StrictMode's second mount) starts it over.
    store.reset();
    return store.fromEventSource(url, withCredentials === undefined ? undefined : { withCredentials });
  }, [store, url, withCredentials]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const byCall = state.runsByToolCallId;
  const getRunsForToolCall = useMemo(
    () =>
      (id: string): readonly HelixRun[] =>
        byCall[id] ?? [],
    [byCall],
  );
  return { ...state, getRunsForToolCall, store };
}

/** What `useHelixChildren` returns. */
export interface UseHelixChildrenResult extends HelixChildrenState {
  /** The store: feed it refs and tool results; pass it to `HelixChild.SendMessage` / `HelixChild.Terminate`. */
  store: HelixChildren;
}

/**
 * helix persistent children (`SubSessionRef`s and companion tool results) with Send message and Terminate
 * through your callbacks; `runs` is what `RunTray.Root` lists. The latest callbacks are used.
 */
export function useHelixChildren(options: HelixChildrenOptions = {}): UseHelixChildrenResult {
  const store = useOwned(
    "helix-children",
    () => new HelixChildren(options),
    () => {},
  );
  store.setOptions(options);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { ...state, store };
}
