/** `@runboard/react`: hooks with the official names and options; headless components follow (issue #5). */
export * from "./use-agent.ts";
export * from "./use-agent-chat.ts";
export * from "./use-agent-tool-events.ts";
