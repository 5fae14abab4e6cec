/** What AgentToolRun and RunTray say about a run that did not complete, and when they offer Retry. */

import type { AgentToolFailure, AgentToolRunState as RunData } from "@runboard/protocol";
import { AGENT_TOOL_FAILURE_REASON_TEXT } from "@runboard/protocol/view";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunTray } from "../run-tray/run-tray.tsx";
import { AgentToolRun } from "./agent-tool-run.tsx";

afterEach(cleanup);

const run = (runId: string, failure: AgentToolFailure): RunData => ({
  runId,
  agentType: "Verifier",
  order: 0,
  status: failure.malformed ? "error" : failure.status,
  parts: [],
  milestones: [],
  subAgent: { agent: "Verifier", name: runId },
  error: failure.error,
  failure,
  retryable: failure.retryable,
  ...(failure.reason ? { reason: failure.reason } : {}),
  ...(failure.childStillRunning === undefined ? {} : { childStillRunning: failure.childStillRunning }),
});

const failed = run("e", {
  ok: false,
  status: "error",
  error: "Verifier crashed: upstream timeout",
  retryable: false,
});
const cancelled = run("a", {
  ok: false,
  status: "aborted",
  error: "agent tool run was cancelled",
  retryable: false,
});
const interrupted = (reason: keyof typeof AGENT_TOOL_FAILURE_REASON_TEXT, childStillRunning = false) =>
  run(`i-${reason}`, {
    ok: false,
    status: "interrupted",
    error: "sealed",
    retryable: true,
    reason,
    childStillRunning,
  });
const malformed = run("m", {
  ok: false,
  status: "error",
  error: '{"ok":false,"status":"exploded","error":"<b>boom</b>"}',
  retryable: false,
  malformed: true,
});

function One({ data, onRetry }: { data: RunData; onRetry: (r: RunData) => void }) {
  return (
    <AgentToolRun.Root run={data} onRetry={onRetry} onReconnect={() => {}}>
      <AgentToolRun.Title />
      <AgentToolRun.Failure data-testid="failure" />
      <AgentToolRun.Retry />
    </AgentToolRun.Root>
  );
}

describe("AgentToolRun.Failure", () => {
  it("says what happened per status, and offers Retry only when the run is retryable", () => {
    const onRetry = vi.fn();
    const { rerender } = render(<One data={failed} onRetry={onRetry} />);
    const part = () => screen.getByTestId("failure");
    expect(part().textContent).toBe("The helper failed.Verifier crashed: upstream timeout");
    expect(part().getAttribute("data-status")).toBe("error");
    expect(part().hasAttribute("data-retryable")).toBe(false);
    // agents 0.32 calls a failed child not retryable: no Retry (it was offered before).
    expect(screen.getByRole("button", { name: "Retry" }).hasAttribute("disabled")).toBe(true);

    rerender(<One data={cancelled} onRetry={onRetry} />);
    expect(part().textContent).toBe("The helper was cancelled.agent tool run was cancelled");
    expect(screen.getByRole("button", { name: "Retry" }).hasAttribute("disabled")).toBe(true);

    rerender(<One data={interrupted("no-progress")} onRetry={onRetry} />);
    expect(part().textContent).toContain("The helper was interrupted before it finished.");
    expect(part().textContent).toContain("The helper stopped making progress.");
    expect(part().hasAttribute("data-retryable")).toBe(true);
    expect(part().getAttribute("data-reason")).toBe("no-progress");
    screen.getByRole("button", { name: "Retry" }).click();
    expect(onRetry).toHaveBeenCalledTimes(1);

    // A child still running is followed (Reconnect), not run again.
    rerender(<One data={interrupted("inspect-timeout", true)} onRetry={onRetry} />);
    expect(part().hasAttribute("data-child-still-running")).toBe(true);
    expect(screen.getByRole("button", { name: "Retry" }).hasAttribute("disabled")).toBe(true);
  });

  it("has words for every reason", () => {
    for (const [reason, words] of Object.entries(AGENT_TOOL_FAILURE_REASON_TEXT)) {
      render(
        <One data={interrupted(reason as keyof typeof AGENT_TOOL_FAILURE_REASON_TEXT)} onRetry={() => {}} />,
      );
      expect(screen.getByTestId("failure").textContent).toContain(words);
      cleanup();
    }
  });

  it("shows a malformed envelope as a generic failure with its raw text, as text", () => {
    render(<One data={malformed} onRetry={() => {}} />);
    const part = screen.getByTestId("failure");
    expect(part.hasAttribute("data-malformed")).toBe(true);
    expect(part.textContent).toContain("its report could not be read");
    expect(part.textContent).toContain("<b>boom</b>");
    expect(part.querySelector("b")).toBeNull();
  });
});

describe("RunTray.Failure", () => {
  it("each item of the default tray says what happened to its run", () => {
    render(
      <RunTray.Root defaultOpen runs={[failed, cancelled, interrupted("budget-exceeded")]}>
        <RunTray.List />
      </RunTray.Root>,
    );
    const items = screen.getAllByRole("listitem");
    expect(within(items[0] as HTMLElement).getByText("The helper failed.")).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText("The helper was cancelled.")).toBeTruthy();
    expect(within(items[2] as HTMLElement).getByText("The helper used up its budget.")).toBeTruthy();
  });
});
