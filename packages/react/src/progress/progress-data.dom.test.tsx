/** Progress.Data: the progress's own data through a render prop, from a run or given. */
import type { AgentToolRunState } from "@runboard/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AgentToolRun as Run } from "../agent-tool-run/agent-tool-run.tsx";
import { Progress } from "./progress.tsx";

afterEach(cleanup);

const run = (data: unknown): AgentToolRunState => ({
  runId: "r1",
  agentType: "FactChecker",
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "FactChecker", name: "r1" },
  progress: { fraction: 0.5, data, at: 1 },
});

describe("Progress.Data", () => {
  it("renders a run's progress data through the render prop, inside the run's Progress part", () => {
    render(
      <Run.Root run={run({ checked: 3, total: 8, claim: "<b>sky</b>" })}>
        <Run.Progress>
          <Progress.Indicator />
          <Progress.Data data-testid="data">
            {(d) => {
              const { checked, total, claim } = d as { checked: number; total: number; claim: string };
              return `${checked} of ${total}: ${claim}`;
            }}
          </Progress.Data>
        </Run.Progress>
      </Run.Root>,
    );
    const el = screen.getByTestId("data");
    expect(el.textContent).toBe("3 of 8: <b>sky</b>");
    expect(el.querySelector("b")).toBeNull();
    expect(el.getAttribute("data-state")).toBe("loading");
  });

  it("shows data as bounded text by default, and nothing without data", () => {
    const { rerender } = render(
      <Progress.Root aria-label="Work" value={0.2} data={{ step: "x".repeat(300) }}>
        <Progress.Data data-testid="data" />
      </Progress.Root>,
    );
    const text = screen.getByTestId("data").textContent ?? "";
    expect(text.startsWith('{"step":"xxx')).toBe(true);
    expect(text.length).toBe(200);
    rerender(
      <Progress.Root aria-label="Work" value={0.2}>
        <Progress.Data data-testid="data" />
      </Progress.Root>,
    );
    expect(screen.queryByTestId("data")).toBeNull();
  });
});
