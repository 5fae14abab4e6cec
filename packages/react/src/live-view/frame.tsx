/** `LiveView.Frame`: the sandboxed `<iframe>` showing one tab's Live View page. */
import { useEffect, useRef } from "react";
import {
  composeEventHandlers,
  mergeRefs,
  type PrimitiveProps,
  renderPart,
  useHydrated,
  usePartContext,
} from "../primitives/index.ts";
import { RootContext, TabContext } from "./context.ts";

/** Props of `LiveView.Frame`. */
export type LiveViewFrameProps = PrimitiveProps<"iframe">;

/**
 * The tab's `<iframe>`: `sandbox` (no top navigation), `referrerPolicy="no-referrer"`, `allow=""` (no device
 * or feature permissions), a `title` naming the tab, `data-status` the tab's frame. While the agent is in
 * control it is `inert` (watch-only); `data-control` lets the app style that. Renders nothing for a refused
 * URL. Its `src` changes only when the URL it shows expired, the mode changed, or the tab is not selected. A
 * server render leaves `src` out, and the frame gets it right after mount: a page loaded before the app
 * hydrated would fire its `load` event before anything listened, and the view would call it failed.
 */
export function LiveViewFrame(props: LiveViewFrameProps) {
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
  return renderPart(
    "iframe",
    {
      "data-rb-part": "LiveView.Frame",
      title: `${prefix}: ${tab.label}`,
      inert: c.control === "agent" ? true : undefined,
      "data-status": tab.state,
      "data-control": c.control,
      "data-mode": tab.mode,
      ...rest,
      ref: mergeRefs<HTMLIFrameElement>(own, ref),
      // The user's handler cannot cancel this: whether the frame loaded is a fact, not an action.
      onLoad: composeEventHandlers(
        onLoad,
        () => {
          // The blank document of a frame without its URL yet is no load of the Live View.
          if (src === undefined) return;
          // A load after the timeout still counts: the frame works after all.
          loadedSrc.current = src;
          reportLoad(targetId, src, "loaded");
        },
        { checkForDefaultPrevented: false },
      ),
    },
    {
      // Policy, over the part's props and an `asChild` element's own (issue 26 §4): the sandbox is configured (and
      // cleaned) on the root only. Until the frame has its URL it shows the blank page of the app's own origin,
      // which must not get scripts and that origin together (the browser warns the frame could lift its
      // sandbox): it is fully sandboxed until then, and the flags change with the `src` that navigates it. No
      // `srcdoc` (it would replace the checked URL with markup running on the app's origin), no permissions.
      sandbox: src === undefined ? "" : c.sandbox,
      referrerPolicy: "no-referrer",
      src,
      srcDoc: undefined,
      allow: "",
    },
  );
}
LiveViewFrame.displayName = "LiveView.Frame";
