/** `LiveView.Status` and `LiveView.Error`: what the view says about itself, and a failing refresh. */
import type { LiveViewControl, LiveViewState } from "@runboard/protocol/view";
import { liveViewStatusText } from "@runboard/protocol/view";
import type { ReactNode } from "react";
import {
  type AnnouncerProps,
  type PrimitiveProps,
  renderAnnouncer,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { RootContext } from "./context.ts";

/** Props of `LiveView.Status`. */
export interface LiveViewStatusProps extends Omit<AnnouncerProps, "children"> {
  /** Replaces the default text; a function gets the state and who is in control. */
  children?: ReactNode | ((state: LiveViewState, control: LiveViewControl) => ReactNode);
}

/**
 * The view's polite live region: "Agent is browsing", "You are in control", "Session expired, refreshing…",
 * and problems (`data-status` the root's, `data-control`). Shown by default; `visible={false}` keeps it for
 * screen readers only.
 */
export function LiveViewStatus(props: LiveViewStatusProps) {
  const c = usePartContext(RootContext, "LiveView.Status");
  const { children, visible = true, ...rest } = props;
  const text =
    typeof children === "function"
      ? children(c.state, c.control)
      : (children ?? liveViewStatusText(c.state, c.control, { canRefresh: c.canRefresh }));
  return renderAnnouncer(text, {
    "data-rb-part": "LiveView.Status",
    visible,
    "data-status": c.state,
    "data-control": c.control,
    ...rest,
  });
}
LiveViewStatus.displayName = "LiveView.Status";

/** Props of `LiveView.Error`. */
export interface LiveViewErrorProps extends Omit<PrimitiveProps<"p">, "children"> {
  /** Replaces the default text; a function gets what `refresh` threw, the failures in a row and the next try's time. */
  children?: ReactNode | ((failure: { error: unknown; attempts: number; retryAt: number }) => ReactNode);
}

const refreshErrorText = (attempts: number) =>
  `Refreshing the live view failed ${attempts === 1 ? "once" : `${attempts} times`}; retrying automatically.`;

/**
 * Shown while fetching fresh URLs fails (`data-status="error"`, `data-attempts`); the view retries by itself.
 * The default text does not repeat the error's message, which may carry URLs.
 */
export function LiveViewError(props: LiveViewErrorProps) {
  const c = usePartContext(RootContext, "LiveView.Error");
  const failure = c.failure;
  if (!failure) return null;
  const { children, ...rest } = props;
  return renderPart("p", {
    "data-rb-part": "LiveView.Error",
    "data-status": "error",
    "data-attempts": failure.attempts,
    ...rest,
    children:
      typeof children === "function" ? children(failure) : (children ?? refreshErrorText(failure.attempts)),
  });
}
LiveViewError.displayName = "LiveView.Error";
