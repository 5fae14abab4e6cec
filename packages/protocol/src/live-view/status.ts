/** The states a Live View and each of its tabs can be in (their `data-status`), and what the status line says. */

/** Who drives the remote browser: the agent (the frame is watch-only) or the human (the frame takes input). */
export type LiveViewControl = "agent" | "human";

/** One tab's frame, as the tab, panel and frame parts' `data-status` show it. */
export type LiveViewTargetState = "loading" | "live" | "expired" | "failed" | "refused";

/** The whole Live View, as the root's `data-status` shows it (the active tab's frame, the session fetches). */
export type LiveViewState =
  | "idle"
  | "loading"
  | "live"
  | "expired"
  | "refreshing"
  | "failed"
  | "refused"
  | "error"
  | "ended";

/** How a frame is doing with the URL it shows. */
export type FrameLoad = "loading" | "loaded" | "failed";

/**
 * A tab's state: `refused` (its URL is not allowed), `failed` (the frame errored or did not load in time),
 * `expired` (its URL ran out and no fresh one has come), `loading`, or `live`.
 */
export function targetState(t: { allowed: boolean; load: FrameLoad; expired: boolean }): LiveViewTargetState {
  if (!t.allowed) return "refused";
  if (t.load === "failed") return "failed";
  if (t.expired) return "expired";
  return t.load === "loading" ? "loading" : "live";
}

/**
 * The root's state. `ended` once the agent said the session is over (its `liveView()` answered `null`).
 * Without a tab to show: `loading` while a session is fetched, `error` when fetching
 * failed, else `idle`. With one, the most pressing of: the tab refused or failed, a failed refresh, the tab's
 * URL expired, a fetch under way, the frame loading, else `live`.
 */
export function liveViewState(s: {
  active: LiveViewTargetState | undefined;
  fetching: boolean;
  refreshFailed: boolean;
  ended?: boolean;
}): LiveViewState {
  if (s.ended) return "ended";
  if (s.active === undefined) return s.fetching ? "loading" : s.refreshFailed ? "error" : "idle";
  if (s.active === "refused" || s.active === "failed") return s.active;
  if (s.refreshFailed) return "error";
  if (s.active === "expired") return "expired";
  if (s.fetching) return "refreshing";
  return s.active;
}

/**
 * The default status line. While the view works it says who is in control ("Agent is browsing" / "You are
 * in control"), so a routine refresh is not announced; problems are.
 */
export function liveViewStatusText(
  state: LiveViewState,
  control: LiveViewControl,
  opts: { canRefresh: boolean } = { canRefresh: true },
): string {
  switch (state) {
    case "idle":
      return "No live view to show.";
    case "loading":
      return "Loading the live view…";
    case "live":
    case "refreshing":
      return control === "human" ? "You are in control" : "Agent is browsing";
    case "expired":
      return opts.canRefresh ? "Session expired, refreshing…" : "Session expired.";
    case "failed":
      return "The live view did not load. Open it in a new tab.";
    case "refused":
      return "This live view cannot be embedded.";
    case "error":
      return "Could not refresh the live view. Retrying…";
    case "ended":
      return "Session ended.";
  }
}
