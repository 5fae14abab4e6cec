import type { LiveViewHandOff, LiveViewMode } from "@runboard/protocol";
import { parseLiveViewSession } from "@runboard/protocol/view";
import { LiveView, type LiveViewRootProps } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { useCallback, useEffect, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { LIVE_VIEW_ORIGIN, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/live-view.css";

// Live View pages come from the mock under the other loopback name (test-support/loopback-origin.ts), so the
// default sandbox never embeds a page of the story's own origin.
const T = { timeout: 30_000 };

/** The parts an app shows, with Reload. */
function View(props: Omit<LiveViewRootProps, "allowedOrigins">) {
  return (
    <LiveView.Root
      className="lv"
      allowedOrigins={[LIVE_VIEW_ORIGIN]}
      allowLoopbackHttp
      aria-label="Remote browser"
      {...props}
    >
      <div className="lv-toolbar">
        <LiveView.TakeOver />
        <LiveView.OpenInNewTab className="lv-open" />
        <LiveView.Reload />
      </div>
      <LiveView.TabList className="lv-tabs" />
      <LiveView.Panels>
        {() => (
          <LiveView.Panel className="lv-panel">
            <LiveView.Frame className="lv-frame" />
            <LiveView.Refused className="lv-refused" />
          </LiveView.Panel>
        )}
      </LiveView.Panels>
      <LiveView.Error className="lv-error" />
      <LiveView.Status className="lv-status" />
    </LiveView.Root>
  );
}

type Refresh = (opts: { mode: LiveViewMode }) => Promise<LiveViewHandOff | null>;

/** The mock's first pretend tab as a single-URL hand-off, the way a tool answers `{ needsHumanLogin: url }`. */
function useHandOff() {
  const agent = useStoryAgent({ agent: "ChatAgent" });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let live = true;
    void agent.call("liveView", [{ mode: "tab" }]).then((v) => {
      if (live) setUrl(parseLiveViewSession(v)?.targets[0]?.url);
    });
    return () => {
      live = false;
    };
  }, [agent]);
  return { agent, url };
}

const Waiting = () => <p className="lv-waiting">Asking the agent for a live view…</p>;

function SingleUrlStage() {
  const { url } = useHandOff();
  if (!url) return <Waiting />;
  return <View session={{ needsHumanLogin: url }} />;
}

function EndedStage() {
  const { agent, url } = useHandOff();
  // The agent closed its browser: `liveView()` answers null from then on.
  const refresh = useCallback<Refresh>(
    async ({ mode }) => {
      await agent.call("closeBrowser", []);
      return agent.call<LiveViewHandOff | null>("liveView", [{ mode }]);
    },
    [agent],
  );
  if (!url) return <Waiting />;
  return <View session={{ url, expiresInMs: 1500 }} refresh={refresh} />;
}

function ReloadStage() {
  const { agent, url } = useHandOff();
  const [calls, setCalls] = useState(0);
  // The agent opened a second tab since the hand-off: Reload asks for the whole session and shows it.
  const refresh = useCallback<Refresh>(
    ({ mode }) => {
      setCalls((n) => n + 1);
      return agent.call<LiveViewHandOff | null>("liveView", [{ mode }]);
    },
    [agent],
  );
  if (!url) return <Waiting />;
  return (
    <>
      <View session={{ url }} refresh={refresh} />
      <p className="lv-note">Fetched: {calls}</p>
    </>
  );
}

const meta = { title: "Components/LiveView/Hand-offs" } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const view = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole("region", { name: "Remote browser" }, T);

/** A tool's `{ needsHumanLogin: url }` (or `getLiveViewUrl`'s bare URL): one tab, valid 5 minutes. */
export const SingleUrl: Story = {
  render: () => <SingleUrlStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await expect(
      within(root)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual(["Live view"]);
    await waitFor(() => expect(root).toHaveAttribute("data-status", "live"), T);
    await expect(within(root).getByRole("status")).toHaveTextContent("Agent is browsing");
  },
};

/** The agent closed its browser (`liveView()` answers null): "Session ended.", no retrying; Reload asks again. */
export const Ended: Story = {
  render: () => <EndedStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await waitFor(() => expect(root).toHaveAttribute("data-status", "ended"), T);
    await expect(within(root).getByRole("status")).toHaveTextContent("Session ended.");
    await expect(within(root).queryByText(/Retrying/)).toBeNull();
    await expect(root.querySelectorAll("iframe")).toHaveLength(0);
    await expect(within(root).getByRole("button", { name: "Reload" })).toBeEnabled();
  },
};

/** Reload fetches at once: the tab the agent opened since the hand-off shows without waiting for expiry. */
export const Reload: Story = {
  render: () => <ReloadStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await expect(within(root).getAllByRole("tab")).toHaveLength(1);
    await userEvent.click(within(root).getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(within(root).getAllByRole("tab")).toHaveLength(2), T);
    await expect(within(canvasElement).getByText("Fetched: 1")).toBeVisible();
  },
};
