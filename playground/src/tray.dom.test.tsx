/**
 * Issue 15 §2: the playground's tray offers Retry for an interrupted run whose child stopped and Reconnect for one
 * whose child still runs, enabled, each sending the agent's `retryAgentTool` callable; a failure is shown.
 */
import { type AgentClient, RunActions } from "@runboard/client";
import type { AgentToolRunState } from "@runboard/protocol";
import type { UseAgentToolEventsResult } from "@runboard/react";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Tray } from "./tray.tsx";

afterEach(cleanup);

const run = (runId: string, name: string, extra: Partial<AgentToolRunState>): AgentToolRunState => ({
  runId,
  agentType: "Crawler",
  display: { name },
  order: 0,
  status: "interrupted",
  parts: [],
  milestones: [],
  subAgent: { agent: "Crawler", name: runId },
  inputPreview: { site: "https://shop.example" },
  error: "No progress for 30 seconds",
  ...extra,
});

/** What the tray reads of `useAgentToolEvents()`: its store, holding `unboundRuns`, with run actions through `agent`. */
function storeOf(agent: AgentClient<Record<string, unknown>>, unboundRuns: readonly AgentToolRunState[]) {
  const state = { runsById: {}, runsByToolCallId: {}, unboundRuns };
  const store = { subscribe: () => () => {}, getSnapshot: () => state, actions: new RunActions({ agent }) };
  return { ...state, store } as unknown as UseAgentToolEventsResult;
}

describe("playground tray: retry and reconnect", () => {
  it("enables Retry and Reconnect where the run calls for them, and shows a failed retry", async () => {
    const user = userEvent.setup();
    const pending: ((e: unknown) => void)[] = [];
    const call = vi.fn((_m: string, _a?: unknown[]) => new Promise((_r, reject) => pending.push(reject)));
    const agent = { call } as unknown as AgentClient<Record<string, unknown>>;
    const runs = storeOf(agent, [
      run("a", "Stopped crawl", { childStillRunning: false }),
      run("b", "Live crawl", { childStillRunning: true, reason: "no-progress" }),
    ]);
    render(<Tray runs={runs} onDrillIn={() => {}} />);
    const stopped = screen.getByRole("listitem", { name: "Stopped crawl" });
    const live = screen.getByRole("listitem", { name: "Live crawl" });
    // What it was asked, in words; the whole input on hover.
    const input = within(stopped).getByText("https://shop.example");
    expect(input.getAttribute("title")).toBe('{"site":"https://shop.example"}');
    expect(within(live).getByText("The run stopped reporting progress.")).toBeTruthy();
    expect(within(stopped).queryByRole("button", { name: /Reconnect/ })).toBeNull();
    await user.click(within(stopped).getByRole("button", { name: "Retry Stopped crawl" }));
    await user.click(within(live).getByRole("button", { name: "Reconnect Live crawl" }));
    expect(call.mock.calls).toEqual([
      ["retryAgentTool", ["a"]],
      ["retryAgentTool", ["b"]],
    ]);
    await act(async () => pending[0]?.(new Error("Method retryAgentTool is not callable")));
    expect(screen.getByRole("alert").textContent).toBe(
      "Could not retry Stopped crawl: Method retryAgentTool is not callable",
    );
    expect(
      (within(stopped).getByRole("button", { name: "Retry Stopped crawl" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});

describe("playground tray: what a finished run offers", () => {
  it("a completed run offers no Cancel; a running one does", () => {
    const agent = { call: vi.fn() } as unknown as AgentClient<Record<string, unknown>>;
    const runs = storeOf(agent, [
      run("done", "Finished research", { status: "completed", error: undefined, summary: "8 sources" }),
      run("live", "Ongoing research", { status: "running", error: undefined }),
    ]);
    render(<Tray runs={runs} onDrillIn={() => {}} />);
    const done = screen.getByRole("listitem", { name: "Finished research" });
    const live = screen.getByRole("listitem", { name: "Ongoing research" });
    expect(within(done).queryByRole("button", { name: /^Cancel/ })).toBeNull();
    expect(within(live).getByRole("button", { name: /^Cancel/ })).toBeTruthy();
  });
});
