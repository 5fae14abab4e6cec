/** RunTray.ClearFinished, and RunTray.Link taking a detached dispatch's output to its tray item. */
import type { AgentToolRunState, AgentToolRunStatus } from "@runboard/protocol";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunTray } from "./run-tray.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const run = (runId: string, status: AgentToolRunStatus, agentType = "Researcher"): AgentToolRunState => ({
  runId,
  agentType,
  order: 0,
  status,
  parts: [],
  milestones: [],
  subAgent: { agent: agentType, name: runId },
  ...(status === "error" ? { error: "boom" } : {}),
});
const runs = [run("a", "running"), run("b", "completed", "Summarizer"), run("c", "error", "Crawler")];
const listed = () => screen.queryAllByRole("listitem").map((li) => li.getAttribute("data-run-id"));
const clearButton = () => screen.getByRole("button", { name: /Clear finished|Clearing…/ });

describe("RunTray.ClearFinished", () => {
  it("takes every finished run off the list and is disabled when nothing listed is finished", () => {
    render(
      <RunTray.Root runs={runs} defaultOpen>
        <RunTray.List />
        <RunTray.ClearFinished />
      </RunTray.Root>,
    );
    expect(listed()).toEqual(["a", "b", "c"]);
    expect(clearButton().hasAttribute("disabled")).toBe(false);
    fireEvent.click(clearButton());
    expect(listed()).toEqual(["a"]);
    expect(clearButton().hasAttribute("disabled")).toBe(true);
  });

  it("a failing onClearFinished is called once, leaves the runs, re-enables the button and reports once", async () => {
    let reject: (e: Error) => void = () => {};
    const onClearFinished = vi.fn(
      (_runs: readonly AgentToolRunState[]) => new Promise((_, r) => (reject = r)),
    );
    const onClearError = vi.fn();
    render(
      <RunTray.Root runs={runs} defaultOpen onClearFinished={onClearFinished} onClearError={onClearError}>
        <RunTray.List />
        <RunTray.ClearFinished />
      </RunTray.Root>,
    );
    fireEvent.click(clearButton());
    fireEvent.click(clearButton());
    expect(onClearFinished).toHaveBeenCalledTimes(1);
    expect(onClearFinished.mock.calls[0]?.[0].map((r) => r.runId)).toEqual(["b", "c"]);
    expect(clearButton().textContent).toBe("Clearing…");
    expect(clearButton().hasAttribute("disabled")).toBe(true);
    await act(async () => reject(new Error("callable failed")));
    expect(onClearError).toHaveBeenCalledTimes(1);
    expect(listed()).toEqual(["a", "b", "c"]);
    expect(clearButton().textContent).toBe("Clear finished");
    expect(clearButton().hasAttribute("disabled")).toBe(false);
  });
});

describe("RunTray.Link", () => {
  it("opens the tray holding the run, scrolls its item into view and focuses it", () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const output = { runId: "b", agentType: "Summarizer", status: "running" };
    render(
      <>
        <RunTray.Link output={output} />
        <RunTray.Link output={{ runId: "zzz", status: "running" }}>elsewhere</RunTray.Link>
        <RunTray.Link output={{ text: "not a dispatch" }}>never</RunTray.Link>
        <RunTray.Root runs={runs} data-testid="tray">
          <RunTray.List />
        </RunTray.Root>
      </>,
    );
    expect(screen.queryByRole("button", { name: "never" })).toBeNull();
    expect(screen.getByTestId("tray").getAttribute("data-state")).toBe("closed");
    fireEvent.click(screen.getByRole("button", { name: "Show Summarizer in background runs" }));
    expect(screen.getByTestId("tray").getAttribute("data-state")).toBe("open");
    const item = document.activeElement as HTMLElement;
    expect(item.getAttribute("data-run-id")).toBe("b");
    expect(item.id).toBe("rb-run-b");
    expect(scrolled).toHaveBeenCalledTimes(1);
    const other = screen.getByRole("button", { name: "elsewhere" });
    fireEvent.click(other);
    expect(other.hasAttribute("data-missing")).toBe(true);
  });
});
