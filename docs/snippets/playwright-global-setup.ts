import { createMockAgentServer, demoAgents } from "@runboard/mock-server";

/**
 * Playwright's (or Vitest browser mode's) global setup: the mock agent runs in Node beside the test runner, and
 * the app under test connects to the host it puts in AGENT_HOST. The function it returns is the teardown.
 */
export default async function globalSetup() {
  const server = await createMockAgentServer({ agents: demoAgents, port: 0, log: () => {} });
  process.env.AGENT_HOST = `127.0.0.1:${server.port}`;
  return () => server.close();
}
