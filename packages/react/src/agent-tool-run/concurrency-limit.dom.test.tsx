/** A dispatch the agent's `maxConcurrentAgentTools` refused says so in words, in AgentToolRun and RunTray. */
import type { AgentToolRunState as RunData } from "@runboard/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunTray } from "../run-tray/run-tray.tsx";
import { AgentToolRun } from "./agent-tool-run.tsx";

afterEach(cleanup);

// What agents 0.32 sends for a refused dispatch: `started`, then an `error` event with this text.
const refused: RunData = {
  runId: "r-limit",
  agentType: "Researcher",
  order: 0,
  status: "error",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: "r-limit" },
  error: "maxConcurrentAgentTools (2) exceeded",
};

describe("a run refused by the concurrency limit", () => {
  it("AgentToolRun.Failure says it was not started and why, with the limit", () => {
    render(
      <AgentToolRun.Root run={refused}>
        <AgentToolRun.Failure data-testid="failure" />
      </AgentToolRun.Root>,
    );
    const part = screen.getByTestId("failure");
    expect(part.textContent).toContain("The helper was not started.");
    expect(part.textContent).toContain("The agent runs at most 2 helpers at once and all were busy");
    expect(part.getAttribute("data-reason")).toBe("concurrency-limit");
  });

  it("RunTray's default item says the same", () => {
    render(
      <RunTray.Root runs={[refused]} defaultOpen>
        <RunTray.List />
      </RunTray.Root>,
    );
    expect(screen.getByRole("listitem").textContent).toContain("The helper was not started.");
  });
});
