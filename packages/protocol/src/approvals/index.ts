/**
 * Approvals as pure rules: the source-neutral request model, the readers of each source (chat tool parts,
 * Think durable pauses, workflow items kept in agent state) and the status each request has.
 */
export * from "./chat.ts";
export * from "./descriptor.ts";
export * from "./execution.ts";
export * from "./expiry.ts";
export * from "./request.ts";
export * from "./text.ts";
export * from "./visible-text.ts";
export * from "./workflow.ts";
