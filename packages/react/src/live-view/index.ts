/**
 * `LiveView`: a remote browser session a human can watch or take over. The rules behind it are in
 * @runboard/protocol (session reader, URL policy, targets, status text) and its session feed is
 * `LiveViewFeed` in @runboard/client.
 */
export {
  type LiveViewTabInfo,
  type UseLiveViewResult,
  useLiveView,
  useLiveViewTab,
} from "./context.ts";
export type { LiveViewContinueProps, LiveViewReloadProps, LiveViewTakeOverProps } from "./control.tsx";
export { DEFAULT_LIVE_VIEW_SANDBOX, DEFAULT_LOAD_TIMEOUT_MS } from "./embed-policy.ts";
export type { LiveViewOpenInNewTabProps, LiveViewRefusedProps } from "./fallbacks.tsx";
export type { LiveViewFrameProps } from "./frame.tsx";
export { LiveView } from "./live-view.tsx";
export type { LiveViewRootProps } from "./live-view-root.tsx";
export type { LiveViewModeOptionProps, LiveViewModeSwitchProps } from "./mode-switch.tsx";
export type { LiveViewPanelProps, LiveViewPanelsProps } from "./panels.tsx";
export type { LiveViewErrorProps, LiveViewStatusProps } from "./status.tsx";
export type { LiveViewTabListProps, LiveViewTabProps } from "./tabs.tsx";
