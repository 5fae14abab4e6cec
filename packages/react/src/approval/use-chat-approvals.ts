/**
 * `useChatApprovals`: the chat's tool parts that ask for approval, as approval requests, from the client's
 * `ChatApprovals` store.
 */
import { type ApprovalConnection, ChatApprovals, type ChatApprovalsTarget } from "@runboard/client";
import type { ApprovalRequest } from "@runboard/protocol";
import { useSyncExternalStore } from "react";
import { idOf, useOwned } from "../lifetime.ts";

/** Options of `useChatApprovals`. */
export interface UseChatApprovalsOptions {
  /**
   * The connection the chat runs on. Decisions are refused while it is down, its frames tell when the server
   * has applied a decision (`submitting` until then), and every hook on it sends at most one decision per
   * request. Without it a decision counts as applied at once.
   */
  agent?: ApprovalConnection;
  /** Overrides the connection's status (e.g. an app-level offline flag). */
  online?: boolean;
}

const lifecycle = { start: (s: ChatApprovals) => s.attach(), dispose: (s: ChatApprovals) => s.dispose() };

/**
 * Approval requests for the chat's tool parts, pending and decided, oldest first. Approve and plain Deny go
 * out with `addToolApprovalResponse`, Deny with a reason as an `output-error` tool output.
 *
 * @example
 * const agent = useAgent({ agent: "ChatAgent" });
 * const chat = useAgentChat({ agent });
 * const approvals = useChatApprovals(chat, { agent });
 */
export function useChatApprovals(
  chat: ChatApprovalsTarget,
  options: UseChatApprovalsOptions = {},
): ApprovalRequest[] {
  const { agent, online } = options;
  const rest = online === undefined ? {} : { online };
  const store = useOwned(
    agent ? `agent:${idOf(agent)}` : "no-agent",
    () => new ChatApprovals({ chat, ...(agent ? { agent } : {}), ...rest }, false),
    lifecycle,
  );
  store.setOptions({ chat, ...rest });
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
}
