/**
 * ApprovalQueue over all three sources at once (chat tool approvals across messages, a Think durable pause, a
 * workflow item in state) against the scripted mock (MSW in jsdom), counting what reaches the server.
 */
import { createMockAgentHandlers, demoAgents, text } from "@runboard/mock-server/msw";
import type { ApprovalRequest } from "@runboard/protocol";
import { act, cleanup, render, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { type UseAgentChatResult, useAgentChat } from "../use-agent-chat.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { ApprovalQueue } from "./approval-queue.tsx";
import { useChatApprovals } from "./use-chat-approvals.ts";
import { useExecutionApprovals } from "./use-execution-approvals.ts";
import { useWorkflowApprovals } from "./use-workflow-approvals.ts";

const agents = {
  ...demoAgents,
  // Parallel tool calls: two approvals asked in one model step (one assistant message).
  Parallel: {
    host: "ai-chat" as const,
    turns: [
      {
        match: /refund/i,
        steps: [
          { kind: "approval" as const, name: "refundOrder", input: { order: "A-1" } },
          { kind: "approval" as const, name: "refundOrder", input: { order: "A-2" } },
          text("Both refunded."),
        ],
      },
    ],
  },
};
const mock = createMockAgentHandlers({ agents, delayScale: 0, log: () => {} });
const server = setupServer(...mock.handlers);
const received: Array<Record<string, unknown>> = [];
const original = mock.hub.message.bind(mock.hub);
mock.hub.message = (conn, raw) => {
  if (typeof raw === "string") received.push(JSON.parse(raw) as Record<string, unknown>);
  original(conn, raw);
};
const approvals = () => received.filter((f) => f.type === "cf_agent_tool_approval");
const rpcs = (method: string) => received.filter((f) => f.type === "rpc" && f.method === method);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  mock.controller.release();
  received.length = 0;
});
afterAll(() => server.close());

let rooms = 0;
const room = () => `queue-${Date.now().toString(36)}-${++rooms}`;

interface Tab {
  agent?: ReturnType<typeof useAgent>;
  chat?: UseAgentChatResult;
  requests: ApprovalRequest[];
}

function Queue({ agent: agentClass, name, tab }: { agent: string; name: string; tab: Tab }) {
  const agent = useAgent({ agent: agentClass, name, host: "mock-agent.local", protocol: "ws" });
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
    <ApprovalQueue.Root requests={requests}>
      <h2>
        Waiting: <ApprovalQueue.Count />
      </h2>
      <ApprovalQueue.ApproveAll />
      <ApprovalQueue.DenyAll />
      <ApprovalQueue.List>
        {(r) => (
          <ApprovalQueue.Item request={r}>
            <ApprovalCard.Root request={r}>
              <ApprovalCard.Title />
              <ApprovalCard.Approve />
              <ApprovalCard.Deny />
              <ApprovalCard.Confirm />
              <ApprovalCard.Status />
            </ApprovalCard.Root>
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}

async function open(agent: string) {
  const tab: Tab = { requests: [] };
  const view = await renderSettled(<Queue agent={agent} name={room()} tab={tab} />);
  await waitFor(() => expect(tab.agent?.status).toBe("open"));
  return { tab, ui: within(view.container) };
}

const ask = (tab: Tab, words: string) => act(() => tab.chat?.sendMessage({ text: words }));
const items = (ui: ReturnType<typeof within>): HTMLElement[] => ui.queryAllByRole("listitem");
const count = (ui: ReturnType<typeof within>) => ui.getByRole("heading", { level: 2 }).textContent;
const disabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled;

describe("ApprovalQueue", () => {
  it("lists approvals across messages and approves them all, one frame each", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 1");
    await waitFor(() => expect(items(ui)).toHaveLength(1));
    await ask(tab, "pay Ann 2");
    await ask(tab, "pay Eve 3");
    await waitFor(() => expect(items(ui)).toHaveLength(3));
    expect(count(ui)).toBe("Waiting: 3");
    const all = ui.getByRole("button", { name: "Approve all" });
    await user.dblClick(all);
    await waitFor(() => expect(items(ui)).toHaveLength(0));
    expect(count(ui)).toBe("Waiting: 0");
    expect(disabled(ui.getByRole("button", { name: "Approve all" }))).toBe(true);
    const ids = approvals().map((f) => f.toolCallId);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(approvals().every((f) => f.approved === true)).toBe(true);
  });

  it("lists parallel tool calls of one message; approve-all answers each once and the turn continues", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("Parallel");
    await ask(tab, "refund both");
    await waitFor(() => expect(items(ui)).toHaveLength(2));
    const ids = new Set(
      tab.requests.map(
        (r) =>
          tab.chat?.messages.find((m) =>
            m.parts.some((p) => "toolCallId" in p && p.toolCallId === r.toolCallId),
          )?.id,
      ),
    );
    expect(ids.size).toBe(1);
    await user.click(ui.getByRole("button", { name: "Approve all" }));
    await waitFor(() => expect(items(ui)).toHaveLength(0));
    expect(approvals()).toHaveLength(2);
    // The server continues once the last sibling is decided.
    await waitFor(() =>
      expect(
        tab.chat?.messages.at(-1)?.parts.some((p) => p.type === "text" && p.text === "Both refunded."),
      ).toBe(true),
    );
  });

  it("mixes all three sources; approve-all leaves the high-risk one for one-by-one confirmation", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ThinkAgent");
    await ask(tab, "pay Bob 40");
    await ask(tab, "deploy");
    await ask(tab, "expense 120");
    await waitFor(() => expect(items(ui)).toHaveLength(3));
    expect(
      items(ui)
        .map((li) => li.getAttribute("data-source"))
        .sort(),
    ).toEqual(["chat", "execution", "workflow"]);
    // The deploy's full arguments must arrive before anything can approve it.
    await waitFor(() =>
      expect(tab.requests.find((r) => r.source === "execution")?.argumentsComplete).toBe(true),
    );
    await user.click(ui.getByRole("button", { name: "Approve all" }));
    await waitFor(() => expect(items(ui)).toHaveLength(1));
    expect(items(ui)[0]?.getAttribute("data-risk")).toBe("high");
    expect(approvals()).toHaveLength(1);
    expect(rpcs("approve")).toHaveLength(1);
    expect(rpcs("approveExecution")).toHaveLength(0);
    expect(disabled(ui.getByRole("button", { name: "Approve all" }))).toBe(true);

    await user.click(ui.getByRole("button", { name: "Deny all" }));
    await waitFor(() => expect(items(ui)).toHaveLength(0));
    expect(rpcs("rejectExecution")).toHaveLength(1);
  });

  it("approve-all while a card is submitting sends nothing more for that card", async () => {
    const user = userEvent.setup();
    const { tab, ui } = await open("ChatAgent");
    await ask(tab, "pay Bob 1");
    await ask(tab, "pay Ann 2");
    await waitFor(() => expect(items(ui)).toHaveLength(2));
    mock.controller.hold();
    const [first] = items(ui) as [HTMLElement];
    await user.click(within(first).getByRole("button", { name: "Approve" }));
    expect(first.getAttribute("data-status")).toBe("submitting");
    await user.click(ui.getByRole("button", { name: "Approve all" }));
    // Even asked directly, in one tick, every request refuses a second decision.
    act(() => {
      for (const r of tab.requests) r.decide({ approved: false });
    });
    act(() => mock.controller.release());
    await waitFor(() => expect(items(ui)).toHaveLength(0));
    expect(approvals()).toHaveLength(2);
    expect(approvals().every((f) => f.approved === true)).toBe(true);
  });
});

describe("ApprovalQueue parts (no connection)", () => {
  const request = (id: string, over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
    id,
    source: "chat",
    key: id,
    name: "processPayment",
    arguments: { id },
    argumentsComplete: true,
    status: "requested",
    online: true,
    decide: () => true,
    ...over,
  });

  it("a bare List renders an Item with a full card per request; the root says how many wait", () => {
    const requests = [
      request("a"),
      request("b", { status: "submitting" }),
      request("c", { status: "approved" }),
    ];
    const { container } = render(
      <ApprovalQueue.Root requests={requests}>
        <ApprovalQueue.List />
      </ApprovalQueue.Root>,
    );
    const root = container.firstElementChild as HTMLElement;
    expect(root.getAttribute("data-count")).toBe("1");
    expect(root.hasAttribute("data-empty")).toBe(false);
    const list = within(container).getByRole("list");
    expect(list.getAttribute("data-count")).toBe("2");
    const entries = within(list).getAllByRole("listitem");
    expect(entries.map((li) => li.getAttribute("data-status"))).toEqual(["requested", "submitting"]);
    expect(within(entries[0] as HTMLElement).getByRole("article", { name: "processPayment" })).toBeTruthy();
    expect(within(entries[0] as HTMLElement).getByRole("button", { name: "Approve" })).toBeTruthy();
  });

  it("a function child runs in each entry's scope, so its Item needs no request; nothing waiting: data-empty", () => {
    const seen: string[] = [];
    const { container } = render(
      <ApprovalQueue.Root requests={[request("a", { status: "submitting" })]}>
        <ApprovalQueue.List>
          {(r) => {
            seen.push(r.id);
            return <ApprovalQueue.Item>{r.name}</ApprovalQueue.Item>;
          }}
        </ApprovalQueue.List>
      </ApprovalQueue.Root>,
    );
    expect(new Set(seen)).toEqual(new Set(["a"]));
    expect(within(container).getByRole("listitem").textContent).toBe("processPayment");
    expect((container.firstElementChild as HTMLElement).hasAttribute("data-empty")).toBe(true);
  });
});
