/**
 * Approval stores, framework-free: chat tool approvals, Think durable pauses and workflow items in agent
 * state as source-neutral approval requests, with one decision per request per connection.
 */
export * from "./agent-state.ts";
export * from "./chat-approvals.ts";
export * from "./connection.ts";
export * from "./decision-ledger.ts";
export * from "./execution-approvals.ts";
export * from "./workflow-approvals.ts";
