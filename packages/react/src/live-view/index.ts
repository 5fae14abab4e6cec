/** `LiveView`: a remote browser session a human can watch or take over, with the pure rules behind it. */
export * from "./live-view.tsx";
export {
  defaultRefreshMargin,
  type LiveViewMode,
  type LiveViewSession,
  parseLiveViewSession,
  refreshDelay,
} from "./session.ts";
export {
  type LiveViewControl,
  type LiveViewState,
  type LiveViewTargetState,
  liveViewStatusText,
} from "./state.ts";
export { isBlankPage, isVisibleTarget, type LiveViewTarget, targetLabel, visibleTargets } from "./targets.ts";
export {
  checkLiveViewUrl,
  isLoopbackHost,
  type LiveViewRefusal,
  type LiveViewUrlPolicy,
  type LiveViewUrlVerdict,
} from "./url-policy.ts";
