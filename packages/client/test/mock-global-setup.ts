/** Starts a mock server for the browser tests (a browser cannot start one) and hands them its port. */
import type { TestProject } from "vitest/node";
import { createMockAgentServer, demoAgents } from "../../../mock-server/src/index.ts";

declare module "vitest" {
  export interface ProvidedContext {
    mockPort: number;
  }
}

export default async function setup(project: TestProject) {
  const server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
  project.provide("mockPort", server.port);
  return () => server.close();
}
