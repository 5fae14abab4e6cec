/** `AgentEvent`: server-injected messages (background completions, milestone narration, notices). */
export * from "./agent-event.tsx";
