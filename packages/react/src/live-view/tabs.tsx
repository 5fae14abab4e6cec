/**
 * `LiveView.TabList` and `LiveView.Tab`: one tab per shown target, as WAI-ARIA tabs with roving focus. Arrow
 * keys follow `dir` (in `rtl` ArrowLeft moves to the next tab) and, with `activationMode="manual"`, only move
 * focus; Enter or Space then selects, as in Radix Tabs.
 */
import { type ReactNode, useCallback, useContext } from "react";
import {
  composeEventHandlers,
  dataFlag,
  mergeRefs,
  type PrimitiveProps,
  renderPart,
  rovingKeyDown,
  usePartContext,
} from "../primitives/index.ts";
import { type LiveViewTabInfo, RootContext, TabContext } from "./context.ts";

/** Props of `LiveView.TabList`. */
export interface LiveViewTabListProps extends Omit<PrimitiveProps<"div">, "children" | "dir"> {
  /**
   * One tab per shown target: a function is called once per tab inside that tab's scope (default
   * `<LiveView.Tab />`); nodes are rendered as they are (give each `LiveView.Tab` its `value`).
   */
  children?: ReactNode | ((tab: LiveViewTabInfo) => ReactNode);
  /** Which arrow keys move between tabs. Default `"horizontal"` (Left/Right). */
  orientation?: "horizontal" | "vertical";
  /** Reading direction: in `"rtl"` ArrowLeft moves to the next tab. Default `"ltr"`; set as the `dir` attribute. */
  dir?: "ltr" | "rtl";
  /** `"automatic"` (default): moving focus selects. `"manual"`: arrows only move focus; Enter or Space selects. */
  activationMode?: "automatic" | "manual";
}

const defaultTab = () => <LiveViewTab />;

/**
 * The `tablist` (`data-count`, `data-orientation`). Arrow keys move to the previous or next tab (wrapping),
 * Home and End to the first and last; only the selected tab is in the Tab order.
 */
export function LiveViewTabList(props: LiveViewTabListProps) {
  const c = usePartContext(RootContext, "LiveView.TabList");
  const {
    children = defaultTab,
    orientation = "horizontal",
    dir,
    activationMode = "automatic",
    onKeyDown,
    ...rest
  } = props;
  const named = rest["aria-label"] !== undefined || rest["aria-labelledby"] !== undefined;
  const { tabs, tabElements, select } = c;
  const keyDown = rovingKeyDown<HTMLDivElement>(
    () => tabs.map((t) => tabElements.current.get(t.targetId)),
    (index) => {
      const next = tabs[index];
      if (next) select(next.targetId);
    },
    { orientation, dir, activation: activationMode },
  );
  return renderPart("div", {
    "data-rb-part": "LiveView.TabList",
    role: "tablist",
    "aria-label": named ? undefined : "Remote tabs",
    "aria-orientation": orientation,
    dir,
    "data-orientation": orientation,
    "data-count": tabs.length,
    ...rest,
    onKeyDown: composeEventHandlers(onKeyDown, keyDown),
    children:
      typeof children === "function"
        ? tabs.map((tab) => (
            <TabContext.Context.Provider key={tab.targetId} value={tab}>
              {children(tab)}
            </TabContext.Context.Provider>
          ))
        : children,
  });
}
LiveViewTabList.displayName = "LiveView.TabList";

/** Props of `LiveView.Tab`. */
export interface LiveViewTabProps extends PrimitiveProps<"button"> {
  /** The tab's `targetId`; read from the enclosing `LiveView.TabList` render when left out. */
  value?: string;
}

/**
 * One tab (`role="tab"`, `aria-selected`): `data-state` `active | inactive` (selection, as Radix Tabs),
 * `data-status` the tab's frame (`loading | live | expired | failed | refused`), `data-selected`. Renders
 * nothing for a `value` that is not shown.
 */
export function LiveViewTab(props: LiveViewTabProps) {
  const c = usePartContext(RootContext, "LiveView.Tab");
  const { value, onClick, ref, ...rest } = props;
  const scoped = useContext(TabContext.Context);
  const tab = value === undefined ? scoped : c.tabs.find((t) => t.targetId === value);
  const targetId = tab?.targetId;
  const { tabElements } = c;
  const register = useCallback(
    (node: HTMLElement | null) => {
      if (targetId === undefined) return;
      if (node) tabElements.current.set(targetId, node);
      else tabElements.current.delete(targetId);
    },
    [tabElements, targetId],
  );
  if (!tab) {
    if (value === undefined)
      throw new Error(
        "<LiveView.Tab> needs its tab: render it inside <LiveView.TabList> (as its default or from its children function), or pass value (the targetId).",
      );
    return null;
  }
  return renderPart("button", {
    "data-rb-part": "LiveView.Tab",
    type: "button",
    role: "tab",
    id: c.tabId(tab.targetId),
    "aria-selected": tab.selected,
    "aria-controls": c.panelsMounted ? c.panelId(tab.targetId) : undefined,
    tabIndex: tab.selected ? 0 : -1,
    "data-state": tab.selected ? "active" : "inactive",
    "data-status": tab.state,
    "data-selected": dataFlag(tab.selected),
    ...rest,
    ref: mergeRefs<HTMLButtonElement>(register, ref),
    onClick: composeEventHandlers(onClick, () => c.select(tab.targetId)),
    children: rest.children ?? tab.label,
  });
}
LiveViewTab.displayName = "LiveView.Tab";
