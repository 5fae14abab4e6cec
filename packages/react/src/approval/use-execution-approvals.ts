/**
 * `useExecutionApprovals`: Think durable pauses and paused codemode runs as approval requests, decided over
 * RPC. Approve stays unavailable until the full arguments have come from `pendingExecutions`: the transcript
 * only carries a cut preview, and a human must approve what will actually run.
 */
import type { UIMessage } from "ai";
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import { idOf, useOwned } from "../lifetime.ts";
import type { ApprovalRequest } from "./approval-request.ts";
import { type CallableConnection, useConnectionOpen } from "./connection.ts";
import { executionStatus } from "./execution-approvals.ts";
import { ExecutionApprovalStore, type ExecutionMethods, THINK_EXECUTION_METHODS } from "./execution-store.ts";

/** Options of `useExecutionApprovals`. */
export interface UseExecutionApprovalsOptions {
  /**
   * The chat transcript (`useAgentChat(...).messages`). With it, a pause shows up the moment the agent makes it
   * and a pause resolved in another tab reads as answered elsewhere; without it, pauses are listed when the
   * connection opens.
   */
  messages?: readonly UIMessage[];
  /** Callable names, when the agent exposes Think's under other names. */
  methods?: Partial<ExecutionMethods>;
  /** Overrides the connection's status. */
  online?: boolean;
}

/**
 * Approval requests for the agent's paused executions. Call it once per agent and pass the requests down.
 *
 * @example
 * const agent = useAgent({ agent: "ThinkAgent" });
 * const chat = useAgentChat({ agent });
 * const executions = useExecutionApprovals(agent, { messages: chat.messages });
 */
export function useExecutionApprovals(
  agent: CallableConnection,
  options: UseExecutionApprovalsOptions = {},
): ApprovalRequest[] {
  const online = useConnectionOpen(agent, options.online);
  const m = options.methods;
  const methodsKey = JSON.stringify(m ?? {});
  const dispose = useCallback(() => {}, []);
  const store = useOwned(
    `${idOf(agent)}:${methodsKey}`,
    () => new ExecutionApprovalStore(agent, { ...THINK_EXECUTION_METHODS, ...m }),
    dispose,
  );
  useEffect(() => store.start(), [store]);
  const { messages } = options;
  useEffect(() => {
    if (messages) store.observe(messages);
  }, [store, messages]);
  const version = useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);

  return useMemo(() => {
    void version; // the store changed
    return store.entries().map(([executionId, r]): ApprovalRequest => {
      const { status, outcome } = executionStatus(r, store.ledger.get(executionId));
      const { descriptor: d, expiresAt, requestedAt, toolCallId } = r.execution;
      const complete = r.argumentsState === "complete";
      return {
        id: `execution:${executionId}`,
        source: "execution",
        key: executionId,
        ...(toolCallId ? { toolCallId } : {}),
        name: d.name ?? "execution",
        ...(d.summary ? { summary: d.summary } : {}),
        ...(d.risk ? { risk: d.risk } : {}),
        ...(d.permissions ? { permissions: d.permissions } : {}),
        arguments: complete ? r.full : r.execution.preview,
        argumentsComplete: complete,
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(requestedAt === undefined ? {} : { requestedAt }),
        status,
        ...(outcome ? { outcome } : {}),
        online,
        ...(r.error ? { error: r.error } : {}),
        decide: (decision) => (options.online === false ? false : store.decide(executionId, decision)),
      };
    });
  }, [store, version, online, options.online]);
}
