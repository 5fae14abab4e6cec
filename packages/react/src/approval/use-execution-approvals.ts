/**
 * `useExecutionApprovals`: Think durable pauses and paused codemode runs as approval requests, from the
 * client's `ExecutionApprovals` store.
 */
import { type CallableConnection, ExecutionApprovals, type ExecutionMethods } from "@runboard/client";
import type { ApprovalRequest } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { useEffect, useSyncExternalStore } from "react";
import { idOf, useOwned } from "../lifetime.ts";

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

const lifecycle = {
  start: (s: ExecutionApprovals) => s.attach(),
  dispose: (s: ExecutionApprovals) => s.dispose(),
};

/**
 * Approval requests for the agent's paused executions. Approve stays unavailable until the full arguments
 * have come from `pendingExecutions`: the transcript only carries a cut preview.
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
  const { messages, ...rest } = options;
  const store = useOwned(
    String(idOf(agent)),
    () => new ExecutionApprovals({ agent, ...rest }, false),
    lifecycle,
  );
  store.setOptions(rest);
  // Observing loads arguments (a call), so it waits for the commit.
  useEffect(() => {
    if (messages) store.observe(messages);
  }, [store, messages]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}
