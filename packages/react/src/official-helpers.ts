/**
 * The helper functions `@cloudflare/ai-chat/react` exports beside `useAgentChat`, under the same names, so an
 * app switches by changing the import. They are plain functions from the lower layers.
 */
export {
  type ClientTool as AITool,
  detectToolsRequiringConfirmation,
  extractClientToolSchemas,
  getAgentMessages,
} from "@runboard/client";
export {
  getToolApproval,
  getToolCallId,
  getToolInput,
  getToolOutput,
  getToolPartState,
} from "@runboard/protocol";
