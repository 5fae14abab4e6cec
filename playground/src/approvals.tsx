/**
 * Approvals, from all three sources: tool calls in the chat, Think's paused executions, and workflow
 * approvals kept in agent state. The card is the same everywhere; the inline card sits in the tool part, the
 * queue lists everything still waiting.
 */
import type { ApprovalRequest } from "@runboard/protocol";
import { approvalStatusText, revealHiddenCharacters } from "@runboard/protocol/view";
import { ApprovalCard, ApprovalQueue } from "@runboard/react";

/**
 * The status line without its closing full stop: a decided card collapses to it and the tool's name
 * ("✓ Approved · processPayment", shell.css), where a sentence's period reads as a stray mark. A denial's reason
 * is text from elsewhere, so hidden characters in it are shown as markers, as the default line does.
 */
const outcome = (...[state, request]: Parameters<typeof approvalStatusText>) => {
  const text = revealHiddenCharacters(approvalStatusText(state, request));
  return DECIDED.has(state) ? text.replace(/\.$/, "") : text;
};
/** The states a card collapses in (shell.css keys on the same `data-status` values). */
const DECIDED = new Set(["approved", "denied", "answered-elsewhere", "expired"]);

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
      <ApprovalCard.Status className="approval-status">{outcome}</ApprovalCard.Status>
    </ApprovalCard.Root>
  );
}

/** Everything waiting for a person, with approve-all and deny-all. */
export function Queue({ requests }: { requests: ApprovalRequest[] }) {
  return (
    <ApprovalQueue.Root requests={requests} className="panel approval-queue">
      <h2 className="queue-heading">
        Waiting for you <ApprovalQueue.Count className="queue-count" />
      </h2>
      <p className="queue-empty muted">Nothing right now. Approvals the agent asks for show up here.</p>
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
