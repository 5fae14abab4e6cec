/**
 * A request whose decision was lost with its connection (the agent restarted before applying it): the card says
 * so and can be answered once more; the queue counts it as waiting.
 */
import type { ApprovalRequest } from "@runboard/protocol";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it } from "vitest";
import { ApprovalCard } from "./approval-card.tsx";
import { ApprovalQueue } from "./approval-queue.tsx";

afterEach(cleanup);

function interrupted(over: Partial<ApprovalRequest> = {}) {
  const calls: unknown[] = [];
  let decided = false;
  const request: ApprovalRequest = {
    id: "chat:a1",
    source: "chat",
    key: "a1",
    name: "processPayment",
    arguments: { amount: 250 },
    argumentsComplete: true,
    status: "interrupted",
    outcome: { approved: true, by: "here" },
    online: true,
    error: "The agent restarted or the connection dropped before it applied the decision; decide again.",
    decide: (d) => {
      calls.push(d);
      if (decided) return false;
      decided = true;
      return true;
    },
    ...over,
  };
  return { request, calls };
}

it("an interrupted request shows data-status interrupted, says why, and Approve sends one decision", async () => {
  const { request, calls } = interrupted();
  const { container } = render(
    <ApprovalCard.Root request={request}>
      <ApprovalCard.Title />
      <ApprovalCard.Approve />
      <ApprovalCard.Deny />
      <ApprovalCard.Status />
    </ApprovalCard.Root>,
  );
  const root = container.firstElementChild as HTMLElement;
  expect(root.getAttribute("data-status")).toBe("interrupted");
  const status = container.querySelector('[role="status"]') as HTMLElement;
  expect(status.getAttribute("data-status")).toBe("interrupted");
  expect(status.textContent).toBe(
    "The agent restarted or the connection dropped before the approval was applied. Decide again.",
  );
  const approve = screen.getByRole("button", { name: "Approve" });
  expect((approve as HTMLButtonElement).disabled).toBe(false);
  expect((screen.getByRole("button", { name: "Deny" }) as HTMLButtonElement).disabled).toBe(false);
  await userEvent.click(approve);
  expect(calls).toEqual([{ approved: true }]);
});

it("an interrupted request goes offline like a fresh one, and the queue counts it as waiting", () => {
  const offline = interrupted({ online: false }).request;
  const { container } = render(
    <ApprovalQueue.Root requests={[interrupted().request, { ...offline, id: "chat:a2", key: "a2" }]}>
      <ApprovalQueue.List />
    </ApprovalQueue.Root>,
  );
  const root = container.firstElementChild as HTMLElement;
  expect(root.getAttribute("data-count")).toBe("1");
  const items = within(container).getAllByRole("listitem");
  expect(items.map((li) => li.getAttribute("data-status"))).toEqual(["interrupted", "offline"]);
});
