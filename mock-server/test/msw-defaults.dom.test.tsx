/**
 * The MSW entry as the README shows it: `createMockAgentHandlers({ agents: demoAgents })` with no origin, and
 * the hooks with their defaults. `useAgent` without a `host` connects to the page's own host (jsdom's
 * `localhost:3000`, a loopback host, so `ws://`), and with `host: "mock-agent.local"` it picks `wss://`; the
 * handlers answer both without the app forcing a `protocol`.
 */
import { useAgent, useAgentChat } from "@runboard/react";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { setupServer } from "msw/node";
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

function Chat({ name, host }: { name: string; host?: string }) {
  const agent = useAgent(
    host === undefined ? { agent: "ChatAgent", name } : { agent: "ChatAgent", name, host },
  );
  const chat = useAgentChat({ agent });
  return (
    <main>
      <p data-testid="status">{agent.status}</p>
      <button
        type="button"
        disabled={agent.status !== "open"}
        onClick={() => chat.sendMessage({ text: "hello" })}
      >
        Send
      </button>
      {chat.messages.map((m) => (
        <p key={m.id} data-role={m.role}>
          {m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}
        </p>
      ))}
    </main>
  );
}

async function chatOnce(host?: string) {
  const { container } = render(<Chat name={room()} {...(host === undefined ? {} : { host })} />);
  await waitFor(() => expect(screen.getByTestId("status").textContent).toBe("open"), { timeout: 5000 });
  screen.getByRole("button", { name: "Send" }).click();
  await waitFor(
    () => expect(container.querySelector('[data-role="assistant"]')?.textContent ?? "").not.toBe(""),
    { timeout: 5000 },
  );
  return container.querySelector('[data-role="assistant"]')?.textContent ?? "";
}

it("answers useAgent with no host: the page's own (loopback) host over ws://", async () => {
  expect(window.location.host).toMatch(/^(localhost|127\.0\.0\.1):\d+$/);
  expect(await chatOnce()).toMatch(/\w/);
});

it("answers useAgent pointed at mock-agent.local, which the client reaches over wss://", async () => {
  expect(await chatOnce("mock-agent.local")).toMatch(/\w/);
});
