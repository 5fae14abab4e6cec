/**
 * `ApprovalCard` and `ApprovalQueue`, and one hook per approval source over the client's approval stores. The
 * request model and its rules are in `@runboard/protocol`, the stores in `@runboard/client`.
 */
export * from "./approval-card.tsx";
export * from "./approval-queue.tsx";
export { type UseChatApprovalsOptions, useChatApprovals } from "./use-chat-approvals.ts";
export { type UseExecutionApprovalsOptions, useExecutionApprovals } from "./use-execution-approvals.ts";
export { type UseWorkflowApprovalsOptions, useWorkflowApprovals } from "./use-workflow-approvals.ts";
