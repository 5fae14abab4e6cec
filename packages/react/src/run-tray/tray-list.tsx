/**
 * The tray's disclosure and list: the trigger and its badge, the list of runs (one item per run, each in its
 * own run scope, so the shared run parts read it), and the empty state.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { activeCount, isStalled, runTitle, stallDueAt, trayStatus } from "@runboard/protocol/view";
import {
  type MouseEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useContext,
  useEffect,
  useId,
  useReducer,
} from "react";
import { RunScopeContext, type RunScopeValue } from "../agent-tool-run/run-scope.ts";
import {
  composeEventHandlers,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useHydrated,
  usePartContext,
} from "../primitives/index.ts";
import { Dismiss, DrillIn, Stalled } from "./tray-actions.tsx";
import { runTrayItemId } from "./tray-focus.tsx";
import { runTrayParts as run } from "./tray-parts.tsx";
import { TrayContext } from "./tray-root.tsx";
import { Input, Recovery, Summary } from "./tray-run-details.tsx";

/** Props of `RunTray.Trigger`. */
export type RunTrayTriggerProps = PrimitiveProps<"button">;
/** Props of `RunTray.Badge`. */
export type RunTrayBadgeProps = PrimitiveProps<"span">;
/** Props of `RunTray.Empty`. */
export type RunTrayEmptyProps = PrimitiveProps<"div">;

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}

/** The disclosure button: shows and hides the list (`aria-expanded`, `aria-controls`). Default text "Background runs". */
export function Trigger({ onClick, ref, children = "Background runs", ...props }: RunTrayTriggerProps) {
  const { open, toggle, listId, triggerRef } = usePartContext(TrayContext, "RunTray.Trigger");
  // Dismiss moves focus here, so the tray needs the element as well as the user's ref.
  const setRef = useCallback(
    (el: HTMLButtonElement | null) => {
      triggerRef.current = el;
      assignRef(ref, el);
    },
    [ref, triggerRef],
  );
  return renderPart("button", {
    "data-rb-part": "RunTray.Trigger",
    type: "button",
    ref: setRef,
    "aria-expanded": open,
    "aria-controls": listId,
    "data-state": open ? "open" : "closed",
    children,
    onClick: composeEventHandlers(onClick, (_e: MouseEvent<HTMLButtonElement>) => toggle()),
    ...props,
  });
}
Trigger.displayName = "RunTray.Trigger";

/** How many runs are running (`data-count`); `hidden` and `data-empty` at 0, so it shows only when useful. */
export function Badge(props: RunTrayBadgeProps) {
  const { runs } = usePartContext(TrayContext, "RunTray.Badge");
  const count = activeCount(runs);
  return renderPart("span", {
    "data-rb-part": "RunTray.Badge",
    "data-count": count,
    "data-empty": dataFlag(count === 0),
    hidden: count === 0,
    children: count,
    ...props,
  });
}
Badge.displayName = "RunTray.Badge";

/** Props of `RunTray.List`. */
export interface RunTrayListProps extends Omit<PrimitiveProps<"ul">, "children"> {
  /**
   * One entry per listed run, rendered inside that run's scope: nodes, or a function of the run. Default
   * `<RunTray.Item />` (an item with every part).
   */
  children?: ReactNode | ((run: AgentToolRunState) => ReactNode);
  /** Keep the items mounted while the tray is closed (hidden), e.g. for exit animations. */
  forceMount?: boolean;
}

const defaultEntry = () => <Item />;

/**
 * The runs (`<ul>`, `data-count`, `data-state` `open | closed`), minus dismissed ones. Stays in the DOM
 * (hidden) when the tray is closed so the trigger's `aria-controls` resolves.
 */
export function List({ children = defaultEntry, forceMount, ...props }: RunTrayListProps) {
  const { visible, open, listId } = usePartContext(TrayContext, "RunTray.List");
  return renderPart("ul", {
    "data-rb-part": "RunTray.List",
    id: listId,
    hidden: !open,
    "data-state": open ? "open" : "closed",
    "data-count": visible.length,
    children:
      open || forceMount
        ? visible.map((r) => (
            <TrayRunScope key={r.runId} run={r}>
              {typeof children === "function" ? children(r) : children}
            </TrayRunScope>
          ))
        : null,
    ...props,
  });
}
List.displayName = "RunTray.List";

/**
 * Re-renders exactly when a running run turns stalled: one timer per run, due `stallAfterMs` after its last
 * signal, instead of a clock ticking every second for runs that are fine. Never stalled before mount: the
 * wait is measured on the browser's clock.
 */
function useStalled(
  status: AgentToolRunState["status"],
  lastSignalAt: number,
  stallAfterMs: number,
  hydrated: boolean,
): boolean {
  const [, wake] = useReducer((n: number) => n + 1, 0);
  const stalled = hydrated && isStalled(status, lastSignalAt, Date.now(), stallAfterMs);
  const due = status === "running" && !stalled ? stallDueAt(lastSignalAt, stallAfterMs) : null;
  useEffect(() => {
    if (due === null) return;
    const timer = setTimeout(wake, Math.max(0, due - Date.now()));
    return () => clearTimeout(timer);
  }, [due]);
  return stalled;
}

/** Works out one run's tray state and provides it as the run scope of the item's parts. */
function TrayRunScope({ run: r, children }: { run: AgentToolRunState; children: ReactNode }) {
  const { actions, handlers, stallAfterMs } = usePartContext(TrayContext, "RunTray.List");
  // What this page saw of the run is the browser's to show: before mount (a server render, hydration) the
  // times are unknown.
  const hydrated = useHydrated();
  const titleId = `${useId()}-title`;
  const seen = hydrated ? actions.seenOf(r) : undefined;
  const lastSignalAt = seen?.lastSignalAt ?? Date.now();
  const stalled = useStalled(r.status, lastSignalAt, stallAfterMs, hydrated);
  const cancelling = r.status === "running" && actions.isCancelling(r.runId);
  const scope: RunScopeValue = {
    run: r,
    status: trayStatus(r.status, cancelling),
    cancelling,
    stalled,
    startedAt: seen?.times.startedAt ?? null,
    endedAt: seen?.times.endedAt ?? null,
    lastSignalAt,
    titleId,
    cancel: actions.canCancel(r, handlers) ? () => actions.cancel(r, handlers) : null,
    canSendCancel: actions.canSendCancel(handlers),
    liveStatus: false,
  };
  return <RunScopeContext.Provider value={scope}>{children}</RunScopeContext.Provider>;
}

/** One run of the tray's list, with what the tray knows about it. */
export interface RunTrayItemState {
  run: AgentToolRunState;
  /** `running | cancelling | completed | error | aborted | interrupted`. */
  status: RunScopeValue["status"];
  cancelling: boolean;
  stalled: boolean;
  /** When this client first saw it running and saw it end (null when unknown, and always before mount). */
  startedAt: number | null;
  endedAt: number | null;
  /** The last time a frame changed the run, on this client's clock. */
  lastSignalAt: number;
}

/** The run of the current list item, for parts of your own. Throws outside `RunTray.List`. */
export function useRunTrayItem(): RunTrayItemState {
  const scope = useContext(RunScopeContext);
  if (scope === null || scope.lastSignalAt === null)
    throw new Error("<useRunTrayItem> must be rendered inside <RunTray.List>. Wrap it in <RunTray.List>.");
  const { run: r, status, cancelling, stalled, startedAt, endedAt, lastSignalAt } = scope;
  return { run: r, status, cancelling, stalled, startedAt, endedAt, lastSignalAt };
}

/** Props of `RunTray.Item`. */
export interface RunTrayItemProps extends PrimitiveProps<"li"> {
  /** The run to show; default the run of the surrounding `RunTray.List` entry. */
  run?: AgentToolRunState;
}

const itemContent = (
  <>
    <run.Icon />
    <run.Title /> <Input /> <run.Status /> <run.Elapsed />
    <run.RunProgress />
    <run.Phase /> <run.Message />
    <run.Milestones />
    <Stalled />
    <run.Failure />
    <Summary />
    <run.Cancel /> <Recovery /> <DrillIn /> <Dismiss />
  </>
);

/**
 * One run (`<li>`, named by the run): `data-status` (the run's status), `data-tray-status` (with
 * `cancelling`), `data-stalled`, `data-cancelling`, `data-run-id`. Without children it shows every part.
 */
export function Item({ run: own, children = itemContent, ...props }: RunTrayItemProps) {
  const scope = useContext(RunScopeContext);
  if (own && own !== scope?.run)
    return (
      <TrayRunScope run={own}>
        <Item {...props}>{children}</Item>
      </TrayRunScope>
    );
  if (scope === null)
    throw new Error("<RunTray.Item> must be rendered inside <RunTray.List>. Wrap it in <RunTray.List>.");
  return renderPart("li", {
    "data-rb-part": "RunTray.Item",
    // Stable, so `RunTray.Link` (and `#` links) can reach the item; focusable for the link to move focus here.
    id: runTrayItemId(scope.run.runId),
    tabIndex: -1,
    "aria-label": runTitle(scope.run),
    "data-status": scope.run.status,
    "data-tray-status": scope.status,
    "data-stalled": dataFlag(scope.stalled),
    "data-cancelling": dataFlag(scope.cancelling),
    "data-run-id": scope.run.runId,
    children,
    ...props,
  });
}
Item.displayName = "RunTray.Item";

/** Shown instead of the list when no run is listed, while the tray is open. Default "No background runs". */
export function Empty({ children = "No background runs", ...props }: RunTrayEmptyProps) {
  const { visible, open } = usePartContext(TrayContext, "RunTray.Empty");
  if (visible.length > 0 || !open) return null;
  return renderPart("div", { "data-rb-part": "RunTray.Empty", children, ...props });
}
Empty.displayName = "RunTray.Empty";
