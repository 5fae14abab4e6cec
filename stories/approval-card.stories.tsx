import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import {
  APPROVAL_STORY_AGENT,
  FullCard,
  staticRequest,
  useApprovalDemo,
  useSay,
} from "./support/approval-demo.tsx";
import { startMockAgents, useFreshName } from "./support/mock-agent.tsx";

const PAY = ["pay Bob 40"];

/** One tab: the agent's approval requests as cards, after saying `lines`. */
function Stage({ agent = "ChatAgent", lines = PAY }: { agent?: string; lines?: readonly string[] }) {
  const demo = useApprovalDemo(agent);
  useSay(demo, lines);
  return (
    <div className="approval-stage">
      <h2>Waiting for you</h2>
      {demo.requests.map((r) => (
        <FullCard key={r.id} request={r} />
      ))}
    </div>
  );
}

/** The same agent instance in two tabs: a decision in one arrives in the other. */
function TwoTabs() {
  const name = useFreshName("approval");
  const here = useApprovalDemo("ChatAgent", name);
  const there = useApprovalDemo("ChatAgent", name);
  useSay(here, PAY);
  return (
    <div className="approval-tabs">
      <section aria-label="This tab" className="approval-stage">
        <h2>This tab</h2>
        {here.requests.map((r) => (
          <FullCard key={r.id} request={r} />
        ))}
      </section>
      <section aria-label="Another tab" className="approval-stage">
        <h2>Another tab</h2>
        {there.requests.map((r) => (
          <FullCard key={r.id} request={r} />
        ))}
      </section>
    </div>
  );
}

/** A tab whose connection the story can drop and restore. */
function OfflineStage() {
  const demo = useApprovalDemo("ChatAgent");
  useSay(demo, PAY);
  return (
    <div className="approval-stage">
      <div className="approval-actions">
        <button type="button" onClick={() => demo.agent.close()}>
          Disconnect
        </button>
        <button type="button" onClick={() => demo.agent.reconnect()}>
          Reconnect
        </button>
        <span>Connection: {demo.agent.status}</span>
      </div>
      <h2>Waiting for you</h2>
      {demo.requests.map((r) => (
        <FullCard key={r.id} request={r} />
      ))}
    </div>
  );
}

const meta = {
  title: "Components/ApprovalCard",
  // Held frames and injected delays end with the story, so the next one starts clean.
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
const card = (canvasElement: HTMLElement, name = "processPayment") =>
  within(canvasElement).findByRole("article", { name }, T);
const body = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** A chat tool (`needsApproval`) waiting for a human: name, exact arguments, Approve and Deny. */
export const Requested: Story = {
  render: () => <Stage />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement);
    await expect(c).toHaveAttribute("data-status", "requested");
    await expect(c).toHaveAttribute("data-source", "chat");
    await expect(within(c).getByText(/"recipient": "Bob"/)).toBeInTheDocument();
    const approve = within(c).getByRole("button", { name: "Approve" });
    await expect(approve).toBeEnabled();
    await expect(approve).not.toHaveFocus();
  },
};

/** The decision is on its way and the server has not confirmed it (server frames held back). */
export const Submitting: Story = {
  render: () => <Stage />,
  play: async ({ canvasElement, loaded }) => {
    const c = await card(canvasElement);
    loaded.mock.controller.hold();
    await userEvent.click(within(c).getByRole("button", { name: "Approve" }));
    await expect(c).toHaveAttribute("data-status", "submitting");
    await expect(within(c).getByRole("status")).toHaveTextContent("Approving…");
    await expect(within(c).getByRole("button", { name: "Approve" })).toBeDisabled();
    await expect(within(c).getByRole("button", { name: "Deny" })).toBeDisabled();
  },
};

/** Approved here; the agent ran the tool. */
export const Approved: Story = {
  render: () => <Stage />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement);
    await userEvent.dblClick(within(c).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "approved"), T);
    await expect(within(c).getByRole("status")).toHaveTextContent("Approved.");
  },
};

/** Denied here, without a reason. */
export const Denied: Story = {
  render: () => <Stage />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement);
    await userEvent.click(within(c).getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "denied"), T);
    await expect(within(c).getByRole("status")).toHaveTextContent("Denied.");
  },
};

/** Denied with a reason, which the agent receives as the tool's error output. */
export const DeniedWithReason: Story = {
  render: () => <Stage />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement);
    await userEvent.type(
      within(c).getByRole("textbox", { name: "Reason for denying" }),
      "Bob is not a vendor",
    );
    await userEvent.click(within(c).getByRole("button", { name: "Deny with reason" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "denied"), T);
    await expect(within(c).getByRole("status")).toHaveTextContent("Denied: Bob is not a vendor.");
  },
};

/** Another tab (a second connection to the same instance) denies; this tab shows it was answered elsewhere. */
export const AnsweredElsewhere: Story = {
  render: () => <TwoTabs />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const here = await within(await canvas.findByRole("region", { name: "This tab" }, T)).findByRole(
      "article",
      { name: "processPayment" },
      T,
    );
    const there = await within(canvas.getByRole("region", { name: "Another tab" })).findByRole(
      "article",
      { name: "processPayment" },
      T,
    );
    await userEvent.click(within(there).getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(here).toHaveAttribute("data-status", "answered-elsewhere"), T);
    await expect(within(here).getByRole("status")).toHaveTextContent("Answered elsewhere: denied.");
    await expect(within(here).getByRole("button", { name: "Approve" })).toBeDisabled();
  },
};

/** The tool input carries `expiresAt`; once it passes, nothing can be sent. */
export const Expired: Story = {
  render: () => <Stage agent={APPROVAL_STORY_AGENT} lines={["transfer the money"]} />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement, "transferFunds");
    await expect(within(c).getByText(/^Expires in/)).toBeInTheDocument();
    await waitFor(() => expect(c).toHaveAttribute("data-status", "expired"), T);
    await expect(within(c).getByRole("button", { name: "Approve" })).toBeDisabled();
    await expect(within(c).getByRole("status")).toHaveTextContent("This request has expired.");
  },
};

/** The connection is down: Approve and Deny wait for it. */
export const Offline: Story = {
  render: () => <OfflineStage />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement);
    await userEvent.click(within(canvasElement).getByRole("button", { name: "Disconnect" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "offline"), T);
    await expect(within(c).getByRole("button", { name: "Approve" })).toBeDisabled();
    await expect(within(c).getByRole("textbox", { name: "Reason for denying" })).toBeDisabled();
    await expect(within(c).getByRole("status")).toHaveTextContent(/^Offline/);
  },
};

/** High risk asks for confirmation; the dialog opens on Cancel, never on the confirming button. */
export const HighRiskConfirm: Story = {
  render: () => <Stage agent={APPROVAL_STORY_AGENT} lines={["wipe it"]} />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement, "wipeDatabase");
    await expect(c).toHaveAttribute("data-risk", "high");
    const approve = within(c).getByRole("button", { name: "Approve" });
    await userEvent.click(approve);
    const dialog = await body(canvasElement).findByRole("alertdialog", { name: "Approve wipeDatabase?" });
    await expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(body(canvasElement).queryByRole("alertdialog")).toBeNull());
    await expect(approve).toHaveFocus();
    await expect(c).toHaveAttribute("data-status", "requested");
    await userEvent.click(approve);
    const again = await body(canvasElement).findByRole("alertdialog");
    await userEvent.click(within(again).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "approved"), T);
  },
};

/**
 * A Think durable pause: the transcript carries a cut preview; Approve waits for the full arguments from
 * `pendingExecutions` (slowed down here), then approves through `approveExecution` after confirmation.
 */
export const ThinkDurablePause: Story = {
  beforeEach: async () => {
    const { controller } = await startMockAgents();
    controller.delay(
      (f) =>
        f.frame.type === "rpc" &&
        Array.isArray(f.frame.result) &&
        (f.frame.result as Array<Record<string, unknown>>).some((e) => "createdAt" in e),
      1500,
    );
  },
  render: () => <Stage agent="ThinkAgent" lines={["deploy"]} />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement, "deploy");
    await expect(c).toHaveAttribute("data-source", "execution");
    const args = c.querySelector("pre") as HTMLElement;
    await expect(args).toHaveAttribute("aria-busy", "true");
    await expect(args).toHaveTextContent("…");
    await expect(within(c).getByRole("button", { name: "Approve" })).toBeDisabled();
    await waitFor(() => expect(args).toHaveAttribute("data-complete"), T);
    await expect(args).not.toHaveTextContent("…");
    await userEvent.click(within(c).getByRole("button", { name: "Approve" }));
    const dialog = await body(canvasElement).findByRole("alertdialog", { name: "Approve deploy?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "approved"), T);
  },
};

/** A workflow approval kept in agent state (`state.pendingApprovals`), approved with the `approve` callable. */
export const WorkflowApproval: Story = {
  render: () => <Stage lines={["file an expense of 120"]} />,
  play: async ({ canvasElement }) => {
    const c = await card(canvasElement, "Expense: team lunch (120 EUR)");
    await expect(c).toHaveAttribute("data-source", "workflow");
    await userEvent.click(within(c).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(c).toHaveAttribute("data-status", "approved"), T);
  },
};

const deploy = {
  name: "deploy",
  summary: "Deploy web-app to production",
  risk: "high",
  permissions: ["deploy:production", "secrets:read"],
  arguments: { service: "web-app", environment: "production" },
};
const ALL = [
  { caption: "requested", request: staticRequest({ id: "s1" }) },
  {
    caption: "requested, high risk",
    request: staticRequest({ id: "s2", source: "execution", ...deploy }),
  },
  {
    caption: "requested, full arguments loading",
    request: staticRequest({
      id: "s3",
      source: "execution",
      ...deploy,
      arguments: { service: "web-app", changelog: "Release 2026.11.22: bug fixes…" },
      argumentsComplete: false,
    }),
  },
  {
    caption: "submitting",
    request: staticRequest({ id: "s4", status: "submitting", outcome: { approved: true, by: "here" } }),
  },
  {
    caption: "approved",
    request: staticRequest({ id: "s5", status: "approved", outcome: { approved: true, by: "here" } }),
  },
  {
    caption: "denied",
    request: staticRequest({ id: "s6", status: "denied", outcome: { approved: false, by: "here" } }),
  },
  {
    caption: "denied with a reason",
    request: staticRequest({
      id: "s7",
      status: "denied",
      outcome: { approved: false, reason: "Bob is not a vendor", by: "here" },
    }),
  },
  {
    caption: "answered elsewhere",
    request: staticRequest({
      id: "s8",
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    }),
  },
  {
    caption: "expired",
    request: staticRequest({
      id: "s9",
      name: "transferFunds",
      arguments: { amount: 900, currency: "EUR" },
      expiresAt: Date.UTC(2024, 0, 1),
    }),
  },
  { caption: "offline", request: staticRequest({ id: "s10", online: false }) },
  {
    caption: "workflow item",
    request: staticRequest({
      id: "s11",
      source: "workflow",
      name: "Expense: team lunch (120 EUR)",
      title: "Expense: team lunch (120 EUR)",
      arguments: { amount: 120, requestedBy: "you" },
    }),
  },
];

/** Every state side by side, for visual review (pure rendering: these requests are not connected). */
export const AllStates: Story = {
  render: () => (
    <div className="approval-stage" style={{ maxWidth: "none" }}>
      <h2>All states</h2>
      <ul className="approval-states">
        {ALL.map(({ caption, request }) => (
          <li key={request.id}>
            <figure style={{ margin: 0 }}>
              <figcaption>{caption}</figcaption>
              <FullCard request={request} />
            </figure>
          </li>
        ))}
      </ul>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const states = within(canvasElement)
      .getAllByRole("article")
      .map((a) => a.getAttribute("data-status"));
    await expect(states).toEqual([
      "requested",
      "requested",
      "requested",
      "submitting",
      "approved",
      "denied",
      "denied",
      "answered-elsewhere",
      "expired",
      "offline",
      "requested",
    ]);
  },
};
