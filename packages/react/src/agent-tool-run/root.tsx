/**
 * `AgentToolRun.Root`: holds one child run, its disclosure state and its actions, and provides the run
 * scope the shared run parts read. The run's times and its cancel come from the store's `RunActions` when
 * the root has the store (`store`, the prop `RunTray.Root` takes too), so they survive the card re-mounting
 * and agree with the tray; else from the root's own.
 */
import type {
  AgentClientOptions,
  AgentToolRuns,
  CallableAgent,
  ChildFollower,
  ChildFollowerOptions,
  RunActionHandlers,
  RunActions,
} from "@runboard/client";
import type {
  AgentToolRunState as AgentToolRunData,
  AgentToolRunStatus,
  AgentToolRunsState,
} from "@runboard/protocol";
import { type RunTimes, runTitle, trayStatus } from "@runboard/protocol/view";
import { useCallback, useContext, useEffect, useId, useRef, useSyncExternalStore } from "react";
import {
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  useHydrated,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { useAgentToolRun } from "../use-agent-tool-events.ts";
import { type NestedRuns, useFollowChild, useFollower } from "./follow.ts";
import {
  RunOwnerContext,
  RunScopeContext,
  type RunScopeValue,
  useCancelling,
  useRunActions,
} from "./run-scope.ts";

/** A callback the app supplies for a run action. */
export type RunAction = (run: AgentToolRunData) => void;

/** How the run's actions reach the agent; the same props on `AgentToolRun.Root` and `RunTray.Root`. */
export interface RunActionProps {
  /** Cancels a run, e.g. through your own callable. Wins over `agent`. */
  onCancel?: (run: AgentToolRunData) => Promise<unknown> | unknown;
  /** The agent connection (`useAgent()`): Cancel calls `agent.call(cancelMethod, [runId, cancelReason])`. */
  agent?: CallableAgent;
  /** The callable that cancels a run. Default `cancelAgentTool`. */
  cancelMethod?: string;
  /** The reason sent with a cancel. Default "Cancelled by the user". */
  cancelReason?: string;
  /** A cancel failed (the run goes back to running), or a retry or reconnect failed (it can be pressed again). */
  onError?: (error: unknown, run: AgentToolRunData) => void;
  /**
   * The callable Retry calls as `agent.call(retryMethod, [runId])` when there is no `onRetry`: it re-dispatches
   * the same run id (docs/protocol.md#retry-and-reconnect). Default `retryAgentTool`.
   */
  retryMethod?: string;
  /** The callable Reconnect calls with `[runId]` when there is no `onReconnect`. Default: `retryMethod`. */
  reconnectMethod?: string;
}

/** What the AgentToolRun parts share beyond the run scope. */
export interface RunContextValue {
  run: AgentToolRunData;
  open: boolean;
  toggle: () => void;
  contentId: string;
  depth: number;
  actions: RunActions;
  handlers: RunActionHandlers;
  onDrillIn: RunAction | undefined;
  /** The runs this run's child dispatched, while the root is open and follows its child; else null. */
  nested: NestedRuns | null;
  /** The follower nested roots share (its depth and connection bounds); null when nothing follows. */
  follower: ChildFollower | null;
}

/** The context of `AgentToolRun.Root`. */
export const RunContext = createPartContext<RunContextValue>("AgentToolRun.Root");

const notRecovering = () => false;

const UNKNOWN_TIMES: RunTimes = Object.freeze({ startedAt: null, endedAt: null });

const NO_STORE = {
  subscribe: () => () => {},
  getSnapshot: (): AgentToolRunsState => ({ runsById: {}, runsByToolCallId: {}, unboundRuns: [] }),
} as unknown as RunsSource;

/**
 * A store of runs a root can read one run from: `useAgentToolEvents().store`, or any store with the same
 * snapshot shape and run actions (`HelixRuns` from `@runboard/client/helix`).
 */
export type RunsSource = Pick<AgentToolRuns, "subscribe" | "getSnapshot" | "actions">;

// `onError` is a failed cancel here, not the DOM's resource error event (a div has none of its own).
/** Props of `AgentToolRun.Root`. */
export interface AgentToolRunRootProps extends Omit<PrimitiveProps<"div">, "onError">, RunActionProps {
  /** The run to show. Or pass `store` and `runId` to re-render only when that run changes. */
  run?: AgentToolRunData;
  /**
   * The store of `useAgentToolEvents().store` (the prop `RunTray.Root` takes too): with `runId`, the run to
   * show; in any case the run's times and its cancel, retry and reconnect (through the store's agent) are the
   * store's, shared by every view of the run (a cancel sent from the tray reads here too).
   */
  store?: RunsSource;
  /** Which run of `store` to show. */
  runId?: string;
  /** Controlled open state of the content. */
  open?: boolean;
  /** Initial open state when uncontrolled. Default: open while the run is running. */
  defaultOpen?: boolean;
  /** Called when the content opens or closes, by the user or by the run completing. */
  onOpenChange?: (open: boolean) => void;
  /** Runs the work again your own way (wins over `agent`'s `retryMethod`). Enables `AgentToolRun.Retry`. */
  onRetry?: RunAction;
  /** Re-attaches to a child still running your own way (wins over `agent`). Enables `AgentToolRun.Reconnect`. */
  onReconnect?: RunAction;
  /** Opens the child's own chat (see `useChildChat`). Enables `AgentToolRun.DrillIn`. */
  onDrillIn?: RunAction;
  /**
   * The address of the connection this run came from (the options `useAgent` got: `agent`, `name`, `host`, …).
   * With it, an open run follows its child: a connection to the child's sub-agent URL, whose runs (the
   * grandchildren) `AgentToolRun.Transcript` hands its renderer; closed when the run closes or unmounts. A
   * root nested in a following root follows on from its parent's child without it.
   */
  follow?: AgentClientOptions;
  /** Bounds of following (`maxDepth`, default 4 levels; `maxOpen`, default 8 connections) and the child stores' options. Read once, by the outermost following root. */
  followOptions?: ChildFollowerOptions;
}

/**
 * The run's container (`role="group"`, named by the run's title). Renders nothing until the run exists.
 * `data-status` (the run's status), `data-state` `open | closed`, `data-cancelling`, `data-depth`,
 * `data-run-id`, `data-agent-type`. Open while running; closes once when the run completes, unless the user
 * toggled it first. Runs that end any other way stay as they are, so an error is not hidden.
 */
export function Root({
  run: runProp,
  store,
  runId,
  open: openProp,
  defaultOpen,
  onOpenChange,
  onRetry,
  onReconnect,
  onDrillIn,
  follow,
  followOptions,
  onCancel,
  agent,
  cancelMethod,
  cancelReason,
  onError,
  retryMethod,
  reconnectMethod,
  ...props
}: AgentToolRunRootProps) {
  const fromStore = useAgentToolRun(store ?? NO_STORE, runId ?? "");
  if ("runs" in props) {
    warnOnce(
      "AgentToolRun.Root:runs",
      "AgentToolRun.Root's `runs` prop was renamed `store` (the name RunTray.Root uses): pass store={useAgentToolEvents().store}.",
    );
    // Not an attribute of the group element: the rest object is this render's own.
    delete (props as { runs?: unknown }).runs;
  }
  if (runProp === undefined && (store === undefined || runId === undefined))
    warnOnce(
      "AgentToolRun.Root:run",
      "AgentToolRun.Root needs a run: pass `run`, or `store` (useAgentToolEvents().store) and `runId`.",
    );
  const run = runProp ?? fromStore;
  const parent = useContext(RunContext.Context);
  // A nested run without a store of its own uses its parent's actions: one record of what was seen.
  const actions = useRunActions(store ?? (parent ? { actions: parent.actions } : undefined));
  const cancelling = useCancelling(actions, run?.runId ?? "");
  // Retry and Reconnect read disabled while theirs is on its way: re-render when that starts or ends.
  useSyncExternalStore(actions.subscribe, () => actions.isRecovering(run?.runId ?? ""), notRecovering);
  const status: AgentToolRunStatus | undefined = run?.status;
  const [open, setOpen] = useControllableState({
    prop: openProp,
    defaultProp: defaultOpen ?? status === "running",
    onChange: onOpenChange,
    part: "AgentToolRun.Root",
  });
  const userToggled = useRef(false);
  const lastStatus = useRef(status);
  useEffect(() => {
    const prev = lastStatus.current;
    lastStatus.current = status;
    if (userToggled.current || prev === status) return;
    if (status === "running") setOpen(true);
    else if (prev === "running" && status === "completed") setOpen(false);
  }, [status, setOpen]);
  // A run that ended is no longer cancelling (a store settles its own; a root's own actions need this).
  useEffect(() => {
    if (run) actions.settle([run]);
  }, [run, actions]);
  const toggle = useCallback(() => {
    userToggled.current = true;
    setOpen((o) => !o);
  }, [setOpen]);
  const id = useId();
  // Grandchild events go only to the child's own connection: follow it while the run is open.
  const from = follow ?? parent?.nested?.child;
  const follower = useFollower(parent?.follower, followOptions, from !== undefined);
  const nested = useFollowChild(follower, from, run, open);
  // What this client saw of the run is the browser's to show: on a server the clock would be the server's,
  // shared by every request, and the HTML could not be hydrated.
  const hydrated = useHydrated();
  if (!run) return null;
  const handlers: RunActionHandlers = {
    onCancel,
    agent,
    cancelMethod,
    cancelReason,
    onError,
    onRetry,
    onReconnect,
    retryMethod,
    reconnectMethod,
  };
  const times = hydrated ? actions.timesOf(run) : UNKNOWN_TIMES;
  const isCancelling = cancelling && run.status === "running";
  const scope: RunScopeValue = {
    run,
    status: trayStatus(run.status, isCancelling),
    cancelling: isCancelling,
    stalled: false,
    startedAt: times.startedAt,
    endedAt: times.endedAt,
    lastSignalAt: null,
    titleId: `${id}-title`,
    cancel: actions.canCancel(run, handlers) ? () => actions.cancel(run, handlers) : null,
    canSendCancel: actions.canSendCancel(handlers),
    liveStatus: true,
  };
  const value: RunContextValue = {
    run,
    open,
    toggle,
    contentId: `${id}-content`,
    depth: parent ? parent.depth + 1 : 0,
    actions,
    handlers,
    onDrillIn,
    nested,
    follower,
  };
  return (
    <RunContext.Context.Provider value={value}>
      <RunOwnerContext.Provider value={value}>
        <RunScopeContext.Provider value={scope}>
          {renderPart("div", {
            "data-rb-part": "AgentToolRun.Root",
            role: "group",
            "aria-label": runTitle(run),
            "data-status": run.status,
            "data-state": open ? "open" : "closed",
            "data-cancelling": dataFlag(isCancelling),
            "data-depth": value.depth,
            "data-run-id": run.runId,
            "data-agent-type": run.agentType,
            "data-following": dataFlag(nested !== null),
            ...props,
          })}
        </RunScopeContext.Provider>
      </RunOwnerContext.Provider>
    </RunContext.Context.Provider>
  );
}
Root.displayName = "AgentToolRun.Root";

/** The run `AgentToolRun.Root` shows; for parts of your own. Throws outside a root. */
export function useAgentToolRunContext(part = "useAgentToolRunContext"): {
  run: AgentToolRunData;
  open: boolean;
  depth: number;
  /** The runs the child dispatched, while the root follows its child (see `follow`). */
  nested: NestedRuns | null;
} {
  const { run, open, depth, nested } = usePartContext(RunContext, part);
  return { run, open, depth, nested };
}
