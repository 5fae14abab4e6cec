import { createMockAgentHandlers, demoAgents } from "@runboard/mock-server/msw";
import { setupWorker } from "msw/browser";

/**
 * Starts the mock agent inside the page: MSW answers the page's agent sockets and transcript requests at the
 * page's own host, so `useAgent({ agent: "ChatAgent" })` (no `host`) reaches it. Copy MSW's worker script
 * into your public folder once: `npx msw init public`.
 */
export async function startMockAgentInPage() {
  const { handlers, controller } = createMockAgentHandlers({ agents: demoAgents });
  await setupWorker(...handlers).start({ onUnhandledRequest: "bypass", quiet: true });
  return controller;
}
