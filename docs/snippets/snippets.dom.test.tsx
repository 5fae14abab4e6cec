// @vitest-environment jsdom
/** The guides' live snippets, as written, against the Node mock agent. */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { useAgent, useAgentChat } from "@runboard/react";
import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Suspense } from "react";
import { hydrateRoot } from "react-dom/client";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { App } from "./chat-app.tsx";
import { LocatingChat } from "./client-tool.tsx";
import { renderChatPage } from "./server-render.tsx";
import { Transcript } from "./transcript-rows.tsx";

let server: MockAgentServer;
let host: string;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, port: 0, delayScale: 0.1, log: () => {} });
  host = `127.0.0.1:${server.port}`;
});
afterAll(() => server.close());
afterEach(cleanup);

it("client tool: the page answers getLocation and the agent reads the answer", {
  timeout: 120_000,
}, async () => {
  await act(async () =>
    render(
      <Suspense fallback={null}>
        <LocatingChat host={host} name={`loc-${Math.random().toString(36).slice(2)}`} />
      </Suspense>,
    ),
  );
  const ask = await screen.findByRole("button", { name: "Where am I?" }, { timeout: 30_000 });
  await userEvent.click(ask);
  await screen.findByText(/getLocation returned .*Lisbon/, undefined, { timeout: 30_000 });
});

it("server rendering: the HTML hydrates and the chat then connects", { timeout: 120_000 }, async () => {
  const html = renderChatPage(host);
  expect(html).toContain('<div id="root">');
  document.body.innerHTML = html;
  const root = document.getElementById("root");
  if (!root) throw new Error("no root");
  let hydrated: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    hydrated = hydrateRoot(root, <App host={host} />);
  });
  await screen.findByText("Connection: open", undefined, { timeout: 30_000 });
  act(() => hydrated?.unmount());
});

function RowsChat({ name }: { name: string }) {
  const agent = useAgent({ agent: "ChatAgent", name, host });
  const chat = useAgentChat({ agent });
  return (
    <>
      <Transcript chat={chat} />
      <button
        type="button"
        disabled={chat.status !== "ready"}
        onClick={() => chat.sendMessage({ text: "hello" })}
      >
        Say hello
      </button>
    </>
  );
}

it("long conversations: one row per message, each rendered by MessageParts", {
  timeout: 120_000,
}, async () => {
  await act(async () =>
    render(
      <Suspense fallback={null}>
        <RowsChat name={`rows-${Math.random().toString(36).slice(2)}`} />
      </Suspense>,
    ),
  );
  await userEvent.click(await screen.findByRole("button", { name: "Say hello" }, { timeout: 30_000 }));
  await screen.findByText("Hello! How can I help you today?", undefined, { timeout: 30_000 });
  expect([...document.querySelectorAll("article")].map((a) => a.dataset.role)).toEqual(["user", "assistant"]);
});
