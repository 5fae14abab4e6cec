import type { ApprovalRequest } from "@runboard/protocol";
import { ApprovalCard, ApprovalQueue } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { APPROVAL_STORY_AGENT, staticRequest, useApprovalDemo, useSay } from "./support/approval-demo.tsx";
import { startMockAgents } from "./support/mock-agent.tsx";

/** The queue as an app would compose it, one compact card per request. */
function Queue({ requests }: { requests: readonly ApprovalRequest[] }) {
  return (
    <ApprovalQueue.Root requests={requests} className="approval-queue approval-stage">
      <h2>
        Waiting for you: <ApprovalQueue.Count />
      </h2>
      <div className="approval-queue-bar">
        <ApprovalQueue.ApproveAll className="approval-approve" />
        <ApprovalQueue.DenyAll />
      </div>
      <p className="approval-empty">Nothing is waiting.</p>
      <ApprovalQueue.List>
        {(r) => (
          <ApprovalQueue.Item>
            <ApprovalCard.Root request={r} className="approval-card">
              <header>
                <ApprovalCard.Title />
                <ApprovalCard.Risk className="approval-risk" />
              </header>
              <ApprovalCard.Summary />
              <ApprovalCard.Arguments className="approval-arguments" />
              <div className="approval-actions">
                <ApprovalCard.Approve className="approval-approve" />
                <ApprovalCard.Deny />
              </div>
              <ApprovalCard.Confirm />
              <ApprovalCard.Status className="approval-status" />
            </ApprovalCard.Root>
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}

/** One Think agent asked for two payments (two messages), a deploy (durable pause) and an expense (state). */
function MixedQueue() {
  const demo = useApprovalDemo("ThinkAgent");
  useSay(demo, ["pay Bob 40", "pay Ann 15", "deploy", "file an expense of 120"]);
  return <Queue requests={demo.requests} />;
}

const meta = {
  title: "Components/ApprovalQueue",
  beforeEach: async () => {
    const { controller } = await startMockAgents();
    return () => {
      controller.clearFaults();
      controller.release();
    };
  },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const T = { timeout: 30_000 };
const items = (canvasElement: HTMLElement) => within(canvasElement).queryAllByRole("listitem");

/**
 * Pending approvals from all three sources (chat tool calls across messages, a Think durable pause, a workflow
 * item). Approve all sends one decision each and leaves the high-risk deploy to be confirmed on its own.
 */
export const ApproveAllAcrossSources: Story = {
  render: () => <MixedQueue />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(items(canvasElement)).toHaveLength(4), T);
    await expect(canvas.getByRole("heading", { level: 2 })).toHaveTextContent("Waiting for you: 4");
    await expect(
      items(canvasElement)
        .map((li) => li.getAttribute("data-source"))
        .sort(),
    ).toEqual(["chat", "chat", "execution", "workflow"]);
    // Approve all counts the deploy only once its full arguments are in, and never the high-risk one.
    await waitFor(
      () => expect(canvas.getByRole("button", { name: "Approve all" })).toHaveAttribute("data-count", "3"),
      T,
    );
    await userEvent.dblClick(canvas.getByRole("button", { name: "Approve all" }));
    await waitFor(() => expect(items(canvasElement)).toHaveLength(1), T);
    const [left] = items(canvasElement) as [HTMLElement];
    await expect(left).toHaveAttribute("data-risk", "high");
    await expect(canvas.getByRole("heading", { level: 2 })).toHaveTextContent("Waiting for you: 1");
    await expect(canvas.getByRole("button", { name: "Approve all" })).toBeDisabled();
  },
};

/** Parallel tool calls: one assistant message asks for three approvals; approve all answers each once. */
function ParallelQueue() {
  const demo = useApprovalDemo(APPROVAL_STORY_AGENT);
  useSay(demo, ["refund the three orders"]);
  return <Queue requests={demo.requests} />;
}

export const ParallelToolCalls: Story = {
  render: () => <ParallelQueue />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(items(canvasElement)).toHaveLength(3), T);
    await expect(canvas.getAllByRole("article", { name: "refundOrder" })).toHaveLength(3);
    await userEvent.click(canvas.getByRole("button", { name: "Approve all" }));
    await waitFor(() => expect(items(canvasElement)).toHaveLength(0), T);
    await expect(canvas.getByRole("heading", { level: 2 })).toHaveTextContent("Waiting for you: 0");
  },
};

/** Deny all answers everything pending, high risk included. */
export const DenyAll: Story = {
  render: () => <MixedQueue />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(items(canvasElement)).toHaveLength(4), T);
    await userEvent.click(canvas.getByRole("button", { name: "Deny all" }));
    await waitFor(() => expect(items(canvasElement)).toHaveLength(0), T);
    await expect(canvas.getByText("Nothing is waiting.")).toBeVisible();
  },
};

const ALL: ApprovalRequest[] = [
  staticRequest({ id: "q1" }),
  staticRequest({ id: "q2", key: "q2", arguments: { amount: 15, recipient: "Ann" } }),
  staticRequest({
    id: "q3",
    source: "execution",
    name: "deploy",
    summary: "Deploy web-app to production",
    risk: "high",
    arguments: { service: "web-app", environment: "production" },
  }),
  staticRequest({ id: "q4", status: "submitting", outcome: { approved: true, by: "here" } }),
  staticRequest({
    id: "q5",
    source: "workflow",
    name: "Expense: team lunch (120 EUR)",
    arguments: { amount: 120 },
    expiresAt: Date.UTC(2024, 0, 1),
  }),
];

/** A queue with pending, high-risk, submitting and expired entries, and an empty one (pure rendering). */
export const AllStates: Story = {
  render: () => (
    <div className="approval-tabs">
      <section aria-label="Pending">
        <Queue requests={ALL} />
      </section>
      <section aria-label="Empty">
        <Queue requests={[]} />
      </section>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const pending = within(within(canvasElement).getByRole("region", { name: "Pending" }));
    await expect(pending.getAllByRole("listitem").map((li) => li.getAttribute("data-status"))).toEqual([
      "requested",
      "requested",
      "requested",
      "submitting",
      "expired",
    ]);
    await expect(pending.getByRole("button", { name: "Approve all" })).toHaveAttribute("data-count", "2");
    const empty = within(within(canvasElement).getByRole("region", { name: "Empty" }));
    await expect(empty.getByRole("button", { name: "Approve all" })).toBeDisabled();
    await expect(empty.getByText("Nothing is waiting.")).toBeVisible();
  },
};
