/**
 * `RunTray`: the tray of background runs (`useAgentToolEvents().unboundRuns`, or any runs): a disclosure
 * button with a count of active runs, a list of runs with status, progress, milestones, elapsed time, a
 * stall notice and Cancel / Open / Dismiss, and a polite live region that says when a run ends.
 */
import {
  type AgentToolMilestone,
  type AgentToolRun,
  activeCount,
  canCancel,
  canDismiss,
  endingsAnnouncement,
  isStalled,
  observeEndings,
  runIcon,
  runTitle,
  settleCancelling,
  stallDueAt,
  stalledLabel,
  TRAY_STATUS_LABELS,
  type TrackedRun,
  type TrayStatus,
  trackRuns,
  trayStatus,
  visibleRuns,
  watchRunning,
  withCancelling,
  withDismissed,
} from "@runboard/protocol";
import {
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { isoDuration } from "../agent-tool-run/format.ts";
import { useLatest } from "../lifetime.ts";
import {
  createPartContext,
  dataFlag,
  formatElapsed,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  useHydrated,
  useNow,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";
import { Progress, type ProgressRootProps } from "../progress/progress.tsx";

/** A callback the app supplies for a run action. */
export type RunTrayAction = (run: AgentToolRun) => void;

/** The part of an agent connection (`useAgent()`) the tray needs to cancel a run. */
export interface RunTrayAgent {
  call(method: string, args?: unknown[]): Promise<unknown>;
}

interface TrayContextValue {
  runs: readonly AgentToolRun[];
  visible: readonly AgentToolRun[];
  tracked: ReadonlyMap<string, TrackedRun>;
  open: boolean;
  toggle: () => void;
  listId: string;
  stallAfterMs: number;
  cancelling: ReadonlySet<string>;
  /** Null when the root has neither `onCancel` nor `agent`. */
  cancel: RunTrayAction | null;
  dismiss: RunTrayAction;
  onDrillIn: RunTrayAction | undefined;
  triggerRef: RefObject<HTMLElement | null>;
}

const TrayContext = createPartContext<TrayContextValue>("RunTray.Root");

/** One run of the list, with what the tray knows about it. */
export interface RunTrayItemState {
  run: AgentToolRun;
  /** `running | cancelling | completed | error | aborted | interrupted`. */
  status: TrayStatus;
  cancelling: boolean;
  stalled: boolean;
  /** When this client first saw it running and saw it end (null when unknown, and always before mount). */
  startedAt: number | null;
  endedAt: number | null;
  /** The last time a frame changed the run, on this client's clock. */
  lastSignalAt: number;
}

const ItemContext = createPartContext<RunTrayItemState>("RunTray.List");

const NO_RUNS: readonly AgentToolRun[] = Object.freeze([]);
const NO_IDS: readonly string[] = Object.freeze([]);
const NO_CANCELS: ReadonlySet<string> = new Set();
const DEFAULT_CANCEL_REASON = "Cancelled by the user";

/** Props of `RunTray.Root`. */
// `onError` is the cancel failure here, not the DOM's resource error event (a section has none of its own).
export interface RunTrayRootProps extends Omit<PrimitiveProps<"section">, "onError"> {
  /** The runs to list: `useAgentToolEvents().unboundRuns` for background runs, or any runs. */
  runs: readonly AgentToolRun[];
  /** Controlled: the list is shown. */
  open?: boolean;
  /** Initial `open` when uncontrolled. Default false. */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Controlled: ids of finished runs the user dismissed. */
  dismissed?: readonly string[];
  /** Initial `dismissed` when uncontrolled. Default none. */
  defaultDismissed?: readonly string[];
  onDismissedChange?: (dismissed: readonly string[]) => void;
  /** A running run with no new frame for this long shows as stalled. Default 30000; 0 turns it off. */
  stallAfterMs?: number;
  /** Cancels a run, e.g. through your own callable. Wins over `agent`. */
  onCancel?: (run: AgentToolRun) => Promise<unknown> | unknown;
  /** The agent connection (`useAgent()`): Cancel calls `agent.call(cancelMethod, [runId, cancelReason])`. */
  agent?: RunTrayAgent;
  /** The callable that cancels a run. Default `cancelAgentTool`. */
  cancelMethod?: string;
  /** The reason sent with a cancel. Default "Cancelled by the user". */
  cancelReason?: string;
  /** A cancel failed (the run goes back to running). */
  onError?: (error: unknown, run: AgentToolRun) => void;
  /** Opens a run's own chat (see `useChildChat`). Enables `RunTray.DrillIn`. */
  onDrillIn?: RunTrayAction;
}

/**
 * The tray (`<section>`, named "Background runs" unless you name it). `data-state` `open | closed`,
 * `data-count` (runs listed), `data-active` (runs running), `data-empty` when none is listed. Closing the
 * tray or unmounting it never cancels anything: runs go on in the background.
 */
function Root({
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
  cancelMethod = "cancelAgentTool",
  cancelReason = DEFAULT_CANCEL_REASON,
  onError,
  onDrillIn,
  ...props
}: RunTrayRootProps) {
  if (runsProp === undefined)
    warnOnce("RunTray.Root:runs", "RunTray.Root needs runs: pass useAgentToolEvents().unboundRuns.");
  const runs = runsProp ?? NO_RUNS;
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

  // The protocol carries no timestamps: first sight, end and last change of each run are this client's.
  const trackedRef = useRef<ReadonlyMap<string, TrackedRun>>(new Map());
  const tracked = useMemo(() => {
    trackedRef.current = trackRuns(trackedRef.current, runs, Date.now());
    return trackedRef.current;
  }, [runs]);

  const [cancelling, setCancelling] = useState(NO_CANCELS);
  // Read synchronously, so a second press before the re-render still sends nothing.
  const inFlight = useRef(new Set<string>());
  const config = useLatest({ onCancel, agent, cancelMethod, cancelReason, onError });
  const canSend = onCancel !== undefined || agent !== undefined;
  const send = useCallback(
    (run: AgentToolRun) => {
      if (run.status !== "running" || inFlight.current.has(run.runId)) return;
      inFlight.current.add(run.runId);
      setCancelling((s) => withCancelling(s, run.runId, true));
      const c = config.current;
      let sent: Promise<unknown>;
      try {
        sent = Promise.resolve(
          c.onCancel ? c.onCancel(run) : c.agent?.call(c.cancelMethod, [run.runId, c.cancelReason]),
        );
      } catch (error) {
        sent = Promise.reject(error);
      }
      // On success the run stays "cancelling" until its terminal frame arrives; on failure it is running again.
      sent.catch((error: unknown) => {
        inFlight.current.delete(run.runId);
        setCancelling((s) => withCancelling(s, run.runId, false));
        config.current.onError?.(error, run);
      });
    },
    [config],
  );
  useEffect(() => {
    for (const r of runs) if (r.status !== "running") inFlight.current.delete(r.runId);
    setCancelling((s) => settleCancelling(s, runs));
  }, [runs]);

  const triggerRef = useRef<HTMLElement | null>(null);
  const dismiss = useCallback(
    (run: AgentToolRun) => setDismissed((d) => withDismissed(d, run)),
    [setDismissed],
  );
  const toggle = useCallback(() => setOpen((o) => !o), [setOpen]);
  const visible = useMemo(() => visibleRuns(runs, dismissed), [runs, dismissed]);
  const listId = `${useId()}-list`;
  const named = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  const value: TrayContextValue = {
    runs,
    visible,
    tracked,
    open,
    toggle,
    listId,
    stallAfterMs,
    cancelling,
    cancel: canSend ? send : null,
    dismiss,
    onDrillIn,
    triggerRef,
  };
  return (
    <TrayContext.Context.Provider value={value}>
      {renderPart("section", {
        "aria-label": named ? undefined : "Background runs",
        "data-state": open ? "open" : "closed",
        "data-count": visible.length,
        "data-active": activeCount(runs),
        "data-empty": dataFlag(visible.length === 0),
        ...props,
      })}
    </TrayContext.Context.Provider>
  );
}

/** The tray's state, for parts of your own. Throws outside `RunTray.Root`. */
export function useRunTray(): {
  runs: readonly AgentToolRun[];
  visible: readonly AgentToolRun[];
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

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}

/** The disclosure button: shows and hides the list (`aria-expanded`, `aria-controls`). Default text "Background runs". */
function Trigger({ onClick, ref, children = "Background runs", ...props }: PrimitiveProps<"button">) {
  const { open, toggle, listId, triggerRef } = usePartContext(TrayContext, "RunTray.Trigger");
  const setRef = useCallback(
    (el: HTMLButtonElement | null) => {
      triggerRef.current = el;
      assignRef(ref, el);
    },
    [ref, triggerRef],
  );
  return renderPart("button", {
    type: "button",
    ref: setRef,
    "aria-expanded": open,
    "aria-controls": listId,
    "data-state": open ? "open" : "closed",
    children,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) toggle();
    },
    ...props,
  });
}

/** How many runs are running (`data-count`); `hidden` and `data-empty` at 0, so it shows only when useful. */
function Badge(props: PrimitiveProps<"span">) {
  const { runs } = usePartContext(TrayContext, "RunTray.Badge");
  const count = activeCount(runs);
  return renderPart("span", {
    "data-count": count,
    "data-empty": dataFlag(count === 0),
    hidden: count === 0,
    children: count,
    ...props,
  });
}

/** Props of `RunTray.List`. */
export interface RunTrayListProps extends Omit<PrimitiveProps<"ul">, "children"> {
  /** Renders one run; it should return a `RunTray.Item`. Default: an item with every part. */
  children?: (run: AgentToolRun) => ReactNode;
  /** Keep the items mounted while the tray is closed (hidden), e.g. for exit animations. */
  forceMount?: boolean;
}

const defaultItem = () => (
  <RunTray.Item>
    <RunTray.Title /> <RunTray.Status /> <RunTray.Elapsed />
    <RunTray.Progress />
    <RunTray.Phase /> <RunTray.Message />
    <RunTray.Milestones />
    <RunTray.Stalled />
    <RunTray.Error />
    <RunTray.Cancel /> <RunTray.DrillIn /> <RunTray.Dismiss />
  </RunTray.Item>
);

/**
 * The runs (`<ul>`), minus dismissed ones, one render-prop call per run. Stays in the DOM (hidden) when the
 * tray is closed so the trigger's `aria-controls` resolves.
 */
function List({ children = defaultItem, forceMount, ...props }: RunTrayListProps) {
  const { visible, open, listId } = usePartContext(TrayContext, "RunTray.List");
  return renderPart("ul", {
    id: listId,
    hidden: !open,
    "data-state": open ? "open" : "closed",
    "data-count": visible.length,
    children:
      open || forceMount
        ? visible.map((run) => (
            <RunScope key={run.runId} run={run}>
              {children(run)}
            </RunScope>
          ))
        : null,
    ...props,
  });
}

/**
 * Re-renders exactly when a running run turns stalled: one timer per run, due `stallAfterMs` after its last
 * signal, instead of a clock ticking every second for runs that are fine. Never stalled before mount: the
 * wait is measured on the browser's clock.
 */
function useStalled(
  run: AgentToolRun,
  lastSignalAt: number,
  stallAfterMs: number,
  hydrated: boolean,
): boolean {
  const [, wake] = useReducer((n: number) => n + 1, 0);
  const stalled = hydrated && isStalled(run.status, lastSignalAt, Date.now(), stallAfterMs);
  const due = run.status === "running" && !stalled ? stallDueAt(lastSignalAt, stallAfterMs) : null;
  useEffect(() => {
    if (due === null) return;
    const timer = setTimeout(wake, Math.max(0, due - Date.now()));
    return () => clearTimeout(timer);
  }, [due]);
  return stalled;
}

/** Works out one run's tray state and hands it to the item's parts. */
function RunScope({ run, children }: { run: AgentToolRun; children: ReactNode }) {
  const { tracked, cancelling, stallAfterMs } = usePartContext(TrayContext, "RunTray.List");
  // What this page saw of the run is the browser's to show: before mount (a server render, hydration) the
  // times are unknown.
  const hydrated = useHydrated();
  const seen = hydrated ? tracked.get(run.runId) : undefined;
  const lastSignalAt = seen?.lastSignalAt ?? Date.now();
  const stalled = useStalled(run, lastSignalAt, stallAfterMs, hydrated);
  const isCancelling = run.status === "running" && cancelling.has(run.runId);
  const value: RunTrayItemState = {
    run,
    status: trayStatus(run.status, isCancelling),
    cancelling: isCancelling,
    stalled,
    startedAt: seen?.times.startedAt ?? null,
    endedAt: seen?.times.endedAt ?? null,
    lastSignalAt,
  };
  return <ItemContext.Context.Provider value={value}>{children}</ItemContext.Context.Provider>;
}

/** The run of the current list item, for parts of your own. Throws outside `RunTray.List`. */
export function useRunTrayItem(): RunTrayItemState {
  return usePartContext(ItemContext, "useRunTrayItem");
}

/**
 * One run (`<li>`, named by the run). `data-status` (the run's status), `data-tray-status` (with
 * `cancelling`), `data-stalled`, `data-cancelling`, `data-run-id`.
 */
function Item(props: PrimitiveProps<"li">) {
  const item = usePartContext(ItemContext, "RunTray.Item");
  return renderPart("li", {
    "aria-label": runTitle(item.run),
    "data-status": item.run.status,
    "data-tray-status": item.status,
    "data-stalled": dataFlag(item.stalled),
    "data-cancelling": dataFlag(item.cancelling),
    "data-run-id": item.run.runId,
    ...props,
  });
}

/** The display name (`agentTool({ displayName })`, else the agent type), after the server's icon if any. */
function Title({ children, ...props }: PrimitiveProps<"span">) {
  const { run } = usePartContext(ItemContext, "RunTray.Title");
  const icon = runIcon(run);
  return renderPart("span", {
    children: children ?? (
      <>
        {icon ? <span aria-hidden="true">{icon}</span> : null}
        {runTitle(run)}
      </>
    ),
    ...props,
  });
}

/** Props of `RunTray.Status`. */
export interface RunTrayStatusProps extends PrimitiveProps<"span"> {
  /** Words per status, merged over the defaults (Running, Cancelling…, Completed, Failed, Cancelled, Interrupted). */
  labels?: Partial<Record<TrayStatus, string>>;
}

/** The status in words; `data-status` includes `cancelling`. Endings are spoken by `RunTray.Announcer`. */
function Status({ labels, ...props }: RunTrayStatusProps) {
  const { status } = usePartContext(ItemContext, "RunTray.Status");
  return renderPart("span", {
    "data-status": status,
    children: labels?.[status] ?? TRAY_STATUS_LABELS[status],
    ...props,
  });
}

/** Props of `RunTray.Progress`. */
export type RunTrayProgressProps = Omit<ProgressRootProps, "run">;

/** The run's progress bar (`Progress.Root` for the run, named `<name> progress`); default child an indicator. */
function RunProgress({ children, ...props }: RunTrayProgressProps) {
  const { run } = usePartContext(ItemContext, "RunTray.Progress");
  return (
    <Progress.Root run={run} {...props}>
      {children ?? <Progress.Indicator />}
    </Progress.Root>
  );
}

/** The latest progress phase (`reading`); nothing without one. */
function Phase(props: PrimitiveProps<"span">) {
  const { run } = usePartContext(ItemContext, "RunTray.Phase");
  const phase = run.progress?.phase;
  if (!phase && props.children === undefined) return null;
  return renderPart("span", { children: phase, ...props });
}

/** The latest progress message (`Reading 2 sources`), as text; nothing without one. */
function Message(props: PrimitiveProps<"span">) {
  const { run } = usePartContext(ItemContext, "RunTray.Message");
  const message = run.progress?.message;
  if (!message && props.children === undefined) return null;
  return renderPart("span", { children: message, ...props });
}

/** The error of a run that failed, was interrupted or was cancelled with a reason, as text; nothing otherwise. */
function ErrorPart(props: PrimitiveProps<"p">) {
  const { run } = usePartContext(ItemContext, "RunTray.Error");
  if (run.status === "running" || run.status === "completed" || !run.error) return null;
  return renderPart("p", { "data-status": run.status, children: run.error, ...props });
}

/** Props of `RunTray.Milestones`. */
export interface RunTrayMilestonesProps extends Omit<PrimitiveProps<"ul">, "children"> {
  /** Renders one chip's content. Default: the milestone's name. */
  children?: (milestone: AgentToolMilestone) => ReactNode;
}

/**
 * Reached milestones as chips (`<ul>` named `<name> milestones`, one `<li data-name>` each, the latest
 * `data-current`), in the child's order; nothing before the first.
 */
function Milestones({ children, ...props }: RunTrayMilestonesProps) {
  const { run } = usePartContext(ItemContext, "RunTray.Milestones");
  if (run.milestones.length === 0) return null;
  const list = [...run.milestones].sort((a, b) => a.sequence - b.sequence);
  return renderPart("ul", {
    "aria-label": `${runTitle(run)} milestones`,
    "data-count": list.length,
    children: list.map((m, i) => (
      <li key={m.sequence} data-name={m.name} data-current={dataFlag(i === list.length - 1)}>
        {children ? children(m) : m.name}
      </li>
    )),
    ...props,
  });
}

/** Props of `RunTray.Elapsed`. */
export interface RunTrayElapsedProps extends PrimitiveProps<"time"> {
  /** Formats the elapsed milliseconds. Default `1:05`. */
  format?: (ms: number) => string;
}

/**
 * Time since this client first saw the run running, as `<time dateTime="PT…">`; ticks each second on the
 * shared clock while running, stops when it ends. Nothing for a run first seen finished (start unknown), nor
 * before the page has mounted (a server render, hydration): the time is the browser's.
 */
function Elapsed({ format = formatElapsed, ...props }: RunTrayElapsedProps) {
  const { run, startedAt, endedAt } = usePartContext(ItemContext, "RunTray.Elapsed");
  const end = run.status === "running" ? null : endedAt;
  const now = useNow(1000, startedAt !== null && end === null);
  const until = end ?? now;
  if (startedAt === null || until === null) return null;
  const ms = Math.max(0, until - startedAt);
  return renderPart("time", {
    dateTime: isoDuration(ms),
    "data-status": run.status,
    children: format(ms),
    ...props,
  });
}

/** Shown only while the run is stalled (running, no frame for `stallAfterMs`). Default "No update for 30 seconds". */
function Stalled(props: PrimitiveProps<"span">) {
  const { stalled } = usePartContext(ItemContext, "RunTray.Stalled");
  const { stallAfterMs } = usePartContext(TrayContext, "RunTray.Stalled");
  if (!stalled) return null;
  return renderPart("span", { "data-stalled": "", children: stalledLabel(stallAfterMs), ...props });
}

/**
 * Cancel for `run` (default: the current item's run), or null when it cannot be sent: the run is not
 * running, its cancel is already on its way, or the root has neither `onCancel` nor `agent`. Sends one
 * call however often it is invoked; the run reads `cancelling` until its terminal frame, or goes back to
 * running and `onError` hears about it if the call fails.
 */
export function useRunTrayCancel(run?: AgentToolRun): (() => void) | null {
  const tray = usePartContext(TrayContext, "useRunTrayCancel");
  const item = useContext(ItemContext.Context);
  const target = run ?? item?.run;
  const cancel = tray.cancel;
  if (!target || !cancel || !canCancel(target, tray.cancelling)) return null;
  return () => cancel(target);
}

/** Dismiss for `run` (default: the current item's run), or null while it is running. */
export function useRunTrayDismiss(run?: AgentToolRun): (() => void) | null {
  const tray = usePartContext(TrayContext, "useRunTrayDismiss");
  const item = useContext(ItemContext.Context);
  const target = run ?? item?.run;
  if (!target || !canDismiss(target)) return null;
  return () => tray.dismiss(target);
}

/** Open the run's chat, when the root has `onDrillIn`; else null. */
export function useRunTrayDrillIn(run?: AgentToolRun): (() => void) | null {
  const tray = usePartContext(TrayContext, "useRunTrayDrillIn");
  const item = useContext(ItemContext.Context);
  const target = run ?? item?.run;
  const { onDrillIn } = tray;
  if (!target || !onDrillIn) return null;
  return () => onDrillIn(target);
}

function actionButton(
  action: (() => void) | null,
  label: string,
  name: string,
  { onClick, children, ...props }: PrimitiveProps<"button">,
  extra: Record<`data-${string}`, string | undefined> = {},
) {
  return renderPart("button", {
    type: "button",
    // The visible word starts the name, so speech commands ("click Cancel") still find it.
    "aria-label": `${label} ${name}`,
    disabled: action === null,
    "data-disabled": dataFlag(action === null),
    children: children ?? label,
    ...extra,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) action?.();
    },
    ...props,
  });
}

/**
 * Cancels the run (`useRunTrayCancel`), named "Cancel <name>"; disabled when that returns null.
 * `data-cancelling` while the cancel is on its way.
 */
function Cancel(props: PrimitiveProps<"button">) {
  const item = usePartContext(ItemContext, "RunTray.Cancel");
  const tray = usePartContext(TrayContext, "RunTray.Cancel");
  if (tray.cancel === null)
    warnOnce(
      "RunTray.Cancel:config",
      "RunTray.Cancel has nothing to call: pass onCancel, or agent (useAgent()) to RunTray.Root.",
    );
  const action = useRunTrayCancel();
  return actionButton(action, "Cancel", runTitle(item.run), props, {
    "data-cancelling": dataFlag(item.cancelling),
  });
}

/** Opens the run's own chat (`onDrillIn`), named "Open <name>"; nothing when the root has no `onDrillIn`. */
function DrillIn(props: PrimitiveProps<"button">) {
  const item = usePartContext(ItemContext, "RunTray.DrillIn");
  const action = useRunTrayDrillIn();
  if (!action) return null;
  return actionButton(action, "Open", runTitle(item.run), props);
}

/**
 * Hides a finished run from the list, named "Dismiss <name>"; nothing while the run is running. Focus moves
 * to the trigger, since the button it was on is gone.
 */
function Dismiss(props: PrimitiveProps<"button">) {
  const item = usePartContext(ItemContext, "RunTray.Dismiss");
  const { triggerRef } = usePartContext(TrayContext, "RunTray.Dismiss");
  const dismiss = useRunTrayDismiss();
  if (!dismiss) return null;
  return actionButton(
    () => {
      dismiss();
      triggerRef.current?.focus();
    },
    "Dismiss",
    runTitle(item.run),
    props,
  );
}

/** Shown instead of the list when no run is listed, while the tray is open. Default "No background runs". */
function Empty({ children = "No background runs", ...props }: PrimitiveProps<"div">) {
  const { visible, open } = usePartContext(TrayContext, "RunTray.Empty");
  if (visible.length > 0 || !open) return null;
  return renderPart("div", { children, ...props });
}

// Visually hidden but read: the region is for screen readers; sighted users see the status change itself.
const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
};

/** Props of `RunTray.Announcer`. */
export interface RunTrayAnnouncerProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** The sentence for runs that just ended. Default `Research finished` / `Research failed: <error>` / … */
  format?: (ended: readonly AgentToolRun[]) => string;
  /** Show the region instead of hiding it visually. */
  visible?: boolean;
}

/**
 * A visually hidden polite live region (`role="status"`) that speaks when a run this tray saw running ends:
 * finished, failed (with the error), cancelled or interrupted. Runs already finished when it mounts are
 * history and are not announced; progress ticks never are. It works whether the tray is open or closed.
 */
function Announcer({ format = endingsAnnouncement, visible, style, ...props }: RunTrayAnnouncerProps) {
  const { runs } = usePartContext(TrayContext, "RunTray.Announcer");
  const watched = useRef<ReturnType<typeof watchRunning> | null>(null);
  if (watched.current === null) watched.current = watchRunning(runs);
  const [message, setMessage] = useState("");
  const formatRef = useLatest(format);
  useEffect(() => {
    const { watched: next, ended } = observeEndings(watched.current ?? new Map(), runs);
    watched.current = next;
    if (ended.length > 0) setMessage(formatRef.current(ended));
  }, [runs, formatRef]);
  return renderPart("div", {
    role: "status",
    "aria-live": "polite",
    "aria-atomic": true,
    style: visible ? style : { ...VISUALLY_HIDDEN, ...style },
    children: message,
    ...props,
  });
}

/**
 * The tray of background runs.
 *
 * @example
 * ```tsx
 * const agent = useAgent({ agent: "ChatAgent" });
 * const { unboundRuns } = useAgentToolEvents({ agent });
 * <RunTray.Root runs={unboundRuns} agent={agent} onDrillIn={openChildChat} stallAfterMs={30_000}>
 *   <RunTray.Trigger>
 *     Background runs <RunTray.Badge />
 *   </RunTray.Trigger>
 *   <RunTray.List>
 *     {() => (
 *       <RunTray.Item>
 *         <RunTray.Title /> <RunTray.Status /> <RunTray.Elapsed />
 *         <RunTray.Progress><Progress.Indicator className="bar" /></RunTray.Progress>
 *         <RunTray.Message /> <RunTray.Milestones /> <RunTray.Stalled /> <RunTray.Error />
 *         <RunTray.Cancel /> <RunTray.DrillIn /> <RunTray.Dismiss />
 *       </RunTray.Item>
 *     )}
 *   </RunTray.List>
 *   <RunTray.Empty />
 *   <RunTray.Announcer />
 * </RunTray.Root>
 * ```
 */
export const RunTray = {
  Root,
  Trigger,
  Badge,
  List,
  Item,
  Title,
  Status,
  Progress: RunProgress,
  Phase,
  Message,
  Milestones,
  Error: ErrorPart,
  Elapsed,
  Stalled,
  Cancel,
  DrillIn,
  Dismiss,
  Empty,
  Announcer,
};
