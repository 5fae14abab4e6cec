/** `LiveView`: a remote browser session a human can watch or take over, with the pure rules behind it. */

export {
  checkLiveViewUrl,
  defaultRefreshMargin,
  isBlankPage,
  isLoopbackHost,
  isVisibleTarget,
  type LiveViewControl,
  type LiveViewMode,
  type LiveViewRefusal,
  type LiveViewSession,
  type LiveViewState,
  type LiveViewTarget,
  type LiveViewTargetState,
  type LiveViewUrlPolicy,
  type LiveViewUrlVerdict,
  liveViewStatusText,
  parseLiveViewSession,
  refreshDelay,
  targetLabel,
  visibleTargets,
} from "@runboard/protocol";
export * from "./live-view.tsx";
