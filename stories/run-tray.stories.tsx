import { type ChildRunSpec, delay, milestone, progress, type Step, text } from "@runboard/mock-server/msw";
import type { AgentToolRunState } from "@runboard/protocol";
import { recoveryFor } from "@runboard/protocol/view";
import { Progress, RunTray, type RunTrayRootProps, useAgentChat, useAgentToolEvents } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { useEffect, useRef, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { FAILURE_RUNS } from "./support/failures.ts";
import { defineStoryAgent, startMockAgents, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/progress.css";
import "./support/run-tray.css";

/** A background run (`runAgentTool`): it outlives the turn and lands in `unboundRuns`. */
const background = (run: ChildRunSpec): Step => ({ kind: "detached", run, notify: false });

const research = (steps: ChildRunSpec["steps"], extra: Partial<ChildRunSpec> = {}): ChildRunSpec => ({
  tool: "startBackgroundResearch",
  agentType: "Researcher",
  input: { query: "durable objects" },
  display: { name: "Research", icon: "🔎" },
  steps,
  ...extra,
});

// One word per state: each story sends its word and the background run behaves the way the name says.
defineStoryAgent("RunTrayStoryAgent", {
  host: "ai-chat",
  turns: [
    {
      match: /^running$/,
      steps: [
        background(
          research([
            text("Researching now.", { delayMs: 20 }),
            progress(0.25, "Searching for sources", "searching"),
            delay(300),
            milestone("sources-gathered", { data: { sources: 2 } }),
            progress(0.6, "Reading 2 sources", "reading"),
            delay(600_000),
          ]),
        ),
        text("Started a background research run.", { delayMs: 10 }),
      ],
    },
    {
      match: /^stall$/,
      steps: [
        background(
          research([progress(0.1, "Waiting for the crawler", "waiting"), delay(600_000)], {
            display: { name: "Crawl", icon: "🕷" },
          }),
        ),
      ],
    },
    {
      match: /^cancel$/,
      steps: [
        background(
          research([progress(0.3, "Crawling page 3 of 10", "crawling"), delay(600_000)], {
            display: { name: "Crawl", icon: "🕷" },
          }),
        ),
      ],
    },
    {
      match: /^complete$/,
      steps: [
        background(
          research(
            [
              progress(0.5, "Outlining", "outline"),
              delay(300),
              milestone("outline-done"),
              progress(0.9, "Writing", "writing"),
              delay(300),
              text("Durable Objects give every agent its own state.", { delayMs: 10 }),
            ],
            { display: { name: "Summary", icon: "✎" }, outcome: { kind: "finished" } },
          ),
        ),
      ],
    },
    {
      match: /^fail$/,
      steps: [
        background(
          research([progress(0.4, "Checking the claim", "checking"), delay(300)], {
            display: { name: "Fact check", icon: "✔" },
            outcome: { kind: "error", error: "Upstream timeout" },
          }),
        ),
      ],
    },
    {
      // Interrupted with the child stopped; a retry (re-dispatching the run id) re-attaches and it finishes.
      match: /^interrupt$/,
      steps: [
        background(
          research([progress(0.4, "Crawling 40 pages", "crawling"), delay(100)], {
            display: { name: "Crawl", icon: "🕷" },
            input: { site: "https://shop.example", depth: 2 },
            outcome: {
              kind: "interrupted",
              error: "No progress for 30 seconds",
              reason: "no-progress",
              childStillRunning: false,
            },
            resumeSteps: [
              progress(1, "Crawled 100 pages", "done"),
              text("Crawled 100 pages; 3 links are broken.", { delayMs: 5 }),
            ],
          }),
        ),
      ],
    },
    {
      // Interrupted while the child still works: Reconnect re-attaches and collects its real end.
      match: /^reconnect$/,
      steps: [
        background(
          research([progress(0.7, "Indexing", "indexing"), delay(100)], {
            display: { name: "Index", icon: "🗂" },
            outcome: {
              kind: "interrupted",
              error: "No progress for 30 seconds",
              reason: "no-progress",
              childStillRunning: true,
            },
            resumeSteps: [text("Indexed 1,200 documents.", { delayMs: 5 })],
          }),
        ),
      ],
    },
    {
      match: /^fanout$/,
      steps: [
        background(
          research(
            [progress(0.3, "Reading 2 sources", "reading"), milestone("sources-gathered"), delay(600_000)],
            { order: 0 },
          ),
        ),
        background(
          research(
            [
              progress(0.5, "Comparing 3 sources", "comparing"),
              delay(300),
              milestone("claim-verified", { fraction: 1 }),
            ],
            { order: 1, agentType: "FactChecker", display: { name: "Fact check", icon: "✔" } },
          ),
        ),
        background(
          research([progress(0.2, "Outlining", "outline"), delay(600_000)], {
            order: 2,
            agentType: "Summarizer",
            display: { name: "Summary", icon: "✎" },
          }),
        ),
      ],
    },
  ],
});

type TrayLookProps = Omit<RunTrayRootProps, "children">;

/** The look every story shares: one compound, every part. */
function StyledTray(props: TrayLookProps) {
  return (
    <RunTray.Root className="rb-tray" defaultOpen {...props}>
      <RunTray.Trigger className="rb-tray-trigger">
        Background runs <RunTray.Badge className="rb-tray-badge" />
      </RunTray.Trigger>
      <RunTray.List className="rb-tray-list">
        {(run) => (
          <RunTray.Item className="rb-tray-item">
            <div className="rb-tray-head">
              <RunTray.Icon />
              <RunTray.Title className="rb-tray-title" />
              <RunTray.Status className="rb-tray-status" />
              <RunTray.Elapsed className="rb-tray-elapsed" />
            </div>
            <RunTray.Input className="rb-tray-input" />
            <RunTray.Progress className="rb-progress">
              <Progress.Indicator className="rb-progress-indicator" />
            </RunTray.Progress>
            <p className="rb-tray-progress-text">
              <RunTray.Phase className="rb-tray-phase" />
              <RunTray.Message />
            </p>
            <RunTray.Milestones className="rb-tray-milestones" />
            <RunTray.Stalled className="rb-tray-stalled" />
            <RunTray.Interrupted className="rb-tray-progress-text" />
            <RunTray.Failure className="rb-tray-error" />
            <RunTray.Summary className="rb-tray-progress-text" />
            <div className="rb-tray-actions">
              <RunTray.Cancel />
              {recoveryFor(run) === "retry" && <RunTray.Retry />}
              {recoveryFor(run) === "reconnect" && <RunTray.Reconnect />}
              <RunTray.DrillIn />
              <RunTray.Dismiss />
            </div>
          </RunTray.Item>
        )}
      </RunTray.List>
      <RunTray.Empty className="rb-tray-empty" />
      <RunTray.Announcer />
    </RunTray.Root>
  );
}

/** The tray over the scripted agent's background runs, after saying `word` once connected. */
function TrayStage({ word, stallAfterMs }: { word?: string; stallAfterMs?: number }) {
  const agent = useStoryAgent({ agent: "RunTrayStoryAgent" });
  const chat = useAgentChat({ agent });
  const { store } = useAgentToolEvents({ agent, storage: null });
  const [drilled, setDrilled] = useState<AgentToolRunState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (!word || agent.status !== "open" || sent.current) return;
    sent.current = true;
    void chat.sendMessage({ text: word });
  }, [agent.status, chat, word]);
  return (
    <div className="rb-tray-stage">
      <StyledTray
        store={store}
        onDrillIn={setDrilled}
        onError={(e) => setFailure(e instanceof Error ? e.message : String(e))}
        {...(stallAfterMs === undefined ? {} : { stallAfterMs })}
      />
      {drilled ? <p className="rb-tray-note">Opened the chat of {drilled.display?.name}.</p> : null}
      {failure ? <p role="alert">Could not cancel: {failure}</p> : null}
    </div>
  );
}

const meta = {
  title: "Components/RunTray",
  component: TrayStage,
  parameters: { layout: "padded" },
  // Held frames end with the story, so the next one starts clean.
  beforeEach: async () => {
    const { controller } = await startMockAgents();
    return () => controller.release();
  },
} satisfies Meta<typeof TrayStage>;
export default meta;
type Story = StoryObj<typeof meta>;

// A hang guard, never a pace. The live region's sentence is set in an effect after the commit that shows the
// run ended, so a play function waits for it as for any other state, never reads it in the same breath.
const T = { timeout: 30_000 };
const tray = (canvasElement: HTMLElement) =>
  within(canvasElement).getByRole("region", { name: "Background runs" });
const findItem = (canvasElement: HTMLElement, name: string) =>
  within(canvasElement).findByRole("listitem", { name }, T);
const statusText = (item: HTMLElement) => item.querySelector(".rb-tray-status")?.textContent;

/** Connected, nothing running in the background: the badge is hidden and the list says so. */
export const Empty: Story = {
  args: {},
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    // The chat below suspends while its transcript loads.
    const trigger = await c.findByRole("button", { name: "Background runs" }, { timeout: 30_000 });
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await expect(c.getByText("No background runs")).toBeVisible();
    await userEvent.click(trigger);
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await expect(c.queryByText("No background runs")).toBeNull();
    await expect(tray(canvasElement)).toHaveAttribute("data-state", "closed");
  },
};

/** One background run reporting progress and a milestone; the badge counts it; drill-in opens its chat. */
export const Running: Story = {
  args: { word: "running" },
  play: async ({ canvasElement }) => {
    const item = await findItem(canvasElement, "Research");
    const it = within(item);
    await expect(statusText(item)).toBe("Running");
    await waitFor(
      () =>
        expect(it.getByRole("progressbar", { name: "Research progress" })).toHaveAttribute(
          "aria-valuetext",
          "reading: Reading 2 sources, 60%",
        ),
      T,
    );
    await expect(it.getByRole("list", { name: "Research milestones" })).toHaveTextContent("sources-gathered");
    await expect(it.getByText("Reading 2 sources")).toBeVisible();
    await expect(it.getByText(/^\d+:\d\d$/).tagName).toBe("TIME");
    await expect(within(canvasElement).getByRole("button", { name: "Background runs 1" })).toBeVisible();
    await expect(it.queryByRole("button", { name: /Dismiss/ })).toBeNull();
    await userEvent.click(it.getByRole("button", { name: "Open Research" }));
    await expect(within(canvasElement).getByText("Opened the chat of Research.")).toBeVisible();
  },
};

/** A run that went quiet: after `stallAfterMs` with no frame, the item says so. */
export const Stalled: Story = {
  args: { word: "stall", stallAfterMs: 2000 },
  play: async ({ canvasElement }) => {
    const item = await findItem(canvasElement, "Crawl");
    await waitFor(() => expect(within(item).getByText("Waiting for the crawler")).toBeVisible(), T);
    await expect(item).not.toHaveAttribute("data-stalled");
    await waitFor(() => expect(within(item).getByText("No update for 2 seconds")).toBeVisible(), T);
    await expect(item).toHaveAttribute("data-stalled");
    await expect(statusText(item)).toBe("Running");
  },
};

/**
 * Cancel against the mock's `cancelAgentTool`: with the server's frames held, the run reads "Cancelling…"
 * and Cancel is disabled; once they flow, the run ends cancelled and the live region says so.
 */
export const CancellingToCancelled: Story = {
  name: "Cancelling → cancelled",
  args: { word: "cancel" },
  play: async ({ canvasElement, loaded }) => {
    const item = await findItem(canvasElement, "Crawl");
    const it = within(item);
    await waitFor(() => expect(it.getByText("Crawling page 3 of 10")).toBeVisible(), T);
    const cancel = it.getByRole("button", { name: "Cancel Crawl" });
    loaded.mock.controller.hold();
    await userEvent.click(cancel);
    await expect(statusText(item)).toBe("Cancelling…");
    await expect(item).toHaveAttribute("data-cancelling");
    await expect(cancel).toBeDisabled();
    loaded.mock.controller.release();
    await waitFor(() => expect(statusText(item)).toBe("Cancelled"), T);
    await expect(item).not.toHaveAttribute("data-cancelling");
    await expect(item).toHaveAttribute("data-status", "aborted");
    await expect(it.getByText("Cancelled by the user")).toBeVisible();
    await waitFor(
      () => expect(within(canvasElement).getByRole("status")).toHaveTextContent("Crawl was cancelled"),
      T,
    );
  },
};

/** A run that finishes: announced, full bar, and Dismiss takes it off the list (focus back on the trigger). */
export const CompletedAndDismissed: Story = {
  name: "Completed + dismiss",
  args: { word: "complete" },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const item = await findItem(canvasElement, "Summary");
    await waitFor(() => expect(statusText(item)).toBe("Completed"), T);
    await expect(within(item).getByRole("progressbar")).toHaveAttribute("data-state", "complete");
    await expect(within(item).getByRole("list", { name: "Summary milestones" })).toHaveTextContent(
      "outline-done",
    );
    await waitFor(() => expect(c.getByRole("status")).toHaveTextContent("Summary finished"), T);
    await expect(within(item).getByRole("button", { name: "Cancel Summary" })).toBeDisabled();
    await userEvent.click(within(item).getByRole("button", { name: "Dismiss Summary" }));
    await expect(c.queryByRole("listitem", { name: "Summary" })).toBeNull();
    await expect(c.getByText("No background runs")).toBeVisible();
    await expect(c.getByRole("button", { name: "Background runs" })).toHaveFocus();
  },
};

/** A run that fails: the error as text, and the live region says what went wrong. */
export const Failed: Story = {
  args: { word: "fail" },
  play: async ({ canvasElement }) => {
    const item = await findItem(canvasElement, "Fact check");
    await waitFor(() => expect(statusText(item)).toBe("Failed"), T);
    await expect(within(item).getByText("Upstream timeout")).toBeVisible();
    await waitFor(
      () =>
        expect(within(canvasElement).getByRole("status")).toHaveTextContent(
          "Fact check failed: Upstream timeout",
        ),
      T,
    );
    await expect(within(item).getByRole("button", { name: "Dismiss Fact check" })).toBeEnabled();
  },
};

/**
 * Interrupted (no progress) with its child stopped: the tray says why, shows the input it was dispatched with, and
 * offers Retry, which calls the agent's `retryAgentTool(runId)` once; the same run id re-attaches and finishes.
 */
export const InterruptedThenRetried: Story = {
  name: "Interrupted, then retried",
  args: { word: "interrupt" },
  play: async ({ canvasElement }) => {
    const item = await findItem(canvasElement, "Crawl");
    await waitFor(() => expect(statusText(item)).toBe("Interrupted"), T);
    await expect(within(item).getByText("The run stopped reporting progress.")).toBeVisible();
    await expect(within(item).getByText('{"site":"https://shop.example","depth":2}')).toBeVisible();
    const retry = within(item).getByRole("button", { name: "Retry Crawl" });
    await userEvent.click(retry);
    await waitFor(() => expect(statusText(item)).toBe("Completed"), T);
    await expect(within(item).getByText("Crawled 100 pages; 3 links are broken.")).toBeVisible();
    await expect(within(item).queryByRole("button", { name: /Retry/ })).toBeNull();
  },
};

/** Interrupted while its child still works: Reconnect (the same callable) re-attaches and the real end arrives. */
export const InterruptedThenReconnected: Story = {
  name: "Interrupted, child still running, reconnected",
  args: { word: "reconnect" },
  play: async ({ canvasElement }) => {
    const item = await findItem(canvasElement, "Index");
    await waitFor(() => expect(statusText(item)).toBe("Interrupted"), T);
    await expect(within(item).queryByRole("button", { name: /Retry/ })).toBeNull();
    await userEvent.click(within(item).getByRole("button", { name: "Reconnect Index" }));
    await waitFor(() => expect(statusText(item)).toBe("Completed"), T);
    await expect(within(item).getByText("Indexed 1,200 documents.")).toBeVisible();
  },
};

/** Three background runs at once: one finishes, two keep going, and the badge follows. */
export const SeveralRuns: Story = {
  name: "Several runs (fan-out)",
  args: { word: "fanout" },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(
      () => expect(c.getAllByRole("listitem", { name: /Research|Fact check|Summary/ })).toHaveLength(3),
      T,
    );
    await waitFor(
      () => expect(statusText(c.getByRole("listitem", { name: "Fact check" }))).toBe("Completed"),
      T,
    );
    const items = c.getAllByRole("listitem", { name: /Research|Fact check|Summary/ });
    await expect(items.map((i) => [i.getAttribute("aria-label"), i.getAttribute("data-status")])).toEqual([
      ["Research", "running"],
      ["Fact check", "completed"],
      ["Summary", "running"],
    ]);
    await expect(c.getByRole("button", { name: "Background runs 2" })).toBeVisible();
    await expect(tray(canvasElement)).toHaveAttribute("data-active", "2");
    await waitFor(() => expect(c.getByRole("status")).toHaveTextContent("Fact check finished"), T);
  },
};

// ───────────────────────────── All states (static runs) ─────────────────────────────

const at = Date.UTC(2026, 0, 1, 9, 30);
const fixture = (runId: string, extra: Partial<AgentToolRunState>): AgentToolRunState => ({
  runId,
  agentType: "Researcher",
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: runId },
  ...extra,
});

const MIXED: AgentToolRunState[] = [
  fixture("s-running", {
    display: { name: "Research", icon: "🔎" },
    progress: { fraction: 0.6, phase: "reading", message: "Reading 2 sources", at },
    milestones: [
      { name: "outline", sequence: 0, at },
      { name: "sources-gathered", sequence: 1, at: at + 1000 },
    ],
  }),
  fixture("s-starting", { display: { name: "Crawl", icon: "🕷" } }),
  fixture("s-completed", {
    display: { name: "Summary", icon: "✎" },
    status: "completed",
    progress: { fraction: 0.9, message: "Writing", at },
    summary: "Done.",
  }),
  fixture("s-error", {
    display: { name: "Fact check", icon: "✔" },
    status: "error",
    progress: { fraction: 0.4, message: "Checking the claim", at },
    error: "Upstream timeout",
  }),
  fixture("s-aborted", { display: { name: "Translate" }, status: "aborted", error: "Cancelled by the user" }),
  fixture("s-interrupted", {
    agentType: "Tailer",
    status: "interrupted",
    error: "No progress for 30 seconds",
    reason: "no-progress",
  }),
];

const never = () => new Promise<never>(() => {});

/** Every item state side by side, for visual review: each tray is its own named region. */
function AllStatesView() {
  return (
    <div className="rb-tray-states">
      <StyledTray aria-label="Empty tray" runs={[]} />
      <StyledTray aria-label="Every status" runs={MIXED} onCancel={never} onDrillIn={() => {}} />
      <StyledTray
        aria-label="Stalled tray"
        runs={[fixture("s-stalled", { display: { name: "Index", icon: "🗂" } })]}
        stallAfterMs={500}
        onCancel={never}
      />
      <StyledTray
        aria-label="Retry failing tray"
        runs={[
          fixture("s-retry", {
            display: { name: "Crawl", icon: "🕷" },
            status: "interrupted",
            error: "No progress for 30 seconds",
            reason: "no-progress",
            childStillRunning: false,
            inputPreview: { site: "https://shop.example" },
          }),
        ]}
        onRetry={() => Promise.reject(new Error("Method retryAgentTool is not callable"))}
      />
      <StyledTray
        aria-label="Retrying tray"
        runs={[
          fixture("s-retrying", {
            display: { name: "Tail" },
            status: "interrupted",
            reason: "inspect-timeout",
          }),
        ]}
        onRetry={never}
      />
      <StyledTray
        aria-label="Cancelling tray"
        runs={[
          fixture("s-cancelling", {
            display: { name: "Export" },
            progress: { fraction: 0.3, message: "Writing rows", at },
          }),
        ]}
        onCancel={never}
      />
    </div>
  );
}

export const AllStates: StoryObj<typeof AllStatesView> = {
  name: "All states",
  render: () => <AllStatesView />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const region = (name: string) => within(c.getByRole("region", { name }));
    await expect(region("Empty tray").getByText("No background runs")).toBeVisible();
    const every = region("Every status");
    await expect(
      every
        .getAllByRole("listitem", { name: /./ })
        .filter((li) => li.hasAttribute("data-run-id"))
        .map(statusText),
    ).toEqual(["Running", "Running", "Completed", "Failed", "Cancelled", "Interrupted"]);
    await expect(every.getByRole("progressbar", { name: "Crawl progress" })).toHaveAttribute(
      "data-state",
      "indeterminate",
    );
    await expect(every.getByRole("button", { name: "Background runs 2" })).toBeVisible();
    await waitFor(() => expect(region("Stalled tray").getByText("No update for 1 second")).toBeVisible(), T);
    const failing = region("Retry failing tray");
    await userEvent.click(failing.getByRole("button", { name: "Retry Crawl" }));
    await waitFor(() => expect(failing.getByRole("button", { name: "Retry Crawl" })).toBeEnabled(), T);
    const retrying = region("Retrying tray");
    await userEvent.click(retrying.getByRole("button", { name: "Retry Tail" }));
    await expect(retrying.getByRole("button", { name: "Retrying… Tail" })).toBeDisabled();
    await expect(every.getByText("Done.")).toBeVisible();
    const cancelling = region("Cancelling tray");
    await userEvent.click(cancelling.getByRole("button", { name: "Cancel Export" }));
    await expect(statusText(cancelling.getByRole("listitem", { name: "Export" }))).toBe("Cancelling…");
  },
};

/** Every failure in the tray: each status, each interrupt reason and a malformed envelope, in words. */
export const Failures: StoryObj<typeof StyledTray> = {
  name: "Failures (every status and reason)",
  render: () => <StyledTray aria-label="Failures" runs={FAILURE_RUNS} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const item = (name: string) => within(c.getByRole("listitem", { name }));
    await expect(item("Verify invoice").getByText("The helper failed.")).toBeVisible();
    await expect(item("Crawl shop").getByText("The helper was cancelled.")).toBeVisible();
    await expect(
      item("Interrupted: window-exceeded").getByText("The helper ran past the time it was given."),
    ).toBeVisible();
    await expect(item("Interrupted: recovery-deadline").getByText(/picked up again in time/)).toBeVisible();
    await expect(item("Unreadable report").getByText(/its report could not be read/)).toBeVisible();
  },
};
