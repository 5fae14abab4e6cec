import { delay, milestone, progress, text } from "@runboard/mock-server/msw";
import type { AgentToolMilestone } from "@runboard/protocol";
import { MilestoneTimeline, useAgentChat, useAgentToolEvents } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { useEffect, useRef } from "react";
import { expect, waitFor, within } from "storybook/test";
import { defineStoryAgent, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/milestone-timeline.css";

const EXPECTED = ["outline", "sources-gathered", "draft", "review"];

// A writer reaching three of four expected milestones, with progress ticks between them that must not be
// announced.
defineStoryAgent("MilestoneStoryAgent", {
  host: "ai-chat",
  turns: [
    {
      match: "write",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            {
              tool: "write",
              agentType: "Writer",
              input: { topic: "queues" },
              steps: [
                milestone("outline", { data: { sections: 4 } }),
                progress(0.2, "Searching"),
                delay(500),
                progress(0.3, "Still searching"),
                delay(500),
                milestone("sources-gathered", { data: { sources: ["https://example.com/a"] } }),
                progress(0.6, "Drafting"),
                delay(700),
                milestone("draft", { data: { words: 820 } }),
                text("Draft written.", { delayMs: 20 }),
                delay(600_000),
              ],
            },
          ],
        },
      ],
    },
  ],
});

function Timeline() {
  const agent = useStoryAgent({ agent: "MilestoneStoryAgent" });
  const chat = useAgentChat({ agent });
  const runs = useAgentToolEvents({ agent, storage: null });
  const sent = useRef(false);
  useEffect(() => {
    if (agent.status !== "open" || sent.current) return;
    sent.current = true;
    void chat.sendMessage({ text: "write about queues" });
  }, [agent.status, chat]);
  const run = Object.values(runs.runsById)[0];
  return (
    <section className="rb-timeline-card" aria-label="Writer progress">
      <p className="rb-timeline-progress">{run?.progress?.message ?? "Waiting for the writer…"}</p>
      <MilestoneTimeline.Root milestones={run?.milestones ?? []} expected={EXPECTED}>
        <MilestoneTimeline.List aria-label="Milestones" className="rb-timeline">
          {() => (
            <MilestoneTimeline.Item className="rb-timeline-item">
              <MilestoneTimeline.Name className="rb-timeline-name" />
              <MilestoneTimeline.Time className="rb-timeline-time" />
              <MilestoneTimeline.Data className="rb-timeline-data">
                {(data) => <code>{JSON.stringify(data)}</code>}
              </MilestoneTimeline.Data>
            </MilestoneTimeline.Item>
          )}
        </MilestoneTimeline.List>
      </MilestoneTimeline.Root>
      <MilestoneTimeline.Announcer milestones={run?.milestones ?? []} />
    </section>
  );
}

const meta: Meta<typeof Timeline> = { title: "Components/MilestoneTimeline", component: Timeline };
export default meta;

const names = (list: HTMLElement) =>
  within(list)
    .getAllByRole("listitem")
    .map((li) => `${li.getAttribute("data-name")}:${li.getAttribute("data-status")}`);

export const ReachedAndExpected: StoryObj<typeof Timeline> = {
  name: "Reached and expected, with live announcement",
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    // The chat below suspends while its transcript loads.
    const list = await c.findByRole("list", { name: "Milestones" }, { timeout: 30_000 });
    const region = c.getByRole("status");
    expect(region).toHaveAttribute("aria-live", "polite");
    await waitFor(() => expect(names(list)[0]).toBe("outline:reached"), { timeout: 30_000 });
    expect(names(list).slice(1)).toEqual(["sources-gathered:upcoming", "draft:upcoming", "review:upcoming"]);
    await waitFor(() => expect(region).toHaveTextContent("Milestone reached: sources-gathered"), {
      timeout: 30_000,
    });
    // A progress tick in between changes the text above, never the announcement.
    await waitFor(() => expect(c.getByText("Drafting")).toBeVisible(), { timeout: 30_000 });
    expect(region).toHaveTextContent("Milestone reached: sources-gathered");
    await waitFor(() => expect(region).toHaveTextContent("Milestone reached: draft"), { timeout: 30_000 });
    expect(names(list)).toEqual([
      "outline:reached",
      "sources-gathered:reached",
      "draft:reached",
      "review:upcoming",
    ]);
    const current = within(list)
      .getAllByRole("listitem")
      .filter((li) => li.getAttribute("aria-current") === "step");
    expect(current.map((li) => li.getAttribute("data-name"))).toEqual(["draft"]);
    expect(within(current[0] as HTMLElement).getByText('{"words":820}')).toBeVisible();
  },
};

const at = Date.UTC(2026, 0, 1, 9, 30);
const fixture: AgentToolMilestone[] = [
  { name: "outline", sequence: 0, at, data: { sections: 4 } },
  { name: "sources-gathered", sequence: 1, at: at + 65_000, data: { sources: 3 } },
];

/** Every item state at once, for visual review: reached, current, upcoming. */
function AllStatesView() {
  return (
    <section className="rb-timeline-card" aria-label="All states">
      <MilestoneTimeline.Root milestones={fixture} expected={EXPECTED}>
        <MilestoneTimeline.List aria-label="Milestones" className="rb-timeline">
          {() => (
            <MilestoneTimeline.Item className="rb-timeline-item">
              <MilestoneTimeline.Name className="rb-timeline-name" />
              <MilestoneTimeline.Time
                className="rb-timeline-time"
                format={(t) => new Date(t).toISOString().slice(11, 16)}
              />
              <MilestoneTimeline.Data className="rb-timeline-data" />
            </MilestoneTimeline.Item>
          )}
        </MilestoneTimeline.List>
      </MilestoneTimeline.Root>
      <MilestoneTimeline.Root milestones={[]} expected={EXPECTED}>
        <MilestoneTimeline.List aria-label="Not started" className="rb-timeline" />
      </MilestoneTimeline.Root>
    </section>
  );
}

export const AllStates: StoryObj<typeof AllStatesView> = {
  name: "All states",
  render: () => <AllStatesView />,
  play: async ({ canvasElement }) => {
    const list = within(canvasElement).getByRole("list", { name: "Milestones" });
    expect(names(list)).toEqual([
      "outline:reached",
      "sources-gathered:reached",
      "draft:upcoming",
      "review:upcoming",
    ]);
    const time = within(list).getByText("09:31");
    expect(time).toHaveAttribute("datetime", "2026-01-01T09:31:05.000Z");
    const empty = within(canvasElement).getByRole("list", { name: "Not started" });
    expect(within(empty).queryAllByRole("listitem", { current: "step" })).toHaveLength(0);
  },
};
