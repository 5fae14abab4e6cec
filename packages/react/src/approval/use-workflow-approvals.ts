/**
 * `useWorkflowApprovals`: approvals a workflow keeps in agent state (`state.pendingApprovals`), decided with
 * the agent's `approve(id)` / `reject(id, reason)` callables.
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import { idOf, useLatest, useOwned } from "../lifetime.ts";
import type { ApprovalRequest } from "./approval-request.ts";
import { type CallableConnection, useAgentState, useConnectionOpen } from "./connection.ts";
import type { WorkflowStateShape } from "./workflow-approvals.ts";
import { WorkflowApprovalStore, type WorkflowMethods } from "./workflow-store.ts";

/** Options of `useWorkflowApprovals`. */
export interface UseWorkflowApprovalsOptions {
  /**
   * The agent's state, when the connection object does not keep it (the official `useAgent` reports it through
   * `onStateUpdate`). Default: the object's `state`, else the last state frame seen.
   */
  state?: unknown;
  /** Where the items live in the state. Default `state.pendingApprovals` and `state.resolvedApprovals`. */
  select?: (state: unknown) => WorkflowStateShape;
  /** Callable names. Default `approve` and `reject`. */
  methods?: Partial<WorkflowMethods>;
  /** Overrides the connection's status. */
  online?: boolean;
}

/**
 * Approval requests for the workflow items in the agent's state: pending ones, resolved ones, and ones this page
 * saw pending that are gone. Call it once per agent and pass the requests down.
 *
 * @example
 * const agent = useAgent({ agent: "ExpenseAgent" });
 * const approvals = useWorkflowApprovals(agent);
 */
export function useWorkflowApprovals(
  agent: CallableConnection,
  options: UseWorkflowApprovalsOptions = {},
): ApprovalRequest[] {
  const online = useConnectionOpen(agent, options.online);
  const state = useAgentState(agent, options.state);
  const dispose = useCallback(() => {}, []);
  const store = useOwned(String(idOf(agent)), () => new WorkflowApprovalStore(agent), dispose);
  store.methods = { approve: "approve", reject: "reject", ...options.methods };
  const latest = useLatest(options.select);
  const version = useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
  const views = useMemo(() => {
    void version; // the store changed
    return store.views(state, latest.current);
  }, [store, state, version, latest]);
  useEffect(() => {
    void state;
    store.committed();
  }, [store, state]);

  return useMemo(
    () =>
      views.map(
        ({ item, status, outcome, error }): ApprovalRequest => ({
          id: `workflow:${item.id}`,
          source: "workflow",
          key: item.id,
          name: item.name,
          ...(item.title ? { title: item.title } : {}),
          ...(item.summary ? { summary: item.summary } : {}),
          ...(item.risk ? { risk: item.risk } : {}),
          ...(item.permissions ? { permissions: item.permissions } : {}),
          arguments: item.arguments,
          argumentsComplete: true,
          ...(item.expiresAt === undefined ? {} : { expiresAt: item.expiresAt }),
          ...(item.requestedAt === undefined ? {} : { requestedAt: item.requestedAt }),
          status,
          ...(outcome ? { outcome } : {}),
          online,
          ...(error ? { error } : {}),
          decide: (decision) => (options.online === false ? false : store.decide(item.id, decision)),
        }),
      ),
    [views, online, store, options.online],
  );
}
