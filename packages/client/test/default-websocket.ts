/**
 * A user's own test, written as the README says: no `WebSocket` option. Node 20 has no global WebSocket and
 * jsdom's throws under Node ("The event argument must be an instance of Event"), so the client must pick one
 * that works. Run from a Node test and a jsdom test.
 */
import { createMockAgentServer, demoAgents } from "@runboard/mock-server";
import { expect } from "vitest";
import { AgentClient } from "../src/agent-client.ts";

export async function connectsWithoutWebSocketOption(): Promise<void> {
  const server = await createMockAgentServer({ agents: demoAgents, log: () => {} });
  const errors: Error[] = [];
  const client = new AgentClient<{ counter: number }>({
    agent: "ChatAgent",
    name: `env-${Math.random().toString(36).slice(2, 8)}`,
    host: `127.0.0.1:${server.port}`,
    onError: (e) => errors.push(e),
  });
  try {
    await client.ready;
    expect(client.status).toBe("open");
    await client.call("increment", [2]);
    await expect.poll(() => client.state?.counter).toBe(2);
    expect(errors).toEqual([]);
  } finally {
    client.close();
    await server.close();
  }
}
