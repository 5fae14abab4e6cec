/**
 * `useChatApprovals`: chat tool parts that ask for approval, as approval requests. Approve and plain Deny go
 * out with `addToolApprovalResponse`; Deny with a reason as an `output-error` tool output with the reason as
 * its text (the approval frame cannot carry a reason, reference §4.4).
 */
import type { UIMessage } from "ai";
import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { useLatest } from "../lifetime.ts";
import type { ApprovalDecision, ApprovalRequest } from "./approval-request.ts";
import {
  type ChatApprovalEntry,
  ChatApprovalTracker,
  chatApprovalEntries,
  chatStatus,
} from "./chat-approvals.ts";
import { type ApprovalConnection, isOpen, useConnectionOpen } from "./connection.ts";

/** The parts of a chat hook's result this adapter uses: ours (`useAgentChat`) or the official one. */
export interface ChatApprovalsTarget {
  messages: readonly UIMessage[];
  addToolApprovalResponse(response: { id: string; approved: boolean; reason?: string }): void;
  addToolOutput(output: {
    toolCallId: string;
    tool?: string;
    toolName?: string;
    state?: "output-available" | "output-error";
    output?: unknown;
    errorText?: string;
  }): void;
}

/** Options of `useChatApprovals`. */
export interface UseChatApprovalsOptions {
  /**
   * The connection the chat runs on. Decisions are refused while it is down, and its frames tell when the
   * server has applied a decision (`submitting` until then). Without it a decision counts as applied at once.
   */
  agent?: ApprovalConnection;
  /** Overrides the connection's status (e.g. an app-level offline flag). */
  online?: boolean;
}

/**
 * Approval requests for the chat's tool parts, pending and decided, oldest first. Call it once per chat and
 * pass the requests down: each call keeps its own exactly-once guard.
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
  const { agent } = options;
  const online = useConnectionOpen(agent, options.online);
  const [tracker] = useState(() => new ChatApprovalTracker());
  const version = useSyncExternalStore(tracker.subscribe, tracker.getVersion, tracker.getVersion);
  const latest = useLatest({ chat, agent, online: options.online });

  useEffect(() => {
    if (!agent) return;
    const onMessage = (e: Event) => tracker.onFrame((e as MessageEvent).data);
    agent.addEventListener("message", onMessage);
    return () => agent.removeEventListener("message", onMessage);
  }, [agent, tracker]);

  const entries = useMemo(() => chatApprovalEntries(chat.messages), [chat.messages]);
  useEffect(() => tracker.markSeen(entries), [entries, tracker]);

  return useMemo(() => {
    void version; // the tracker changed: statuses may have
    const decide =
      (entry: ChatApprovalEntry) =>
      (decision: ApprovalDecision): boolean => {
        const { chat: c, agent: a, online: forced } = latest.current;
        if (!(forced ?? isOpen(a))) return false;
        // The transcript as last rendered; a decision already claimed is caught by the tracker below.
        const now = chatApprovalEntries(c.messages).find((x) => x.approvalId === entry.approvalId);
        if (!now?.pending) return false;
        if (now.expiresAt !== undefined && Date.now() >= now.expiresAt) return false;
        if (!tracker.claim(`chat:${entry.approvalId}`, entry.toolCallId, decision)) return false;
        const reason = decision.reason?.trim();
        if (decision.approved || !reason)
          c.addToolApprovalResponse({ id: entry.approvalId, approved: decision.approved });
        else
          c.addToolOutput({
            toolCallId: entry.toolCallId,
            tool: entry.toolName,
            toolName: entry.toolName,
            state: "output-error",
            errorText: reason,
          });
        return true;
      };
    return entries.map((e): ApprovalRequest => {
      const id = `chat:${e.approvalId}`;
      const { status, outcome } = chatStatus(
        e,
        tracker.ledger.get(id),
        agent === undefined || tracker.confirmed(e.toolCallId),
        tracker.seenPending(e.approvalId),
      );
      const d = e.descriptor;
      return {
        id,
        source: "chat",
        key: e.approvalId,
        toolCallId: e.toolCallId,
        name: d.name ?? e.toolName,
        ...(d.summary ? { summary: d.summary } : {}),
        ...(d.risk ? { risk: d.risk } : {}),
        ...(d.permissions ? { permissions: d.permissions } : {}),
        arguments: e.input,
        argumentsComplete: true,
        ...(e.expiresAt === undefined ? {} : { expiresAt: e.expiresAt }),
        status,
        ...(outcome ? { outcome } : {}),
        online,
        decide: decide(e),
      };
    });
  }, [entries, version, online, agent, tracker, latest]);
}
