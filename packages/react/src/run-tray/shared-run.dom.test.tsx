/**
 * One run shown in the tray and inline at once (issue 25 §2, "Runs"): both views read the store's run state, so
 * a cancel sent from either reads in both and is sent once, and the tray's last signal is the time its frame
 * arrived, not the time the tray rendered.
 */
import { AgentToolRuns } from "@runboard/client";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentToolRun } from "../agent-tool-run/agent-tool-run.tsx";
import { RunTray } from "./run-tray.tsx";
import { useRunTrayItem } from "./tray-list.tsx";

afterEach(cleanup);

/** A connection: frames go in through `deliver`; `calls` records every callable the views call. */
function fakeAgent() {
  const target = new EventTarget();
  const calls: { method: string; args: unknown[] | undefined }[] = [];
  return Object.assign(target, {
    calls,
    // Never answers: a real cancel resolves when the server ran it, long before the run's end arrives.
    call: (method: string, args?: unknown[]) => {
      calls.push({ method, args });
      return new Promise<unknown>(() => {});
    },
    deliver: (frame: unknown) => {
      act(() => void target.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })));
    },
  });
}

const started = {
  type: "agent-tool-event",
  sequence: 0,
  event: { runId: "r1", kind: "started", agentType: "Researcher", order: 0, display: { name: "Research" } },
};
const progress = (sequence: number, fraction: number) => ({
  type: "agent-tool-event",
  sequence,
  event: {
    runId: "r1",
    kind: "chunk",
    body: JSON.stringify({ type: "data-agent-progress", data: { fraction } }),
  },
});

/** The tray item's last signal, as a part of the app's own reads it. */
function LastSignal() {
  const { lastSignalAt } = useRunTrayItem();
  return <span data-testid="last-signal">{lastSignalAt}</span>;
}

function Both({ store }: { store: AgentToolRuns }) {
  return (
    <>
      <RunTray.Root store={store} defaultOpen stallAfterMs={0}>
        <RunTray.List>
          <RunTray.Item>
            <RunTray.Title /> <RunTray.Status /> <RunTray.Cancel /> <LastSignal />
          </RunTray.Item>
        </RunTray.List>
      </RunTray.Root>
      <AgentToolRun.Root store={store} runId="r1" data-testid="card">
        <AgentToolRun.Title /> <AgentToolRun.Status /> <AgentToolRun.Cancel />
      </AgentToolRun.Root>
    </>
  );
}

const cancels = (agent: ReturnType<typeof fakeAgent>) =>
  agent.calls.filter((c) => c.method === "cancelAgentTool").length;

describe("a run in the tray and inline, on one store", () => {
  it("after Cancel in the tray the inline card reads cancelling, and no second cancel is sent from either", async () => {
    const agent = fakeAgent();
    const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    render(<Both store={store} />);
    agent.deliver(started);
    const tray = screen.getByRole("listitem", { name: "Research" });
    const card = screen.getByTestId("card");
    const user = userEvent.setup();

    await user.click(within(tray).getByRole("button", { name: "Cancel Research" }));
    expect(cancels(agent)).toBe(1);
    expect(within(tray).getByText("Cancelling…")).toBeTruthy();
    expect(card.getAttribute("data-cancelling")).toBe("");
    expect(within(card).getByText("Cancelling…")).toBeTruthy();
    const inline = within(card).getByRole("button", { name: "Cancel Research" }) as HTMLButtonElement;
    expect(inline.disabled).toBe(true);

    // A click on either button (disabled or not) sends nothing more.
    await user.click(inline);
    await user.click(within(tray).getByRole("button", { name: "Cancel Research" }));
    expect(cancels(agent)).toBe(1);
    store.dispose();
  });

  it("a Cancel inline reads in the tray too", async () => {
    const agent = fakeAgent();
    const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    render(<Both store={store} />);
    agent.deliver(started);
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("card")).getByRole("button", { name: "Cancel Research" }));
    const tray = screen.getByRole("listitem", { name: "Research" });
    expect(tray.getAttribute("data-tray-status")).toBe("cancelling");
    await user.click(within(tray).getByRole("button", { name: "Cancel Research" }));
    expect(cancels(agent)).toBe(1);
    store.dispose();
  });

  it("a retry sent from the tray reads in the inline card, and is sent once", async () => {
    const agent = fakeAgent();
    const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    render(
      <>
        <RunTray.Root store={store} defaultOpen>
          <RunTray.List>
            <RunTray.Item>
              <RunTray.Title /> <RunTray.Retry />
            </RunTray.Item>
          </RunTray.List>
        </RunTray.Root>
        <AgentToolRun.Root store={store} runId="r1" data-testid="card">
          <AgentToolRun.Retry />
        </AgentToolRun.Root>
      </>,
    );
    agent.deliver(started);
    agent.deliver({
      type: "agent-tool-event",
      sequence: 1,
      event: { runId: "r1", kind: "interrupted", error: "stopped", childStillRunning: false },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Retry Research" }));
    const inline = within(screen.getByTestId("card")).getByRole("button", {
      name: "Retry",
    }) as HTMLButtonElement;
    expect(inline.disabled).toBe(true);
    await user.click(inline);
    expect(agent.calls.filter((c) => c.method === "retryAgentTool")).toHaveLength(1);
    store.dispose();
  });

  it("stamps the last signal when the frame arrives, not when the tray renders", () => {
    let clock = 1_000;
    const agent = fakeAgent();
    const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0, now: () => clock });
    agent.deliver(started);
    clock = 2_000;
    agent.deliver(progress(1, 0.5));
    // The tray mounts well after the frame arrived: the signal is still the frame's.
    clock = 9_000;
    const { rerender } = render(<Both store={store} />);
    expect(screen.getByTestId("last-signal").textContent).toBe("2000");
    expect(store.getSnapshot().runsById.r1?.progress?.at).toBe(2_000);
    clock = 12_000;
    rerender(<Both store={store} />);
    expect(screen.getByTestId("last-signal").textContent).toBe("2000");
    clock = 15_000;
    agent.deliver(progress(2, 0.7));
    expect(screen.getByTestId("last-signal").textContent).toBe("15000");
    store.dispose();
  });
});

describe("AgentToolRun.Root's renamed store prop", () => {
  it("names the rename in development when an app still passes `runs`, and puts no `runs` attribute on the group", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const agent = fakeAgent();
    const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    agent.deliver(started);
    const legacy = { runs: store } as unknown as Record<string, never>;
    render(<AgentToolRun.Root {...legacy} run={store.getSnapshot().runsById.r1} data-testid="card" />);
    expect(warn.mock.calls.some(([m]) => String(m).includes("`runs` prop was renamed `store`"))).toBe(true);
    expect(screen.getByTestId("card").hasAttribute("runs")).toBe(false);
    warn.mockRestore();
    store.dispose();
  });
});
