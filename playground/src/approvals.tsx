/**
 * Approvals, from all three sources: tool calls in the chat, Think's paused executions, and workflow
 * approvals kept in agent state. The card is the same everywhere; the inline card sits in the tool part, the
 * queue lists everything still waiting.
 */
import type { ApprovalRequest } from "@runboard/protocol";
import { ApprovalCard, ApprovalQueue } from "@runboard/react";

/** One card with every part; the playground's CSS gives it its looks. */
export function Card({ request }: { request: ApprovalRequest }) {
  return (
    <ApprovalCard.Root request={request} className="approval">
      <div className="approval-head">
        <ApprovalCard.Title className="approval-title" /> <ApprovalCard.Risk className="badge" />
      </div>
      <ApprovalCard.Summary />
      <ApprovalCard.Permissions className="permissions" />
      <ApprovalCard.Arguments className="arguments" />
      <ApprovalCard.Expiry className="muted" />
      <div className="actions">
        <ApprovalCard.Approve className="primary">Approve</ApprovalCard.Approve>
        <ApprovalCard.Deny>Deny</ApprovalCard.Deny>
      </div>
      <ApprovalCard.DenyReason className="deny-reason">
        <ApprovalCard.DenyReasonInput placeholder="Reason (optional), e.g. wrong amount" rows={1} />
        <ApprovalCard.Deny>Deny with this reason</ApprovalCard.Deny>
      </ApprovalCard.DenyReason>
      <ApprovalCard.Confirm>
        <ApprovalCard.ConfirmOverlay className="dialog-overlay" />
        <ApprovalCard.ConfirmContent className="dialog">
          <ApprovalCard.ConfirmTitle className="dialog-title" />
          <ApprovalCard.ConfirmDescription />
          <div className="actions">
            <ApprovalCard.ConfirmCancel>Cancel</ApprovalCard.ConfirmCancel>
            <ApprovalCard.ConfirmAction className="primary danger">Approve</ApprovalCard.ConfirmAction>
          </div>
        </ApprovalCard.ConfirmContent>
      </ApprovalCard.Confirm>
      <ApprovalCard.Status className="approval-status" />
    </ApprovalCard.Root>
  );
}

/** Everything waiting for a person, with approve-all and deny-all. */
export function Queue({ requests }: { requests: ApprovalRequest[] }) {
  return (
    <ApprovalQueue.Root requests={requests} className="panel approval-queue">
      <h2>
        Waiting for you (<ApprovalQueue.Count />)
      </h2>
      <div className="actions">
        <ApprovalQueue.ApproveAll>Approve all</ApprovalQueue.ApproveAll>
        <ApprovalQueue.DenyAll>Deny all</ApprovalQueue.DenyAll>
      </div>
      <ApprovalQueue.List className="queue">
        {(request) => (
          <ApprovalQueue.Item>
            <Card request={request} />
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}
