import type { AgentClientOptions, AgentToolRuns, CallableAgent } from "@runboard/client";
import { delay, milestone, progress, text } from "@runboard/mock-server/msw";
import type { Part, AgentToolRunState as RunData } from "@runboard/protocol";
import { getRunsForToolCall } from "@runboard/protocol/view";
import {
  AgentToolRun,
  type NestedRuns,
  Progress,
  useAgentChat,
  useAgentToolEvents,
  useChildChat,
} from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { FAILURE_RUNS } from "./support/failures.ts";
import { defineStoryAgent, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/agent-tool-run.css";

const LONG_RESULT = Array.from(
  { length: 40 },
  (_, i) => `${i + 1}. Finding ${i + 1}: the queue drained in ${(i + 1) * 3} ms under load.`,
).join("\n");

const run = (tool: string, agentType: string, extra: Record<string, unknown> = {}) => ({
  tool,
  agentType,
  input: { task: tool },
  steps: [text(`${agentType} is on it.`, { delayMs: 20 })],
  ...extra,
});

/** Three levels below the parent: each child dispatches the next as an agent tool of its own. */
const nestedLevel = (depth: number): ReturnType<typeof run> => {
  const levels = [
    ["plan", "Planner", "🗺", "Splitting the work; asking a researcher."],
    ["research", "Researcher", "🔎", "Researching; asking a fact checker."],
    ["factCheck", "FactChecker", "✔", "Checking the claim against 3 sources."],
  ] as const;
  const [tool, agentType, icon, says] = levels[depth - 1] ?? levels[0];
  return run(tool, agentType, {
    display: { name: agentType, icon },
    steps: [
      text(says, { delayMs: 20 }),
      ...(depth < levels.length ? [{ kind: "agent-tool" as const, runs: [nestedLevel(depth + 1)] }] : []),
      text(` ${agentType} done.`, { delayMs: 20 }),
    ],
  });
};

// One word per state: each story sends its word, the scripted child run ends the way the name says.
defineStoryAgent("RunStoryAgent", {
  host: "ai-chat",
  turns: [
    { match: /^nested$/, steps: [{ kind: "agent-tool", runs: [nestedLevel(1)] }] },
    {
      match: /^running$/,
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("research", "Researcher", {
              display: { name: "Researcher", icon: "🔎" },
              steps: [
                text("Looking for sources.", { delayMs: 20 }),
                progress(0.3, "Searching", "searching"),
                delay(600_000),
              ],
            }),
          ],
        },
      ],
    },
    {
      match: "complete",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("research", "Researcher", {
              display: { name: "Researcher", icon: "🔎" },
              steps: [
                text("Looking for sources.", { delayMs: 20 }),
                progress(0.5, "Reading", "reading"),
                delay(400),
                milestone("sources-gathered", { data: { sources: 2 } }),
                text(" Found two.", { delayMs: 20 }),
              ],
              outcome: { kind: "finished", summary: "Two sources agree: each agent has its own SQLite." },
            }),
          ],
        },
        text("The researcher is done.", { delayMs: 10 }),
      ],
    },
    {
      match: "error",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("verify", "Verifier", {
              outcome: { kind: "error", error: "Verifier crashed: upstream timeout" },
            }),
          ],
        },
      ],
    },
    {
      match: "aborted",
      steps: [
        {
          kind: "agent-tool",
          runs: [run("crawl", "Crawler", { outcome: { kind: "aborted", reason: "Cancelled by the user" } })],
        },
      ],
    },
    {
      match: "still-running",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("crawl", "Crawler", {
              outcome: {
                kind: "interrupted",
                error: "No progress for 30 seconds",
                reason: "no-progress",
                childStillRunning: true,
              },
            }),
          ],
        },
      ],
    },
    {
      match: "stopped",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("crawl", "Crawler", {
              outcome: {
                kind: "interrupted",
                error: "Ran past its time window",
                reason: "window-exceeded",
                childStillRunning: false,
              },
            }),
          ],
        },
      ],
    },
    {
      match: "long",
      steps: [
        {
          kind: "agent-tool",
          runs: [run("report", "Reporter", { outcome: { kind: "finished", summary: LONG_RESULT } })],
        },
      ],
    },
    {
      match: "every",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            run("research", "Researcher", {
              display: { name: "Researcher", icon: "🔎" },
              order: 0,
              steps: [text("Still reading.", { delayMs: 20 }), progress(0.4, "Reading"), delay(600_000)],
            }),
            run("summarize", "Summarizer", {
              order: 1,
              outcome: { kind: "finished", summary: "Short and done." },
            }),
            run("report", "Reporter", { order: 2, outcome: { kind: "finished", summary: LONG_RESULT } }),
            run("verify", "Verifier", { order: 3, outcome: { kind: "error", error: "Verifier crashed" } }),
            run("cancel", "Crawler", {
              order: 4,
              outcome: { kind: "aborted", reason: "Cancelled by the user" },
            }),
            run("tail", "Tailer", {
              order: 5,
              outcome: {
                kind: "interrupted",
                error: "No progress",
                reason: "no-progress",
                childStillRunning: true,
              },
            }),
            run("budget", "Spender", {
              order: 6,
              outcome: {
                kind: "interrupted",
                error: "Out of budget",
                reason: "budget-exceeded",
                childStillRunning: false,
              },
            }),
          ],
        },
      ],
    },
  ],
});

interface RunView {
  renderPart: (part: Part, nested?: NestedRuns | null) => ReactNode;
}

/** The part renderer a chat uses; the child transcripts go through the same one, so nesting recurses. */
function usePartRenderer(
  runsByToolCallId: Parameters<typeof getRunsForToolCall>[0],
  actions: {
    onRetry: (r: RunData) => void;
    onReconnect: (r: RunData) => void;
    onDrillIn: (r: RunData) => void;
    agent?: CallableAgent;
    /** The chat's address: open runs follow their child, whose own runs then show inside them. */
    follow?: AgentClientOptions;
  },
): RunView {
  const { follow, ...cardActions } = actions;
  const view: RunView = {
    renderPart: (part, nested) => {
      if (part.type === "text") return <p className="rb-text">{part.text}</p>;
      if (part.type === "reasoning") return <p className="rb-reasoning">{part.text}</p>;
      if (!("toolCallId" in part)) return null;
      // A followed child's runs come from its own connection (nested); the chat's from the chat's.
      const runs = nested
        ? nested.getRunsForToolCall(String(part.toolCallId))
        : getRunsForToolCall(runsByToolCallId, part);
      if (runs.length === 0) return <p className="rb-tool">Tool {part.type.slice(5)}</p>;
      if (nested)
        return runs.map((r) => (
          <RunCard key={r.runId} run={r} store={nested.runs} renderPart={view.renderPart} />
        ));
      return runs.map((r) => (
        <RunCard
          key={r.runId}
          run={r}
          renderPart={view.renderPart}
          {...cardActions}
          {...(follow ? { follow } : {})}
        />
      ));
    },
  };
  return view;
}

/** The look every story shares: one compound, every part. */
function RunCard({
  run,
  renderPart,
  store,
  follow,
  onRetry,
  onReconnect,
  onDrillIn,
  agent,
}: {
  run: RunData;
  renderPart: (part: Part, nested?: NestedRuns | null) => ReactNode;
  /** The store of a followed child, for a nested run: the card then reads the run from it as it changes. */
  store?: AgentToolRuns;
  /** The chat's address, for a top-level run that follows its child while open. */
  follow?: AgentClientOptions;
  /** The connection whose `cancelAgentTool` Cancel calls; without it Cancel stays disabled. */
  agent?: CallableAgent;
  onRetry?: (r: RunData) => void;
  onReconnect?: (r: RunData) => void;
  onDrillIn?: (r: RunData) => void;
}) {
  return (
    <AgentToolRun.Root
      {...(store ? { store, runId: run.runId } : { run })}
      {...(follow ? { follow } : {})}
      className="rb-run"
      {...(onRetry ? { onRetry } : {})}
      {...(onReconnect ? { onReconnect } : {})}
      {...(onDrillIn ? { onDrillIn } : {})}
      {...(agent ? { agent } : {})}
    >
      <AgentToolRun.Header className="rb-run-header">
        <AgentToolRun.Icon />
        <AgentToolRun.Title className="rb-run-title" />
        <AgentToolRun.AgentType className="rb-run-type" />
        <AgentToolRun.Status className="rb-run-status" />
        <AgentToolRun.Elapsed className="rb-run-elapsed" />
        <AgentToolRun.Trigger
          className="rb-run-trigger"
          aria-label={`Details of ${run.display?.name ?? run.agentType}`}
        >
          Details
        </AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Progress className="rb-run-progress">
        <Progress.Indicator className="rb-run-progress-bar" />
      </AgentToolRun.Progress>
      <AgentToolRun.Milestones className="rb-run-milestones" />
      <AgentToolRun.Content className="rb-run-content">
        <AgentToolRun.Input className="rb-run-input" />
        <AgentToolRun.Transcript className="rb-run-transcript" aria-label="Agent transcript">
          {(part, _i, _run, nested) => renderPart(part, nested)}
        </AgentToolRun.Transcript>
        <AgentToolRun.Result className="rb-run-result" maxLines={4} />
        <AgentToolRun.Failure className="rb-run-error" />
        <AgentToolRun.Interrupted className="rb-run-interrupted" />
      </AgentToolRun.Content>
      <div className="rb-run-actions">
        <AgentToolRun.Cancel />
        <AgentToolRun.Retry />
        <AgentToolRun.Reconnect />
        <AgentToolRun.DrillIn />
      </div>
    </AgentToolRun.Root>
  );
}

function ChildChatPanel({
  parent,
  run,
  onClose,
}: {
  parent: { agent: string; name: string };
  run: RunData;
  onClose: () => void;
}) {
  const child = useChildChat({ ...parent, host: window.location.host }, run);
  return (
    <section className="rb-child-chat" aria-label={`Chat of ${run.agentType}`}>
      <h3>Chat of {run.agentType}</h3>
      {child?.snapshot.messages.map((m) => (
        <p key={m.id} data-role={m.role} className="rb-child-message">
          <strong>{m.role}: </strong>
          {m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}
        </p>
      ))}
      <button type="button" onClick={onClose}>
        Close chat
      </button>
    </section>
  );
}

/** A chat on the scripted agent that sends `word` once connected and shows the runs beside their tool calls. */
function RunChat({ word, follow = false }: { word: string; follow?: boolean }) {
  const agent = useStoryAgent({ agent: "RunStoryAgent" });
  const chat = useAgentChat({ agent });
  const runs = useAgentToolEvents({ agent, storage: null });
  const [drilled, setDrilled] = useState<RunData | null>(null);
  const [retries, setRetries] = useState(0);
  const sent = useRef(false);
  useEffect(() => {
    if (agent.status !== "open" || sent.current) return;
    sent.current = true;
    void chat.sendMessage({ text: word });
  }, [agent.status, chat, word]);
  const { renderPart } = usePartRenderer(runs, {
    onRetry: () => {
      setRetries((n) => n + 1);
      void chat.regenerate();
    },
    onReconnect: () => agent.reconnect(),
    onDrillIn: setDrilled,
    agent,
    ...(follow ? { follow: { agent: "RunStoryAgent", name: agent.name, host: window.location.host } } : {}),
  });
  return (
    <div className="rb-chat">
      <p className="rb-conn">
        Connection: <output data-testid="conn">{agent.status}</output>, retries:{" "}
        <output data-testid="retries">{retries}</output>
      </p>
      {chat.messages
        .filter((m) => m.role === "assistant")
        .map((m) => (
          <article key={m.id} className="rb-message" aria-label="Assistant message">
            {m.parts.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids and never reorder
              <div key={i}>{renderPart(p)}</div>
            ))}
          </article>
        ))}
      {drilled ? (
        <ChildChatPanel
          parent={{ agent: "RunStoryAgent", name: agent.name }}
          run={drilled}
          onClose={() => setDrilled(null)}
        />
      ) : null}
    </div>
  );
}

const meta: Meta<typeof RunChat> = {
  title: "Components/AgentToolRun",
  component: RunChat,
  parameters: { layout: "padded" },
};
export default meta;
type Story = StoryObj<typeof RunChat>;

const findRun = async (canvasElement: HTMLElement, name: string) =>
  within(canvasElement).findByRole("group", { name }, { timeout: 30_000 });

export const Running: Story = {
  args: { word: "running" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Researcher");
    const c = within(group);
    await waitFor(() => expect(c.getByRole("status")).toHaveTextContent("Running"));
    expect(c.getByRole("button", { name: /Details/ })).toHaveAttribute("aria-expanded", "true");
    await waitFor(() => expect(c.getByText("Looking for sources.")).toBeVisible(), { timeout: 30_000 });
    const time = c.getByText(/^\d+:\d\d$/);
    expect(time.tagName).toBe("TIME");
    expect(c.getByRole("button", { name: "Retry" })).toBeDisabled();
  },
};

export const CompletedAutoClosed: Story = {
  name: "Completed (auto-closed)",
  args: { word: "complete" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Researcher");
    const c = within(group);
    const trigger = c.getByRole("button", { name: /Details/ });
    await waitFor(() => expect(c.getByRole("status")).toHaveTextContent("Completed"), { timeout: 30_000 });
    await waitFor(() => expect(trigger).toHaveAttribute("aria-expanded", "false"));
    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute("aria-expanded", "true");
    expect(c.getByText(/Two sources agree/)).toBeVisible();
    expect(c.getByText("Found two.")).toBeVisible();
  },
};

export const ErrorState: Story = {
  name: "Error",
  args: { word: "error" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Verifier");
    const c = within(group);
    await waitFor(() => expect(group).toHaveAttribute("data-status", "error"), { timeout: 30_000 });
    expect(c.getByRole("status")).toHaveTextContent("Failed");
    expect(c.getByText("The helper failed.")).toBeVisible();
    expect(c.getByText("Verifier crashed: upstream timeout")).toBeVisible();
    // agentTool() calls a failed child not retryable: no Retry.
    expect(c.getByRole("button", { name: "Retry" })).toBeDisabled();
  },
};

export const Aborted: Story = {
  args: { word: "aborted" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Crawler");
    const c = within(group);
    await waitFor(() => expect(group).toHaveAttribute("data-status", "aborted"), { timeout: 30_000 });
    expect(c.getByRole("status")).toHaveTextContent("Cancelled");
    expect(c.getByText("The helper was cancelled.")).toBeVisible();
    expect(c.getByRole("button", { name: "Retry" })).toBeDisabled();
    expect(c.getByRole("button", { name: "Reconnect" })).toBeDisabled();
  },
};

export const InterruptedStillRunning: Story = {
  name: "Interrupted, child still running (reconnect)",
  args: { word: "still-running" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Crawler");
    const c = within(group);
    await waitFor(() => expect(group).toHaveAttribute("data-status", "interrupted"), { timeout: 30_000 });
    expect(c.getByText("The run stopped reporting progress.")).toBeVisible();
    expect(c.getByText(/still working/)).toBeVisible();
    expect(c.getByRole("button", { name: "Retry" })).toBeDisabled();
    await userEvent.click(c.getByRole("button", { name: "Reconnect" }));
    // The connection is re-opened and its replay brings the run back as it was.
    await waitFor(() => expect(within(canvasElement).getByTestId("conn")).toHaveTextContent("open"), {
      timeout: 30_000,
    });
    await waitFor(
      () =>
        expect(within(canvasElement).getByRole("group", { name: "Crawler" })).toHaveAttribute(
          "data-status",
          "interrupted",
        ),
      { timeout: 30_000 },
    );
  },
};

export const InterruptedStopped: Story = {
  name: "Interrupted, child stopped (retry)",
  args: { word: "stopped" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Crawler");
    const c = within(group);
    await waitFor(() => expect(group).toHaveAttribute("data-status", "interrupted"), { timeout: 30_000 });
    expect(c.getByText("The run took longer than its time window.")).toBeVisible();
    expect(c.getByText(/agent stopped/)).toBeVisible();
    expect(c.getByRole("button", { name: "Reconnect" })).toBeDisabled();
    await userEvent.click(c.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(within(canvasElement).getByTestId("retries")).toHaveTextContent("1"));
  },
};

export const LongResultTruncated: Story = {
  name: "Long result truncated",
  args: { word: "long" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Reporter");
    const c = within(group);
    await waitFor(() => expect(group).toHaveAttribute("data-status", "completed"), { timeout: 30_000 });
    await userEvent.click(c.getByRole("button", { name: /Details/ }));
    const toggle = c.getByRole("button", { name: "Show all" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(c.queryByText(/Finding 40/)).toBeNull();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(toggle).toHaveTextContent("Show less");
    expect(c.getByText(/Finding 40/)).toBeVisible();
  },
};

export const DrillIn: Story = {
  name: "Drill-in",
  args: { word: "complete" },
  play: async ({ canvasElement }) => {
    const group = await findRun(canvasElement, "Researcher");
    await waitFor(() => expect(group).toHaveAttribute("data-status", "completed"), { timeout: 30_000 });
    await userEvent.click(within(group).getByRole("button", { name: "Open agent chat" }));
    const panel = within(canvasElement).getByRole("region", { name: "Chat of Researcher" });
    await waitFor(() => expect(within(panel).getByText(/Looking for sources\. Found two\./)).toBeVisible(), {
      timeout: 30_000,
    });
    await userEvent.click(within(panel).getByRole("button", { name: "Close chat" }));
    expect(within(canvasElement).queryByRole("region", { name: "Chat of Researcher" })).toBeNull();
  },
};

// Grandchild events go only to the child's own connection (docs/protocol.md#nested-runs): an open run follows
// its child, so the levels below it come from the scripted server's frames, one connection per open level.
export const Nested: Story = {
  name: "Nested run",
  args: { word: "nested", follow: true },
  play: async ({ canvasElement }) => {
    const outer = await findRun(canvasElement, "Planner");
    expect(outer).toHaveAttribute("data-depth", "0");
    await waitFor(() => expect(outer).toHaveAttribute("data-status", "completed"), { timeout: 30_000 });
    // Completed runs close; opening one follows its child.
    const open = async (group: HTMLElement, name: string) => {
      const trigger = within(group).getAllByRole("button", { name: `Details of ${name}` })[0] as HTMLElement;
      if (trigger.getAttribute("aria-expanded") === "false") await userEvent.click(trigger);
    };
    await open(outer, "Planner");
    const inner = await within(outer).findByRole("group", { name: "Researcher" }, { timeout: 30_000 });
    expect(inner).toHaveAttribute("data-depth", "1");
    expect(outer).toHaveAttribute("data-following");
    await open(inner, "Researcher");
    const innermost = await within(inner).findByRole("group", { name: "FactChecker" }, { timeout: 30_000 });
    expect(innermost).toHaveAttribute("data-depth", "2");
    await open(innermost, "FactChecker");
    await waitFor(() => expect(within(innermost).getAllByText(/FactChecker done\./)[0]).toBeVisible());
  },
};

export const AllStates: Story = {
  name: "All states",
  args: { word: "every" },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(
      () => {
        const states = c.getAllByRole("group").map((g) => g.getAttribute("data-status"));
        expect(states).toEqual([
          "running",
          "completed",
          "completed",
          "error",
          "aborted",
          "interrupted",
          "interrupted",
        ]);
      },
      { timeout: 30_000 },
    );
  },
};

/** Every failure: each status, each interrupt reason, a malformed envelope; Retry only where it is retryable. */
function FailuresView() {
  const noop = () => {};
  return (
    <div className="rb-chat">
      {FAILURE_RUNS.map((r) => (
        <AgentToolRun.Root key={r.runId} run={r} className="rb-run" onRetry={noop} onReconnect={noop}>
          <AgentToolRun.Header className="rb-run-header">
            <AgentToolRun.Title className="rb-run-title" />
            <AgentToolRun.Status className="rb-run-status" />
          </AgentToolRun.Header>
          <AgentToolRun.Failure className="rb-run-error" />
          <div className="rb-run-actions">
            <AgentToolRun.Retry />
            <AgentToolRun.Reconnect />
          </div>
        </AgentToolRun.Root>
      ))}
    </div>
  );
}

export const Failures: StoryObj<typeof FailuresView> = {
  name: "Failures (every status and reason)",
  render: () => <FailuresView />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const card = (name: string) => within(c.getByRole("group", { name }));
    await expect(card("Verify invoice").getByText("The helper failed.")).toBeVisible();
    await expect(card("Verify invoice").getByRole("button", { name: "Retry" })).toBeDisabled();
    await expect(card("Crawl shop").getByText("The helper was cancelled.")).toBeVisible();
    await expect(card("Crawl shop").getByRole("button", { name: "Retry" })).toBeDisabled();
    await expect(
      card("Interrupted: no-progress").getByText("The helper stopped making progress."),
    ).toBeVisible();
    await expect(card("Interrupted: no-progress").getByRole("button", { name: "Retry" })).toBeEnabled();
    await expect(card("Interrupted: budget-exceeded").getByRole("button", { name: "Retry" })).toBeDisabled();
    await expect(
      card("Interrupted: budget-exceeded").getByRole("button", { name: "Reconnect" }),
    ).toBeEnabled();
    await expect(card("Unreadable report").getByText(/its report could not be read/)).toBeVisible();
    await expect(card("Unreadable report").getByText(/<b>boom<\/b>/)).toBeVisible();
  },
};
