/**
 * Issue 15 §1/§2 against the mock: the playground's tray shows a background run the agent gave up on
 * ("background crawl": interrupted, `window-exceeded`, its child stopped) in words, with Retry enabled; Retry
 * calls the agent's `retryAgentTool`, which re-dispatches the same run id, and the run finishes in place.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { useAgent, useAgentChat, useAgentToolEvents } from "@runboard/react";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { Tray } from "./tray.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

function App({ name, box }: { name: string; box: { send?: (t: string) => void } }) {
  const agent = useAgent<Record<string, unknown>>({
    agent: "ChatAgent",
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  box.send = (text) => void chat.sendMessage({ text });
  return (
    <>
      <output data-testid="conn">{agent.status}</output>
      <Tray runs={runs} onDrillIn={() => {}} />
    </>
  );
}

const until = (fn: () => void) => waitFor(fn, { timeout: 30_000 });

describe("playground tray against the mock", () => {
  it("an interrupted background run says why, and Retry finishes the same run", {
    timeout: 120_000,
  }, async () => {
    const user = userEvent.setup();
    const box: { send?: (t: string) => void } = {};
    await act(async () => {
      render(<App name={`tray-${Date.now().toString(36)}`} box={box} />);
    });
    await until(() => expect(screen.getByTestId("conn").textContent).toBe("open"));
    await act(async () => box.send?.("background crawl of the shop"));
    const item = await screen.findByRole("listitem", { name: "Crawler" }, { timeout: 30_000 });
    await until(() => expect(item.getAttribute("data-status")).toBe("interrupted"));
    expect(within(item).getByText("Interrupted")).toBeTruthy();
    expect(within(item).getByText("The crawl ran past its 10 minute window and was stopped.")).toBeTruthy();
    // The reason in words, and the recovery the run calls for: Retry (its child stopped), no Reconnect.
    expect(within(item).getByText("The run took longer than its time window.")).toBeTruthy();
    expect(item.textContent).toContain("Crawled 30 of 100 pages");
    expect(within(item).queryByRole("button", { name: /^Reconnect/ })).toBeNull();
    const retry = within(item).getByRole("button", { name: "Retry Crawler" }) as HTMLButtonElement;
    expect(retry.disabled).toBe(false);
    const runId = item.id;
    await user.click(retry);
    await until(() => expect(item.getAttribute("data-status")).toBe("completed"));
    // The same item (same run id) now carries the crawl's summary; nothing is left to retry.
    expect(item.id).toBe(runId);
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    expect(within(item).getByText("Crawled 100 pages; 3 links are broken.")).toBeTruthy();
    // Its last progress line from before the interruption no longer reads as if it still crawled.
    expect(item.textContent).not.toContain("Crawled 30 of 100 pages");
    expect(within(item).queryByRole("button", { name: /^Retry/ })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
