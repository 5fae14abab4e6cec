/**
 * Two hooks (and their cards) for the same requests on one connection: the tab sends one decision per request,
 * whichever card or hook asks first, counted in the frames and callables the scripted mock agent receives.
 */
import { createMockAgentHandlers, demoAgents } from "@runboard/mock-server/msw";
import type { ApprovalRequest } from "@runboard/protocol";
import { act, cleanup, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { type UseAgentChatResult, useAgentChat } from "../use-agent-chat.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { useChatApprovals } from "./use-chat-approvals.ts";
import { useWorkflowApprovals } from "./use-workflow-approvals.ts";

const mock = createMockAgentHandlers({ agents: demoAgents, delayScale: 0, log: () => {} });
const server = setupServer(...mock.handlers);
const received: Array<Record<string, unknown>> = [];
const original = mock.hub.message.bind(mock.hub);
mock.hub.message = (conn, raw) => {
  if (typeof raw === "string") received.push(JSON.parse(raw) as Record<string, unknown>);
  original(conn, raw);
};
const frames = (type: string) => received.filter((f) => f.type === type);
const rpcs = (method: string) => received.filter((f) => f.type === "rpc" && f.method === method);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  mock.controller.release();
  received.length = 0;
});
afterAll(() => server.close());

interface Tab {
  agent?: ReturnType<typeof useAgent>;
  chat?: UseAgentChatResult;
  left: ApprovalRequest[];
  right: ApprovalRequest[];
}

function Cards({ label, requests }: { label: string; requests: ApprovalRequest[] }) {
  return (
    <section aria-label={label}>
      {requests.map((r) => (
        <ApprovalCard.Root key={r.id} request={r}>
          <ApprovalCard.Title />
          <ApprovalCard.Approve />
          <ApprovalCard.Deny />
        </ApprovalCard.Root>
      ))}
    </section>
  );
}

/** One page, one connection, each approval source's hook called twice (say, an inline card and a queue). */
function Page({ name, tab }: { name: string; tab: Tab }) {
  const agent = useAgent({ agent: "ChatAgent", name, host: "mock-agent.local", protocol: "ws" });
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const left = [...useChatApprovals(chat, { agent }), ...useWorkflowApprovals(agent)];
  const right = [...useChatApprovals(chat, { agent }), ...useWorkflowApprovals(agent)];
  Object.assign(tab, { agent, chat, left, right });
  return (
    <>
      <Cards label="Inline" requests={left} />
      <Cards label="Queue" requests={right} />
    </>
  );
}

let rooms = 0;
async function open() {
  const tab: Tab = { left: [], right: [] };
  const view = await renderSettled(<Page name={`hooks-${Date.now().toString(36)}-${++rooms}`} tab={tab} />);
  await waitFor(() => expect(tab.agent?.status).toBe("open"));
  const ui = within(view.container);
  return {
    tab,
    inline: within(ui.getByRole("region", { name: "Inline" })),
    queue: within(ui.getByRole("region", { name: "Queue" })),
  };
}

it("an Approve through one hook and a Deny through the other in the same tick send only the Approve", async () => {
  const { tab, inline, queue } = await open();
  await act(() => tab.chat?.sendMessage({ text: "pay Bob 40" }));
  await inline.findByRole("article", { name: "processPayment" });
  await queue.findByRole("article", { name: "processPayment" });
  let results: boolean[] = [];
  act(() => {
    results = [tab.left[0]?.decide({ approved: true }), tab.right[0]?.decide({ approved: false })].map(
      Boolean,
    );
  });
  expect(results).toEqual([true, false]);
  await waitFor(() => expect(tab.right[0]?.status).toBe("approved"));
  expect(tab.left[0]?.status).toBe("approved");
  expect(frames("cf_agent_tool_approval")).toEqual([expect.objectContaining({ approved: true })]);
  expect(frames("cf_agent_tool_result")).toEqual([]);
});

it("a click on one card disables the same request's other card; the workflow item is approved once", async () => {
  const user = userEvent.setup();
  const { tab, inline, queue } = await open();
  await act(() => tab.chat?.sendMessage({ text: "expense 120" }));
  const name = "Expense: team lunch (120 EUR)";
  const here = await inline.findByRole("article", { name });
  const there = await queue.findByRole("article", { name });
  mock.controller.hold();
  await user.click(within(here).getByRole("button", { name: "Approve" }));
  expect(there.getAttribute("data-status")).toBe("submitting");
  expect((within(there).getByRole("button", { name: "Deny" }) as HTMLButtonElement).disabled).toBe(true);
  await user.click(within(there).getByRole("button", { name: "Deny" }));
  act(() => mock.controller.release());
  await waitFor(() => expect(there.getAttribute("data-status")).toBe("approved"));
  expect(rpcs("approve")).toHaveLength(1);
  expect(rpcs("reject")).toHaveLength(0);
});
