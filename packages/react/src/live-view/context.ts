/**
 * What the Live View parts share: the root's context (the session's tabs, mode, control, the continue round,
 * the ids that wire tabs to panels) and the tab context each list and panel render sets for its parts.
 */
import type { LiveViewRefreshFailure } from "@runboard/client";
import type { LiveViewMode, LiveViewTarget } from "@runboard/protocol";
import type {
  FrameLoad,
  LiveViewControl,
  LiveViewState,
  LiveViewTargetState,
  LiveViewUrlVerdict,
} from "@runboard/protocol/view";
import { type RefObject, useContext } from "react";
import { createPartContext, usePartContext } from "../primitives/index.ts";

/** One tab as the parts see it. */
export interface LiveViewTabInfo {
  targetId: string;
  target: LiveViewTarget;
  /** The tab's name: title, else the host of the page it shows, else `Tab <n>`. */
  label: string;
  index: number;
  selected: boolean;
  /** The tab's frame: `loading | live | expired | failed | refused` (its parts' `data-status`). */
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

/** Where a "Done, continue" round is: not pressed, waiting for `onContinue`, or handed back. */
export type LiveViewContinueStatus = "idle" | "pending" | "done";

/** Internal: everything `LiveView.Root` hands its parts. */
export interface LiveViewRootContextValue {
  state: LiveViewState;
  mode: LiveViewMode;
  setMode: (mode: LiveViewMode) => void;
  canRefresh: boolean;
  /** Fetches a fresh session now (`LiveView.Reload`, `refreshKey`). */
  reload: () => void;
  control: LiveViewControl;
  setControl: (control: LiveViewControl) => void;
  tabs: readonly LiveViewTabInfo[];
  active: LiveViewTabInfo | undefined;
  select: (targetId: string) => void;
  failure: LiveViewRefreshFailure | undefined;
  fetching: boolean;
  sandbox: string;
  loadTimeoutMs: number;
  reportLoad: (targetId: string, src: string, load: Exclude<FrameLoad, "loading">) => void;
  continueStatus: LiveViewContinueStatus;
  canContinue: boolean;
  runContinue: () => void;
  tabId: (targetId: string) => string;
  panelId: (targetId: string) => string;
  panelsMounted: boolean;
  registerPanels: () => () => void;
  tabElements: RefObject<Map<string, HTMLElement>>;
}

/** Internal: the root's context. */
export const RootContext = createPartContext<LiveViewRootContextValue>("LiveView.Root");
/** Internal: the tab of the current `LiveView.TabList` / `LiveView.Panels` render. */
export const TabContext = createPartContext<LiveViewTabInfo>("LiveView.TabList or LiveView.Panels");

/** What `useLiveView` returns. */
export interface UseLiveViewResult {
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
  /** Fetches a fresh session now (a no-op without the root's `refresh`). */
  reload: () => void;
}

/** What the enclosing Live View shows and can do, for parts of your own. Throws outside `LiveView.Root`. */
export function useLiveView(): UseLiveViewResult {
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
    reload: c.reload,
  };
}

/** The tab of the current `LiveView.TabList` / `LiveView.Panels` render, for parts of your own. */
export function useLiveViewTab(): LiveViewTabInfo {
  return usePartContext(TabContext, "useLiveViewTab");
}

/** Internal: the tab of the enclosing list or panel, or else the selected one. */
export function useTabOrActive(part: string): {
  root: LiveViewRootContextValue;
  tab: LiveViewTabInfo | undefined;
} {
  const root = usePartContext(RootContext, part);
  const tab = useContext(TabContext.Context);
  return { root, tab: tab ?? root.active };
}
