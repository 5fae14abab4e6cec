/**
 * Issue 15 §4: the playground's run card shows the levels of the mock's "nested" demo. Expanding the Planner
 * opens its child's connection and shows the Researcher it dispatched; expanding that shows the FactChecker.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { useAgent, useAgentChat, useAgentToolEvents } from "@runboard/react";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { FollowAddressContext, RunView } from "./run-view.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

function Runs({ name, box, word = "nested" }: { name: string; box: { send?: () => void }; word?: string }) {
  const address = { agent: "ChatAgent", name, host: `127.0.0.1:${server.port}`, WebSocket };
  const agent = useAgent(address);
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  box.send = () => void chat.sendMessage({ text: word });
  const renderPart = (part: { type: string; text?: string }) =>
    part.type === "text" ? <p>{part.text}</p> : null;
  return (
    <FollowAddressContext.Provider value={address}>
      <output data-testid="conn">{agent.status}</output>
      {Object.values(runs.runsById).map((run) => (
        <RunView key={run.runId} store={runs.store} run={run} renderPart={renderPart} />
      ))}
    </FollowAddressContext.Provider>
  );
}

const until = (fn: () => void) => waitFor(fn, { timeout: 30_000 });

describe("RunView with nested runs", () => {
  it("expanding shows each level the children dispatched", { timeout: 120_000 }, async () => {
    const box: { send?: () => void } = {};
    await act(async () => {
      render(<Runs name={`pg-nested-${Date.now().toString(36)}`} box={box} />);
    });
    await until(() => expect(screen.getByTestId("conn").textContent).toBe("open"));
    await act(async () => box.send?.());
    const planner = await screen.findByRole("group", { name: "Planner" }, { timeout: 30_000 });
    await until(() => expect(planner.getAttribute("data-status")).toBe("completed"));
    await until(() => expect(planner.getAttribute("data-state")).toBe("closed"));
    await userEvent.click(within(planner).getAllByRole("button", { name: "Details" })[0] as HTMLElement);
    const researcher = await within(planner).findByRole("group", { name: "Researcher" }, { timeout: 30_000 });
    await userEvent.click(within(researcher).getAllByRole("button", { name: "Details" })[0] as HTMLElement);
    const checker = await within(researcher).findByRole(
      "group",
      { name: "FactChecker" },
      { timeout: 30_000 },
    );
    expect(checker.getAttribute("data-depth")).toBe("2");
    // A nested run's child is not the app agent's child: no drill-in button for it.
    expect(within(checker).queryByRole("button", { name: "Open the helper's chat" })).toBeNull();
  });
});

describe("RunView as a person reads a finished run", () => {
  it("names the helper once, reads its result as paragraphs, and keeps progress and milestones behind Details", {
    timeout: 120_000,
  }, async () => {
    const box: { send?: () => void } = {};
    await act(async () => {
      render(
        <Runs name={`pg-research-${Date.now().toString(36)}`} box={box} word="research durable objects" />,
      );
    });
    await until(() => expect(screen.getByTestId("conn").textContent).toBe("open"));
    await act(async () => box.send?.());
    const card = await screen.findByRole("group", { name: "Researcher" }, { timeout: 30_000 });
    await until(() => expect(card.getAttribute("data-status")).toBe("completed"));
    await until(() => expect(card.getAttribute("data-state")).toBe("closed"));
    const header = card.querySelector(".run-header") as HTMLElement;
    // "Researcher Researcher" before: the display name and the class name are the same here.
    expect(header.textContent?.match(/Researcher/g)).toHaveLength(1);
    // The status glyph is drawn, not an emoji the browser may have no font for.
    expect(header.querySelector("svg.status-icon")?.getAttribute("data-status")).toBe("completed");
    expect(header.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(card.querySelector(".run-result pre")?.textContent).toBe(
      "Researching now.\n\nSummary: found 2 sources; durable objects give each agent its own SQLite.",
    );
    // Finished: no progress bar nor milestone list in sight until Details.
    const seen = (sel: string) => [...card.querySelectorAll(sel)].filter((el) => !el.closest("[hidden]"));
    expect(seen('[role="progressbar"]')).toHaveLength(0);
    expect(seen(".timeline li")).toHaveLength(0);
    await userEvent.click(within(card).getAllByRole("button", { name: "Details" })[0] as HTMLElement);
    expect(seen('[role="progressbar"]').length).toBeGreaterThan(0);
    expect(seen(".timeline li")[0]?.textContent).toContain("sources-gathered");
  });
});
