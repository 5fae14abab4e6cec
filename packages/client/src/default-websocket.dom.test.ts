/**
 * A user's own test under jsdom, written as the README says: no `WebSocket` option. jsdom's WebSocket throws
 * under Node ("The event argument must be an instance of Event"), so the client must pick one that works.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AgentClient } from "./agent-client.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, log: () => {} });
});
afterAll(() => server.close());

it("connects under jsdom without a WebSocket option: state arrives, an RPC answers, nothing is reported", async () => {
  expect(navigator.userAgent).toMatch(/jsdom/);
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
  }
});
