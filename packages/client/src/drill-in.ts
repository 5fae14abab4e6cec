/** Drill-in: a child run is a real sub-agent with its own chat; open it like any agent (reference §5.7). */
import type { AgentToolRun } from "@runboard/protocol";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { ChatSession, type ChatSessionOptions } from "./chat-session.ts";

/** Connects to `run`'s child agent under `parent` and returns a chat session on it. Close it when done. */
export function openChildChat(
  parent: AgentClientOptions,
  run: Pick<AgentToolRun, "subAgent">,
  chat: Omit<ChatSessionOptions, "agent"> = {},
) {
  const client = new AgentClient({
    ...parent,
    sub: [...(parent.sub ?? []), { agent: run.subAgent.agent, name: run.subAgent.name }],
  });
  const session = new ChatSession({ ...chat, agent: client });
  return {
    client,
    chat: session,
    close() {
      session.dispose();
      client.close();
    },
  };
}
