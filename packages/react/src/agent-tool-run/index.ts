/** `AgentToolRun`: a child run beside the tool call that spawned it, plus drill-in. */
export * from "./agent-tool-run.tsx";
export * from "./use-child-chat.ts";
