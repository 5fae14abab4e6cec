// @vitest-environment jsdom
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { App } from "./chat-app.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  // The demo agents on a free port of 127.0.0.1, quiet and paced ten times faster than a person needs.
  server = await createMockAgentServer({ agents: demoAgents, port: 0, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

it("answers, asks before paying, and goes on once approved", { timeout: 120_000 }, async () => {
  const user = userEvent.setup();
  // useAgentChat suspends while the first transcript loads: render inside act and let it settle.
  await act(async () => render(<App host={`127.0.0.1:${server.port}`} />));
  await screen.findByText("Connection: open", undefined, { timeout: 30_000 });

  await user.type(await screen.findByLabelText("Message"), "pay the invoice");
  await user.click(screen.getByRole("button", { name: "Send" }));

  // The approval card renders under the tool call that asks for it; the turn goes on once approved.
  await user.click(await screen.findByRole("button", { name: "Approve" }, { timeout: 30_000 }));
  await screen.findByText(/processPayment returned/, undefined, { timeout: 30_000 });
});

it("lists a background run in the tray while it goes on after the answer", { timeout: 120_000 }, async () => {
  const user = userEvent.setup();
  await act(async () => render(<App host={`127.0.0.1:${server.port}`} />));
  await screen.findByText("Connection: open", undefined, { timeout: 30_000 });
  // No tray until a run goes on in the background.
  expect(screen.queryByRole("region", { name: "Background runs" })).toBeNull();

  await user.type(await screen.findByLabelText("Message"), "background research on queues");
  await user.click(screen.getByRole("button", { name: "Send" }));

  const tray = await screen.findByRole("region", { name: "Background runs" }, { timeout: 30_000 });
  const [item] = await within(tray).findAllByRole("listitem", undefined, { timeout: 30_000 });
  expect(item?.textContent).toMatch(/Research/);
});
