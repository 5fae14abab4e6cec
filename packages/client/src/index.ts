/** `@runboard/client`: connections and stores for Cloudflare Agents front ends; framework-agnostic. */
export * from "./agent-client.ts";
export * from "./agent-error-event.ts";
export * from "./agent-methods.ts";
export * from "./agent-tool-runs.ts";
export * from "./approvals/index.ts";
export * from "./chat-schemas.ts";
export * from "./chat-session.ts";
export type {
  ChatRequestOptions,
  ChatTurnEndEvent,
  OnToolCallCallback,
  PrepareSendMessagesRequestOptions,
  PrepareSendMessagesRequestResult,
  SendMessageInput,
} from "./chat-types.ts";
export { DEFAULT_CLEAR_RUNS_METHOD, isMissingCallable } from "./clear-runs.ts";
export * from "./client-tools.ts";
export * from "./drill-in.ts";
export * from "./live-view-feed.ts";
export * from "./nested-runs.ts";
export * from "./run-actions.ts";
