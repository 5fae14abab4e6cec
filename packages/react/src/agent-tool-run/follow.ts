/**
 * Nested runs in `AgentToolRun`: a grandchild run's events reach only a connection to the child
 * (docs/protocol.md#drill-in), so an open run follows its child through a `ChildFollower` and closes that
 * connection when the run closes or unmounts. Nested roots inherit the follower, so one tree shares its bounds.
 */
import {
  type AgentClientOptions,
  type AgentToolRuns,
  ChildFollower,
  type ChildFollowerOptions,
  type FollowedChild,
} from "@runboard/client";
import type { AgentToolRunState, AgentToolRunsState } from "@runboard/protocol";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";

/** The runs an open run's child dispatched, read from a connection to the child. */
export interface NestedRuns {
  /** The child's store: pass it as `store` to a nested `AgentToolRun.Root`, so its cancel reaches the child. */
  runs: AgentToolRuns;
  /** The connection followed; a nested root follows on from it. */
  child: FollowedChild;
  /** The runs one tool call of the child's transcript dispatched, in display order (empty when none). */
  getRunsForToolCall(toolCallId: string): readonly AgentToolRunState[];
}

/** Where a root follows from: its `follow` address, or the child its parent root follows. */
export type FollowFrom = AgentClientOptions | FollowedChild;

/** The follower of a tree of roots: the parent root's, else one of its own made with `options`. */
export function useFollower(
  inherited: ChildFollower | null | undefined,
  options: ChildFollowerOptions | undefined,
  wanted: boolean,
): ChildFollower | null {
  // Made once, and only by a root that follows: it holds no IO until it follows.
  const [own] = useState(() => (wanted && !inherited ? new ChildFollower(options) : null));
  return inherited ?? own;
}

function keyOf(from: FollowFrom, run: AgentToolRunState): string {
  const a =
    "client" in from && "depth" in from ? (from as FollowedChild).address : (from as AgentClientOptions);
  return JSON.stringify([a.agent, a.name, a.host, a.path, a.basePath, a.sub, run.subAgent]);
}

const EMPTY: AgentToolRunsState = Object.freeze({
  runsById: {},
  runsByToolCallId: {},
  unboundRuns: [],
}) as AgentToolRunsState;
const noSubscribe = () => () => {};
const empty = () => EMPTY;

/**
 * Follows `run`'s child while `enabled`: opens the connection in an effect (no socket on a server render) and
 * closes it when `enabled` turns false, the run or address changes, or the component unmounts. Null when not
 * following, including past the follower's depth or open-connection bounds.
 */
export function useFollowChild(
  follower: ChildFollower | null,
  from: FollowFrom | null | undefined,
  run: AgentToolRunState | undefined,
  enabled: boolean,
): NestedRuns | null {
  const key = follower && from && run && enabled ? keyOf(from, run) : "";
  const [child, setChild] = useState<FollowedChild | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for from and run; a new object for the same address must not reconnect.
  useEffect(() => {
    if (!key || !follower || !from || !run) return;
    const followed = follower.follow(from, run);
    setChild(followed);
    return () => {
      followed?.close();
      setChild(null);
    };
  }, [key, follower]);
  const state = useSyncExternalStore(
    child ? child.runs.subscribe : noSubscribe,
    child ? child.runs.getSnapshot : empty,
    empty,
  );
  const byCall = state.runsByToolCallId;
  return useMemo(
    () =>
      child && !child.closed
        ? { runs: child.runs, child, getRunsForToolCall: (id: string) => byCall[id] ?? [] }
        : null,
    [child, byCall],
  );
}
