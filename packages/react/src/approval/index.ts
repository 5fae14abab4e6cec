/** `ApprovalCard` and `ApprovalQueue` (issue #5), the source-neutral request model, and one adapter hook per source. */
export * from "./approval-card.tsx";
export * from "./approval-queue.tsx";
export {
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalRequest,
  type ApprovalRisk,
  type ApprovalSource,
  type ApprovalState,
  type ApprovalStatus,
  approvalState,
  canApprove,
  canDeny,
  needsConfirmation,
} from "./approval-request.ts";
export type { ApprovalConnection, CallableConnection } from "./connection.ts";
export type { ExecutionMethods } from "./execution-store.ts";
export {
  type ChatApprovalsTarget,
  type UseChatApprovalsOptions,
  useChatApprovals,
} from "./use-chat-approvals.ts";
export { type UseExecutionApprovalsOptions, useExecutionApprovals } from "./use-execution-approvals.ts";
export { type UseWorkflowApprovalsOptions, useWorkflowApprovals } from "./use-workflow-approvals.ts";
export type { WorkflowStateShape } from "./workflow-approvals.ts";
export type { WorkflowMethods } from "./workflow-store.ts";
