import { delay, milestone, text } from "@runboard/mock-server/msw";
import { AgentEvent, useAgentChat } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import type { UIMessage } from "ai";
import { useEffect, useRef } from "react";
import { expect, waitFor, within } from "storybook/test";
import { defineStoryAgent, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/agent-event.css";

// A background run that narrates its milestones and notifies the chat when it ends (docs/protocol.md#synthetic-messages).
defineStoryAgent("EventStoryAgent", {
  host: "ai-chat",
  turns: [
    {
      match: "background",
      steps: [
        {
          kind: "detached",
          run: {
            tool: "startBackgroundResearch",
            agentType: "Researcher",
            input: { query: "queues" },
            steps: [
              text("Researching.", { delayMs: 20 }),
              delay(200),
              milestone("sources-gathered", { data: { sources: 2 } }),
              delay(200),
              text(" Done.", { delayMs: 20 }),
            ],
            outcome: { kind: "finished", summary: "Queues are ordered per key." },
          },
          narrateMilestones: true,
          followUp: [text("The background research finished; see above.", { delayMs: 10 })],
        },
        text("Started the research in the background.", { delayMs: 10 }),
      ],
    },
  ],
  fallback: [text("Say background.")],
});

function Bubble({ message }: { message: UIMessage }) {
  return (
    <div className="rb-bubble" data-role={message.role}>
      <span className="rb-bubble-role">{message.role === "user" ? "You" : "Assistant"}: </span>
      {message.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}
    </div>
  );
}

function MessageList({ messages }: { messages: readonly UIMessage[] }) {
  return (
    <div className="rb-messages">
      {messages.map((m) => (
        <AgentEvent.Match key={m.id} message={m} fallback={<Bubble message={m} />}>
          <AgentEvent.Root message={m} className="rb-event">
            <AgentEvent.Label className="rb-event-label" />
            <AgentEvent.Text className="rb-event-text" />
          </AgentEvent.Root>
        </AgentEvent.Match>
      ))}
    </div>
  );
}

function LiveEvents() {
  const agent = useStoryAgent({ agent: "EventStoryAgent" });
  const chat = useAgentChat({ agent });
  const sent = useRef(false);
  useEffect(() => {
    if (agent.status !== "open" || sent.current) return;
    sent.current = true;
    void chat.sendMessage({ text: "background research on queues" });
  }, [agent.status, chat]);
  return <MessageList messages={chat.messages} />;
}

const meta: Meta<typeof LiveEvents> = { title: "Components/AgentEvent", component: LiveEvents };
export default meta;

export const BackgroundCompletionAndNarration: StoryObj<typeof LiveEvents> = {
  name: "Background completion and narration",
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const narration = await c.findByRole(
      "note",
      { name: /^Milestone reached: sources-gathered/ },
      { timeout: 30_000 },
    );
    expect(narration).toHaveAttribute("data-kind", "milestone");
    const done = await c.findByRole("note", { name: /^Background run finished/ }, { timeout: 30_000 });
    expect(done).toHaveAttribute("data-kind", "detached-completion");
    expect(done).toHaveAttribute("data-status", "completed");
    // Injected as a user message by the server, but not shown as the user's words.
    expect(done).toHaveAttribute("data-role", "user");
    expect(within(done).getByText(/Queues are ordered per key\./)).toBeVisible();
    await waitFor(() => expect(c.getByText(/The background research finished/)).toBeVisible(), {
      timeout: 30_000,
    });
    const userBubbles = canvasElement.querySelectorAll('.rb-bubble[data-role="user"]');
    expect(userBubbles).toHaveLength(1);
  },
};

const fixtures: UIMessage[] = [
  { id: "u1", role: "user", parts: [{ type: "text", text: "Research queues in the background." }] },
  {
    id: "detached-ms:run-7:sources-gathered",
    role: "assistant",
    metadata: {
      source: "detached-agent-tool",
      runId: "run-7",
      agentType: "Researcher",
      milestone: "sources-gathered",
    },
    parts: [
      {
        type: "text",
        text: 'Background task "Researcher" (run run-7) reached milestone "sources-gathered".',
      },
    ],
  },
  {
    id: "detached-finish:run-7:completed",
    role: "user",
    metadata: { source: "detached-agent-tool", runId: "run-7", agentType: "Researcher", status: "completed" },
    parts: [
      {
        type: "text",
        text: 'Background task "Researcher" (run run-7) finished:\n\nQueues are ordered per key.',
      },
    ],
  },
  {
    id: "detached-finish:run-8:error",
    role: "user",
    metadata: { source: "detached-agent-tool", runId: "run-8", agentType: "Crawler", status: "error" },
    parts: [{ type: "text", text: 'Background task "Crawler" (run run-8) failed: upstream timeout' }],
  },
  {
    id: "n-1",
    role: "assistant",
    metadata: { deliveryKind: "notice" },
    parts: [{ type: "text", text: "Maintenance tonight at 22:00 UTC." }],
  },
  {
    id: "s-1",
    role: "user",
    metadata: { source: "scheduled-task" },
    parts: [{ type: "text", text: "Daily summary, please." }],
  },
  { id: "a1", role: "assistant", parts: [{ type: "text", text: "Here is what happened today." }] },
];

export const AllKinds: StoryObj<typeof MessageList> = {
  name: "All states",
  render: () => <MessageList messages={fixtures} />,
  play: async ({ canvasElement }) => {
    const notes = within(canvasElement).getAllByRole("note");
    expect(notes.map((n) => `${n.getAttribute("data-kind")}|${n.getAttribute("aria-label")}`)).toEqual([
      "milestone|Milestone reached: sources-gathered (Researcher)",
      "detached-completion|Background run finished (Researcher)",
      "detached-completion|Background run failed (Crawler)",
      "notice|Notice",
      "injected|Message from scheduled-task",
    ]);
    expect(canvasElement.querySelectorAll(".rb-bubble")).toHaveLength(2);
  },
};

// Think's user-role notify turn (random id, no metadata) and its compaction overlay: only the wording and the
// `compaction_` id mark them (docs/protocol.md#synthetic-messages-gap, docs/protocol.md#compaction).
const thinkFixtures: UIMessage[] = [
  {
    id: "compaction_3e1f0f0a-77c4-4d0b-9f7b-3a2b1c0d9e8f",
    role: "assistant",
    parts: [{ type: "text", text: "Summary: the user asked for research on queues." }],
  },
  {
    id: "6f1c0a52-2c55-4a57-9a8e-1c2b3d4e5f60",
    role: "user",
    parts: [
      { type: "text", text: 'Background task "Researcher" (run 9k2Jx7Qa) finished:\n\nfound 2 sources' },
    ],
  },
  {
    id: "7a2d1b63-3d66-4b68-8b9f-2d3c4e5f6a71",
    role: "user",
    parts: [
      { type: "text", text: 'Background task "Researcher" (run 9k2Jx7Qa) reached milestone "drafted".' },
    ],
  },
  { id: "u2", role: "user", parts: [{ type: "text", text: "Thanks, what did it find?" }] },
];

export const ThinkInjectedTurns: StoryObj<typeof MessageList> = {
  name: "Think notify, milestone and compaction turns",
  render: () => <MessageList messages={thinkFixtures} />,
  play: async ({ canvasElement }) => {
    const notes = within(canvasElement).getAllByRole("note");
    expect(notes.map((n) => `${n.getAttribute("data-kind")}|${n.getAttribute("aria-label")}`)).toEqual([
      "compaction|Earlier messages summarised",
      "detached-completion|Background run finished (Researcher)",
      "milestone|Milestone reached: drafted (Researcher)",
    ]);
    expect(notes[1]).toHaveAttribute("data-inferred");
    // Only the message the user typed is a user bubble.
    expect(canvasElement.querySelectorAll('.rb-bubble[data-role="user"]')).toHaveLength(1);
  },
};
