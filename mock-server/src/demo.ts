import type { MockAgentDefinition } from "./server.ts";

/** The agents `runboard-mock` and `npm run dev` serve: one of each host flavour, as the playground expects. */
export const demoAgents: Record<string, MockAgentDefinition> = {
  ChatAgent: { host: "ai-chat", initialState: { counter: 0 } },
  ThinkAgent: { host: "think" },
};
