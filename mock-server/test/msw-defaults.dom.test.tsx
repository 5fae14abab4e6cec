/**
 * The MSW entry as the README shows it: `createMockAgentHandlers({ agents: demoAgents })` with no origin, and
 * `useAgent` with its defaults. Without a `host` it connects to the page's own host (jsdom's
 * `localhost:3000`, a loopback host, so `ws://`); with `host: "mock-agent.local"` it picks `wss://`. The
 * handlers answer both without the app forcing a `protocol`. MSW intercepts sockets by replacing the global
 * `WebSocket`, so the client must use that one.
 */
import { useAgent } from "@runboard/react";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { setupServer } from "msw/node";
import { useState } from "react";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { createMockAgentHandlers, demoAgents } from "../src/msw.ts";

const { handlers } = createMockAgentHandlers({ agents: demoAgents, delayScale: 0, log: () => {} });
const server = setupServer(...handlers);

// A request no handler answers fails the test instead of leaving for the network.
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(cleanup);
afterAll(() => server.close());

let rooms = 0;
const room = () => `defaults-${Date.now().toString(36)}-${++rooms}`;

function Agent({ name, host, global }: { name: string; host?: string; global: boolean }) {
  const agent = useAgent({
    agent: "ChatAgent",
    name,
    ...(host === undefined ? {} : { host }),
    ...(global ? { WebSocket: globalThis.WebSocket } : {}),
  });
  const [info, setInfo] = useState("");
  return (
    <main>
      <p data-testid="status">{agent.status}</p>
      <button
        type="button"
        disabled={agent.status !== "open"}
        onClick={() => void agent.call("getInfo").then((r) => setInfo(JSON.stringify(r)))}
      >
        Ask
      </button>
      <p data-testid="info">{info}</p>
    </main>
  );
}

/** Connects, calls the demo agent's `getInfo` over the socket, and returns what came back. */
async function askInfo(host?: string, global = true) {
  render(<Agent name={room()} global={global} {...(host === undefined ? {} : { host })} />);
  await waitFor(() => expect(screen.getByTestId("status").textContent).toBe("open"), { timeout: 30_000 });
  screen.getByRole("button", { name: "Ask" }).click();
  await waitFor(() => expect(screen.getByTestId("info").textContent).not.toBe(""), { timeout: 30_000 });
  return JSON.parse(screen.getByTestId("info").textContent ?? "null");
}

it("answers useAgent with no host: the page's own (loopback) host over ws://", async () => {
  expect(window.location.host).toMatch(/^(localhost|127\.0\.0\.1):\d+$/);
  expect(await askInfo()).toBeTruthy();
});

it("answers useAgent pointed at mock-agent.local, which the client reaches over wss://", async () => {
  expect(await askInfo("mock-agent.local")).toBeTruthy();
});

it("answers useAgent with no options at all: the client takes the WebSocket MSW put in place", async () => {
  expect(await askInfo(undefined, false)).toBeTruthy();
});
