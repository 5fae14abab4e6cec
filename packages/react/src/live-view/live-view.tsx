/**
 * `LiveView`: a remote browser session a human can watch or take over. Tabs come from the session's targets
 * (frames keyed by `targetId`), URLs are fetched again before they expire without reloading the frame in use,
 * and only URLs the app allows are embedded, in a sandboxed frame.
 */

import {
  checkLiveViewUrl,
  type FrameLoad,
  type FrameSource,
  type LiveViewControl,
  type LiveViewMode,
  type LiveViewRefusal,
  type LiveViewSession,
  type LiveViewState,
  type LiveViewTarget,
  type LiveViewTargetState,
  type LiveViewUrlVerdict,
  liveViewState,
  liveViewStatusText,
  normalizeOrigins,
  reconcileSources,
  sessionSources,
  stableOrder,
  targetLabel,
  targetState,
  visibleTargets,
} from "@runboard/protocol";
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  type SyntheticEvent,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useLatest } from "../lifetime.ts";
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
import { type RefreshFailure, useSessionFeed } from "./use-session-feed.ts";

/** The sandbox a Live View frame gets by default: scripts, its own origin and forms; no top navigation, no popups. */
export const DEFAULT_LIVE_VIEW_SANDBOX = "allow-scripts allow-same-origin allow-forms";
/** How long a frame may take to fire `load` before it counts as failed. */
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

/** One tab as the parts see it. */
export interface LiveViewTabInfo {
  targetId: string;
  target: LiveViewTarget;
  /** The tab's name: title, else the host of the page it shows, else `Tab <n>`. */
  label: string;
  index: number;
  selected: boolean;
  state: LiveViewTargetState;
  /** What the frame shows (the remote tab or its DevTools). */
  mode: LiveViewMode | undefined;
  /** The policy's answer for the URL the frame shows. */
  verdict: LiveViewUrlVerdict | undefined;
  /** The URL it is safe to open in a new tab (the freshest allowed one), if any. */
  openUrl: string | undefined;
  /** Internal: the allowed URL the frame shows. */
  src: string | undefined;
}

interface RootContextValue {
  state: LiveViewState;
  mode: LiveViewMode;
  setMode: (mode: LiveViewMode) => void;
  canRefresh: boolean;
  control: LiveViewControl;
  setControl: (control: LiveViewControl) => void;
  tabs: readonly LiveViewTabInfo[];
  active: LiveViewTabInfo | undefined;
  select: (targetId: string) => void;
  failure: RefreshFailure | undefined;
  fetching: boolean;
  sandbox: string;
  loadTimeoutMs: number;
  reportLoad: (targetId: string, src: string, load: Exclude<FrameLoad, "loading">) => void;
  continueState: "idle" | "pending" | "done";
  canContinue: boolean;
  runContinue: () => void;
  tabId: (targetId: string) => string;
  panelId: (targetId: string) => string;
  panelsMounted: boolean;
  registerPanels: () => () => void;
  tabElements: RefObject<Map<string, HTMLElement>>;
}

// What to do about each kind of refusal, for the dev warning (which never names the URL).
const REFUSAL_FIX: Record<LiveViewRefusal, string> = {
  unparsable: "The session's url is not an absolute URL; check what the server returns.",
  scheme: "Only https pages are embedded; the session's url has another scheme.",
  credentials: "Remove the user name or password from the session's url.",
  insecure: "Serve Live View pages over https; for a local mock set allowLoopbackHttp (development only).",
  origin: "If you trust that origin, add it to allowedOrigins.",
};

const RootContext = createPartContext<RootContextValue>("LiveView.Root");
const TabContext = createPartContext<LiveViewTabInfo>("LiveView.TabList or LiveView.Panels");

const NO_SOURCES: ReadonlyMap<string, FrameSource> = new Map();
const NO_LOADS: ReadonlyMap<string, { src: string; load: Exclude<FrameLoad, "loading"> }> = new Map();

/** Assigns one DOM node to several refs (the part's own and the user's). */
function mergeRefs<T>(...refs: Array<Ref<T> | undefined>) {
  return (node: T | null) => {
    for (const r of refs) {
      if (typeof r === "function") r(node);
      else if (r) (r as RefObject<T | null>).current = node;
    }
  };
}

/** A DOM id fragment from a target id (any characters) that stays unique. */
const idFragment = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);

// Tokens that would let the embedded page navigate the app itself away.
const TOP_NAVIGATION = /^allow-top-navigation/i;

function safeSandbox(sandbox: string): string {
  const tokens = sandbox.split(/\s+/).filter(Boolean);
  const kept = tokens.filter((t) => !TOP_NAVIGATION.test(t));
  if (kept.length !== tokens.length)
    warnOnce(
      "LiveView.Root:sandbox",
      "LiveView.Root: sandbox tokens that let the frame navigate the app's window (allow-top-navigation*) were removed. A Live View never needs them.",
    );
  return kept.join(" ");
}

// ───────────────────────────── hooks ─────────────────────────────

/** What the enclosing Live View shows and can do, for parts of your own. Throws outside `LiveView.Root`. */
export function useLiveView(): {
  state: LiveViewState;
  mode: LiveViewMode;
  setMode: (mode: LiveViewMode) => void;
  control: LiveViewControl;
  setControl: (control: LiveViewControl) => void;
  tabs: readonly LiveViewTabInfo[];
  active: LiveViewTabInfo | undefined;
  select: (targetId: string) => void;
  refreshError: unknown;
  refreshing: boolean;
} {
  const c = usePartContext(RootContext, "useLiveView");
  return {
    state: c.state,
    mode: c.mode,
    setMode: c.setMode,
    control: c.control,
    setControl: c.setControl,
    tabs: c.tabs,
    active: c.active,
    select: c.select,
    refreshError: c.failure?.error,
    refreshing: c.fetching,
  };
}

/** The tab of the current `LiveView.TabList` / `LiveView.Panels` render, for parts of your own. */
export function useLiveViewTab(): LiveViewTabInfo {
  return usePartContext(TabContext, "useLiveViewTab");
}

/** The tab of the enclosing list or panel, or else the selected one. */
function useTabOrActive(part: string): { root: RootContextValue; tab: LiveViewTabInfo | undefined } {
  const root = usePartContext(RootContext, part);
  const tab = useContext(TabContext.Context);
  return { root, tab: tab ?? root.active };
}

// ───────────────────────────── Root ─────────────────────────────

/** Props of `LiveView.Root`. */
export interface LiveViewRootProps extends PrimitiveProps<"section"> {
  /** The session to start from, e.g. the `openBrowser` tool's output (see `parseLiveViewSession`). */
  session?: LiveViewSession | null;
  /**
   * Fetches a fresh session for a mode, e.g. `({ mode }) => agent.call("liveView", [{ mode }])`. Called before
   * the URLs expire, when the mode changes, with no `session`, and again after a failure (1 s, 2 s, 4 s … 30 s).
   * Without it the view shows the session until it expires and the mode cannot change.
   */
  refresh?: (opts: { mode: LiveViewMode }) => Promise<LiveViewSession>;
  /** How long before expiry to fetch fresh URLs. Default 20% of `expiresInMs`, at most 30 s. */
  refreshMarginMs?: number;
  /**
   * Origins whose Live View pages may be embedded, e.g. `["https://live.browser.run"]`. Anything else is refused
   * with a reason (`LiveView.Refused`) and neither embedded nor linked. Pages get scripts and their own origin in
   * the sandbox, so never list the app's own origin in production.
   */
  allowedOrigins: readonly string[];
  /**
   * Development setting: also embed plain `http:` pages on `127.0.0.1`, `localhost` and `[::1]` (a local mock,
   * `wrangler dev`). Their origin must still be in `allowedOrigins`. Never set it in production.
   */
  allowLoopbackHttp?: boolean;
  /** Show the remote tab or its DevTools (controlled). */
  mode?: LiveViewMode;
  /** The initial mode (uncontrolled). Default `"tab"`. The `session` prop is taken to be in the current mode. */
  defaultMode?: LiveViewMode;
  onModeChange?: (mode: LiveViewMode) => void;
  /** Who drives (controlled): `"agent"` (the frame is watch-only, `inert`) or `"human"`. */
  control?: LiveViewControl;
  /** Who drives at first (uncontrolled). Default `"agent"`. */
  defaultControl?: LiveViewControl;
  onControlChange?: (control: LiveViewControl) => void;
  /** The selected tab's `targetId` (controlled). An id that is not shown selects the first tab. */
  value?: string;
  /** The initially selected `targetId` (uncontrolled). Default the first tab. */
  defaultValue?: string;
  onValueChange?: (targetId: string) => void;
  /**
   * Hands control back to the agent, e.g. `() => chat.addToolApprovalResponse({ id, approved: true })`.
   * `LiveView.Continue` calls it once; pass it only while the agent waits (a new function after it was
   * `undefined` starts a new round). A returned promise keeps the button pending; a rejection allows a retry.
   */
  onContinue?: () => unknown;
  /** How long a frame may take to load before it counts as failed (the new-tab link then stands out). Default 15 s. */
  loadTimeoutMs?: number;
  /** The frame's `sandbox`. Default `allow-scripts allow-same-origin allow-forms`; top navigation is never allowed. */
  sandbox?: string;
}

function LiveViewRoot(props: LiveViewRootProps) {
  const {
    session,
    refresh,
    refreshMarginMs,
    allowedOrigins,
    allowLoopbackHttp = false,
    mode: modeProp,
    defaultMode = "tab",
    onModeChange,
    control: controlProp,
    defaultControl = "agent",
    onControlChange,
    value: valueProp,
    defaultValue,
    onValueChange,
    onContinue,
    loadTimeoutMs = DEFAULT_LOAD_TIMEOUT_MS,
    sandbox: sandboxProp = DEFAULT_LIVE_VIEW_SANDBOX,
    ...rest
  } = props;

  const [mode, setMode] = useControllableState<LiveViewMode>({
    prop: modeProp,
    defaultProp: defaultMode,
    onChange: onModeChange,
    part: "LiveView.Root (mode)",
  });
  const [control, setControl] = useControllableState<LiveViewControl>({
    prop: controlProp,
    defaultProp: defaultControl,
    onChange: onControlChange,
    part: "LiveView.Root (control)",
  });
  const [value, setValue] = useControllableState<string | undefined>({
    prop: valueProp,
    defaultProp: defaultValue,
    onChange: onValueChange as ((v: string | undefined) => void) | undefined,
    part: "LiveView.Root (value)",
  });

  const feed = useSessionFeed({ session, refresh, mode, refreshMarginMs });
  const { received } = feed;

  // ── the policy ──
  // Required by the types; a plain-JS caller that forgets it gets an empty list (nothing embedded), not a crash.
  const origins = allowedOrigins ?? [];
  const originsKey = origins.join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by content, so a new array literal each render is free
  const policy = useMemo(() => {
    const { origins: allowed, invalid } = normalizeOrigins(origins);
    return { origins: allowed, invalid, allowLoopbackHttp };
  }, [originsKey, allowLoopbackHttp]);
  useEffect(() => {
    if (policy.invalid > 0)
      warnOnce(
        "LiveView.Root:allowedOrigins-invalid",
        "LiveView.Root: an allowedOrigins entry is not an http(s) origin (scheme://host[:port]) and was ignored.",
      );
    else if (policy.origins.size === 0)
      warnOnce(
        "LiveView.Root:allowedOrigins-empty",
        "LiveView.Root: allowedOrigins is empty, so nothing is embedded. Pass the origin your Live View URLs come from.",
      );
  }, [policy]);
  const sandbox = useMemo(() => safeSandbox(sandboxProp), [sandboxProp]);

  // ── targets, in an order that never moves a frame ──
  const targets = useMemo(() => (received ? visibleTargets(received.session.targets) : []), [received]);
  const [order, setOrder] = useState<readonly string[]>(() => targets.map((t) => t.targetId));
  const nextOrder = stableOrder(
    order,
    targets.map((t) => t.targetId),
  );
  if (nextOrder !== order) setOrder(nextOrder);
  const byId = useMemo(() => new Map(targets.map((t) => [t.targetId, t])), [targets]);
  const activeId = value !== undefined && byId.has(value) ? value : nextOrder.find((id) => byId.has(id));

  // ── which URL each frame shows ──
  const latestSources = useMemo(
    () => (received ? sessionSources(received.session, received.mode, received.receivedAt) : NO_SOURCES),
    [received],
  );
  const [shownState, setShown] = useState<ReadonlyMap<string, FrameSource>>(latestSources);
  // Moves at the active URL's expiry: the frame swaps to a fresher URL then, or shows it expired.
  const [clock, setClock] = useState(() => Date.now());
  // Decided while rendering, so a swap and its expiry land in the same commit (no flash of "expired").
  const shown = useMemo(
    () => reconcileSources(shownState, latestSources, activeId, clock),
    [shownState, latestSources, activeId, clock],
  );
  useLayoutEffect(() => {
    if (shown !== shownState) setShown(shown);
  }, [shown, shownState]);
  const activeSource = activeId === undefined ? undefined : shown.get(activeId);
  useEffect(() => {
    if (!activeSource) return;
    const wait = activeSource.expiresAt - Date.now();
    if (wait <= 0) {
      setClock(Date.now());
      return;
    }
    const timer = setTimeout(() => setClock(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [activeSource]);

  // ── how each frame is loading ──
  const [loads, setLoads] = useState(NO_LOADS);
  const reportLoad = useCallback((targetId: string, src: string, load: Exclude<FrameLoad, "loading">) => {
    setLoads((prev) => {
      const cur = prev.get(targetId);
      if (cur && cur.src === src && cur.load === load) return prev;
      const next = new Map(prev);
      next.set(targetId, { src, load });
      return next;
    });
  }, []);

  // ── the tabs ──
  const tabs = useMemo<LiveViewTabInfo[]>(() => {
    const out: LiveViewTabInfo[] = [];
    for (const id of nextOrder) {
      const target = byId.get(id);
      if (!target) continue;
      const index = out.length;
      const source = shown.get(id);
      const verdict = source ? checkLiveViewUrl(source.url, policy) : undefined;
      const src = verdict?.allowed ? verdict.url : undefined;
      const fresh = latestSources.get(id);
      const freshVerdict = fresh ? checkLiveViewUrl(fresh.url, policy) : undefined;
      const openUrl = freshVerdict?.allowed ? freshVerdict.url : src;
      const loaded = loads.get(id);
      const load: FrameLoad = loaded && src !== undefined && loaded.src === src ? loaded.load : "loading";
      const expired = source !== undefined && clock >= source.expiresAt;
      out.push({
        targetId: id,
        target,
        label: targetLabel(target, index),
        index,
        selected: id === activeId,
        state: source ? targetState({ allowed: verdict?.allowed === true, load, expired }) : "loading",
        mode: source?.mode,
        verdict,
        openUrl,
        src,
      });
    }
    return out;
  }, [nextOrder, byId, shown, latestSources, policy, loads, clock, activeId]);
  const active = tabs.find((t) => t.selected);

  const refusedReasons = tabs.map((t) => (t.verdict?.allowed === false ? t.verdict.reason : "")).join(",");
  useEffect(() => {
    for (const reason of new Set(refusedReasons.split(",")))
      if (reason)
        warnOnce(
          `LiveView:refused:${reason}`,
          `LiveView: a target's URL was not embedded (${reason}); LiveView.Refused shows why. ${REFUSAL_FIX[reason as LiveViewRefusal]}`,
        );
  }, [refusedReasons]);

  const fetching = feed.fetching !== undefined;
  const state = liveViewState({ active: active?.state, fetching, refreshFailed: feed.failure !== undefined });

  // ── continue: one call per round, however often it is pressed ──
  const [continueState, setContinueState] = useState<"idle" | "pending" | "done">("idle");
  const continuing = useRef(false);
  const latest = useLatest({ onContinue, setControl });
  const canContinue = onContinue !== undefined;
  useEffect(() => {
    // `onContinue` went away: the request it answered is settled, and the next one starts a new round.
    if (!canContinue) {
      continuing.current = false;
      setContinueState("idle");
    }
  }, [canContinue]);
  const runContinue = useCallback(() => {
    const fn = latest.current.onContinue;
    if (!fn || continuing.current) return;
    continuing.current = true;
    setContinueState("pending");
    const done = () => {
      setContinueState("done");
      latest.current.setControl("agent");
    };
    const retry = () => {
      continuing.current = false;
      setContinueState("idle");
    };
    let result: unknown;
    try {
      result = fn();
    } catch {
      retry();
      warnOnce(
        "LiveView.Continue:threw",
        "LiveView.Continue: onContinue threw; the button is enabled again.",
      );
      return;
    }
    if (result && typeof (result as PromiseLike<unknown>).then === "function")
      (result as PromiseLike<unknown>).then(done, retry);
    else done();
  }, [latest]);

  // ── ids and tab focus ──
  const base = useId();
  const tabId = useCallback((id: string) => `${base}-tab-${idFragment(id)}`, [base]);
  const panelId = useCallback((id: string) => `${base}-panel-${idFragment(id)}`, [base]);
  const [panels, setPanels] = useState(0);
  const registerPanels = useCallback(() => {
    setPanels((n) => n + 1);
    return () => setPanels((n) => n - 1);
  }, []);
  const tabElements = useRef(new Map<string, HTMLElement>());
  // Re-selecting the shown tab (the first, when nothing was chosen) is no change to report.
  const select = useCallback(
    (id: string) => {
      if (id !== activeId) setValue(id);
    },
    [activeId, setValue],
  );

  const ctx = useMemo<RootContextValue>(
    () => ({
      state,
      mode,
      setMode,
      canRefresh: refresh !== undefined,
      control,
      setControl,
      tabs,
      active,
      select,
      failure: feed.failure,
      fetching,
      sandbox,
      loadTimeoutMs,
      reportLoad,
      continueState,
      canContinue,
      runContinue,
      tabId,
      panelId,
      panelsMounted: panels > 0,
      registerPanels,
      tabElements,
    }),
    [
      state,
      mode,
      setMode,
      refresh,
      control,
      setControl,
      tabs,
      active,
      select,
      feed.failure,
      fetching,
      sandbox,
      loadTimeoutMs,
      reportLoad,
      continueState,
      canContinue,
      runContinue,
      tabId,
      panelId,
      panels,
      registerPanels,
    ],
  );

  const named = rest["aria-label"] !== undefined || rest["aria-labelledby"] !== undefined;
  return (
    <RootContext.Context.Provider value={ctx}>
      {renderPart("section", {
        "aria-label": named ? undefined : "Live view",
        "data-state": state,
        "data-mode": mode,
        "data-control": control,
        "data-refreshing": dataFlag(fetching),
        ...rest,
      })}
    </RootContext.Context.Provider>
  );
}

// ───────────────────────────── mode ─────────────────────────────

/** Props of `LiveView.ModeSwitch`. */
export type LiveViewModeSwitchProps = PrimitiveProps<"div">;

/** A group of two toggle buttons, "Tab" and "DevTools" (children replace them with `LiveView.ModeOption`s). */
function LiveViewModeSwitch(props: LiveViewModeSwitchProps) {
  const c = usePartContext(RootContext, "LiveView.ModeSwitch");
  const named = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  return renderPart("div", {
    role: "group",
    "aria-label": named ? undefined : "View",
    "data-mode": c.mode,
    ...props,
    children: props.children ?? (
      <>
        <LiveViewModeOption value="tab" />
        <LiveViewModeOption value="devtools" />
      </>
    ),
  });
}

/** Props of `LiveView.ModeOption`. */
export interface LiveViewModeOptionProps extends PrimitiveProps<"button"> {
  value: LiveViewMode;
}

const MODE_NAMES: Record<LiveViewMode, string> = { tab: "Tab", devtools: "DevTools" };

/**
 * One mode's button (`aria-pressed`, `data-state` `on | off`). Choosing a mode fetches a session for it
 * through `refresh`; without `refresh` the other mode is disabled.
 */
function LiveViewModeOption(props: LiveViewModeOptionProps) {
  const c = usePartContext(RootContext, "LiveView.ModeOption");
  const { value, onClick, ...rest } = props;
  const on = c.mode === value;
  return renderPart("button", {
    type: "button",
    "aria-pressed": on,
    disabled: !on && !c.canRefresh,
    "data-state": on ? "on" : "off",
    "data-mode": value,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) c.setMode(value);
    },
    children: rest.children ?? MODE_NAMES[value],
  });
}

// ───────────────────────────── tabs ─────────────────────────────

/** Props of `LiveView.TabList`. */
export interface LiveViewTabListProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Renders one tab; it must return a `LiveView.Tab`. Default: the tab with its label. */
  children?: (tab: LiveViewTabInfo) => ReactNode;
  /** Which arrow keys move between tabs. Default `"horizontal"` (Left/Right). */
  orientation?: "horizontal" | "vertical";
}

const defaultTab = () => <LiveViewTab />;

/**
 * The `tablist`: one `LiveView.Tab` per shown target. Arrow keys move to the previous or next tab (wrapping),
 * Home and End to the first and last, selecting as they go; only the selected tab is in the Tab order.
 */
function LiveViewTabList(props: LiveViewTabListProps) {
  const c = usePartContext(RootContext, "LiveView.TabList");
  const { children = defaultTab, orientation = "horizontal", onKeyDown, ...rest } = props;
  const named = rest["aria-label"] !== undefined || rest["aria-labelledby"] !== undefined;
  return renderPart("div", {
    role: "tablist",
    "aria-label": named ? undefined : "Remote tabs",
    "aria-orientation": orientation,
    "data-count": c.tabs.length,
    ...rest,
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      onKeyDown?.(e);
      if (e.defaultPrevented || c.tabs.length === 0) return;
      const prevKey = orientation === "vertical" ? "ArrowUp" : "ArrowLeft";
      const nextKey = orientation === "vertical" ? "ArrowDown" : "ArrowRight";
      const from = c.tabs.findIndex((t) => c.tabElements.current.get(t.targetId) === e.target);
      if (from < 0) return;
      const n = c.tabs.length;
      let to: number;
      if (e.key === prevKey) to = (from - 1 + n) % n;
      else if (e.key === nextKey) to = (from + 1) % n;
      else if (e.key === "Home") to = 0;
      else if (e.key === "End") to = n - 1;
      else return;
      e.preventDefault();
      const next = c.tabs[to] as LiveViewTabInfo;
      c.select(next.targetId);
      c.tabElements.current.get(next.targetId)?.focus();
    },
    children: c.tabs.map((tab) => (
      <TabContext.Context.Provider key={tab.targetId} value={tab}>
        {children(tab)}
      </TabContext.Context.Provider>
    )),
  });
}

/** Props of `LiveView.Tab`. */
export type LiveViewTabProps = PrimitiveProps<"button">;

/** One tab (`role="tab"`, `aria-selected`, `data-state` = the tab's frame state, `data-selected`). */
function LiveViewTab(props: LiveViewTabProps) {
  const c = usePartContext(RootContext, "LiveView.Tab");
  const tab = usePartContext(TabContext, "LiveView.Tab");
  const { onClick, ref, ...rest } = props;
  const register = useCallback(
    (node: HTMLElement | null) => {
      if (node) c.tabElements.current.set(tab.targetId, node);
      else c.tabElements.current.delete(tab.targetId);
    },
    [c.tabElements, tab.targetId],
  );
  return renderPart("button", {
    type: "button",
    role: "tab",
    id: c.tabId(tab.targetId),
    "aria-selected": tab.selected,
    "aria-controls": c.panelsMounted ? c.panelId(tab.targetId) : undefined,
    tabIndex: tab.selected ? 0 : -1,
    "data-state": tab.state,
    "data-selected": dataFlag(tab.selected),
    ...rest,
    ref: mergeRefs<HTMLButtonElement>(register, ref),
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) c.select(tab.targetId);
    },
    children: rest.children ?? tab.label,
  });
}

// ───────────────────────────── panels and frames ─────────────────────────────

/** Props of `LiveView.Panels`. */
export interface LiveViewPanelsProps {
  /** Renders one tab's panel; it must return a `LiveView.Panel`. Default: the panel with the frame and the refusal. */
  children?: (tab: LiveViewTabInfo) => ReactNode;
}

const defaultPanel = () => (
  <LiveViewPanel>
    <LiveViewFrame />
    <LiveViewRefused />
  </LiveViewPanel>
);

/**
 * One panel per tab, all mounted (the hidden ones keep their frames, so switching tabs reloads nothing), in
 * an order that never changes: browsers reload a frame whose element moves.
 */
function LiveViewPanels({ children = defaultPanel }: LiveViewPanelsProps) {
  const c = usePartContext(RootContext, "LiveView.Panels");
  const { registerPanels } = c;
  useLayoutEffect(() => registerPanels(), [registerPanels]);
  return (
    <>
      {c.tabs.map((tab) => (
        <TabContext.Context.Provider key={tab.targetId} value={tab}>
          {children(tab)}
        </TabContext.Context.Provider>
      ))}
    </>
  );
}

/** Props of `LiveView.Panel`. */
export type LiveViewPanelProps = PrimitiveProps<"div">;

/**
 * One tab's `tabpanel`, `hidden` unless selected; `data-state` is the tab's frame state, `data-control` and
 * `data-mode` the root's. It is focusable itself while its frame is not (refused, or watch-only).
 */
function LiveViewPanel(props: LiveViewPanelProps) {
  const c = usePartContext(RootContext, "LiveView.Panel");
  const tab = usePartContext(TabContext, "LiveView.Panel");
  const frameFocusable = tab.src !== undefined && c.control === "human";
  return renderPart("div", {
    role: "tabpanel",
    id: c.panelId(tab.targetId),
    "aria-labelledby": c.tabId(tab.targetId),
    hidden: !tab.selected,
    tabIndex: frameFocusable ? undefined : 0,
    "data-state": tab.state,
    "data-selected": dataFlag(tab.selected),
    "data-control": c.control,
    "data-mode": tab.mode,
    ...props,
  });
}

/** Props of `LiveView.Frame`. */
export type LiveViewFrameProps = PrimitiveProps<"iframe">;

/**
 * The tab's `<iframe>`: `sandbox` (no top navigation), `referrerPolicy="no-referrer"`, `allow=""` (no device
 * or feature permissions), a `title` naming the tab. While the agent is in control it is `inert` (watch-only);
 * `data-control` lets the app style that. Renders nothing for a refused URL. Its `src` changes only when the
 * URL it shows expired, the mode changed, or the tab is not selected. A server render leaves `src` out, and the
 * frame gets it right after mount: a page loaded before the app hydrated would fire its `load` event before
 * anything listened, and the view would call it failed.
 */
function LiveViewFrame(props: LiveViewFrameProps) {
  const c = usePartContext(RootContext, "LiveView.Frame");
  const tab = usePartContext(TabContext, "LiveView.Frame");
  const { onLoad, ref, ...rest } = props;
  const { targetId } = tab;
  const { reportLoad, loadTimeoutMs } = c;
  const hydrated = useHydrated();
  // The URL the frame loads: none before mount (see above).
  const src = hydrated ? tab.src : undefined;
  const own = useRef<HTMLIFrameElement | null>(null);
  const loadedSrc = useRef<string | undefined>(undefined);

  useEffect(() => {
    const el = own.current;
    if (src === undefined || !el) return;
    // React does not wire `error` on iframes; listen natively.
    const onError = () => reportLoad(targetId, src, "failed");
    el.addEventListener("error", onError);
    const timer = setTimeout(() => {
      if (loadedSrc.current !== src) reportLoad(targetId, src, "failed");
    }, loadTimeoutMs);
    return () => {
      el.removeEventListener("error", onError);
      clearTimeout(timer);
    };
  }, [src, targetId, loadTimeoutMs, reportLoad]);

  if (tab.src === undefined) return null;
  const prefix = tab.mode === "devtools" ? "DevTools" : "Live view";
  return renderPart("iframe", {
    title: `${prefix}: ${tab.label}`,
    allow: "",
    inert: c.control === "agent" ? true : undefined,
    "data-state": tab.state,
    "data-control": c.control,
    "data-mode": tab.mode,
    ...rest,
    // Set after the part's props: the sandbox is configured (and cleaned) on the root only. Until the frame has
    // its URL it shows the blank page of the app's own origin, which must not get scripts and that origin
    // together (the browser warns the frame could lift its sandbox): it is fully sandboxed until then, and
    // the flags change with the `src` that navigates it.
    sandbox: src === undefined ? "" : c.sandbox,
    referrerPolicy: "no-referrer",
    src,
    ref: mergeRefs<HTMLIFrameElement>(own, ref),
    onLoad: (e: SyntheticEvent<HTMLIFrameElement>) => {
      onLoad?.(e);
      // The blank document of a frame without its URL yet is no load of the Live View.
      if (src === undefined) return;
      // A load after the timeout still counts: the frame works after all.
      loadedSrc.current = src;
      reportLoad(targetId, src, "loaded");
    },
  });
}

/** Props of `LiveView.Refused`. */
export interface LiveViewRefusedProps extends Omit<PrimitiveProps<"p">, "children"> {
  /** Replaces the default reason ("Not embedded: origin … is not allowed."). */
  children?: ReactNode | ((verdict: Extract<LiveViewUrlVerdict, { allowed: false }>) => ReactNode);
}

/**
 * Why a tab's URL is not embedded (`data-state="refused"`, `data-reason`), as text. Renders nothing when it is
 * allowed. Inside a panel it speaks for that tab, elsewhere for the selected one.
 */
function LiveViewRefused(props: LiveViewRefusedProps) {
  const { tab } = useTabOrActive("LiveView.Refused");
  const verdict = tab?.verdict;
  if (!verdict || verdict.allowed) return null;
  const { children, ...rest } = props;
  return renderPart("p", {
    "data-state": "refused",
    "data-reason": verdict.reason,
    ...rest,
    children: typeof children === "function" ? children(verdict) : (children ?? verdict.message),
  });
}

/** Props of `LiveView.OpenInNewTab`. */
export type LiveViewOpenInNewTabProps = PrimitiveProps<"a">;

/**
 * A link opening the tab's Live View in a new browser tab (`target="_blank"`, `rel="noopener noreferrer"`), the
 * fallback when embedding fails: `data-prominent` then. Renders nothing without an allowed URL. Inside a panel it
 * is for that tab, elsewhere for the selected one.
 */
function LiveViewOpenInNewTab(props: LiveViewOpenInNewTabProps) {
  const { tab } = useTabOrActive("LiveView.OpenInNewTab");
  if (!tab?.openUrl) return null;
  return renderPart("a", {
    "data-state": tab.state,
    "data-prominent": dataFlag(tab.state === "failed"),
    ...props,
    // The opened page must get no handle on this window and no referrer, whatever the props say.
    target: "_blank",
    rel: "noopener noreferrer",
    referrerPolicy: "no-referrer",
    href: tab.openUrl,
    children: props.children ?? "Open in new tab",
  });
}

// ───────────────────────────── control ─────────────────────────────

/** Props of `LiveView.TakeOver`. */
export type LiveViewTakeOverProps = PrimitiveProps<"button">;

/** Puts the human in control: the frame takes input. Disabled while the human already is. */
function LiveViewTakeOver(props: LiveViewTakeOverProps) {
  const c = usePartContext(RootContext, "LiveView.TakeOver");
  const { onClick, ...rest } = props;
  return renderPart("button", {
    type: "button",
    disabled: c.control === "human",
    "data-control": c.control,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) c.setControl("human");
    },
    children: rest.children ?? "Take over",
  });
}

/** Props of `LiveView.Continue`. */
export type LiveViewContinueProps = PrimitiveProps<"button">;

/**
 * "Done, continue": calls the root's `onContinue` once (however often it is pressed) and hands control back to
 * the agent. `data-state` `idle | pending | done`; disabled while pending and after. Renders nothing without
 * `onContinue`.
 */
function LiveViewContinue(props: LiveViewContinueProps) {
  const c = usePartContext(RootContext, "LiveView.Continue");
  const { onClick, ...rest } = props;
  if (!c.canContinue) return null;
  return renderPart("button", {
    type: "button",
    disabled: c.continueState !== "idle",
    "data-state": c.continueState,
    "aria-busy": c.continueState === "pending" ? true : undefined,
    ...rest,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      onClick?.(e);
      if (!e.defaultPrevented) c.runContinue();
    },
    children: rest.children ?? "Done, continue",
  });
}

// ───────────────────────────── status ─────────────────────────────

/** Props of `LiveView.Status`. */
export interface LiveViewStatusProps extends Omit<PrimitiveProps<"div">, "children"> {
  /** Replaces the default text; a function gets the state and who is in control. */
  children?: ReactNode | ((state: LiveViewState, control: LiveViewControl) => ReactNode);
}

/** A polite live region: "Agent is browsing", "You are in control", "Session expired, refreshing…", and problems. */
function LiveViewStatus(props: LiveViewStatusProps) {
  const c = usePartContext(RootContext, "LiveView.Status");
  const { children, ...rest } = props;
  const text =
    typeof children === "function"
      ? children(c.state, c.control)
      : (children ?? liveViewStatusText(c.state, c.control, { canRefresh: c.canRefresh }));
  return renderPart("div", {
    role: "status",
    "aria-live": "polite",
    "aria-atomic": true,
    "data-state": c.state,
    "data-control": c.control,
    ...rest,
    children: text,
  });
}

/** Props of `LiveView.Error`. */
export interface LiveViewErrorProps extends Omit<PrimitiveProps<"p">, "children"> {
  /** Replaces the default text; a function gets what `refresh` threw, the failures in a row and the next try's time. */
  children?: ReactNode | ((failure: { error: unknown; attempts: number; retryAt: number }) => ReactNode);
}

const refreshErrorText = (attempts: number) =>
  `Refreshing the live view failed ${attempts === 1 ? "once" : `${attempts} times`}; retrying automatically.`;

/**
 * Shown while fetching fresh URLs fails (`data-state="error"`, `data-attempts`); the view retries by itself.
 * The default text does not repeat the error's message, which may carry URLs.
 */
function LiveViewError(props: LiveViewErrorProps) {
  const c = usePartContext(RootContext, "LiveView.Error");
  const failure = c.failure;
  if (!failure) return null;
  const { children, ...rest } = props;
  return renderPart("p", {
    "data-state": "error",
    "data-attempts": failure.attempts,
    ...rest,
    children:
      typeof children === "function" ? children(failure) : (children ?? refreshErrorText(failure.attempts)),
  });
}

/**
 * A remote browser session a human can watch or take over (Cloudflare Browser Run Live View). The root's
 * `data-state` is `idle | loading | live | expired | refreshing | failed | refused | error`; it also carries
 * `data-mode` (`tab | devtools`), `data-control` (`agent | human`) and `data-refreshing`. No styles ship:
 * style the data attributes.
 *
 * @example
 * const agent = useAgent({ agent: "ChatAgent" });
 * const chat = useAgentChat({ agent });
 * // `output` is the openBrowser tool's output; `pending` the approval the agent waits on.
 * <LiveView.Root
 *   session={parseLiveViewSession(output)}
 *   refresh={({ mode }) => agent.call("liveView", [{ mode }])}
 *   allowedOrigins={["https://live.browser.run"]}
 *   onContinue={pending ? () => chat.addToolApprovalResponse({ id: pending.id, approved: true }) : undefined}
 * >
 *   <LiveView.ModeSwitch />
 *   <LiveView.TabList />
 *   <LiveView.Panels />
 *   <LiveView.OpenInNewTab />
 *   <LiveView.TakeOver />
 *   <LiveView.Continue />
 *   <LiveView.Error />
 *   <LiveView.Status />
 * </LiveView.Root>
 */
export const LiveView = {
  Root: LiveViewRoot,
  ModeSwitch: LiveViewModeSwitch,
  ModeOption: LiveViewModeOption,
  TabList: LiveViewTabList,
  Tab: LiveViewTab,
  Panels: LiveViewPanels,
  Panel: LiveViewPanel,
  Frame: LiveViewFrame,
  Refused: LiveViewRefused,
  OpenInNewTab: LiveViewOpenInNewTab,
  TakeOver: LiveViewTakeOver,
  Continue: LiveViewContinue,
  Error: LiveViewError,
  Status: LiveViewStatus,
};
