// @vitest-environment jsdom
/** The migration page's "after" snippet, as written, against the mock agent served at the page's own host. */
import { createMockAgentHandlers, demoAgents } from "@runboard/mock-server/msw";
import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { setupServer } from "msw/node";
import { Suspense } from "react";
import { afterAll, afterEach, beforeAll, it } from "vitest";
import { SupportChat } from "./migrate-after.tsx";

const mock = createMockAgentHandlers({ agents: demoAgents, log: () => {} });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(cleanup);

it("says hello and gets the agent's answer", { timeout: 120_000 }, async () => {
  await act(async () =>
    render(
      <Suspense fallback={null}>
        <SupportChat />
      </Suspense>,
    ),
  );
  const button = await screen.findByRole("button", { name: "Say hello" }, { timeout: 30_000 });
  await userEvent.click(button);
  await screen.findByText("Hello! How can I help you today?", undefined, { timeout: 30_000 });
});
