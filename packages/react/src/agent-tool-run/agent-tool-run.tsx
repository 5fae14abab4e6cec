/**
 * `AgentToolRun`: a child (sub-agent) run shown beside the tool call that spawned it. A disclosure
 * (WAI-ARIA): the trigger's `aria-expanded` / `aria-controls` point at the content, which holds the child's
 * own transcript, rendered through the app's part renderer so it looks like the parent's.
 */
import type { AgentToolRuns } from "@runboard/client";
import {
  type AgentToolRun as AgentToolRunData,
  type AgentToolRunStatus,
  type AgentToolRunsState,
  interruptReasonLabel,
  observeRunTimes,
  type Part,
  RUN_STATUS_LABELS,
  type RunTimes,
  recoveryFor,
  runIcon,
  runTitle,
  truncateText,
  valueText,
} from "@runboard/protocol";
import {
  Fragment,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
} from "react";
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
import { useAgentToolRun } from "../use-agent-tool-events.ts";
import { isoDuration, partKey } from "./format.ts";

/** A callback the app supplies for a run action. */
export type RunAction = (run: AgentToolRunData) => void;

interface RunContextValue {
  run: AgentToolRunData;
  open: boolean;
  toggle: () => void;
  contentId: string;
  titleId: string;
  times: RunTimes;
  depth: number;
  onRetry: RunAction | undefined;
  onReconnect: RunAction | undefined;
  onDrillIn: RunAction | undefined;
}

const RunContext = createPartContext<RunContextValue>("AgentToolRun.Root");

// The protocol has no timestamps: times are what this client saw, kept per run id so a run that scrolls
// out and back (or a collapsed parent re-mounting it) keeps its start time. Only a browser records them: on
// a server they would be the server's clock, shared by every request, and the HTML could not be hydrated.
const seenTimes = new Map<string, RunTimes>();
const UNKNOWN_TIMES: RunTimes = Object.freeze({ startedAt: null, endedAt: null });
const MAX_REMEMBERED = 1000;
function timesOf(run: AgentToolRunData): RunTimes {
  const prev = seenTimes.get(run.runId);
  const next = observeRunTimes(prev, run.status, Date.now());
  if (next !== prev) {
    if (!prev && seenTimes.size >= MAX_REMEMBERED) {
      const oldest = seenTimes.keys().next().value;
      if (oldest !== undefined) seenTimes.delete(oldest);
    }
    seenTimes.set(run.runId, next);
  }
  return next;
}

const NO_STORE = {
  subscribe: () => () => {},
  getSnapshot: (): AgentToolRunsState => ({ runsById: {}, runsByToolCallId: {}, unboundRuns: [] }),
} as unknown as AgentToolRuns;

/** Props of `AgentToolRun.Root`. */
export interface AgentToolRunRootProps extends PrimitiveProps<"div"> {
  /** The run to show. Or pass `runs` and `runId` to re-render only when that run changes. */
  run?: AgentToolRunData;
  /** The store of `useAgentToolEvents().store`; used with `runId` instead of `run`. */
  runs?: AgentToolRuns;
  /** Which run of `runs` to show. */
  runId?: string;
  /** Controlled open state of the content. */
  open?: boolean;
  /** Initial open state when uncontrolled. Default: open while the run is running. */
  defaultOpen?: boolean;
  /** Called when the content opens or closes, by the user or by the run completing. */
  onOpenChange?: (open: boolean) => void;
  /** Runs the work again (re-send the turn, call a tool). Enables `AgentToolRun.Retry`. */
  onRetry?: RunAction;
  /** Re-attaches to a child that is still running (e.g. `agent.reconnect()`). Enables `AgentToolRun.Reconnect`. */
  onReconnect?: RunAction;
  /** Opens the child's own chat (see `useChildChat`). Enables `AgentToolRun.DrillIn`. */
  onDrillIn?: RunAction;
}

/**
 * The run's container (`role="group"`, named by the run's title). Renders nothing until the run exists.
 * Open while running; closes once when the run completes, unless the user toggled it first. Runs that end
 * any other way stay as they are, so an error is not hidden.
 */
function Root({
  run: runProp,
  runs,
  runId,
  open: openProp,
  defaultOpen,
  onOpenChange,
  onRetry,
  onReconnect,
  onDrillIn,
  ...props
}: AgentToolRunRootProps) {
  const fromStore = useAgentToolRun(runs ?? NO_STORE, runId ?? "");
  if (runProp === undefined && (runs === undefined || runId === undefined))
    warnOnce(
      "AgentToolRun.Root:run",
      "AgentToolRun.Root needs a run: pass `run`, or `runs` (useAgentToolEvents().store) and `runId`.",
    );
  const run = runProp ?? fromStore;
  const parent = useContext(RunContext.Context);
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
  const toggle = useCallback(() => {
    userToggled.current = true;
    setOpen((o) => !o);
  }, [setOpen]);
  const id = useId();
  const hydrated = useHydrated();
  if (!run) return null;
  const value: RunContextValue = {
    run,
    open,
    toggle,
    contentId: `${id}-content`,
    titleId: `${id}-title`,
    times: hydrated ? timesOf(run) : UNKNOWN_TIMES,
    depth: parent ? parent.depth + 1 : 0,
    onRetry,
    onReconnect,
    onDrillIn,
  };
  return (
    <RunContext.Context.Provider value={value}>
      {renderPart("div", {
        role: "group",
        "aria-label": runTitle(run),
        "data-state": run.status,
        "data-open": dataFlag(open),
        "data-depth": value.depth,
        "data-run-id": run.runId,
        "data-agent-type": run.agentType,
        ...props,
      })}
    </RunContext.Context.Provider>
  );
}

/** The run `AgentToolRun.Root` shows; for parts of your own. Throws outside a root. */
export function useAgentToolRunContext(part = "useAgentToolRunContext"): {
  run: AgentToolRunData;
  open: boolean;
  depth: number;
} {
  const { run, open, depth } = usePartContext(RunContext, part);
  return { run, open, depth };
}

/** A header row for the icon, title, type, status and elapsed time. */
function Header(props: PrimitiveProps<"div">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Header");
  return renderPart("div", { "data-state": run.status, ...props });
}

/** The server's icon (`agentTool({ icon })`), decorative; renders nothing without one. */
function Icon(props: PrimitiveProps<"span">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Icon");
  const icon = runIcon(run);
  if (icon === undefined && props.children === undefined) return null;
  return renderPart("span", { "aria-hidden": true, children: icon, ...props });
}

/** The display name (`agentTool({ displayName })`), falling back to the agent type. */
function Title(props: PrimitiveProps<"span">) {
  const { run, titleId } = usePartContext(RunContext, "AgentToolRun.Title");
  return renderPart("span", { id: titleId, children: runTitle(run), ...props });
}

/** The child's class name (`Researcher`). */
function AgentType(props: PrimitiveProps<"span">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.AgentType");
  return renderPart("span", { children: run.agentType, ...props });
}

/** Props of `AgentToolRun.Status`. */
export interface AgentToolRunStatusProps extends PrimitiveProps<"span"> {
  /** Words per status; defaults in English. */
  labels?: Partial<Record<AgentToolRunStatus, string>>;
}

/** The run's status in words; a polite `role="status"`, so its end is announced. `data-state` = status. */
function Status({ labels, ...props }: AgentToolRunStatusProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Status");
  return renderPart("span", {
    role: "status",
    "data-state": run.status,
    children: labels?.[run.status] ?? RUN_STATUS_LABELS[run.status],
    ...props,
  });
}

/** Props of `AgentToolRun.Elapsed`. */
export interface AgentToolRunElapsedProps extends PrimitiveProps<"time"> {
  /** Start time (epoch ms) when the app knows better than this client's first sight of the run. */
  startedAt?: number;
  /** End time (epoch ms), likewise. */
  endedAt?: number;
  /** Formats the elapsed milliseconds. Default `1:05`. */
  format?: (ms: number) => string;
}

/**
 * Time since the run started, as `<time dateTime="PT…">`; ticks each second on the shared clock while
 * running and stops when the run ends. Renders nothing when the start is unknown (a run first seen finished,
 * or any run before the page has mounted, since this client has not seen it yet), nor, for a running run,
 * before mount (the time since the start is the browser's, not the server's).
 */
function Elapsed({ startedAt, endedAt, format = formatElapsed, ...props }: AgentToolRunElapsedProps) {
  const { run, times } = usePartContext(RunContext, "AgentToolRun.Elapsed");
  const start = startedAt ?? times.startedAt;
  const end = endedAt ?? (run.status === "running" ? null : times.endedAt);
  const now = useNow(1000, start !== null && end === null);
  const until = end ?? now;
  if (start === null || until === null) return null;
  const ms = Math.max(0, until - start);
  return renderPart("time", {
    dateTime: isoDuration(ms),
    "data-state": run.status,
    children: format(ms),
    ...props,
  });
}

/** The disclosure button: toggles the content; `aria-expanded` and `aria-controls` per WAI-ARIA. */
function Trigger({ onClick, ...props }: PrimitiveProps<"button">) {
  const { open, toggle, contentId } = usePartContext(RunContext, "AgentToolRun.Trigger");
  return renderPart("button", {
    type: "button",
    "aria-expanded": open,
    "aria-controls": contentId,
    "data-state": open ? "open" : "closed",
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) toggle();
    },
    ...props,
  });
}

/** Props of `AgentToolRun.Content`. */
export interface AgentToolRunContentProps extends PrimitiveProps<"div"> {
  /** Keep the children mounted while closed (hidden), e.g. for exit animations. */
  forceMount?: boolean;
}

/** What the trigger shows and hides. Stays in the DOM (hidden) when closed so `aria-controls` resolves. */
function Content({ forceMount, children, ...props }: AgentToolRunContentProps) {
  const { open, contentId, run } = usePartContext(RunContext, "AgentToolRun.Content");
  return renderPart("div", {
    id: contentId,
    hidden: !open,
    "data-state": open ? "open" : "closed",
    "data-run-state": run.status,
    children: open || forceMount ? children : null,
    ...props,
  });
}

/** Props of `AgentToolRun.Transcript`. */
export interface AgentToolRunTranscriptProps extends Omit<PrimitiveProps<"div">, "children"> {
  /**
   * Renders one part of the child's transcript: pass the renderer the parent chat uses, so text, reasoning
   * and tool parts look the same, and nested runs (a tool part with runs) recurse through it.
   */
  children: (part: Part, index: number, run: AgentToolRunData) => ReactNode;
}

/** The child's own transcript (`run.parts`), one renderer call per part. */
function Transcript({ children: renderChild, ...props }: AgentToolRunTranscriptProps) {
  const { run, depth } = usePartContext(RunContext, "AgentToolRun.Transcript");
  return renderPart("div", {
    "data-depth": depth,
    "data-empty": dataFlag(run.parts.length === 0),
    children: run.parts.map((part, i) => (
      <Fragment key={partKey(part as { type: string }, i)}>{renderChild(part, i, run)}</Fragment>
    )),
    ...props,
  });
}

/** The input preview the server sent, as text in a `<pre>`; nothing when there is none. */
function Input(props: PrimitiveProps<"pre">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Input");
  const text = valueText(run.inputPreview);
  if (text === "" && props.children === undefined) return null;
  return renderPart("pre", { children: text, ...props });
}

/** The run's summary (`finished.summary`); nothing until the run completes with one. */
function Summary(props: PrimitiveProps<"p">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Summary");
  if (!run.summary && props.children === undefined) return null;
  return renderPart("p", { children: run.summary, ...props });
}

interface ResultContextValue {
  full: string;
  shown: string;
  truncated: boolean;
  expanded: boolean;
  setExpanded: (v: boolean) => void;
  textId: string;
}
const ResultContext = createPartContext<ResultContextValue>("AgentToolRun.Result");

/** Props of `AgentToolRun.Result`. */
export interface AgentToolRunResultProps extends PrimitiveProps<"div"> {
  /** The result to show; default the run's summary. Pass the tool part's output to show that instead. */
  value?: unknown;
  /** Characters shown before "Show all". Default 400. */
  maxLength?: number;
  /** Lines shown before "Show all". Default 8. */
  maxLines?: number;
  /** Controlled: the whole result is shown. */
  expanded?: boolean;
  /** Initial `expanded` when uncontrolled. Default false. */
  defaultExpanded?: boolean;
  onExpandedChange?: (expanded: boolean) => void;
}

/**
 * A possibly long result, cut to `maxLength` / `maxLines` with a toggle to show all of it. Without
 * children it renders `ResultText` and `ResultToggle`. `data-truncated` when cut, `data-state`
 * `expanded | collapsed`. Nothing while there is no result.
 */
function Result({
  value,
  maxLength = 400,
  maxLines = 8,
  expanded: expandedProp,
  defaultExpanded = false,
  onExpandedChange,
  children,
  ...props
}: AgentToolRunResultProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Result");
  const [expanded, setExpanded] = useControllableState({
    prop: expandedProp,
    defaultProp: defaultExpanded,
    onChange: onExpandedChange,
    part: "AgentToolRun.Result",
  });
  const textId = `${useId()}-result`;
  const full = valueText(value === undefined ? run.summary : value);
  if (full === "") return null;
  const cut = truncateText(full, maxLength, maxLines);
  const ctx: ResultContextValue = {
    full,
    shown: cut.truncated && !expanded ? cut.text : full,
    truncated: cut.truncated,
    expanded,
    setExpanded,
    textId,
  };
  return (
    <ResultContext.Context.Provider value={ctx}>
      {renderPart("div", {
        "data-truncated": dataFlag(cut.truncated),
        "data-state": cut.truncated && !expanded ? "collapsed" : "expanded",
        children: children ?? (
          <>
            <ResultText />
            <ResultToggle />
          </>
        ),
        ...props,
      })}
    </ResultContext.Context.Provider>
  );
}

/** The result text, cut or whole, in a `<pre>` (never HTML). */
function ResultText(props: PrimitiveProps<"pre">) {
  const { shown, textId, truncated, expanded } = usePartContext(ResultContext, "AgentToolRun.ResultText");
  return renderPart("pre", {
    id: textId,
    "data-state": truncated && !expanded ? "collapsed" : "expanded",
    children: shown,
    ...props,
  });
}

/** Props of `AgentToolRun.ResultToggle`. */
export interface AgentToolRunResultToggleProps extends PrimitiveProps<"button"> {
  /** Label while cut. Default "Show all". */
  showAllLabel?: ReactNode;
  /** Label while whole. Default "Show less". */
  showLessLabel?: ReactNode;
}

/** "Show all" / "Show less": `aria-expanded` on the text it controls. Renders nothing for a short result. */
function ResultToggle({
  showAllLabel = "Show all",
  showLessLabel = "Show less",
  onClick,
  ...props
}: AgentToolRunResultToggleProps) {
  const { truncated, expanded, setExpanded, textId } = usePartContext(
    ResultContext,
    "AgentToolRun.ResultToggle",
  );
  if (!truncated) return null;
  return renderPart("button", {
    type: "button",
    "aria-expanded": expanded,
    "aria-controls": textId,
    "data-state": expanded ? "expanded" : "collapsed",
    children: expanded ? showLessLabel : showAllLabel,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) setExpanded(!expanded);
    },
    ...props,
  });
}

/** The error of a run that failed, was cancelled with a reason, or was interrupted; nothing otherwise. */
function ErrorPart(props: PrimitiveProps<"p">) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Error");
  if (run.status === "running" || run.status === "completed" || !run.error) return null;
  return renderPart("p", { "data-state": run.status, children: run.error, ...props });
}

/** Props of `AgentToolRun.Interrupted`. */
export interface AgentToolRunInterruptedProps extends PrimitiveProps<"div"> {
  /** Words per interrupt reason, merged over the defaults. */
  reasonLabels?: Record<string, string>;
  /** Said when the child is still running. */
  stillRunningLabel?: ReactNode;
  /** Said when the child stopped. */
  stoppedLabel?: ReactNode;
}

/**
 * Why an interrupted run was sealed and whether its child is still running (`data-reason`,
 * `data-child-still-running`); nothing for any other status.
 */
function Interrupted({
  reasonLabels,
  stillRunningLabel = "The agent is still working; reconnect to follow it.",
  stoppedLabel = "The agent stopped; retry to run it again.",
  ...props
}: AgentToolRunInterruptedProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Interrupted");
  if (run.status !== "interrupted") return null;
  const reason = typeof run.reason === "string" ? run.reason : undefined;
  const said = (reason && reasonLabels?.[reason]) ?? interruptReasonLabel(reason);
  return renderPart("div", {
    "data-reason": reason,
    "data-child-still-running": dataFlag(run.childStillRunning === true),
    children: (
      <>
        {said ? <p>{said}</p> : null}
        <p>{run.childStillRunning ? stillRunningLabel : stoppedLabel}</p>
      </>
    ),
    ...props,
  });
}

/** Retry, when the run failed or was interrupted with its child stopped and the root has `onRetry`; else null. */
export function useAgentToolRunRetry(): (() => void) | null {
  const { run, onRetry } = usePartContext(RunContext, "useAgentToolRunRetry");
  if (!onRetry || recoveryFor(run) !== "retry") return null;
  return () => onRetry(run);
}

/** Reconnect, when the run was interrupted with its child still running and the root has `onReconnect`; else null. */
export function useAgentToolRunReconnect(): (() => void) | null {
  const { run, onReconnect } = usePartContext(RunContext, "useAgentToolRunReconnect");
  if (!onReconnect || recoveryFor(run) !== "reconnect") return null;
  return () => onReconnect(run);
}

/** Open the child's chat, when the root has `onDrillIn`; else null. */
export function useAgentToolRunDrillIn(): (() => void) | null {
  const { run, onDrillIn } = usePartContext(RunContext, "useAgentToolRunDrillIn");
  if (!onDrillIn) return null;
  return () => onDrillIn(run);
}

function actionButton(
  action: (() => void) | null,
  label: string,
  { onClick, ...props }: PrimitiveProps<"button">,
) {
  return renderPart("button", {
    type: "button",
    disabled: action === null,
    "data-disabled": dataFlag(action === null),
    children: label,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) action?.();
    },
    ...props,
  });
}

/** Runs the work again (`useAgentToolRunRetry`); disabled when that returns null. */
function Retry(props: PrimitiveProps<"button">) {
  return actionButton(useAgentToolRunRetry(), "Retry", props);
}

/** Follows a child that is still running (`useAgentToolRunReconnect`); disabled when that returns null. */
function Reconnect(props: PrimitiveProps<"button">) {
  return actionButton(useAgentToolRunReconnect(), "Reconnect", props);
}

/** Opens the child's own chat (`useAgentToolRunDrillIn`); disabled when that returns null. */
function DrillIn(props: PrimitiveProps<"button">) {
  return actionButton(useAgentToolRunDrillIn(), "Open agent chat", props);
}

/**
 * A child run beside the tool call that spawned it.
 *
 * @example
 * ```tsx
 * const { store, runsByToolCallId } = useAgentToolEvents({ agent });
 * const renderPart = (part: Part) =>
 *   isToolUIPart(part)
 *     ? getRunsForToolCall({ runsByToolCallId }, part).map((r) => (
 *         <AgentToolRun.Root key={r.runId} runs={store} runId={r.runId} onDrillIn={setDrilled}>
 *           <AgentToolRun.Header>
 *             <AgentToolRun.Icon /> <AgentToolRun.Title /> <AgentToolRun.Status /> <AgentToolRun.Elapsed />
 *             <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
 *           </AgentToolRun.Header>
 *           <AgentToolRun.Content>
 *             <AgentToolRun.Transcript>{renderPart}</AgentToolRun.Transcript>
 *             <AgentToolRun.Result />
 *             <AgentToolRun.Error />
 *           </AgentToolRun.Content>
 *         </AgentToolRun.Root>
 *       ))
 *     : <Text part={part} />;
 * ```
 */
export const AgentToolRun = {
  Root,
  Header,
  Icon,
  Title,
  AgentType,
  Status,
  Elapsed,
  Trigger,
  Content,
  Transcript,
  Input,
  Summary,
  Result,
  ResultText,
  ResultToggle,
  Error: ErrorPart,
  Interrupted,
  Retry,
  Reconnect,
  DrillIn,
};
