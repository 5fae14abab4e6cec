/** `LiveView.Refused` and `LiveView.OpenInNewTab`: what a person sees when a tab's page cannot be embedded. */
import type { LiveViewUrlVerdict } from "@runboard/protocol/view";
import type { ReactNode } from "react";
import { dataFlag, type PrimitiveProps, renderPart } from "../primitives/index.ts";
import { useTabOrActive } from "./context.ts";

/** Props of `LiveView.Refused`. */
export interface LiveViewRefusedProps extends Omit<PrimitiveProps<"p">, "children"> {
  /** Replaces the default reason ("Not embedded: origin … is not allowed."). */
  children?: ReactNode | ((verdict: Extract<LiveViewUrlVerdict, { allowed: false }>) => ReactNode);
}

/**
 * Why a tab's URL is not embedded (`data-status="refused"`, `data-reason`), as text. Renders nothing when it
 * is allowed. Inside a panel it speaks for that tab, elsewhere for the selected one.
 */
export function LiveViewRefused(props: LiveViewRefusedProps) {
  const { tab } = useTabOrActive("LiveView.Refused");
  const verdict = tab?.verdict;
  if (!verdict || verdict.allowed) return null;
  const { children, ...rest } = props;
  return renderPart("p", {
    "data-rb-part": "LiveView.Refused",
    "data-status": "refused",
    "data-reason": verdict.reason,
    ...rest,
    children: typeof children === "function" ? children(verdict) : (children ?? verdict.message),
  });
}
LiveViewRefused.displayName = "LiveView.Refused";

/** Props of `LiveView.OpenInNewTab`. */
export type LiveViewOpenInNewTabProps = PrimitiveProps<"a">;

/**
 * A link opening the tab's Live View in a new browser tab (`target="_blank"`, `rel="noopener noreferrer"`), the
 * fallback when embedding fails: `data-prominent` then; `data-status` is the tab's frame. Renders nothing
 * without an allowed URL. Inside a panel it is for that tab, elsewhere for the selected one.
 */
export function LiveViewOpenInNewTab(props: LiveViewOpenInNewTabProps) {
  const { tab } = useTabOrActive("LiveView.OpenInNewTab");
  if (!tab?.openUrl) return null;
  return renderPart(
    "a",
    {
      "data-rb-part": "LiveView.OpenInNewTab",
      "data-status": tab.state,
      "data-prominent": dataFlag(tab.state === "failed"),
      ...props,
      children: props.children ?? "Open in new tab",
    },
    {
      // The opened page must get no handle on this window and no referrer, whatever the props (or an `asChild`
      // element's own) say.
      target: "_blank",
      rel: "noopener noreferrer",
      referrerPolicy: "no-referrer",
      href: tab.openUrl,
    },
  );
}
LiveViewOpenInNewTab.displayName = "LiveView.OpenInNewTab";
