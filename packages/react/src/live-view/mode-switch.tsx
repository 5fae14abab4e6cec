/** `LiveView.ModeSwitch` and `LiveView.ModeOption`: show the remote tab or its DevTools. */
import type { LiveViewMode } from "@runboard/protocol";
import {
  composeEventHandlers,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { RootContext } from "./context.ts";

/** Props of `LiveView.ModeSwitch`. */
export type LiveViewModeSwitchProps = PrimitiveProps<"div">;

/** A group of two toggle buttons, "Tab" and "DevTools" (children replace them with `LiveView.ModeOption`s). */
export function LiveViewModeSwitch(props: LiveViewModeSwitchProps) {
  const c = usePartContext(RootContext, "LiveView.ModeSwitch");
  const named = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  return renderPart("div", {
    "data-rb-part": "LiveView.ModeSwitch",
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
LiveViewModeSwitch.displayName = "LiveView.ModeSwitch";

/** Props of `LiveView.ModeOption`. */
export interface LiveViewModeOptionProps extends PrimitiveProps<"button"> {
  /** The mode this button shows. */
  value: LiveViewMode;
}

const MODE_NAMES: Record<LiveViewMode, string> = { tab: "Tab", devtools: "DevTools" };

/**
 * One mode's button (`aria-pressed`, `data-state` `active | inactive`, `data-mode`). Choosing a mode fetches
 * a session for it through `refresh`; without `refresh` the other mode is disabled (`data-disabled`).
 */
export function LiveViewModeOption(props: LiveViewModeOptionProps) {
  const c = usePartContext(RootContext, "LiveView.ModeOption");
  const { value, onClick, ...rest } = props;
  const on = c.mode === value;
  const disabled = !on && !c.canRefresh;
  return renderPart("button", {
    "data-rb-part": "LiveView.ModeOption",
    type: "button",
    "aria-pressed": on,
    disabled,
    "data-state": on ? "active" : "inactive",
    "data-disabled": dataFlag(disabled),
    "data-mode": value,
    ...rest,
    onClick: composeEventHandlers(onClick, () => c.setMode(value)),
    children: rest.children ?? MODE_NAMES[value],
  });
}
LiveViewModeOption.displayName = "LiveView.ModeOption";
