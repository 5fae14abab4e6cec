/**
 * `LiveView.Panels` and `LiveView.Panel`: one `tabpanel` per tab, all mounted (hidden ones keep their frames,
 * so switching tabs reloads nothing), in an order that never changes: browsers reload a frame whose element
 * moves.
 */
import { type ReactNode, useContext, useLayoutEffect } from "react";
import { dataFlag, type PrimitiveProps, renderPart, usePartContext } from "../primitives/index.ts";
import { type LiveViewTabInfo, RootContext, TabContext } from "./context.ts";
import { LiveViewRefused } from "./fallbacks.tsx";
import { LiveViewFrame } from "./frame.tsx";

/** Props of `LiveView.Panels`. */
export interface LiveViewPanelsProps {
  /**
   * One panel per tab: a function is called once per tab inside that tab's scope and must return a
   * `LiveView.Panel` (default: the panel with the frame and the refusal); nodes are rendered as they are
   * (give each `LiveView.Panel` its `value`).
   */
  children?: ReactNode | ((tab: LiveViewTabInfo) => ReactNode);
}

const defaultPanel = () => (
  <LiveViewPanel>
    <LiveViewFrame />
    <LiveViewRefused />
  </LiveViewPanel>
);

/** Every tab's panel, in the tabs' order. Renders no element of its own. */
export function LiveViewPanels({ children = defaultPanel }: LiveViewPanelsProps) {
  const c = usePartContext(RootContext, "LiveView.Panels");
  const { registerPanels } = c;
  // Tabs point at panels (`aria-controls`) only while panels exist to point at.
  useLayoutEffect(() => registerPanels(), [registerPanels]);
  if (typeof children !== "function") return <>{children}</>;
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
LiveViewPanels.displayName = "LiveView.Panels";

/** Props of `LiveView.Panel`. */
export interface LiveViewPanelProps extends PrimitiveProps<"div"> {
  /** The tab's `targetId`; read from the enclosing `LiveView.Panels` render when left out. */
  value?: string;
}

/**
 * One tab's `tabpanel`, `hidden` unless selected: `data-state` `active | inactive`, `data-status` the tab's
 * frame, `data-control` and `data-mode`. It is focusable itself while its frame is not (refused, or
 * watch-only). Renders nothing for a `value` that is not shown.
 */
export function LiveViewPanel(props: LiveViewPanelProps) {
  const c = usePartContext(RootContext, "LiveView.Panel");
  const { value, ...rest } = props;
  const scoped = useContext(TabContext.Context);
  const tab = value === undefined ? scoped : c.tabs.find((t) => t.targetId === value);
  if (!tab) {
    if (value === undefined)
      throw new Error(
        "<LiveView.Panel> needs its tab: render it inside <LiveView.Panels> (as its default or from its children function), or pass value (the targetId).",
      );
    return null;
  }
  const frameFocusable = tab.src !== undefined && c.control === "human";
  const panel = renderPart("div", {
    "data-rb-part": "LiveView.Panel",
    role: "tabpanel",
    id: c.panelId(tab.targetId),
    "aria-labelledby": c.tabId(tab.targetId),
    hidden: !tab.selected,
    tabIndex: frameFocusable ? undefined : 0,
    "data-state": tab.selected ? "active" : "inactive",
    "data-status": tab.state,
    "data-selected": dataFlag(tab.selected),
    "data-control": c.control,
    "data-mode": tab.mode,
    ...rest,
  });
  // With an explicit value, the frame and fallbacks inside speak for this panel's tab.
  return tab === scoped ? (
    panel
  ) : (
    <TabContext.Context.Provider value={tab}>{panel}</TabContext.Context.Provider>
  );
}
LiveViewPanel.displayName = "LiveView.Panel";
