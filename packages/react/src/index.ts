/** `@runboard/react`: hooks with the official names and options, and headless components. */
export * from "./agent-event/index.ts";
export * from "./agent-tool-run/index.ts";
export * from "./approval/index.ts";
export * from "./branch-picker/index.ts";
export * from "./chat-messages.tsx";
export * from "./chat-status/index.ts";
export * from "./helix/index.ts";
export * from "./live-view/index.ts";
export * from "./message-parts/index.ts";
export * from "./milestone-timeline/index.ts";
export * from "./official-helpers.ts";
export * from "./progress/index.ts";
export * from "./run-tray/index.ts";
export * from "./use-agent.ts";
export * from "./use-agent-chat.ts";
export * from "./use-agent-tool-events.ts";
