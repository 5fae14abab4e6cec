import type { LiveViewMode, LiveViewSession } from "@runboard/protocol";
import { parseLiveViewSession } from "@runboard/protocol/view";
import { LiveView, type LiveViewRootProps } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { type ReactNode, useCallback, useEffect, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { useApprovalDemo, useSay } from "./support/approval-demo.tsx";
import { LIVE_VIEW_ORIGIN, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/live-view.css";

// The mock serves Live View pages over plain http from this dev server under its other loopback name (a page
// on the app's own origin is refused with the default sandbox): a development setup, hence `allowLoopbackHttp`.
// In production the list holds the Live View origin (https) and nothing else.
const ORIGIN = LIVE_VIEW_ORIGIN;
const T = { timeout: 30_000 };

type Refresh = (opts: { mode: LiveViewMode }) => Promise<LiveViewSession>;

/**
 * The mock's `liveView` callable through the real `useAgent`, as an app calls it. `ttlMs` overrides the
 * session's `expiresInMs` (the mock's pages live 5 minutes) so refreshing can be watched in seconds.
 */
function useMockLiveView(opts: { ttlMs?: number; mode?: LiveViewMode } = {}) {
  const agent = useStoryAgent({ agent: "ChatAgent" });
  const [session, setSession] = useState<LiveViewSession>();
  const [calls, setCalls] = useState<LiveViewMode[]>([]);
  const { ttlMs } = opts;
  const refresh = useCallback<Refresh>(
    async ({ mode }) => {
      setCalls((c) => [...c, mode]);
      const s = parseLiveViewSession(await agent.call("liveView", [{ mode }]));
      if (!s) throw new Error("liveView returned no session");
      // The mock keeps each tab's `targetId` across calls, as Browser Run does, so a refresh reaches the same frames.
      return ttlMs === undefined ? s : { ...s, expiresInMs: ttlMs };
    },
    [agent, ttlMs],
  );
  const initialMode = opts.mode ?? "tab";
  useEffect(() => {
    let live = true;
    void agent
      .call("liveView", [{ mode: initialMode }])
      .then((value) => parseLiveViewSession(value))
      .then((s) => {
        if (!live || !s) return;
        setSession(ttlMs === undefined ? s : { ...s, expiresInMs: ttlMs });
      });
    return () => {
      live = false;
    };
  }, [agent, initialMode, ttlMs]);
  return { agent, session, refresh, calls };
}

/** Every part, as an app composes them. */
function Parts({ children }: { children?: ReactNode }) {
  return (
    <>
      <div className="lv-toolbar">
        <LiveView.ModeSwitch className="lv-modes" />
        <LiveView.TakeOver />
        <LiveView.Continue className="lv-continue" />
        <LiveView.OpenInNewTab className="lv-open" />
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
      {children}
    </>
  );
}

type ViewProps = Omit<LiveViewRootProps, "allowedOrigins"> & { allowedOrigins?: readonly string[] };

function View({ children, allowedOrigins = [ORIGIN], ...props }: ViewProps) {
  return (
    <LiveView.Root
      className="lv"
      allowedOrigins={allowedOrigins}
      allowLoopbackHttp
      aria-label="Remote browser"
      {...props}
    >
      <Parts>{children}</Parts>
    </LiveView.Root>
  );
}

/** Stands in for a network that never answers: the frame's `load` never reaches the view. */
function NeverLoads({ children }: { children: ReactNode }) {
  return (
    <div className="lv-contents" onLoadCapture={(e) => e.stopPropagation()}>
      {children}
    </div>
  );
}

function Waiting() {
  return <p className="lv-waiting">Asking the agent for a live view…</p>;
}

function LiveStage(props: { mode?: LiveViewMode }) {
  const { session, refresh } = useMockLiveView(props);
  if (!session) return <Waiting />;
  return <View session={session} refresh={refresh} defaultMode={props.mode ?? "tab"} />;
}

function ModeStage() {
  const { session, refresh, calls } = useMockLiveView();
  if (!session) return <Waiting />;
  return (
    <View session={session} refresh={refresh}>
      <p className="lv-note">Fetched for: {calls.join(", ") || "nothing yet"}</p>
    </View>
  );
}

function RefreshStage() {
  const { session, refresh, calls } = useMockLiveView({ ttlMs: 4000 });
  if (!session) return <Waiting />;
  return (
    <View session={session} refresh={refresh}>
      <p className="lv-note">
        URLs last 4 s; fresh ones are fetched 0.8 s before. Refreshes:{" "}
        <span data-testid="refreshes">{calls.length}</span>
      </p>
    </View>
  );
}

/** The `browse` word: the agent opens a sign-in page (openBrowser), then waits for approval to continue. */
function HandOffStage({ onContinueCalled }: { onContinueCalled: () => void }) {
  const demo = useApprovalDemo("ChatAgent");
  useSay(demo, ["browse"]);
  const { agent, chat, requests } = demo;
  const output = chat.messages
    .flatMap((m) => m.parts)
    .find((p) => p.type === "tool-openBrowser" && "output" in p && p.output !== undefined) as
    | { output: unknown }
    | undefined;
  const session = parseLiveViewSession(output?.output);
  // Still "pending" while the decision travels, so the button shows that instead of vanishing mid-press.
  const pending = requests.find(
    (r) => r.name === "continueAfterLogin" && (r.status === "requested" || r.status === "submitting"),
  );
  const refresh = useCallback<Refresh>(
    ({ mode }) => agent.call<LiveViewSession>("liveView", [{ mode }]),
    [agent],
  );
  const reply = chat.messages
    .filter((m) => m.role === "assistant")
    .flatMap((m) => m.parts)
    .filter((p): p is { type: "text"; text: string } => p.type === "text")
    .map((p) => p.text)
    .at(-1);
  if (!session) return <Waiting />;
  return (
    <div className="lv-stage">
      <View
        session={session}
        refresh={refresh}
        onContinue={
          pending
            ? () => {
                onContinueCalled();
                pending.decide({ approved: true });
              }
            : undefined
        }
      />
      <p className="lv-note" data-testid="agent-says">
        Agent: {reply}
      </p>
    </div>
  );
}

function ExpiredStage() {
  const { session } = useMockLiveView({ ttlMs: 1500 });
  if (!session) return <Waiting />;
  return <View session={session} />;
}

function FailedStage() {
  const { session, refresh } = useMockLiveView();
  if (!session) return <Waiting />;
  return (
    <NeverLoads>
      <View session={session} refresh={refresh} loadTimeoutMs={1000} />
    </NeverLoads>
  );
}

function RefreshErrorStage() {
  const { session, agent } = useMockLiveView({ ttlMs: 1500 });
  const refresh = useCallback<Refresh>(() => agent.call<LiveViewSession>("liveViewGone", [{}]), [agent]);
  if (!session) return <Waiting />;
  return <View session={session} refresh={refresh} />;
}

const meta = {
  title: "Components/LiveView",
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const view = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole("region", { name: "Remote browser" }, T);
const activeFrame = (root: HTMLElement) =>
  within(root).getByRole("tabpanel").querySelector("iframe") as HTMLIFrameElement;

/** A live session from the mock's `liveView` callable: two tabs, the agent browsing, the frame watch-only. */
export const Live: Story = {
  render: () => <LiveStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    const tabs = within(root).getAllByRole("tab");
    await expect(tabs.map((t) => t.textContent)).toEqual([
      "Sign in · Example Shop",
      "Your orders · Example Shop",
    ]);
    await waitFor(() => expect(root).toHaveAttribute("data-status", "live"), T);
    await expect(root).toHaveAttribute("data-control", "agent");
    await expect(within(root).getByRole("status")).toHaveTextContent("Agent is browsing");
    const frame = activeFrame(root);
    await expect(frame).toHaveAttribute("title", "Live view: Sign in · Example Shop");
    await expect(frame).toHaveAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
    await expect(frame).toHaveAttribute("referrerpolicy", "no-referrer");
    await expect(frame).toHaveAttribute("inert");
    const link = within(root).getByRole("link", { name: "Open in new tab" });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  },
};

/** Two tabs, switched with the keyboard: arrows move and select, Home and End jump; the frames stay loaded. */
export const TwoTabsKeyboard: Story = {
  render: () => <LiveStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    // Keys on a loaded view, as a person would use it: the dark-mode run once saw focus on <body> right after a
    // click made while the tab still read "loading" (not reproduced in 20 more runs; cause not established).
    await waitFor(() => expect(root).toHaveAttribute("data-status", "live"), T);
    const [login, orders] = within(root).getAllByRole("tab") as [HTMLElement, HTMLElement];
    const frames = Array.from(root.querySelectorAll("iframe"));
    await userEvent.click(login);
    await expect(login).toHaveFocus();
    await userEvent.keyboard("{ArrowRight}");
    await expect(orders).toHaveFocus();
    await expect(orders).toHaveAttribute("aria-selected", "true");
    await expect(within(root).getByRole("tabpanel")).toHaveAttribute("aria-labelledby", orders.id);
    await userEvent.keyboard("{Home}");
    await expect(login).toHaveFocus();
    await expect(login).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{End}");
    await expect(orders).toHaveFocus();
    await userEvent.keyboard("{ArrowRight}");
    await expect(login).toHaveFocus();
    await expect(Array.from(root.querySelectorAll("iframe"))).toEqual(frames);
  },
};

/** DevTools mode: choosing it fetches a DevTools session (`liveView({ mode: "devtools" })`) into the same frames. */
export const DevTools: Story = {
  render: () => <ModeStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    const frame = activeFrame(root);
    await userEvent.click(within(root).getByRole("button", { name: "DevTools" }));
    await expect(root).toHaveAttribute("data-mode", "devtools");
    await expect(within(root).getByRole("button", { name: "DevTools" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await waitFor(() => expect(frame.getAttribute("src")).toMatch(/\/devtools$/), T);
    await expect(activeFrame(root)).toBe(frame);
    await expect(frame).toHaveAttribute("title", "DevTools: Sign in · Example Shop");
    await expect(within(root).getByText(/Fetched for:/)).toHaveTextContent("Fetched for: devtools");
  },
};

let continueCalls = 0;

/**
 * The `browse` hand-off: the agent opened a sign-in page and waits. The human takes over (the frame takes
 * input), signs in, and presses "Done, continue", which approves the pending `continueAfterLogin` exactly once.
 */
export const TakeOverAndContinue: Story = {
  beforeEach: () => {
    continueCalls = 0;
  },
  render: () => <HandOffStage onContinueCalled={() => (continueCalls += 1)} />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    const done = await within(root).findByRole("button", { name: "Done, continue" }, T);
    await userEvent.click(within(root).getByRole("button", { name: "Take over" }));
    await expect(root).toHaveAttribute("data-control", "human");
    await expect(activeFrame(root)).not.toHaveAttribute("inert");
    await waitFor(() => expect(within(root).getByRole("status")).toHaveTextContent("You are in control"), T);
    // Pressed three times in a row, as an impatient person might.
    done.click();
    done.click();
    done.click();
    await expect(continueCalls).toBe(1);
    await waitFor(
      () =>
        expect(within(canvasElement).getByTestId("agent-says")).toHaveTextContent(
          "Thanks, I am signed in and can see your orders now.",
        ),
      T,
    );
    await expect(root).toHaveAttribute("data-control", "agent");
    await expect(within(root).queryByRole("button", { name: "Done, continue" })).toBeNull();
    await expect(continueCalls).toBe(1);
  },
};

/**
 * URLs that last 4 s: fresh ones come 0.8 s before expiry. The frame in use keeps its URL (and element) until
 * that URL runs out; the tab nobody looks at takes the fresh URL at once.
 */
export const RefreshingBeforeExpiry: Story = {
  render: () => <RefreshStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    const [active, inactive] = Array.from(root.querySelectorAll("iframe")) as [
      HTMLIFrameElement,
      HTMLIFrameElement,
    ];
    const firstActive = active.getAttribute("src");
    const firstInactive = inactive.getAttribute("src");
    const count = within(root).getByTestId("refreshes");
    await waitFor(() => expect(count).toHaveTextContent("1"), T);
    await waitFor(() => expect(inactive.getAttribute("src")).not.toBe(firstInactive), T);
    await expect(active.getAttribute("src")).toBe(firstActive);
    await expect(activeFrame(root)).toBe(active);
    // The active URL runs out at 4 s: only then the frame moves to the fresh URL, in the same element.
    await waitFor(() => expect(active.getAttribute("src")).not.toBe(firstActive), T);
    await expect(activeFrame(root)).toBe(active);
  },
};

/** No `refresh`: once the URLs expire the view says so and still offers the page in a new tab. */
export const Expired: Story = {
  render: () => <ExpiredStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await waitFor(() => expect(root).toHaveAttribute("data-status", "expired"), T);
    await expect(within(root).getByRole("status")).toHaveTextContent("Session expired.");
    await expect(within(root).getByRole("link", { name: "Open in new tab" })).toBeVisible();
  },
};

/** The frame never loads within `loadTimeoutMs`: the view fails over to opening the page in a new tab. */
export const Failed: Story = {
  render: () => <FailedStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await expect(root).toHaveAttribute("data-status", "loading");
    await waitFor(() => expect(root).toHaveAttribute("data-status", "failed"), T);
    await expect(within(root).getByRole("status")).toHaveTextContent(
      "The live view did not load. Open it in a new tab.",
    );
    const link = within(root).getByRole("link", { name: "Open in new tab" });
    await expect(link).toHaveAttribute("data-prominent");
    await expect(link.getAttribute("href")).toMatch(new RegExp(`^${ORIGIN}/live-view/`));
  },
};

const REFUSED: LiveViewSession = {
  sessionId: "refused",
  expiresInMs: 300_000,
  targets: [
    {
      targetId: "JS",
      url: "javascript:alert(document.domain)",
      pageUrl: "https://shop.example/login",
      title: "Script address",
      type: "page",
    },
    {
      targetId: "FOREIGN",
      url: "https://evil.example/live-view/abc",
      pageUrl: "https://shop.example/orders",
      title: "Foreign origin",
      type: "page",
    },
    {
      targetId: "HTTP",
      url: "http://live.example.net/live-view/abc",
      pageUrl: "https://shop.example/cart",
      title: "Plain http",
      type: "page",
    },
    {
      targetId: "SAME",
      url: `${window.location.origin}/live-view/abc`,
      pageUrl: "https://shop.example/account",
      title: "App's own origin",
      type: "page",
    },
  ],
};

/**
 * URLs the policy refuses (a script address, a foreign origin, plain http off loopback, the app's own origin
 * even though listed: with the default sandbox it could script the app): a reason, no frame, no link.
 */
export const Refused: Story = {
  render: () => <View session={REFUSED} allowedOrigins={[ORIGIN, window.location.origin]} />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await expect(root).toHaveAttribute("data-status", "refused");
    const reasons: string[] = [];
    for (const tab of within(root).getAllByRole("tab")) {
      await userEvent.click(tab);
      const panel = within(root).getByRole("tabpanel");
      await expect(panel).toHaveAttribute("data-status", "refused");
      reasons.push(panel.textContent ?? "");
    }
    await expect(reasons).toEqual([
      "Not embedded: javascript: addresses are not allowed; only https is.",
      "Not embedded: origin https://evil.example is not allowed.",
      "Not embedded: http://live.example.net uses plain http; only https is allowed.",
      `Not embedded: ${window.location.origin} is this app's own address, and a page from it could take control of the app. Live View pages must come from another origin.`,
    ]);
    await expect(root.querySelectorAll("iframe")).toHaveLength(0);
    await expect(within(root).queryByRole("link")).toBeNull();
    await expect(within(root).getByRole("status")).toHaveTextContent("This live view cannot be embedded.");
  },
};

/** Fetching fresh URLs fails (the callable is missing here): the error shows and the view keeps retrying. */
export const RefreshError: Story = {
  render: () => <RefreshErrorStage />,
  play: async ({ canvasElement }) => {
    const root = await view(canvasElement);
    await waitFor(() => expect(root).toHaveAttribute("data-status", "error"), T);
    const error = within(root).getByText(/^Refreshing the live view failed/);
    await expect(error).toHaveAttribute("data-status", "error");
    await waitFor(() => expect(Number(error.getAttribute("data-attempts"))).toBeGreaterThan(1), T);
    await expect(within(root).getByRole("status")).toHaveTextContent(
      "Could not refresh the live view. Retrying…",
    );
  },
};

const never = () => new Promise<LiveViewSession>(() => {});
const failing = () => Promise.reject(new Error("Live View service unavailable"));
// The agent closed its browser: `liveView()` answers null.
const closed = async () => null;

/** Every state side by side, for visual review. */
function AllStatesStage() {
  const { session, refresh } = useMockLiveView();
  const { session: shortLived } = useMockLiveView({ ttlMs: 1000 });
  if (!session || !shortLived) return <Waiting />;
  const cells: Array<{ caption: string; state: string; node: ReactNode }> = [
    { caption: "idle", state: "idle", node: <View aria-label="idle" /> },
    {
      caption: "loading",
      state: "loading",
      node: (
        <NeverLoads>
          <View aria-label="loading" session={session} />
        </NeverLoads>
      ),
    },
    { caption: "live", state: "live", node: <View aria-label="live" session={session} refresh={refresh} /> },
    {
      caption: "live, you are in control",
      state: "live",
      node: <View aria-label="human" session={session} defaultControl="human" onContinue={() => {}} />,
    },
    {
      caption: "refreshing",
      state: "refreshing",
      node: <View aria-label="refreshing" session={session} refresh={never} refreshMarginMs={300_000} />,
    },
    { caption: "expired", state: "expired", node: <View aria-label="expired" session={shortLived} /> },
    {
      caption: "failed",
      state: "failed",
      node: (
        <NeverLoads>
          <View aria-label="failed" session={session} loadTimeoutMs={500} />
        </NeverLoads>
      ),
    },
    { caption: "refused", state: "refused", node: <View aria-label="refused" session={REFUSED} /> },
    {
      caption: "refresh error",
      state: "error",
      node: <View aria-label="error" session={session} refresh={failing} refreshMarginMs={300_000} />,
    },
    { caption: "session ended", state: "ended", node: <View aria-label="ended" refresh={closed} /> },
  ];
  return (
    <ul className="lv-states">
      {cells.map((c) => (
        <li key={c.caption} data-expect={c.state}>
          <figure>
            <figcaption>{c.caption}</figcaption>
            {c.node}
          </figure>
        </li>
      ))}
    </ul>
  );
}

export const AllStates: Story = {
  render: () => <AllStatesStage />,
  play: async ({ canvasElement }) => {
    const cells = await within(canvasElement).findAllByRole("listitem", {}, T);
    await waitFor(
      () =>
        expect(cells.map((c) => c.querySelector("section")?.getAttribute("data-status"))).toEqual(
          cells.map((c) => c.getAttribute("data-expect")),
        ),
      T,
    );
  },
};
