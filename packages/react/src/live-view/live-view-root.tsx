/**
 * `LiveView.Root`: owns the session feed, the mode, who is in control and which tab is selected, and hands
 * the parts the tabs to show. Fetching and its timing live in `LiveViewFeed` (@runboard/client); which
 * targets and URLs are shown are pure rules in @runboard/protocol.
 */
import type { LiveViewRefresh } from "@runboard/client";
import type { LiveViewHandOff, LiveViewMode } from "@runboard/protocol";
import { type LiveViewControl, liveViewState } from "@runboard/protocol/view";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { dataFlag, type PrimitiveProps, renderPart, useControllableState } from "../primitives/index.ts";
import { type LiveViewRootContextValue, RootContext } from "./context.ts";
import {
  DEFAULT_LIVE_VIEW_SANDBOX,
  DEFAULT_LOAD_TIMEOUT_MS,
  useEmbedPolicy,
  useRefusalWarnings,
  useSafeSandbox,
} from "./embed-policy.ts";
import { useContinueRound } from "./use-continue.ts";
import { useLiveViewFeed } from "./use-live-view-feed.ts";
import { useLiveViewTabs } from "./use-tabs.ts";

/** Props of `LiveView.Root`. */
export interface LiveViewRootProps extends PrimitiveProps<"section"> {
  /**
   * The session to start from: the `openBrowser` tool's output, or a single-URL hand-off (`{ url, targetId?,
   * expiresInMs? }`, a bare URL, a tool's `{ needsHumanLogin: url }`; valid 5 minutes unless it says). Read
   * with `parseLiveViewSession`.
   */
  session?: LiveViewHandOff | null;
  /**
   * Fetches a fresh session for a mode, e.g. `({ mode }) => agent.call("liveView", [{ mode }])`. Called before
   * the URLs expire, when the mode changes, with no `session`, on `LiveView.Reload` and `refreshKey`, and again
   * after a failure (1 s, 2 s, 4 s … 30 s). It may answer any hand-off; `null` / `undefined` means the agent
   * closed the session: the view says "Session ended." (`data-status="ended"`) and stops fetching until
   * Reload. Without it the view shows the session until it expires and the mode cannot change.
   */
  refresh?: LiveViewRefresh;
  /** How long before expiry to fetch fresh URLs. Default 20% of `expiresInMs`, at most 30 s. */
  refreshMarginMs?: number;
  /** Also fetch this often (at least every 1 s), so tabs the agent opens show sooner. Default: before expiry only. */
  refreshIntervalMs?: number;
  /**
   * Fetch at once whenever this value changes (not on mount), e.g. the number of finished agent turns, so tabs
   * the agent opened in a turn show without waiting for the expiry refresh.
   */
  refreshKey?: unknown;
  /**
   * Origins whose Live View pages may be embedded, e.g. `["https://live.browser.run"]`, each spelled exactly.
   * Anything else is refused with a reason (`LiveView.Refused`) and neither embedded nor linked. Pages get
   * scripts and their own origin in the sandbox, and a page that shares the app's origin could then script the
   * app and remove its own sandbox: so a URL on the app's own origin is refused (`data-reason="same-origin"`)
   * while `sandbox` has both `allow-scripts` and `allow-same-origin`, even if listed. Wildcard patterns (`*`,
   * `https://*`, `https://*.example.com`) are refused as a configuration error (`data-reason="wildcard"`, with a
   * dev warning), never read as allowing every origin: one look-alike host would get scripts in the app.
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
  /** Called with the mode the user picked. */
  onModeChange?: (mode: LiveViewMode) => void;
  /** Who drives (controlled): `"agent"` (the frame is watch-only, `inert`) or `"human"`. */
  control?: LiveViewControl;
  /** Who drives at first (uncontrolled). Default `"agent"`. */
  defaultControl?: LiveViewControl;
  /** Called when control changes hands (Take over, Done, continue). */
  onControlChange?: (control: LiveViewControl) => void;
  /** The selected tab's `targetId` (controlled). An id that is not shown selects the first tab. */
  value?: string;
  /** The initially selected `targetId` (uncontrolled). Default the first tab. */
  defaultValue?: string;
  /** Called with the `targetId` of the tab the user selected. */
  onValueChange?: (targetId: string) => void;
  /**
   * Hands control back to the agent, e.g. `() => chat.addToolApprovalResponse({ id, approved: true })`.
   * `LiveView.Continue` calls it once; pass it only while the agent waits (a new function after it was
   * `undefined` starts a new round). A returned promise keeps the button pending; a rejection allows a retry.
   */
  onContinue?: () => unknown;
  /** How long a frame may take to load before it counts as failed (the new-tab link then stands out). Default 15 s. */
  loadTimeoutMs?: number;
  /**
   * The frame's `sandbox`. Default `allow-scripts allow-same-origin allow-forms`; top navigation is never allowed.
   * With both `allow-scripts` and `allow-same-origin`, pages on the app's own origin are refused.
   */
  sandbox?: string;
}

/** A DOM id fragment from a target id (any characters) that stays unique. */
const idFragment = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);

/**
 * The Live View's `<section>` (named "Live view" unless labelled): `data-status` is the view's state
 * (`idle | loading | live | expired | refreshing | failed | refused | error | ended`), with `data-mode`,
 * `data-control` and `data-refreshing`.
 */
export function LiveViewRoot(props: LiveViewRootProps) {
  const {
    session,
    refresh,
    refreshMarginMs,
    refreshIntervalMs,
    refreshKey,
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

  const [feed, reload] = useLiveViewFeed({ session, refresh, mode, refreshMarginMs, refreshIntervalMs });
  // A new key asks at once; the first render's key is where the view starts, not a request.
  const lastKey = useRef(refreshKey);
  useEffect(() => {
    if (lastKey.current === refreshKey) return;
    lastKey.current = refreshKey;
    reload();
  }, [refreshKey, reload]);
  const sandbox = useSafeSandbox(sandboxProp);
  const policy = useEmbedPolicy(allowedOrigins, allowLoopbackHttp, sandbox);
  const { tabs, active, reportLoad } = useLiveViewTabs(feed.received, value, policy);
  useRefusalWarnings(tabs);

  const fetching = feed.fetching !== undefined;
  const state = liveViewState({
    active: active?.state,
    fetching,
    refreshFailed: feed.failure !== undefined,
    ended: feed.ended,
  });
  const handBack = useCallback(() => setControl("agent"), [setControl]);
  const round = useContinueRound(onContinue, handBack);

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
  const activeId = active?.targetId;
  // Re-selecting the shown tab (the first, when nothing was chosen) is no change to report.
  const select = useCallback(
    (id: string) => {
      if (id !== activeId) setValue(id);
    },
    [activeId, setValue],
  );

  const canRefresh = refresh !== undefined;
  const ctx = useMemo<LiveViewRootContextValue>(
    () => ({
      state,
      mode,
      setMode,
      canRefresh,
      reload,
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
      continueStatus: round.status,
      canContinue: round.canContinue,
      runContinue: round.run,
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
      canRefresh,
      reload,
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
      round.status,
      round.canContinue,
      round.run,
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
        "data-rb-part": "LiveView.Root",
        "aria-label": named ? undefined : "Live view",
        "data-status": state,
        "data-mode": mode,
        "data-control": control,
        "data-refreshing": dataFlag(fetching),
        ...rest,
      })}
    </RootContext.Context.Provider>
  );
}
LiveViewRoot.displayName = "LiveView.Root";
