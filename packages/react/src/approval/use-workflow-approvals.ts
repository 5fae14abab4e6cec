/**
 * `useWorkflowApprovals`: approvals a workflow keeps in agent state (`state.pendingApprovals`, items keyed `id`
 * or the docs' `workflowId`), decided with the agent's `approve(id, approvedBy?)` / `reject(id, reason)`
 * callables, from the client's `WorkflowApprovals` store.
 */
import { type CallableConnection, WorkflowApprovals, type WorkflowApprovalsOptions } from "@runboard/client";
import type { ApprovalRequest } from "@runboard/protocol";
import { useSyncExternalStore } from "react";
import { idOf, useOwned } from "../lifetime.ts";

/** Options of `useWorkflowApprovals`: the agent's `state` when the connection does not keep it, and the rest. */
export type UseWorkflowApprovalsOptions = Omit<WorkflowApprovalsOptions, "agent">;

const lifecycle = {
  start: (s: WorkflowApprovals) => s.attach(),
  dispose: (s: WorkflowApprovals) => s.dispose(),
};

/**
 * Approval requests for the workflow items in the agent's state: pending ones, resolved ones, and ones this page
 * saw pending that are gone.
 *
 * @example
 * const agent = useAgent({ agent: "ExpenseAgent" });
 * const approvals = useWorkflowApprovals(agent, { approvedBy: "admin" });
 */
export function useWorkflowApprovals(
  agent: CallableConnection,
  options: UseWorkflowApprovalsOptions = {},
): ApprovalRequest[] {
  const store = useOwned(
    String(idOf(agent)),
    () => new WorkflowApprovals({ agent, ...options }, false),
    lifecycle,
  );
  store.setOptions(options);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}
