/**
 * RunTray from run snapshots (every transition, with fake timers where time matters) and from a real
 * `AgentToolRuns` store fed agent-tool frames, as `useAgentToolEvents` gives them to an app.
 */
import type { AgentToolEvent, AgentToolEventFrame, AgentToolRunState } from "@runboard/protocol";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useRunCancel } from "../agent-tool-run/run-hooks.ts";
import { useAgentToolEvents } from "../use-agent-tool-events.ts";
import { RunTray, type RunTrayRootProps } from "./run-tray.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const run = (runId: string, extra: Partial<AgentToolRunState> = {}): AgentToolRunState => ({
  runId,
  agentType: "Researcher",
  display: { name: "Research" },
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: runId },
  ...extra,
});

type TrayProps = Omit<RunTrayRootProps, "runs"> & { runs: readonly AgentToolRunState[] };

function Tray(props: TrayProps) {
  return (
    <RunTray.Root defaultOpen {...props}>
      <RunTray.Trigger>
        Background runs <RunTray.Badge data-testid="badge" />
      </RunTray.Trigger>
      <RunTray.List />
      <RunTray.Empty />
      <RunTray.Announcer />
    </RunTray.Root>
  );
}

/** An agent whose `call` the test settles by hand. */
function fakeAgent() {
  const calls: { method: string; args: unknown[] | undefined }[] = [];
  const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const call = vi.fn((method: string, args?: unknown[]) => {
    calls.push({ method, args });
    return new Promise<unknown>((resolve, reject) => pending.push({ resolve, reject }));
  });
  return { agent: { call }, call, calls, pending };
}

/** Invokes the cancel action twice in one handler, before React can re-render. */
function DoublePress() {
  const cancel = useRunCancel();
  return (
    <button
      type="button"
      onClick={() => {
        cancel?.();
        cancel?.();
      }}
    >
      Twice
    </button>
  );
}

/** Just enough of an agent connection: frames in through "message" events, callables out through `call`. */
class FrameAgent extends EventTarget {
  call = vi.fn(async (_method: string, _args?: unknown[]) => true);
  frame(sequence: number, event: AgentToolEvent) {
    const f: AgentToolEventFrame = { type: "agent-tool-event", sequence, event };
    act(() => {
      this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) }));
    });
  }
}

function AppTray({ agent }: { agent: FrameAgent }) {
  const { unboundRuns } = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  return <Tray runs={unboundRuns} agent={agent} />;
}

const item = (name: string) => screen.getByRole("listitem", { name });
const statusOf = (li: HTMLElement) => li.querySelector("[data-status]:not(li)")?.textContent;

describe("RunTray structure", () => {
  // First in the file: a dev warning is printed once per page, and later tests render Cancel without config too.
  it("Cancel is disabled, with a dev warning, when the root has nothing to call", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    render(<Tray runs={[run("a")]} />);
    expect(screen.getByRole("button", { name: "Cancel Research" }).hasAttribute("disabled")).toBe(true);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining("RunTray.Cancel has nothing to call: pass onCancel, or agent"),
    ]);
  });

  it("is a named region with a disclosure trigger, an active-run badge and named items", async () => {
    const runs = [
      run("a", {
        display: { name: "Research", icon: "🔎" },
        progress: { fraction: 0.5, phase: "reading", message: "Reading 2 sources", at: 1 },
        milestones: [
          { name: "draft", sequence: 1, at: 2 },
          { name: "sources-gathered", sequence: 0, at: 1 },
        ],
      }),
      run("b", { display: { name: "Fact check" } }),
      run("c", { display: { name: "Summary" }, status: "completed", summary: "ok" }),
    ];
    render(<Tray runs={runs} defaultOpen={false} agent={fakeAgent().agent} />);
    const region = screen.getByRole("region", { name: "Background runs" });
    expect(region.tagName).toBe("SECTION");
    expect([region.dataset.state, region.dataset.count, region.dataset.active]).toEqual(["closed", "3", "2"]);
    const trigger = screen.getByRole("button", { name: "Background runs 2" });
    const badge = screen.getByTestId("badge");
    expect([badge.textContent, badge.dataset.count, badge.hidden]).toEqual(["2", "2", false]);
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    const list = document.getElementById(trigger.getAttribute("aria-controls") ?? "");
    expect(list?.tagName).toBe("UL");
    expect(list?.hidden).toBe(true);
    expect(screen.queryAllByRole("listitem")).toHaveLength(0);

    await userEvent.click(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(region.dataset.state).toBe("open");
    expect(list?.hidden).toBe(false);
    const research = item("Research");
    expect([research.dataset.status, research.dataset.runId]).toEqual(["running", "a"]);
    const r = within(research);
    expect(statusOf(research)).toBe("Running");
    // The icon sits before the title, hidden from the accessible name.
    const title = r.getByText("Research");
    expect(title.previousElementSibling?.textContent).toBe("🔎");
    expect(r.getByText("🔎").getAttribute("aria-hidden")).toBe("true");
    expect(r.getByText("reading")).toBeTruthy();
    expect(r.getByText("Reading 2 sources")).toBeTruthy();
    const bar = r.getByRole("progressbar", { name: "Research progress" });
    expect(bar.getAttribute("aria-valuetext")).toBe("reading: Reading 2 sources, 50%");
    const chips = r.getByRole("list", { name: "Research milestones" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((li) => [li.textContent, li.dataset.current]),
    ).toEqual([
      ["sources-gathered", undefined],
      ["draft", ""],
    ]);
    expect(r.getByRole("button", { name: "Cancel Research" }).hasAttribute("disabled")).toBe(false);
    // A running run cannot be dismissed, and no drill-in without onDrillIn.
    expect(r.queryByRole("button", { name: /Dismiss/ })).toBeNull();
    expect(r.queryByRole("button", { name: /Open/ })).toBeNull();
    const summary = within(item("Summary"));
    expect(summary.getByRole("button", { name: "Cancel Summary" }).hasAttribute("disabled")).toBe(true);
    expect(summary.getByRole("button", { name: "Dismiss Summary" })).toBeTruthy();
    expect(summary.getByRole("progressbar").getAttribute("data-state")).toBe("complete");

    await userEvent.click(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
  });

  it("hides the badge at zero and shows Empty only while open with nothing listed", async () => {
    const onOpenChange = vi.fn();
    const { rerender } = render(<Tray runs={[]} defaultOpen={false} onOpenChange={onOpenChange} />);
    const badge = screen.getByTestId("badge");
    expect([badge.hidden, badge.dataset.empty]).toEqual([true, ""]);
    expect(screen.getByRole("region").dataset.empty).toBe("");
    expect(screen.queryByText("No background runs")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Background runs" }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(screen.getByText("No background runs")).toBeTruthy();
    rerender(<Tray runs={[run("a")]} defaultOpen={false} onOpenChange={onOpenChange} />);
    expect(screen.queryByText("No background runs")).toBeNull();
    expect(badge.hidden).toBe(false);
  });

  it("shows a failed run's error as text, and none for running or completed runs", () => {
    render(
      <Tray
        runs={[
          run("a", { status: "error", error: "<b>upstream</b> timeout" }),
          run("b", { display: { name: "Other" }, error: "stale" }),
        ]}
      />,
    );
    const error = within(item("Research")).getByText("<b>upstream</b> timeout");
    // The default item says it in the Failure part: a headline, then the server's text (never as HTML).
    expect([error.tagName, error.parentElement?.dataset.status, error.children.length]).toEqual([
      "P",
      "error",
      0,
    ]);
    expect(within(item("Research")).getByText("The helper failed.")).toBeTruthy();
    expect(statusOf(item("Research"))).toBe("Failed");
    expect(within(item("Other")).queryByText("stale")).toBeNull();
  });

  it("List takes nodes as the entry for every run, each in its run's scope", () => {
    render(
      <RunTray.Root runs={[run("a"), run("b", { display: { name: "Other" } })]} defaultOpen>
        <RunTray.List>
          <RunTray.Item className="entry">
            <RunTray.Title />
          </RunTray.Item>
        </RunTray.List>
      </RunTray.Root>,
    );
    const list = screen.getByRole("list");
    expect(list.dataset.count).toBe("2");
    expect(screen.getAllByRole("listitem").map((li) => [li.className, li.textContent])).toEqual([
      ["entry", "Research"],
      ["entry", "Other"],
    ]);
  });

  it("controlled open: the parent decides", async () => {
    const onOpenChange = vi.fn();
    render(<Tray runs={[run("a")]} open={false} onOpenChange={onOpenChange} />);
    await userEvent.click(screen.getByRole("button", { name: /Background runs/ }));
    expect(onOpenChange).toHaveBeenCalledWith(true);
    expect(screen.getByRole("button", { name: /Background runs/ }).getAttribute("aria-expanded")).toBe(
      "false",
    );
  });

  it("names the part and the fix when used outside its root", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<RunTray.Trigger />)).toThrow(
      "<RunTray.Trigger> must be rendered inside <RunTray.Root>",
    );
    expect(() =>
      render(
        <RunTray.Root runs={[]}>
          <RunTray.Cancel />
        </RunTray.Root>,
      ),
    ).toThrow("<RunTray.Cancel> must be rendered inside <RunTray.List>");
  });
});

describe("RunTray stall and elapsed time", () => {
  it("shows Stalled after stallAfterMs without a signal, and drops it when one arrives", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const a = run("a", { progress: { fraction: 0.2, at: 0 } });
    const done = run("d", { display: { name: "Done" }, status: "completed" });
    const { rerender } = render(<Tray runs={[a, done]} stallAfterMs={5000} />);
    act(() => vi.advanceTimersByTime(4999));
    expect(item("Research").dataset.stalled).toBeUndefined();
    expect(screen.queryByText("No update for 5 seconds")).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(item("Research").dataset.stalled).toBe("");
    expect(within(item("Research")).getByText("No update for 5 seconds")).toBeTruthy();
    // A new run object is a frame for that run: a signal.
    const tick = { ...a, progress: { fraction: 0.3, at: 5000 } };
    rerender(<Tray runs={[tick, done]} stallAfterMs={5000} />);
    expect(item("Research").dataset.stalled).toBeUndefined();
    expect(screen.queryByText("No update for 5 seconds")).toBeNull();
    act(() => vi.advanceTimersByTime(5000));
    expect(item("Research").dataset.stalled).toBe("");
    // A finished run is never stalled, however quiet.
    expect(item("Done").dataset.stalled).toBeUndefined();
    rerender(<Tray runs={[{ ...tick, status: "completed" }, done]} stallAfterMs={5000} />);
    expect(screen.queryByText("No update for 5 seconds")).toBeNull();
  });

  it("a signal to another run does not reset this run's stall clock", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const a = run("a");
    const b = run("b", { display: { name: "Other" } });
    const { rerender } = render(<Tray runs={[a, b]} stallAfterMs={3000} />);
    act(() => vi.advanceTimersByTime(2000));
    rerender(<Tray runs={[a, { ...b, progress: { fraction: 0.1, at: 1 } }]} stallAfterMs={3000} />);
    act(() => vi.advanceTimersByTime(1000));
    expect(item("Research").dataset.stalled).toBe("");
    expect(item("Other").dataset.stalled).toBeUndefined();
  });

  it("stallAfterMs 0 turns stall detection off", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    render(<Tray runs={[run("a")]} stallAfterMs={0} />);
    act(() => vi.advanceTimersByTime(600_000));
    expect(item("Research").dataset.stalled).toBeUndefined();
  });

  it("counts elapsed time from first sight and stops it at the end; none for a run first seen finished", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const a = run("a");
    const old = run("o", { display: { name: "Old" }, status: "completed" });
    const { rerender } = render(<Tray runs={[a, old]} />);
    act(() => vi.advanceTimersByTime(65_000));
    const time = within(item("Research")).getByText("1:05");
    expect(time.tagName).toBe("TIME");
    expect(time.getAttribute("datetime")).toBe("PT1M5S");
    rerender(<Tray runs={[{ ...a, status: "completed" }, old]} />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(within(item("Research")).getByText("1:05")).toBeTruthy();
    expect(item("Old").querySelector("time")).toBeNull();
  });
});

describe("RunTray cancel", () => {
  it("calls agent.call(cancelAgentTool, [runId, reason]) once, however often it is pressed", async () => {
    const { agent, call, pending } = fakeAgent();
    const a = run("a");
    const { rerender } = render(
      <StrictMode>
        <Tray runs={[a]} agent={agent} cancelReason="No longer needed" />
      </StrictMode>,
    );
    const cancel = screen.getByRole("button", { name: "Cancel Research" });
    await userEvent.click(cancel);
    await userEvent.click(cancel);
    fireEvent.click(cancel);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("cancelAgentTool", ["a", "No longer needed"]);
    const li = item("Research");
    expect([li.dataset.cancelling, li.dataset.trayStatus, li.dataset.status]).toEqual([
      "",
      "cancelling",
      "running",
    ]);
    expect(statusOf(li)).toBe("Cancelling…");
    expect(cancel.hasAttribute("disabled")).toBe(true);
    expect(cancel.dataset.cancelling).toBe("");

    // The call answered, but the run has not ended yet: still cancelling.
    await act(async () => pending[0]?.resolve(true));
    expect(statusOf(item("Research"))).toBe("Cancelling…");
    // A progress tick in between changes nothing.
    rerender(
      <StrictMode>
        <Tray
          runs={[{ ...a, progress: { fraction: 0.4, at: 1 } }]}
          agent={agent}
          cancelReason="No longer needed"
        />
      </StrictMode>,
    );
    expect(statusOf(item("Research"))).toBe("Cancelling…");
    rerender(
      <StrictMode>
        <Tray runs={[{ ...a, status: "aborted" }]} agent={agent} cancelReason="No longer needed" />
      </StrictMode>,
    );
    expect(statusOf(item("Research"))).toBe("Cancelled");
    expect(item("Research").dataset.cancelling).toBeUndefined();
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("sends one call even when the action is invoked twice before React re-renders", () => {
    const { agent, call } = fakeAgent();
    render(
      <RunTray.Root runs={[run("a")]} agent={agent} defaultOpen>
        <RunTray.List>
          {() => (
            <RunTray.Item>
              <DoublePress />
            </RunTray.Item>
          )}
        </RunTray.List>
      </RunTray.Root>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Twice" }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("cancelAgentTool", ["a", "Cancelled by the user"]);
  });

  it("goes back to running and reports through onError when the call fails; it can be pressed again", async () => {
    const { agent, call, pending } = fakeAgent();
    const onError = vi.fn();
    const a = run("a");
    render(<Tray runs={[a]} agent={agent} cancelMethod="cancelRun" onError={onError} />);
    await userEvent.click(screen.getByRole("button", { name: "Cancel Research" }));
    expect(call).toHaveBeenCalledWith("cancelRun", ["a", "Cancelled by the user"]);
    const failure = new Error("Method cancelRun is not callable");
    await act(async () => pending[0]?.reject(failure));
    expect(onError).toHaveBeenCalledWith(failure, a);
    const li = item("Research");
    expect([statusOf(li), li.dataset.cancelling]).toEqual(["Running", undefined]);
    const cancel = screen.getByRole("button", { name: "Cancel Research" });
    expect(cancel.hasAttribute("disabled")).toBe(false);
    await userEvent.click(cancel);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("onCancel wins over agent; a synchronous throw is a failure too", async () => {
    const { agent, call } = fakeAgent();
    const onCancel = vi.fn(() => {
      throw new Error("nope");
    });
    const onError = vi.fn();
    render(<Tray runs={[run("a")]} agent={agent} onCancel={onCancel} onError={onError} />);
    await userEvent.click(screen.getByRole("button", { name: "Cancel Research" }));
    expect(onCancel).toHaveBeenCalledWith(expect.objectContaining({ runId: "a" }));
    expect(call).not.toHaveBeenCalled();
    await act(async () => {});
    expect(onError).toHaveBeenCalledWith(new Error("nope"), expect.objectContaining({ runId: "a" }));
    expect(statusOf(item("Research"))).toBe("Running");
  });

  it("closing or unmounting the tray never cancels, even with a cancel on its way", async () => {
    const { agent, call } = fakeAgent();
    const { unmount } = render(
      <Tray runs={[run("a"), run("b", { display: { name: "Other" } })]} agent={agent} />,
    );
    await userEvent.click(screen.getByRole("button", { name: "Cancel Other" }));
    expect(call).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole("button", { name: /Background runs/ }));
    expect(screen.queryAllByRole("listitem")).toHaveLength(0);
    unmount();
    await act(async () => {});
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[1]).toEqual(["b", "Cancelled by the user"]);
  });
});

describe("RunTray dismiss", () => {
  const runs = [run("a"), run("b", { display: { name: "Fact check" }, status: "completed" })];

  it("uncontrolled: only finished runs can be dismissed; focus returns to the trigger", async () => {
    const onDismissedChange = vi.fn();
    const { rerender } = render(<Tray runs={runs} onDismissedChange={onDismissedChange} />);
    expect(within(item("Research")).queryByRole("button", { name: /Dismiss/ })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Dismiss Fact check" }));
    expect(onDismissedChange).toHaveBeenCalledWith(["b"]);
    expect(screen.queryByRole("listitem", { name: "Fact check" })).toBeNull();
    expect(screen.getByRole("region").dataset.count).toBe("1");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: /Background runs/ }));
    // The running one finishes: now it can go too, and the tray is empty.
    rerender(
      <Tray runs={[{ ...runs[0]!, status: "completed" }, runs[1]!]} onDismissedChange={onDismissedChange} />,
    );
    await userEvent.click(screen.getByRole("button", { name: "Dismiss Research" }));
    expect(onDismissedChange).toHaveBeenLastCalledWith(["b", "a"]);
    expect(screen.getByText("No background runs")).toBeTruthy();
  });

  it("controlled: reports the new list and shows what the parent says", async () => {
    const onDismissedChange = vi.fn();
    const { rerender } = render(<Tray runs={runs} dismissed={[]} onDismissedChange={onDismissedChange} />);
    await userEvent.click(screen.getByRole("button", { name: "Dismiss Fact check" }));
    expect(onDismissedChange).toHaveBeenCalledWith(["b"]);
    expect(screen.getByRole("listitem", { name: "Fact check" })).toBeTruthy();
    rerender(<Tray runs={runs} dismissed={["b"]} onDismissedChange={onDismissedChange} />);
    expect(screen.queryByRole("listitem", { name: "Fact check" })).toBeNull();
    // A dismissed id whose run is running is still shown: nothing running disappears.
    rerender(<Tray runs={runs} dismissed={["a", "b"]} onDismissedChange={onDismissedChange} />);
    expect(screen.getByRole("listitem", { name: "Research" })).toBeTruthy();
  });

  it("defaultDismissed hides those finished runs from the start", () => {
    render(<Tray runs={runs} defaultDismissed={["b"]} />);
    expect(screen.getAllByRole("listitem").map((li) => li.getAttribute("aria-label"))).toEqual(["Research"]);
  });
});

describe("RunTray announcer and drill-in", () => {
  it("speaks when a run seen running ends, not for runs finished at mount, not on progress ticks", () => {
    const a = run("a");
    const b = run("b", { display: { name: "Fact check" } });
    const old = run("o", { display: { name: "Old" }, status: "error", error: "long ago" });
    const props = { defaultOpen: false };
    const { rerender } = render(<Tray runs={[a, b, old]} {...props} />);
    const region = screen.getByRole("status");
    expect([region.getAttribute("aria-live"), region.textContent]).toEqual(["polite", ""]);
    rerender(<Tray runs={[{ ...a, progress: { fraction: 0.5, at: 1 } }, b, { ...old }]} {...props} />);
    expect(region.textContent).toBe("");
    act(() => rerender(<Tray runs={[{ ...a, status: "completed" }, b, old]} {...props} />));
    expect(region.textContent).toBe("Research finished");
    act(() =>
      rerender(
        <Tray
          runs={[{ ...a, status: "completed" }, { ...b, status: "error", error: "timeout" }, old]}
          {...props}
        />,
      ),
    );
    expect(region.textContent).toBe("Fact check failed: timeout");
    const c = run("c", { display: { name: "Crawl" } });
    act(() => rerender(<Tray runs={[c]} {...props} />));
    act(() => rerender(<Tray runs={[{ ...c, status: "aborted" }]} {...props} />));
    expect(region.textContent).toBe("Crawl was cancelled");
  });

  it("drill-in calls back with the run", async () => {
    const onDrillIn = vi.fn();
    const a = run("a", { status: "completed" });
    render(<Tray runs={[a]} onDrillIn={onDrillIn} />);
    await userEvent.click(screen.getByRole("button", { name: "Open Research" }));
    expect(onDrillIn).toHaveBeenCalledWith(a);
  });
});

describe("RunTray over a real AgentToolRuns store", () => {
  it("shows a detached run's progress and milestone, cancels it, and announces the end", async () => {
    const agent = new FrameAgent();
    render(
      <StrictMode>
        <AppTray agent={agent} />
      </StrictMode>,
    );
    expect(screen.getByText("No background runs")).toBeTruthy();
    const runId = "detached:1";
    const chunk = (body: unknown) => ({ kind: "chunk" as const, runId, body: JSON.stringify(body) });
    agent.frame(0, {
      kind: "started",
      runId,
      agentType: "Researcher",
      order: 0,
      display: { name: "Research", icon: "🔎" },
    });
    expect(screen.getByTestId("badge").textContent).toBe("1");
    agent.frame(
      1,
      chunk({
        type: "data-agent-progress",
        id: "p1",
        transient: true,
        data: { fraction: 0.25, phase: "searching", message: "Searching for sources" },
      }),
    );
    agent.frame(
      1,
      chunk({ type: "data-agent-milestone", data: { name: "sources-gathered", sequence: 0, at: 1 } }),
    );
    const li = item("Research");
    const bar = within(li).getByRole("progressbar", { name: "Research progress" });
    expect(bar.getAttribute("aria-valuetext")).toBe("searching: Searching for sources, 25%");
    expect(within(li).getByRole("list", { name: "Research milestones" }).textContent).toBe(
      "sources-gathered",
    );

    await userEvent.click(within(li).getByRole("button", { name: "Cancel Research" }));
    expect(agent.call).toHaveBeenCalledTimes(1);
    expect(agent.call).toHaveBeenCalledWith("cancelAgentTool", [runId, "Cancelled by the user"]);
    expect(statusOf(item("Research"))).toBe("Cancelling…");
    agent.frame(2, { kind: "aborted", runId, reason: "Cancelled by the user" });
    expect(statusOf(item("Research"))).toBe("Cancelled");
    expect(screen.getByRole("status").textContent).toBe("Research was cancelled");
    expect(screen.getByTestId("badge").hidden).toBe(true);
    await userEvent.click(screen.getByRole("button", { name: "Dismiss Research" }));
    expect(screen.getByText("No background runs")).toBeTruthy();
    expect(agent.call).toHaveBeenCalledTimes(1);
  });
});
