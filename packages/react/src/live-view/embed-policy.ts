/**
 * What the root may embed and how: the allowed origins (normalized once per content, with dev warnings for
 * an empty or broken list or a wildcard pattern), the page's own origin once hydrated (a same-origin page
 * must not get scripts and that origin together), the frame's sandbox (never with top navigation), and a dev
 * warning per kind of refused URL that says how to fix it without naming the URL.
 */
import {
  type LiveViewRefusal,
  type NormalizedLiveViewUrlPolicy,
  normalizeOrigins,
} from "@runboard/protocol/view";
import { useEffect, useMemo } from "react";
import { useHydrated, warnOnce } from "../primitives/index.ts";
import type { LiveViewTabInfo } from "./context.ts";

/** The sandbox a Live View frame gets by default: scripts, its own origin and forms; no top navigation, no popups. */
export const DEFAULT_LIVE_VIEW_SANDBOX = "allow-scripts allow-same-origin allow-forms";
/** How long a frame may take to fire `load` before it counts as failed. */
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

/** The policy `checkLiveViewUrl` takes, with the origins already normalized. */
export type EmbedPolicy = NormalizedLiveViewUrlPolicy;

/**
 * The root's policy, the same object while the origins' content, the loopback setting, the sandbox and the
 * page's origin stay the same. A plain-JS caller that forgets `allowedOrigins` gets an empty list (nothing
 * embedded), not a crash. The page's origin is read only after hydration (the server has none); until then
 * no frame has its URL anyway (see `LiveView.Frame`), so a same-origin page is never loaded.
 */
export function useEmbedPolicy(
  allowedOrigins: readonly string[] | undefined,
  allowLoopbackHttp: boolean,
  sandbox: string,
): EmbedPolicy {
  const origins = allowedOrigins ?? [];
  const originsKey = origins.join("\n");
  const pageOrigin = useHydrated() ? window.location.origin : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by content, so a new array literal each render is free
  const policy = useMemo(() => {
    const { origins: allowed, invalid, wildcards } = normalizeOrigins(origins);
    return {
      policy: { origins: allowed, wildcards, allowLoopbackHttp, pageOrigin, sandbox } as EmbedPolicy,
      invalid,
    };
  }, [originsKey, allowLoopbackHttp, pageOrigin, sandbox]);
  useEffect(() => {
    if (policy.policy.wildcards)
      warnOnce(
        "LiveView.Root:allowedOrigins-wildcard",
        "LiveView.Root: an allowedOrigins entry is a wildcard pattern (*). Patterns are refused, never read as allowing every origin: a page from a look-alike host would run scripts in your app. List each origin exactly (scheme://host[:port]).",
      );
    if (policy.invalid > 0)
      warnOnce(
        "LiveView.Root:allowedOrigins-invalid",
        "LiveView.Root: an allowedOrigins entry is not an http(s) origin (scheme://host[:port]) and was ignored.",
      );
    else if (policy.policy.origins.size === 0 && !policy.policy.wildcards)
      warnOnce(
        "LiveView.Root:allowedOrigins-empty",
        "LiveView.Root: allowedOrigins is empty, so nothing is embedded. Pass the origin your Live View URLs come from.",
      );
  }, [policy]);
  return policy.policy;
}

// Tokens that would let the embedded page navigate the app itself away.
const TOP_NAVIGATION = /^allow-top-navigation/i;

/** The app's sandbox tokens without any that allow top navigation (with a dev warning when some were dropped). */
export function useSafeSandbox(sandbox: string): string {
  return useMemo(() => {
    const tokens = sandbox.split(/\s+/).filter(Boolean);
    const kept = tokens.filter((t) => !TOP_NAVIGATION.test(t));
    if (kept.length !== tokens.length)
      warnOnce(
        "LiveView.Root:sandbox",
        "LiveView.Root: sandbox tokens that let the frame navigate the app's window (allow-top-navigation*) were removed. A Live View never needs them.",
      );
    return kept.join(" ");
  }, [sandbox]);
}

// What to do about each kind of refusal, for the dev warning (which never names the URL).
const REFUSAL_FIX: Record<LiveViewRefusal, string> = {
  unparsable: "The session's url is not an absolute URL; check what the server returns.",
  scheme: "Only https pages are embedded; the session's url has another scheme.",
  credentials: "Remove the user name or password from the session's url.",
  insecure: "Serve Live View pages over https; for a local mock set allowLoopbackHttp (development only).",
  "same-origin":
    "The page comes from the app's own origin; with allow-scripts and allow-same-origin in the sandbox it could script the app and remove its own sandbox. Serve Live View from another origin (or drop allow-same-origin from sandbox).",
  wildcard: "allowedOrigins holds a wildcard pattern, which is refused; list the exact origin instead.",
  origin: "If you trust that origin, add it to allowedOrigins.",
};

/** Warns once per kind of refusal among the tabs, naming the fix. */
export function useRefusalWarnings(tabs: readonly LiveViewTabInfo[]): void {
  const refusedReasons = tabs.map((t) => (t.verdict?.allowed === false ? t.verdict.reason : "")).join(",");
  useEffect(() => {
    for (const reason of new Set(refusedReasons.split(",")))
      if (reason)
        warnOnce(
          `LiveView:refused:${reason}`,
          `LiveView: a target's URL was not embedded (${reason}); LiveView.Refused shows why. ${REFUSAL_FIX[reason as LiveViewRefusal]}`,
        );
  }, [refusedReasons]);
}
