/**
 * Issue 15 §3 and §5 parts: Clear finished (and its failure), a detached dispatch's output linking to its tray
 * item, a run the concurrency limit refused, and a progress's own data through `Progress.Data`.
 */
import type { AgentToolRunStatus, AgentToolRunState as RunData } from "@runboard/protocol";
import { AgentToolRun, Progress, RunTray } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import "./support/run-tray.css";
import "./support/progress.css";

const run = (
  runId: string,
  status: AgentToolRunStatus,
  name: string,
  extra: Partial<RunData> = {},
): RunData => ({
  runId,
  agentType: name.replace(/\s/g, ""),
  display: { name },
  order: 0,
  status,
  parts: [],
  milestones: [],
  subAgent: { agent: name.replace(/\s/g, ""), name: runId },
  ...(status === "completed" ? { summary: `${name} is done.` } : {}),
  ...(status === "error" ? { error: "upstream timeout" } : {}),
  ...extra,
});

const RUNS = [
  run("bg-1", "running", "Research", { progress: { fraction: 0.4, message: "Reading", at: 1 } }),
  run("bg-2", "completed", "Summary"),
  run("bg-3", "error", "Crawl"),
];

/** A tray with Clear finished; `fail` makes the app's onClearFinished reject. */
function ClearStage({ fail = false }: { fail?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <RunTray.Root
      runs={RUNS}
      defaultOpen
      className="rb-tray"
      onClearFinished={
        fail
          ? () =>
              new Promise((_, reject) => setTimeout(() => reject(new Error("clearHelperRuns failed")), 50))
          : undefined
      }
      onClearError={(e) => setError(e instanceof Error ? e.message : String(e))}
    >
      <RunTray.Trigger />
      <RunTray.List />
      <RunTray.ClearFinished />
      {error && <p role="alert">Could not clear: {error}</p>}
    </RunTray.Root>
  );
}

const meta = {
  title: "Components/Run cleanup and links",
  component: ClearStage,
  parameters: { layout: "padded" },
} satisfies Meta<typeof ClearStage>;
export default meta;
type Story = StoryObj<typeof meta>;

const items = (el: HTMLElement) =>
  within(el)
    .queryAllByRole("listitem")
    .map((li) => li.getAttribute("data-run-id"));

/** Clear finished takes the completed and failed runs off the list; the running one stays. */
export const ClearFinished: Story = {
  args: {},
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole("button", { name: "Clear finished" });
    await expect(items(canvasElement)).toEqual(["bg-1", "bg-2", "bg-3"]);
    await userEvent.click(button);
    await expect(items(canvasElement)).toEqual(["bg-1"]);
    await expect(button).toBeDisabled();
  },
};

/** The app's clear call fails: the runs stay, the button works again, and the error is shown. */
export const ClearFinishedFails: Story = {
  args: { fail: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole("button", { name: "Clear finished" }));
    await expect(c.getByRole("button", { name: "Clearing…" })).toBeDisabled();
    await expect(await c.findByRole("alert")).toHaveTextContent("clearHelperRuns failed");
    await expect(c.getByRole("button", { name: "Clear finished" })).toBeEnabled();
    await expect(items(canvasElement)).toEqual(["bg-1", "bg-2", "bg-3"]);
  },
};

/** A detached dispatch's tool output (`{ runId, status }`) opens the closed tray and focuses the run's item. */
export const LinkToTrayItem: Story = {
  args: {},
  render: () => (
    <div style={{ display: "grid", gap: "1rem" }}>
      <section aria-label="Chat">
        <p>startBackgroundResearch → {'{ "runId": "bg-1", "status": "running" }'}</p>
        <RunTray.Link output={{ runId: "bg-1", agentType: "Research", status: "running" }} />
      </section>
      <RunTray.Root runs={RUNS} className="rb-tray">
        <RunTray.Trigger />
        <RunTray.List />
      </RunTray.Root>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole("button", { name: "Background runs" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    await userEvent.click(c.getByRole("button", { name: "Show Research in background runs" }));
    await waitFor(() => expect(document.activeElement?.getAttribute("data-run-id")).toBe("bg-1"));
    await expect(c.getByRole("button", { name: "Background runs" })).toHaveAttribute("aria-expanded", "true");
  },
};

/** A dispatch the agent's `maxConcurrentAgentTools` refused: it says so in words. */
export const ConcurrencyLimit: Story = {
  args: {},
  render: () => (
    <AgentToolRun.Root
      run={run("r-limit", "error", "Research", { error: "maxConcurrentAgentTools (2) exceeded" })}
    >
      <AgentToolRun.Title /> <AgentToolRun.Status />
      <AgentToolRun.Failure />
    </AgentToolRun.Root>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText("The helper was not started.")).toBeVisible();
    await expect(c.getByText(/at most 2 helpers at once/)).toBeVisible();
  },
};

/** `Progress.Data`: the run's own progress data, rendered your way. */
export const ProgressData: Story = {
  args: {},
  render: () => (
    <Progress.Root
      aria-label="Fact check"
      value={0.375}
      data={{ checked: 3, total: 8, claim: "The sky is green" }}
      className="rb-progress"
    >
      <Progress.Indicator className="rb-progress-indicator" />
      <Progress.Data>
        {(d) => {
          const { checked, total, claim } = d as { checked: number; total: number; claim: string };
          return `${checked} of ${total} claims checked; now: ${claim}`;
        }}
      </Progress.Data>
    </Progress.Root>
  ),
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByText("3 of 8 claims checked; now: The sky is green"),
    ).toBeVisible();
  },
};
