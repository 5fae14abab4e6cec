/**
 * Nested runs in `AgentToolRun`: a grandchild run's events reach only a connection to the child
 * (docs/protocol.md#drill-in), so an open run follows its child through a `ChildFollower` and closes that
 * connection when the run closes or unmounts. Nested roots inherit the follower, so one tree shares its bounds.
 */
import type {
  AgentClientOptions,
  AgentToolRuns,
  ChildFollower,
  ChildFollowerOptions,
  FollowedChild,
} from "@runboard/client";
import type { AgentToolRunState, AgentToolRunsState } from "@runboard/protocol";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { warnOnce } from "../primitives/index.ts";

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

/**
 * The follower of a tree of roots: the parent root's, else one of its own made with `options`. Its code (a
 * connection to the child, a parser, a runs store) is loaded when a root first wants to follow, so a root that
 * never follows does not bring it into the app's bundle; until it has loaded, the root shows the run without
 * its child's runs.
 */
export function useFollower(
  inherited: ChildFollower | null | undefined,
  options: ChildFollowerOptions | undefined,
  wanted: boolean,
): ChildFollower | null {
  // Made once, and only by a root that follows: it holds no IO until it follows. `options` are read once.
  const [own, setOwn] = useState<ChildFollower | null>(null);
  const load = wanted && !inherited && own === null;
  const [initial] = useState(() => options);
  useEffect(() => {
    if (!load) return;
    let live = true;
    import("./child-follower.ts").then(
      ({ ChildFollower }) => {
        if (live) setOwn((made) => made ?? new ChildFollower(initial));
      },
      (error: unknown) =>
        warnOnce(
          "AgentToolRun.follow:load",
          `AgentToolRun.Root could not load the code that follows a child run (${String(error)}); the run shows without its child's runs.`,
        ),
    );
    return () => {
      live = false;
    };
  }, [load, initial]);
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
