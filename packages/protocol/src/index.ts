/**
 * `@runboard/protocol`: wire types, frame parsing, URL building and pure reducers for the Cloudflare Agents
 * chat (`cf_agent_*`) and sub-agent (`agent-tool-event`) protocols. No IO, timers, DOM or React.
 */
export * from "./address-key.ts";
export * from "./agent-tool-failure.ts";
export * from "./agent-tool-failure-parse.ts";
export * from "./agent-tool-runs.ts";
export * from "./approvals/index.ts";
export * from "./branches.ts";
export * from "./chat-status-label.ts";
export * from "./chunk-applier.ts";
export * from "./compaction.ts";
export * from "./concurrency-limit.ts";
export * from "./detached-dispatch.ts";
export * from "./encode.ts";
export * from "./event-label.ts";
export * from "./frame-limits.ts";
export * from "./frames.ts";
export * from "./helix/index.ts";
export * from "./live-view/index.ts";
export * from "./message-list.ts";
export * from "./parse.ts";
export * from "./progress-value.ts";
export * from "./redact-url.ts";
export * from "./resume-machine.ts";
export * from "./run-display.ts";
export * from "./run-tray-rules.ts";
export * from "./sync-agent-tool.ts";
export * from "./synthetic-messages.ts";
export * from "./timeline.ts";
export * from "./tool-parts.ts";
export * from "./tool-status.ts";
export * from "./url.ts";
