/**
 * `RunTray.Root`: the tray's state — which runs it lists, open or closed, which finished runs were
 * dismissed — and the run actions its items call. With `store` (`useAgentToolEvents().store`) the actions
 * and what was seen of each run are the store's, shared with every `AgentToolRun` of the same connection: a
 * cancel sent from either reads in both, and times are those the store stamped when frames arrived. Without
 * one (runs from elsewhere) the tray keeps its own.
 */
import type { RunActionHandlers, RunActions, RunActionsSnapshot } from "@runboard/client";
import type { AgentToolRunState, AgentToolRunsState } from "@runboard/protocol";
import { activeCount, visibleRuns, withDismissed } from "@runboard/protocol/view";
import { type RefObject, useCallback, useEffect, useId, useMemo, useRef, useSyncExternalStore } from "react";
import type { RunActionProps, RunsSource } from "../agent-tool-run/root.tsx";
import { RunOwnerContext, useRunActions } from "../agent-tool-run/run-scope.ts";
import {
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { useClearFinishedController } from "./tray-clear-controller.ts";
import { useTrayFocusRequests } from "./tray-focus.tsx";

/** A callback the app supplies for a run action. */
export type RunTrayAction = (run: AgentToolRunState) => void;

/** The part of an agent connection (`useAgent()`) the tray needs to cancel a run. */
export interface RunTrayAgent {
  call(method: string, args?: unknown[]): Promise<unknown>;
}

/** What the tray's parts share. */
export interface TrayContextValue {
  runs: readonly AgentToolRunState[];
  visible: readonly AgentToolRunState[];
  open: boolean;
  toggle: () => void;
  listId: string;
  stallAfterMs: number;
  actions: RunActions;
  handlers: RunActionHandlers;
  /** The actions' snapshot, so parts re-render when a cancel, retry or reconnect starts or ends. */
  cancels: RunActionsSnapshot;
  dismiss: RunTrayAction;
  /** Clear finished (null when nothing listed is finished or a clear is on its way), and whether one is. */
  clearFinished: (() => void) | null;
  clearing: boolean;
  onDrillIn: RunTrayAction | undefined;
  triggerRef: RefObject<HTMLElement | null>;
}

/** The context of `RunTray.Root`. */
export const TrayContext = createPartContext<TrayContextValue>("RunTray.Root");

const NO_RUNS: readonly AgentToolRunState[] = Object.freeze([]);
const NO_IDS: readonly string[] = Object.freeze([]);
const noSubscribe = () => () => {};
const noRuns = () => undefined;

// `onError` is the cancel failure here, not the DOM's resource error event (a section has none of its own).
/** Props of `RunTray.Root`. */
export interface RunTrayRootProps extends Omit<PrimitiveProps<"section">, "onError">, RunActionProps {
  /**
   * The store of `useAgentToolEvents().store` (the prop `AgentToolRun.Root` takes too): the tray lists its
   * unbound (background) runs unless you pass `runs`, and cancels, retries and the times of its runs are the
   * store's, shared with every `AgentToolRun` of the connection.
   */
  store?: RunsSource;
  /** The runs to list: default the store's `unboundRuns`; or any runs (without a store, the tray keeps its own actions). */
  runs?: readonly AgentToolRunState[];
  /** Controlled: the list is shown. */
  open?: boolean;
  /** Initial `open` when uncontrolled. Default false. */
  defaultOpen?: boolean;
  /** Called when the list is shown or hidden. */
  onOpenChange?: (open: boolean) => void;
  /** Controlled: ids of finished runs the user dismissed. */
  dismissed?: readonly string[];
  /** Initial `dismissed` when uncontrolled. Default none. */
  defaultDismissed?: readonly string[];
  /** Called with the new list of dismissed ids. */
  onDismissedChange?: (dismissed: readonly string[]) => void;
  /** A running run with no new frame for this long shows as stalled. Default 30000; 0 turns it off. */
  stallAfterMs?: number;
  /** Opens a run's own chat (see `useChildChat`). Enables `RunTray.DrillIn`. */
  onDrillIn?: RunTrayAction;
  /** Runs the work again your own way (wins over `agent`'s `retryMethod`). Enables `RunTray.Retry`. */
  onRetry?: RunTrayAction;
  /** Re-attaches to a child still running your own way (wins over `agent`). Enables `RunTray.Reconnect`. */
  onReconnect?: RunTrayAction;
  /**
   * Clears the finished runs your way before `RunTray.ClearFinished` takes them off the list (e.g. a callable
   * deleting them on the agent); a rejection leaves them listed. Without it, the button only dismisses them.
   */
  onClearFinished?: (runs: readonly AgentToolRunState[]) => unknown;
  /** `onClearFinished` failed (the runs stay and the button works again). Default: `onError`. */
  onClearError?: (error: unknown) => void;
}

/**
 * The tray (`<section>`, named "Background runs" unless you name it). `data-state` `open | closed`,
 * `data-count` (runs listed), `data-active` (runs running), `data-empty` when none is listed. Closing the
 * tray or unmounting it never cancels anything: runs go on in the background.
 */
export function Root({
  store,
  runs: runsProp,
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  dismissed: dismissedProp,
  defaultDismissed = NO_IDS,
  onDismissedChange,
  stallAfterMs = 30_000,
  onCancel,
  agent,
  cancelMethod,
  cancelReason,
  onError,
  onDrillIn,
  onRetry,
  onReconnect,
  retryMethod,
  reconnectMethod,
  onClearFinished,
  onClearError,
  ...props
}: RunTrayRootProps) {
  const unbound = useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    store ? () => (store.getSnapshot() as AgentToolRunsState).unboundRuns : noRuns,
    store ? () => (store.getSnapshot() as AgentToolRunsState).unboundRuns : noRuns,
  );
  if (runsProp === undefined && store === undefined)
    warnOnce("RunTray.Root:runs", "RunTray.Root needs runs: pass store={useAgentToolEvents().store}.");
  const runs = runsProp ?? unbound ?? NO_RUNS;
  const [open, setOpen] = useControllableState({
    prop: openProp,
    defaultProp: defaultOpen,
    onChange: onOpenChange,
    part: "RunTray.Root (open)",
  });
  const [dismissed, setDismissed] = useControllableState<readonly string[]>({
    prop: dismissedProp,
    defaultProp: defaultDismissed,
    onChange: onDismissedChange,
    part: "RunTray.Root (dismissed)",
  });
  const actions = useRunActions(store);
  // A store stamps its runs as their frames arrive. Runs handed over without one are seen here as they change,
  // open or closed, so a run first looked at when the tray opens still has the right start and last signal.
  useMemo(() => {
    if (store) return;
    const now = Date.now();
    for (const run of runs) actions.seenOf(run, now);
  }, [store, runs, actions]);
  const cancels = useSyncExternalStore(actions.subscribe, actions.getSnapshot, actions.getSnapshot);
  // A store settles its own runs' cancels as frames arrive; runs handed over are settled here.
  useEffect(() => {
    if (!store) actions.settle(runs);
  }, [store, runs, actions]);

  const triggerRef = useRef<HTMLElement | null>(null);
  const dismiss = useCallback(
    (run: AgentToolRunState) => setDismissed((d) => withDismissed(d, run)),
    [setDismissed],
  );
  const dismissAll = useCallback(
    (finished: readonly AgentToolRunState[]) => setDismissed((d) => finished.reduce(withDismissed, d)),
    [setDismissed],
  );
  const toggle = useCallback(() => setOpen((o) => !o), [setOpen]);
  const visible = useMemo(() => visibleRuns(runs, dismissed), [runs, dismissed]);
  const { clearFinished, clearing } = useClearFinishedController({
    visible,
    dismissAll,
    onClearFinished,
    onClearError,
    onError,
  });
  useTrayFocusRequests(runs, open, setOpen);
  const listId = `${useId()}-list`;
  const named = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  const value: TrayContextValue = {
    runs,
    visible,
    open,
    toggle,
    listId,
    stallAfterMs,
    actions,
    handlers: {
      onCancel,
      agent,
      cancelMethod,
      cancelReason,
      onError,
      onRetry,
      onReconnect,
      retryMethod,
      reconnectMethod,
    },
    cancels,
    dismiss,
    clearFinished,
    clearing,
    onDrillIn,
    triggerRef,
  };
  return (
    <TrayContext.Context.Provider value={value}>
      <RunOwnerContext.Provider value={value}>
        {renderPart("section", {
          "data-rb-part": "RunTray.Root",
          "aria-label": named ? undefined : "Background runs",
          "data-state": open ? "open" : "closed",
          "data-count": visible.length,
          "data-active": activeCount(runs),
          "data-empty": dataFlag(visible.length === 0),
          ...props,
        })}
      </RunOwnerContext.Provider>
    </TrayContext.Context.Provider>
  );
}
Root.displayName = "RunTray.Root";

/** The tray's state, for parts of your own. Throws outside `RunTray.Root`. */
export function useRunTray(): {
  runs: readonly AgentToolRunState[];
  visible: readonly AgentToolRunState[];
  open: boolean;
  setOpen: (open: boolean) => void;
  activeCount: number;
} {
  const { runs, visible, open, toggle } = usePartContext(TrayContext, "useRunTray");
  return {
    runs,
    visible,
    open,
    setOpen: (next) => {
      if (next !== open) toggle();
    },
    activeCount: activeCount(runs),
  };
}
