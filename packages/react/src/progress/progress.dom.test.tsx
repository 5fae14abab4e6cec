/** Progress: what assistive technology reads in each state, and what CSS gets to draw the bar. */
import type { AgentToolRunState } from "@runboard/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Progress, type ProgressRootProps } from "./progress.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Bar(props: ProgressRootProps) {
  return (
    <Progress.Root aria-label="Fact check" {...props}>
      <Progress.Indicator data-testid="indicator" />
    </Progress.Root>
  );
}

const attrs = (el: HTMLElement, ...names: string[]) =>
  Object.fromEntries(names.map((n) => [n, el.getAttribute(n)]));

const run = (extra: Partial<AgentToolRunState>): AgentToolRunState => ({
  runId: "r1",
  agentType: "FactChecker",
  display: { name: "Fact checker" },
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "FactChecker", name: "r1" },
  ...extra,
});

describe("Progress", () => {
  it("indeterminate: a named progressbar that claims no value", () => {
    render(<Bar message="Starting" />);
    const bar = screen.getByRole("progressbar", { name: "Fact check" });
    expect(bar.hasAttribute("aria-valuenow")).toBe(false);
    expect(bar.hasAttribute("aria-valuemin")).toBe(false);
    expect(bar.hasAttribute("aria-valuemax")).toBe(false);
    expect(attrs(bar, "aria-valuetext", "data-state", "data-value", "data-max")).toEqual({
      "aria-valuetext": "Starting",
      "data-state": "indeterminate",
      "data-value": null,
      "data-max": "1",
    });
    const indicator = screen.getByTestId("indicator");
    expect(indicator.getAttribute("data-state")).toBe("indeterminate");
    expect(indicator.style.getPropertyValue("--rb-progress")).toBe("");
  });

  it("loading: 0..100 with the phase and message spoken, the fraction for CSS", () => {
    render(<Bar value={0.4} phase="comparing" message="Comparing 3 sources" />);
    const bar = screen.getByRole("progressbar");
    expect(attrs(bar, "aria-valuemin", "aria-valuemax", "aria-valuenow", "aria-valuetext")).toEqual({
      "aria-valuemin": "0",
      "aria-valuemax": "100",
      "aria-valuenow": "40",
      "aria-valuetext": "comparing: Comparing 3 sources, 40%",
    });
    expect(attrs(bar, "data-state", "data-value")).toEqual({ "data-state": "loading", "data-value": "0.4" });
    const indicator = screen.getByTestId("indicator");
    expect(indicator.getAttribute("data-value")).toBe("0.4");
    expect(indicator.style.getPropertyValue("--rb-progress")).toBe("0.4");
    // Only the custom property: the look is the app's.
    expect(indicator.getAttribute("style")?.replace(/\s/g, "")).toBe("--rb-progress:0.4;");
  });

  it("moves indeterminate → loading → complete as values arrive", () => {
    const { rerender } = render(<Bar />);
    const bar = screen.getByRole("progressbar");
    const states = [bar.getAttribute("data-state")];
    rerender(<Bar value={0.25} />);
    states.push(bar.getAttribute("data-state"));
    rerender(<Bar value={1} />);
    states.push(bar.getAttribute("data-state"));
    expect(states).toEqual(["indeterminate", "loading", "complete"]);
    expect(bar.getAttribute("aria-valuenow")).toBe("100");
    expect(screen.getByTestId("indicator").getAttribute("data-state")).toBe("complete");
  });

  it("complete prop: full whatever the last fraction, or with none", () => {
    const { rerender } = render(<Bar value={0.6} complete />);
    const bar = screen.getByRole("progressbar");
    expect(attrs(bar, "data-state", "aria-valuenow", "data-value")).toEqual({
      "data-state": "complete",
      "aria-valuenow": "100",
      "data-value": "1",
    });
    rerender(<Bar complete />);
    expect(bar.getAttribute("aria-valuenow")).toBe("100");
  });

  it("run: value, phase and message from its progress, named after it, complete when it completed", () => {
    const r = run({ progress: { fraction: 0.5, phase: "comparing", message: "Comparing 3 sources", at: 1 } });
    const { rerender } = render(
      <Progress.Root run={r}>
        <Progress.Indicator />
      </Progress.Root>,
    );
    const bar = screen.getByRole("progressbar", { name: "Fact checker progress" });
    expect(bar.getAttribute("aria-valuetext")).toBe("comparing: Comparing 3 sources, 50%");
    rerender(<Progress.Root run={{ ...r, status: "completed" }} />);
    expect(attrs(bar, "data-state", "aria-valuenow")).toEqual({
      "data-state": "complete",
      "aria-valuenow": "100",
    });
    // Explicit props win over the run: an own name, and null to force indeterminate.
    rerender(<Progress.Root run={r} value={null} aria-label="Checking" />);
    expect(screen.getByRole("progressbar", { name: "Checking" }).hasAttribute("aria-valuenow")).toBe(false);
  });

  it("a run that failed keeps its last fraction rather than showing complete", () => {
    render(<Progress.Root run={run({ status: "error", progress: { fraction: 0.3, at: 1 } })} />);
    expect(screen.getByRole("progressbar").getAttribute("data-state")).toBe("loading");
  });

  it("getValueLabel replaces the spoken value", () => {
    render(<Bar value={0.5} getValueLabel={({ value }) => `${(value ?? 0) * 10} of 10 pages`} />);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("5 of 10 pages");
  });

  it("clamps bad values with one dev warning that names the part and the fix", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { rerender } = render(<Bar value={40} />);
    const bar = screen.getByRole("progressbar");
    expect(attrs(bar, "aria-valuenow", "data-state")).toEqual({
      "aria-valuenow": "100",
      "data-state": "complete",
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Progress\.Root value got 40.*such as 0\.4.*between 0 and 1/);
    rerender(<Bar value={-1} />);
    expect(attrs(bar, "aria-valuenow", "data-state")).toEqual({
      "aria-valuenow": "0",
      "data-state": "loading",
    });
    rerender(<Bar value={Number.NaN} />);
    expect(bar.getAttribute("data-state")).toBe("indeterminate");
    expect(bar.hasAttribute("aria-valuenow")).toBe(false);
  });

  it("warns when the bar has no accessible name", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    render(<Progress.Root value={0.5} />);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/Progress\.Root has no accessible name\. Pass aria-label/),
    ]);
  });

  it("asChild renders the app's own element with the progressbar semantics", () => {
    render(
      <Progress.Root value={0.2} aria-label="Upload" asChild>
        <section className="mine" />
      </Progress.Root>,
    );
    const bar = screen.getByRole("progressbar", { name: "Upload" });
    expect(bar.tagName).toBe("SECTION");
    expect(bar.className).toBe("mine");
  });

  it("Indicator outside Root fails with a message naming both", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<Progress.Indicator />)).toThrow(
      "<Progress.Indicator> must be rendered inside <Progress.Root>",
    );
  });
});
