/**
 * The confirm step is an alert dialog: a click outside leaves it open, Escape cancels and sends nothing, and
 * its Approve sends the approval once. Counted on the wire: the `approve` callable of a scripted workflow agent.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it } from "vitest";
import { scriptedAgent } from "../../../../test-support/scripted-agent.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { useWorkflowApprovals } from "./use-workflow-approvals.ts";

afterEach(cleanup);

const STATE = {
  pendingApprovals: [
    {
      id: "wipe-1",
      action: "wipeDatabase",
      summary: "Delete every row in prod",
      risk: "high",
      database: "prod",
    },
  ],
};

function Cards({ agent }: { agent: ReturnType<typeof scriptedAgent> }) {
  const requests = useWorkflowApprovals(agent, { state: STATE });
  return (
    <main>
      {requests.map((r) => (
        <ApprovalCard.Root key={r.id} request={r}>
          <ApprovalCard.Title />
          <ApprovalCard.Approve />
          <ApprovalCard.Confirm>
            <ApprovalCard.ConfirmOverlay data-testid="overlay" />
            <ApprovalCard.ConfirmContent>
              <ApprovalCard.ConfirmTitle />
              <ApprovalCard.ConfirmDescription />
              <ApprovalCard.ConfirmCancel />
              <ApprovalCard.ConfirmAction />
            </ApprovalCard.ConfirmContent>
          </ApprovalCard.Confirm>
          <ApprovalCard.Status />
        </ApprovalCard.Root>
      ))}
    </main>
  );
}

it("an outside click keeps it open, Escape cancels and sends nothing, Confirm sends the approval once", async () => {
  const user = userEvent.setup();
  const agent = scriptedAgent({ approve: () => ({ ok: true }) });
  render(<Cards agent={agent} />);
  const card = await screen.findByRole("article", { name: "wipeDatabase" });
  const approve = within(card).getByRole("button", { name: "Approve" });
  await waitFor(() => expect((approve as HTMLButtonElement).disabled).toBe(false));

  await user.click(approve);
  const dialog = await screen.findByRole("alertdialog", { name: "Approve wipeDatabase?" });
  expect(dialog.getAttribute("data-state")).toBe("open");
  expect(document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
    "Delete every row in prod High risk.",
  );
  expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancel" }));

  // A pointer down (and the click) outside, on the page or on the backdrop: it stays open.
  act(() => {
    fireEvent.pointerDown(document.body);
    fireEvent.click(document.body);
    fireEvent.pointerDown(screen.getByTestId("overlay"));
  });
  expect(screen.getByRole("alertdialog")).toBe(dialog);

  await user.keyboard("{Escape}");
  await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  expect(card.getAttribute("data-status")).toBe("requested");
  expect(agent.calls).toEqual([]);

  await user.click(approve);
  const again = await screen.findByRole("alertdialog");
  await user.dblClick(within(again).getByRole("button", { name: "Approve" }));
  await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  await waitFor(() => expect(card.getAttribute("data-status")).toBe("approved"));
  expect(agent.calls).toEqual([["approve", ["wipe-1"]]]);
});
