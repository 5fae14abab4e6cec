/**
 * Shared pieces of the ApprovalCard and ApprovalQueue stories: a conversation with the mock agent in the page
 * (the real hooks and the three approval adapters), the full card composition, and a scripted agent for the
 * states the demo agents do not reach (expiry, high risk on a chat tool).
 */
import { text } from "@runboard/mock-server/msw";
import type { ApprovalRequest } from "@runboard/protocol";
import {
  ApprovalCard,
  useAgentChat,
  useChatApprovals,
  useExecutionApprovals,
  useWorkflowApprovals,
} from "@runboard/react";
import { useEffect, useState } from "react";
import { defineStoryAgent, useStoryAgent } from "./mock-agent.tsx";
import "./approval.css";

/**
 * The stories' own agent: an approval that expires 3 s after it is asked, a high-risk chat tool, and three
 * parallel approvals in one message.
 */
export const APPROVAL_STORY_AGENT = "ApprovalStoryAgent";
defineStoryAgent(APPROVAL_STORY_AGENT, {
  host: "ai-chat",
  turns: [
    {
      match: /transfer/i,
      steps: [
        {
          kind: "approval",
          name: "transferFunds",
          input: () => ({ amount: 900, currency: "EUR", to: "DE89 3704 0044", expiresAt: Date.now() + 3000 }),
        },
        text("The transfer went out."),
      ],
    },
    {
      match: /wipe/i,
      steps: [
        {
          kind: "approval",
          name: "wipeDatabase",
          input: { database: "prod", tables: "*" },
          descriptor: {
            action: "wipeDatabase",
            summary: "Delete every row in the production database",
            permissions: ["db:admin"],
            risk: "high",
          },
        },
        text("The database is empty."),
      ],
    },
    {
      // Parallel tool calls: three approvals in one assistant message, continued once all are decided.
      match: /refund/i,
      steps: [
        { kind: "approval", name: "refundOrder", input: { order: "A-1001", amount: 19.9 } },
        { kind: "approval", name: "refundOrder", input: { order: "A-1002", amount: 54 } },
        { kind: "approval", name: "refundOrder", input: { order: "A-1003", amount: 7.5 } },
        text("The refunds are through."),
      ],
    },
  ],
  fallback: [text("Say transfer, wipe or refund.")],
});

/** The mock agent, its chat, and the approval requests of all three sources. */
export function useApprovalDemo(agentClass: string, name?: string) {
  const agent = useStoryAgent({ agent: agentClass, ...(name ? { name } : {}) });
  const chat = useAgentChat({ agent });
  const requests: ApprovalRequest[] = [
    ...useChatApprovals(chat, { agent }),
    ...useExecutionApprovals(agent, { messages: chat.messages }),
    ...useWorkflowApprovals(agent),
  ];
  return { agent, chat, requests };
}

/** Says each line once, the next when the previous turn is done, as a person typing them would. */
export function useSay(demo: ReturnType<typeof useApprovalDemo>, lines: readonly string[]) {
  const [said, setSaid] = useState({ next: 0, until: 0 });
  const { agent, chat } = demo;
  // A turn is over when its user message and the reply are in and nothing streams.
  const ready =
    agent.status === "open" &&
    chat.status === "ready" &&
    !chat.isStreaming &&
    chat.messages.length >= said.until;
  useEffect(() => {
    if (!ready || said.next >= lines.length) return;
    setSaid({ next: said.next + 1, until: chat.messages.length + 2 });
    void chat.sendMessage({ text: lines[said.next] as string });
  }, [ready, said, lines, chat]);
}

/** Every part of the card, as an app would compose it. */
export function FullCard({ request, confirm }: { request: ApprovalRequest; confirm?: boolean }) {
  return (
    <ApprovalCard.Root
      request={request}
      className="approval-card"
      {...(confirm === undefined ? {} : { confirm })}
    >
      <header>
        <ApprovalCard.Title />
        <ApprovalCard.Risk className="approval-risk" />
      </header>
      <ApprovalCard.Summary />
      <ApprovalCard.Permissions className="approval-permissions" aria-label="Required permissions" />
      <ApprovalCard.Arguments className="approval-arguments" />
      <ApprovalCard.Expiry className="approval-expiry" />
      <div className="approval-actions">
        <ApprovalCard.Approve className="approval-approve" />
        <ApprovalCard.Deny />
      </div>
      <ApprovalCard.DenyReason className="approval-reason">
        <ApprovalCard.DenyReasonInput rows={2} placeholder="Why not? (sent to the agent)" />
        <ApprovalCard.Deny>Deny with reason</ApprovalCard.Deny>
      </ApprovalCard.DenyReason>
      <ApprovalCard.Confirm>
        <ApprovalCard.ConfirmOverlay className="approval-overlay" />
        <ApprovalCard.ConfirmContent className="approval-dialog">
          <ApprovalCard.ConfirmTitle />
          <ApprovalCard.ConfirmDescription />
          <div className="approval-actions">
            <ApprovalCard.ConfirmCancel />
            <ApprovalCard.ConfirmAction className="approval-approve" />
          </div>
        </ApprovalCard.ConfirmContent>
      </ApprovalCard.Confirm>
      <ApprovalCard.Status className="approval-status" />
    </ApprovalCard.Root>
  );
}

/** A request that is not connected to anything, for pure rendering (the "All states" stories). */
export function staticRequest(over: Partial<ApprovalRequest> & { id: string }): ApprovalRequest {
  return {
    source: "chat",
    key: over.id,
    name: "processPayment",
    arguments: { amount: 40, recipient: "Bob" },
    argumentsComplete: true,
    status: "requested",
    online: true,
    decide: () => false,
    ...over,
  };
}
