/**
 * ApprovalCard with the real hooks against the scripted mock agent (MSW in jsdom), clicked like a person. What
 * the card sends is counted where it matters: in the frames the server receives.
 */
import {
  createMockAgentHandlers,
  demoAgents,
  type MockAgentDefinition,
  text,
} from "@runboard/mock-server/msw";
import type { ApprovalRequest } from "@runboard/protocol";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { type UseAgentChatResult, useAgentChat } from "../use-agent-chat.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { useChatApprovals } from "./use-chat-approvals.ts";
import { useExecutionApprovals } from "./use-execution-approvals.ts";
import { useWorkflowApprovals } from "./use-workflow-approvals.ts";

const HOST = "mock-agent.local";
const agents: Record<string, MockAgentDefinition> = {
  ...demoAgents,
  // An approval that expires soon after it is asked, and one the descriptor marks high risk.
  SoonAgent: {
    host: "ai-chat",
    turns: [
      {
        match: /transfer/i,
        steps: [
          {
            kind: "approval",
            name: "transfer",
            input: () => ({ amount: 900, expiresAt: Date.now() + 1200 }),
          },
          text("Done."),
        ],
      },
      {
        match: /wipe/i,
        steps: [
          {
            kind: "approval",
            name: "wipeDatabase",
            input: { database: "prod" },
            descriptor: { action: "wipeDatabase", summary: "Delete every row in prod", risk: "high" },
          },
          text("Wiped."),
        ],
      },
    ],
  },
};
const mock = createMockAgentHandlers({ agents, delayScale: 0, log: () => {} });
const server = setupServer(...mock.handlers);

/** Every frame the server received, parsed. */
const received: Array<Record<string, unknown>> = [];
const original = mock.hub.message.bind(mock.hub);
mock.hub.message = (conn, raw) => {
  if (typeof raw === "string") received.push(JSON.parse(raw) as Record<string, unknown>);
  original(conn, raw);
};
const sent = (type: string, pred: (f: Record<string, unknown>) => boolean = () => true) =>
  received.filter((f) => f.type === type && pred(f));
const rpcs = (method: string) => sent("rpc", (f) => f.method === method);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  mock.controller.clearFaults();
  mock.controller.release();
  received.length = 0;
});
afterAll(() => server.close());

let rooms = 0;
const room = () => `card-${Date.now().toString(36)}-${++rooms}`;

interface Tab {
  agent?: ReturnType<typeof useAgent>;
  chat?: UseAgentChatResult;
  requests: ApprovalRequest[];
}

function Card({ request, confirm }: { request: ApprovalRequest; confirm?: boolean }) {
  return (
    <ApprovalCard.Root request={request} {...(confirm === undefined ? {} : { confirm })}>
      <ApprovalCard.Title />
      <ApprovalCard.Summary />
      <ApprovalCard.Risk />
      <ApprovalCard.Permissions />
      <ApprovalCard.Arguments />
      <ApprovalCard.Expiry />
      <ApprovalCard.Approve />
      <ApprovalCard.Deny />
      <ApprovalCard.DenyReason>
        <ApprovalCard.DenyReasonInput />
        <ApprovalCard.Deny>Deny with reason</ApprovalCard.Deny>
      </ApprovalCard.DenyReason>
      <ApprovalCard.Confirm />
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  );
}

function App({ agent: agentClass, name, tab }: { agent: string; name: string; tab: Tab }) {
  const agent = useAgent({ agent: agentClass, name, host: HOST, protocol: "ws" });
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const requests = [
    ...useChatApprovals(chat, { agent }),
    ...useExecutionApprovals(agent, { messages: chat.messages }),
    ...useWorkflowApprovals(agent),
  ];
  tab.agent = agent;
  tab.chat = chat;
  tab.requests = requests;
  return (
    <main>
      {requests.map((r) => (
        <Card key={r.id} request={r} />
      ))}
    </main>
  );
}

async function open(agent: string, name = room()) {
  const tab: Tab = { requests: [] };
  const view = await renderSettled(<App agent={agent} name={name} tab={tab} />);
  await waitFor(() => expect(tab.agent?.status).toBe("open"));
  return { tab, name, view, ui: within(view.container) };
}

async function ask(tab: Tab, words: string) {
  await act(() => tab.chat?.sendMessage({ text: words }));
}

const stateOf = (el: HTMLElement) => el.getAttribute("data-status");
const disabled = (el: HTMLElement) => (el as HTMLButtonElement | HTMLTextAreaElement).disabled;

describe("chat approvals (ChatAgent pay)", () => {
  it("shows the tool and its exact arguments as text, Approve not focused; one approval on the wire", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 40");
    const card = await ui.findByRole("article", { name: "processPayment" });
    expect(card.getAttribute("data-source")).toBe("chat");
    expect(stateOf(card)).toBe("requested");
    const args = within(card).getByText(/"amount": 40/);
    expect(args.tagName).toBe("PRE");
    expect(args.textContent).toContain('"recipient": "Bob"');
    const approve = within(card).getByRole("button", { name: "Approve" });
    expect(disabled(approve)).toBe(false);
    expect(document.activeElement).not.toBe(approve);

    // A double click and Enter on top: still one decision.
    await user.dblClick(approve);
    approve.focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(stateOf(card)).toBe("approved"));
    expect(within(card).getByRole("status").textContent).toBe("Approved.");
    expect(sent("cf_agent_tool_approval")).toEqual([
      expect.objectContaining({ approved: true, toolCallId: tab.requests[0]?.toolCallId }),
    ]);
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(true);
  });

  it("decide() called twice in one tick sends one frame: the guard is in the model, not the button", async () => {
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Ann 5");
    await ui.findByRole("article", { name: "processPayment" });
    const [r] = tab.requests;
    let results: boolean[] = [];
    act(() => {
      results = [
        r?.decide({ approved: true }),
        r?.decide({ approved: false }),
        r?.decide({ approved: true }),
      ].map(Boolean);
    });
    expect(results).toEqual([true, false, false]);
    await waitFor(() => expect(tab.requests[0]?.status).toBe("approved"));
    expect(sent("cf_agent_tool_approval")).toHaveLength(1);
    expect(sent("cf_agent_tool_result")).toHaveLength(0);
  });

  it("is submitting until the server confirms, announcing it", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 40");
    const card = await ui.findByRole("article", { name: "processPayment" });
    mock.controller.hold();
    await user.click(within(card).getByRole("button", { name: "Approve" }));
    expect(stateOf(card)).toBe("submitting");
    expect(within(card).getByRole("status").textContent).toBe("Approving…");
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(true);
    expect(disabled(within(card).getByRole("button", { name: "Deny" }))).toBe(true);
    act(() => mock.controller.release());
    await waitFor(() => expect(stateOf(card)).toBe("approved"));
  });

  it("Deny sends a denial; Deny with a reason sends it as an output-error tool output", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 40");
    const first = await ui.findByRole("article", { name: "processPayment" });
    await user.click(within(first).getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(stateOf(first)).toBe("denied"));
    expect(within(first).getByRole("status").textContent).toBe("Denied.");
    expect(sent("cf_agent_tool_approval")).toEqual([expect.objectContaining({ approved: false })]);

    await ask(tab, "pay Eve 9000");
    await waitFor(() => expect(ui.getAllByRole("article")).toHaveLength(2));
    const second = ui.getAllByRole("article")[1] as HTMLElement;
    await user.type(within(second).getByRole("textbox", { name: "Reason for denying" }), "Unknown payee");
    await user.click(within(second).getByRole("button", { name: "Deny with reason" }));
    await waitFor(() => expect(stateOf(second)).toBe("denied"));
    expect(within(second).getByRole("status").textContent).toBe("Denied: Unknown payee.");
    expect(sent("cf_agent_tool_result")).toEqual([
      expect.objectContaining({ state: "output-error", errorText: "Unknown payee" }),
    ]);
    expect(sent("cf_agent_tool_approval")).toHaveLength(1);
  });

  it("a decision from another tab reads as answered elsewhere, and this tab sends nothing", async () => {
    const user = userEvent.setup();
    const a = await open("ChatAgent");
    await ask(a.tab, "pay Bob 40");
    const cardA = await a.ui.findByRole("article", { name: "processPayment" });
    const b = await open("ChatAgent", a.name);
    const cardB = await b.ui.findByRole("article", { name: "processPayment" });
    await user.click(within(cardB).getByRole("button", { name: "Deny" }));
    await waitFor(() => expect(stateOf(cardA)).toBe("answered-elsewhere"));
    expect(within(cardA).getByRole("status").textContent).toBe("Answered elsewhere: denied.");
    expect(disabled(within(cardA).getByRole("button", { name: "Approve" }))).toBe(true);
    expect(sent("cf_agent_tool_approval")).toHaveLength(1);
  });

  it("offline: actions are disabled while the connection is down", async () => {
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 40");
    const card = await ui.findByRole("article", { name: "processPayment" });
    act(() => tab.agent?.close());
    await waitFor(() => expect(stateOf(card)).toBe("offline"));
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(true);
    expect(disabled(within(card).getByRole("textbox", { name: "Reason for denying" }))).toBe(true);
    expect(tab.requests[0]?.decide({ approved: true })).toBe(false);
    act(() => tab.agent?.reconnect());
    await waitFor(() => expect(stateOf(card)).toBe("requested"));
    expect(sent("cf_agent_tool_approval")).toHaveLength(0);
  });

  it("expired: the input's expiry disables the actions", async () => {
    const { tab, ui } = await open("SoonAgent");
    await ask(tab, "transfer");
    const card = await ui.findByRole("article", { name: "transfer" });
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(false);
    expect(within(card).getByText(/^Expires in 0:0\d$/)).toBeTruthy();
    await waitFor(() => expect(stateOf(card)).toBe("expired"), { timeout: 30_000 });
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(true);
    expect(within(card).getByRole("status").textContent).toBe("This request has expired.");
    expect(tab.requests[0]?.decide({ approved: true })).toBe(false);
    expect(sent("cf_agent_tool_approval")).toHaveLength(0);
  });

  it("high risk asks for confirmation in a dialog that opens on Cancel; Cancel sends nothing", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("SoonAgent");
    await ask(tab, "wipe");
    const card = await ui.findByRole("article", { name: "wipeDatabase" });
    expect(card.getAttribute("data-risk")).toBe("high");
    expect(within(card).getByText("High risk")).toBeTruthy();
    const approve = within(card).getByRole("button", { name: "Approve" });
    expect(approve.getAttribute("aria-haspopup")).toBe("dialog");
    await user.click(approve);
    const dialog = await screen.findByRole("alertdialog", { name: "Approve wipeDatabase?" });
    const described = document.getElementById(dialog.getAttribute("aria-describedby") ?? "");
    expect(described?.textContent).toBe("Delete every row in prod High risk.");
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancel" }));
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(document.activeElement).toBe(approve);
    expect(sent("cf_agent_tool_approval")).toHaveLength(0);

    await user.click(approve);
    const again = await screen.findByRole("alertdialog");
    await user.click(within(again).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(stateOf(card)).toBe("approved"));
    expect(sent("cf_agent_tool_approval")).toHaveLength(1);
  });
});

describe("Think durable pause (ThinkAgent deploy)", () => {
  it("shows the preview while the full arguments load, then enables Approve; one approveExecution", async () => {
    const user = userEvent.setup();
    // Hold back the pendingExecutions answer (an array of executions) so the loading state is visible.
    const isExecutions = (f: { frame: Record<string, unknown> }) =>
      f.frame.type === "rpc" &&
      Array.isArray(f.frame.result) &&
      (f.frame.result as Array<Record<string, unknown>>).some((e) => "createdAt" in e);
    const releaseExecutions = mock.controller.gate(isExecutions);
    const { tab, ui } = await open("ThinkAgent");
    await ask(tab, "deploy");
    const card = await ui.findByRole("article", { name: "deploy" });
    expect(card.getAttribute("data-source")).toBe("execution");
    expect(within(card).getByText("Deploy web-app to production")).toBeTruthy();
    expect(within(card).getByText("deploy:production")).toBeTruthy();
    const args = card.querySelector("pre") as HTMLElement;
    expect(args.getAttribute("aria-busy")).toBe("true");
    expect(args.textContent).toContain("…");
    expect(disabled(within(card).getByRole("button", { name: "Approve" }))).toBe(true);
    expect(disabled(within(card).getByRole("button", { name: "Deny" }))).toBe(false);

    releaseExecutions();
    await waitFor(() => expect(args.hasAttribute("data-complete")).toBe(true));
    expect(args.hasAttribute("aria-busy")).toBe(false);
    expect(args.textContent).not.toContain("…");
    expect(args.textContent).toContain("bug fixes and performance improvements; ".repeat(8).trim());
    const approve = within(card).getByRole("button", { name: "Approve" });
    await user.click(approve);
    const dialog = await screen.findByRole("alertdialog", { name: "Approve deploy?" });
    const confirm = within(dialog).getByRole("button", { name: "Approve" });
    await user.dblClick(confirm);
    await waitFor(() => expect(stateOf(card)).toBe("approved"));
    expect(rpcs("approveExecution")).toHaveLength(1);
    expect(rpcs("rejectExecution")).toHaveLength(0);
  });

  it("Deny with a reason goes to rejectExecution; a pause approved in another tab is answered elsewhere", async () => {
    const user = userEvent.setup();
    const a = await open("ThinkAgent");
    await ask(a.tab, "deploy");
    await ask(a.tab, "deploy again");
    await waitFor(() => expect(a.ui.getAllByRole("article", { name: "deploy" })).toHaveLength(2));
    const [first, second] = a.ui.getAllByRole("article", { name: "deploy" }) as [HTMLElement, HTMLElement];
    await user.type(within(first).getByRole("textbox"), "Change freeze");
    await user.click(within(first).getByRole("button", { name: "Deny with reason" }));
    await waitFor(() => expect(stateOf(first)).toBe("denied"));
    expect(rpcs("rejectExecution")).toEqual([
      expect.objectContaining({ args: [expect.any(String), "Change freeze"] }),
    ]);

    // Page load in another tab: pendingApprovals lists the one still paused.
    const b = await open("ThinkAgent", a.name);
    // The one rejected is history there; the one still paused is requested and gets its full arguments.
    await waitFor(() =>
      expect(b.ui.getAllByRole("article", { name: "deploy" }).map(stateOf).sort()).toEqual([
        "denied",
        "requested",
      ]),
    );
    const onB = b.ui
      .getAllByRole("article", { name: "deploy" })
      .find((c) => stateOf(c) === "requested") as HTMLElement;
    await waitFor(() => expect(disabled(within(onB).getByRole("button", { name: "Approve" }))).toBe(false));
    await user.click(within(onB).getByRole("button", { name: "Approve" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(stateOf(second)).toBe("answered-elsewhere"));
    expect(within(second).getByRole("status").textContent).toBe("Answered elsewhere: approved.");
    expect(rpcs("approveExecution")).toHaveLength(1);
  });
});

describe("workflow approval (expense in agent state)", () => {
  it("approves through the approve callable, once", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "expense 120");
    const card = await ui.findByRole("article", { name: "Expense: team lunch (120 EUR)" });
    expect(card.getAttribute("data-source")).toBe("workflow");
    expect(card.querySelector("pre")?.textContent).toContain('"amount": 120');
    await user.dblClick(within(card).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(stateOf(card)).toBe("approved"));
    expect(rpcs("approve")).toHaveLength(1);
    expect(tab.agent?.state).toMatchObject({
      pendingApprovals: [],
      resolvedApprovals: [{ status: "approved" }],
    });
  });
});

describe("rendering a request (no connection)", () => {
  const base = (over: Partial<ApprovalRequest> = {}): ApprovalRequest & { calls: unknown[] } => {
    const calls: unknown[] = [];
    return {
      id: "chat:a",
      source: "chat",
      key: "a",
      name: "processPayment",
      arguments: { note: "<b>bold</b>" },
      argumentsComplete: true,
      status: "requested",
      online: true,
      decide: (d) => {
        calls.push(d);
        return true;
      },
      calls,
      ...over,
    };
  };

  it("never auto-focuses Approve, even when asked to", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    render(
      <ApprovalCard.Root request={base()}>
        <ApprovalCard.Title />
        <ApprovalCard.Approve autoFocus />
      </ApprovalCard.Root>,
    );
    expect(document.activeElement).not.toBe(screen.getByRole("button", { name: "Approve" }));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("ApprovalCard.Approve ignores autoFocus"));
    warn.mockRestore();
  });

  it("shows arguments as text, never as markup", () => {
    const { container } = render(
      <ApprovalCard.Root request={base()}>
        <ApprovalCard.Title />
        <ApprovalCard.Arguments />
      </ApprovalCard.Root>,
    );
    expect(container.querySelector("b")).toBeNull();
    expect(container.querySelector("pre")?.textContent).toContain('"note": "<b>bold</b>"');
  });

  it("a part outside the root names the part and the fix", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<ApprovalCard.Approve />)).toThrow(
      "<ApprovalCard.Approve> must be rendered inside <ApprovalCard.Root>. Wrap it in <ApprovalCard.Root>.",
    );
    error.mockRestore();
  });

  it("asChild puts the part's behaviour on the child element", async () => {
    const user = userEvent.setup();
    const request = base();
    render(
      <ApprovalCard.Root request={request} asChild>
        <section>
          <ApprovalCard.Title asChild>
            <h2>Pay?</h2>
          </ApprovalCard.Title>
          <ApprovalCard.Approve asChild>
            <a href="#approve">Yes, pay</a>
          </ApprovalCard.Approve>
        </section>
      </ApprovalCard.Root>,
    );
    const region = screen.getByRole("region", { name: "Pay?" });
    expect(region.getAttribute("data-status")).toBe("requested");
    await user.click(screen.getByRole("link", { name: "Yes, pay" }));
    expect(request.calls).toEqual([{ approved: true }]);
  });

  it("high risk without a Confirm part approves in one step and says how to fix it", async () => {
    const user = userEvent.setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const request = base({ risk: "high" });
    render(
      <ApprovalCard.Root request={request}>
        <ApprovalCard.Title />
        <ApprovalCard.Approve />
      </ApprovalCard.Root>,
    );
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(request.calls).toEqual([{ approved: true }]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining("Render <ApprovalCard.Confirm> inside <ApprovalCard.Root>"),
    );
    warn.mockRestore();
  });

  it("confirm={false} turns the dialog off for high risk; confirm forces it on for low risk", async () => {
    const user = userEvent.setup();
    const high = base({ id: "chat:h", risk: "high" });
    const low = base({ id: "chat:l", name: "lookup", risk: "low" });
    render(
      <>
        <ApprovalCard.Root request={high} confirm={false}>
          <ApprovalCard.Title />
          <ApprovalCard.Approve />
          <ApprovalCard.Confirm />
        </ApprovalCard.Root>
        <ApprovalCard.Root request={low} confirm>
          <ApprovalCard.Title />
          <ApprovalCard.Approve />
          <ApprovalCard.Confirm />
        </ApprovalCard.Root>
      </>,
    );
    const [first, second] = screen.getAllByRole("button", { name: "Approve" }) as [HTMLElement, HTMLElement];
    await user.click(first);
    expect(high.calls).toEqual([{ approved: true }]);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await user.click(second);
    expect(await screen.findByRole("alertdialog", { name: "Approve lookup?" })).toBeTruthy();
    expect(low.calls).toEqual([]);
  });
});
