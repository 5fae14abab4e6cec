/**
 * `LiveView`: a remote browser session a human can watch or take over. Tabs come from the session's targets
 * (frames keyed by `targetId`), URLs are fetched again before they expire without reloading the frame in use,
 * and only URLs the app allows are embedded, in a sandboxed frame. Each part lives in its own module; this
 * one assembles the namespace.
 */
import { LiveViewContinue, LiveViewReload, LiveViewTakeOver } from "./control.tsx";
import { LiveViewOpenInNewTab, LiveViewRefused } from "./fallbacks.tsx";
import { LiveViewFrame } from "./frame.tsx";
import { LiveViewRoot } from "./live-view-root.tsx";
import { LiveViewModeOption, LiveViewModeSwitch } from "./mode-switch.tsx";
import { LiveViewPanel, LiveViewPanels } from "./panels.tsx";
import { LiveViewError, LiveViewStatus } from "./status.tsx";
import { LiveViewTab, LiveViewTabList } from "./tabs.tsx";

/**
 * A remote browser session a human can watch or take over (Cloudflare Browser Run Live View). The root's
 * `data-status` is `idle | loading | live | expired | refreshing | failed | refused | error | ended`; it also carries
 * `data-mode` (`tab | devtools`), `data-control` (`agent | human`) and `data-refreshing`. Tabs and panels
 * carry `data-state` `active | inactive` and their frame's `data-status`. No styles ship: style the data
 * attributes.
 *
 * @example
 * const agent = useAgent({ agent: "ChatAgent" });
 * const chat = useAgentChat({ agent });
 * // `output` is the openBrowser tool's output; `pending` the approval the agent waits on.
 * <LiveView.Root
 *   session={parseLiveViewSession(output)} // from @runboard/protocol
 *   refresh={({ mode }) => agent.call("liveView", [{ mode }])}
 *   allowedOrigins={["https://live.browser.run"]}
 *   onContinue={pending ? () => chat.addToolApprovalResponse({ id: pending.id, approved: true }) : undefined}
 * >
 *   <LiveView.ModeSwitch />
 *   <LiveView.TabList />
 *   <LiveView.Panels />
 *   <LiveView.OpenInNewTab />
 *   <LiveView.TakeOver />
 *   <LiveView.Continue />
 *   <LiveView.Reload />
 *   <LiveView.Error />
 *   <LiveView.Status />
 * </LiveView.Root>
 */
export const LiveView = {
  Root: LiveViewRoot,
  ModeSwitch: LiveViewModeSwitch,
  ModeOption: LiveViewModeOption,
  TabList: LiveViewTabList,
  Tab: LiveViewTab,
  Panels: LiveViewPanels,
  Panel: LiveViewPanel,
  Frame: LiveViewFrame,
  Refused: LiveViewRefused,
  OpenInNewTab: LiveViewOpenInNewTab,
  TakeOver: LiveViewTakeOver,
  Continue: LiveViewContinue,
  Reload: LiveViewReload,
  Error: LiveViewError,
  Status: LiveViewStatus,
};
