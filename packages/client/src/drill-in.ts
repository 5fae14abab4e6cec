/** Drill-in: a child run is a real sub-agent with its own chat; open it like any agent (docs/protocol.md#drill-in). */
import type { AgentToolRunState } from "@runboard/protocol";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { ChatSession, type ChatSessionOptions } from "./chat-session.ts";

/**
 * Connects to `run`'s child agent under `parent` and returns a chat session on it. Close it when done. With
 * `lazy`, nothing connects until `start()` (hooks make it during render and start it in an effect).
 */
export function openChildChat(
  parent: AgentClientOptions,
  run: Pick<AgentToolRunState, "subAgent">,
  chat: Omit<ChatSessionOptions, "agent"> = {},
  { lazy = false }: { lazy?: boolean } = {},
) {
  const client = new AgentClient({
    ...parent,
    lazy: true,
    sub: [...(parent.sub ?? []), { agent: run.subAgent.agent, name: run.subAgent.name }],
  });
  const session = new ChatSession({ ...chat, agent: client }, false);
  const start = () => {
    client.connect();
    session.attach();
  };
  if (!lazy) start();
  return {
    client,
    chat: session,
    start,
    close() {
      session.dispose();
      client.close();
    },
  };
}
