import { text } from "@runboard/mock-server/msw";
import type { CompactionSummary } from "@runboard/protocol";
import { BranchPicker, ChatStatus, type ChatStatusSource, MessageParts, useAgentChat } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import type { UIMessage } from "ai";
import { useEffect, useRef } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { defineStoryAgent, useStoryAgent } from "./support/mock-agent.tsx";
import "./support/chat-status.css";

// Issue 16 §2: the statuses a person should see (docs/protocol.md#recovering, docs/protocol.md#compaction).
function StatusView({ chat }: { chat: ChatStatusSource }) {
  return (
    <ChatStatus.Root chat={chat} className="rb-status" data-testid="status">
      <ChatStatus.Message />
      <ChatStatus.Compaction />
      <ChatStatus.Announcer />
    </ChatStatus.Root>
  );
}

const meta: Meta<typeof StatusView> = { title: "Components/ChatStatus", component: StatusView };
export default meta;
type Story = StoryObj<typeof StatusView>;

const idle: ChatStatusSource = { isRecovering: false };
const compacted: CompactionSummary = { summaries: 1, toolOutputs: 2, textParts: 0 };

/** Checks the region's state, its visible words and what the polite live region says. */
async function expectStatus(canvasElement: HTMLElement, state: string, words: string | RegExp) {
  const c = within(canvasElement);
  await waitFor(() => expect(c.getByTestId("status")).toHaveAttribute("data-state", state));
  expect(c.getByText(words, { selector: "p" })).toBeVisible();
  expect(c.getByRole("status")).toHaveTextContent(words);
}

export const Recovering: Story = {
  args: { chat: { ...idle, isRecovering: true } },
  play: ({ canvasElement }) =>
    expectStatus(canvasElement, "recovering", "The agent was interrupted and is recovering its answer…"),
};

export const RecoveryGaveUp: Story = {
  name: "Recovery gave up",
  args: {
    chat: {
      ...idle,
      recoveryGaveUp: { reason: "The assistant was interrupted and could not recover. Please try again." },
    },
  },
  play: async ({ canvasElement }) => {
    await expectStatus(canvasElement, "gave-up", /could not recover/);
    expect(within(canvasElement).getByRole("alert")).toHaveTextContent(/could not recover/);
  },
};

export const Compacting: Story = {
  args: {
    chat: {
      ...idle,
      isCompacting: true,
      session: { phase: "compacting", tokenEstimate: 9100, tokenThreshold: 8000 },
    },
  },
  play: async ({ canvasElement }) => {
    await expectStatus(canvasElement, "compacting", "Summarising earlier messages…");
    expect(within(canvasElement).getByTestId("status")).toHaveAttribute("data-token-estimate", "9100");
  },
};

export const Compacted: Story = {
  args: { chat: { ...idle, compaction: compacted } },
  play: async ({ canvasElement }) => {
    const region = within(canvasElement).getByTestId("status");
    expect(region).toHaveAttribute("data-state", "idle");
    expect(region).toHaveAttribute("data-compacted");
    expect(
      within(region).getByText("Earlier messages were summarised; 2 tool outputs were shortened."),
    ).toBeVisible();
  },
};

export const AgentStream: Story = {
  name: "A stream the agent started",
  args: { chat: { ...idle, serverStream: { source: "server" } } },
  play: async ({ canvasElement }) => {
    await expectStatus(canvasElement, "server-streaming", "The agent is responding on its own…");
    expect(within(canvasElement).getByTestId("status")).toHaveAttribute("data-server-stream", "server");
  },
};

export const AnotherTab: Story = {
  name: "A stream another tab started",
  args: { chat: { ...idle, serverStream: { source: "another-tab" } } },
  play: ({ canvasElement }) =>
    expectStatus(canvasElement, "server-streaming", "Responding to a message sent from another tab…"),
};

// ─────────────────────────────── live, against the in-page mock (Think) ───────────────────────────────

let idea = 0;
defineStoryAgent("StatusStoryAgent", {
  host: "think",
  turns: [
    {
      match: "compact",
      steps: [
        { kind: "compact", summary: "Summary: the user asked for the weather and an idea.", keep: 2 },
        text("I compacted our earlier conversation into a summary.", { delayMs: 10 }),
      ],
    },
    { match: "idea", steps: () => [text(`Idea number ${++idea}.`, { delayMs: 10 })] },
  ],
  fallback: [
    text("Here is a long answer.", { delayMs: 10 }),
    {
      kind: "tool",
      name: "search",
      input: { q: "weather" },
      output: { results: "sunny ".repeat(80) },
    },
  ],
});

function LiveChat({ first }: { first: string }) {
  const agent = useStoryAgent({ agent: "StatusStoryAgent" });
  const chat = useAgentChat({ agent, getBranches: (id) => agent.call("getResponseVersions", [id]) });
  const sent = useRef(false);
  useEffect(() => {
    if (agent.status !== "open" || sent.current) return;
    sent.current = true;
    void chat.sendMessage({ text: first });
  }, [agent.status, chat, first]);
  return (
    <div className="rb-chat">
      <StatusView chat={chat} />
      {chat.messages.map((m: UIMessage) => (
        <div key={m.id} data-role={m.role}>
          <MessageParts message={m} />
          <BranchPicker.Root chat={chat} messageId={m.id} className="rb-branches">
            <BranchPicker.Previous />
            <BranchPicker.Count />
            <BranchPicker.Next />
          </BranchPicker.Root>
        </div>
      ))}
      <button type="button" onClick={() => void chat.sendMessage({ text: "compact please" })}>
        Compact
      </button>
      <button type="button" disabled={chat.isStreaming} onClick={() => void chat.regenerate()}>
        Regenerate
      </button>
    </div>
  );
}

export const LiveCompaction: StoryObj<typeof LiveChat> = {
  name: "Compaction (live, Think)",
  render: () => <LiveChat first="weather please" />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByText(/sunny/, {}, { timeout: 30_000 });
    await userEvent.click(c.getByRole("button", { name: "Compact" }));
    await waitFor(() => expect(c.getByTestId("status")).toHaveAttribute("data-state", "compacting"), {
      timeout: 30_000,
    });
    const note = await c.findByRole("note", { name: "Earlier messages summarised" }, { timeout: 30_000 });
    expect(note).toHaveTextContent(/Summary: the user asked/);
    await c.findByText("I compacted our earlier conversation into a summary.", {}, { timeout: 30_000 });
    await waitFor(() => expect(c.getByTestId("status")).toHaveAttribute("data-compacted"));
  },
};

export const BranchNavigation: StoryObj<typeof LiveChat> = {
  name: "Branch navigation (live, Think)",
  render: () => <LiveChat first="an idea please" />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const first = await c.findByText(/^Idea number \d+\.$/, {}, { timeout: 30_000 });
    const firstText = first.textContent ?? "";
    await waitFor(() => expect(c.getByRole("button", { name: "Regenerate" })).toBeEnabled());
    await userEvent.click(c.getByRole("button", { name: "Regenerate" }));
    const group = await c.findByRole("group", { name: "Answer 2 of 2" }, { timeout: 30_000 });
    expect(within(group).getByRole("button", { name: "Next answer" })).toBeDisabled();
    expect(c.queryByText(firstText)).toBeNull();
    await userEvent.click(within(group).getByRole("button", { name: "Previous answer" }));
    await c.findByRole("group", { name: "Answer 1 of 2" });
    expect(c.getByText(firstText)).toBeVisible();
    expect(c.getByRole("button", { name: "Previous answer" })).toBeDisabled();
  },
};
