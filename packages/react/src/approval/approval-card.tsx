/**
 * `ApprovalCard`: one card for every way an agent asks a human (chat tool approvals, Think durable pauses,
 * workflow approvals). It reads a source-neutral `ApprovalRequest` and sends at most one decision through it.
 * The parts live in one module per concern; this one assembles the namespace.
 */
import {
  ApprovalCardApprove,
  ApprovalCardDeny,
  ApprovalCardDenyReason,
  ApprovalCardDenyReasonInput,
} from "./approval-card-actions.tsx";
import {
  ApprovalCardConfirm,
  ApprovalCardConfirmAction,
  ApprovalCardConfirmCancel,
  ApprovalCardConfirmContent,
  ApprovalCardConfirmDescription,
  ApprovalCardConfirmOverlay,
  ApprovalCardConfirmTitle,
} from "./approval-card-confirm.tsx";
import {
  ApprovalCardArguments,
  ApprovalCardExpiry,
  ApprovalCardPermissions,
  ApprovalCardRisk,
  ApprovalCardSummary,
  ApprovalCardTitle,
} from "./approval-card-content.tsx";
import { ApprovalCardRoot } from "./approval-card-root.tsx";
import { ApprovalCardStatus } from "./approval-card-status.tsx";

export {
  type ApprovalCardApproveProps,
  type ApprovalCardDenyProps,
  type ApprovalCardDenyReasonInputProps,
  type ApprovalCardDenyReasonProps,
  useApprove,
  useDeny,
} from "./approval-card-actions.tsx";
export type {
  ApprovalCardConfirmActionProps,
  ApprovalCardConfirmCancelProps,
  ApprovalCardConfirmContentProps,
  ApprovalCardConfirmDescriptionProps,
  ApprovalCardConfirmOverlayProps,
  ApprovalCardConfirmProps,
  ApprovalCardConfirmTitleProps,
} from "./approval-card-confirm.tsx";
export type {
  ApprovalCardArgumentsProps,
  ApprovalCardExpiryProps,
  ApprovalCardPermissionsProps,
  ApprovalCardRiskProps,
  ApprovalCardSummaryProps,
  ApprovalCardTitleProps,
} from "./approval-card-content.tsx";
export { type ApprovalCardRootProps, useApprovalCard } from "./approval-card-root.tsx";
export type { ApprovalCardStatusProps } from "./approval-card-status.tsx";

/**
 * A card for one approval request: name, summary, risk, permissions, the exact arguments, and Approve / Deny
 * (with an optional reason and an optional confirm step). Every part has `data-status`: `requested |
 * submitting | approved | denied | answered-elsewhere | interrupted | expired | offline`; the root also has `data-source`,
 * `data-risk` and `data-confirm`; the confirm dialog's parts have Radix's `data-state` `open | closed`.
 *
 * @example
 * const agent = useAgent({ agent: "ChatAgent" });
 * const chat = useAgentChat({ agent });
 * const approvals = useChatApprovals(chat, { agent });
 *
 * approvals.map((request) => (
 *   <ApprovalCard.Root key={request.id} request={request}>
 *     <ApprovalCard.Title />
 *     <ApprovalCard.Summary />
 *     <ApprovalCard.Risk />
 *     <ApprovalCard.Permissions />
 *     <ApprovalCard.Arguments />
 *     <ApprovalCard.Approve />
 *     <ApprovalCard.DenyReason>
 *       <ApprovalCard.DenyReasonInput />
 *       <ApprovalCard.Deny>Deny</ApprovalCard.Deny>
 *     </ApprovalCard.DenyReason>
 *     <ApprovalCard.Confirm />
 *     <ApprovalCard.Status />
 *   </ApprovalCard.Root>
 * ));
 */
export const ApprovalCard = {
  Root: ApprovalCardRoot,
  Title: ApprovalCardTitle,
  Summary: ApprovalCardSummary,
  Risk: ApprovalCardRisk,
  Permissions: ApprovalCardPermissions,
  Arguments: ApprovalCardArguments,
  Expiry: ApprovalCardExpiry,
  Approve: ApprovalCardApprove,
  Deny: ApprovalCardDeny,
  DenyReason: ApprovalCardDenyReason,
  DenyReasonInput: ApprovalCardDenyReasonInput,
  Confirm: ApprovalCardConfirm,
  ConfirmOverlay: ApprovalCardConfirmOverlay,
  ConfirmContent: ApprovalCardConfirmContent,
  ConfirmTitle: ApprovalCardConfirmTitle,
  ConfirmDescription: ApprovalCardConfirmDescription,
  ConfirmCancel: ApprovalCardConfirmCancel,
  ConfirmAction: ApprovalCardConfirmAction,
  Status: ApprovalCardStatus,
};
