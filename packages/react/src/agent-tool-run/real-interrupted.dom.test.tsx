/**
 * An `interrupted` run as the REAL runtime sends it (agents 0.32, recorded by conformance/agent-tool-interrupted
 * .test.ts, docs/protocol.md#agent-tool-failure-envelope): a restarted parent's recovery seals the run with an
 * `interrupted` event (reason, childStillRunning) but writes no envelope; the tool part is closed `output-error`
 * "The tool call was interrupted before a result was recorded.". The components still say "interrupted", with
 * the reason in words, and offer the recovery through the agent's callable, whichever frame arrives first.
 */
import { AgentToolRuns } from "@runboard/client";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunTray } from "../run-tray/run-tray.tsx";
import { AgentToolRun } from "./agent-tool-run.tsx";

afterEach(cleanup);

const CALL = "call-stall-mhq3x1-0";
const RUN = `agent-tool:${CALL}`;
// The frames as agents 0.32 sent them (ChatAgent host), trimmed to one run.
const started = {
  type: "agent-tool-event",
  parentToolCallId: CALL,
  sequence: 0,
  event: {
    kind: "started",
    runId: RUN,
    agentType: "Crawler",
    inputPreview: '{"site":"https://shop.example"}',
    order: 0,
  },
  replay: true,
};
const stored = {
  type: "agent-tool-event",
  parentToolCallId: CALL,
  sequence: 1,
  event: {
    kind: "chunk",
    runId: RUN,
    body: '{"type":"start","messageId":"assistant_1795831439392_1dvgqktdv"}',
  },
  replay: true,
};
const interrupted = {
  type: "agent-tool-event",
  parentToolCallId: CALL,
  sequence: 2,
  event: {
    kind: "interrupted",
    runId: RUN,
    error:
      "Agent tool run was still running but made no forward progress within the re-attach no-progress budget; the parent gave up.",
    reason: "no-progress",
    childStillRunning: true,
  },
};
const transcript = {
  type: "cf_agent_chat_messages",
  messages: [
    { id: "u1", role: "user", parts: [{ type: "text", text: "stall on the shop" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        {
          type: "tool-crawlUntilRestart",
          toolCallId: CALL,
          state: "output-error",
          input: { site: "https://shop.example" },
          errorText: "The tool call was interrupted before a result was recorded.",
        },
      ],
    },
  ],
};

function fakeAgent() {
  const target = new EventTarget();
  const call = vi.fn(async (_method: string, _args?: unknown[]) => ({ runId: RUN, status: "running" }));
  return {
    agent: {
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
      send: () => {},
      call,
    },
    call,
    deliver: (frame: unknown) =>
      target.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })),
  };
}

describe("a run the real runtime sealed interrupted after a restart", () => {
  for (const order of ["event first", "transcript first"] as const) {
    it(`says interrupted in words and offers Reconnect through retryAgentTool (${order})`, async () => {
      const user = userEvent.setup();
      const { agent, call, deliver } = fakeAgent();
      const onError = vi.fn();
      const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0, onError });
      const frames =
        order === "event first"
          ? [started, stored, interrupted, transcript]
          : [transcript, started, stored, interrupted];
      for (const f of frames) deliver(f);
      const run = runs.getSnapshot().runsById[RUN];
      render(
        <>
          <AgentToolRun.Root store={runs} runId={RUN} data-testid="card">
            <AgentToolRun.Status />
            <AgentToolRun.Failure data-testid="failure" />
            <AgentToolRun.Retry>Retry</AgentToolRun.Retry>
            <AgentToolRun.Reconnect>Reconnect</AgentToolRun.Reconnect>
          </AgentToolRun.Root>
          <RunTray.Root runs={run ? [run] : []} agent={agent} defaultOpen>
            <RunTray.List />
          </RunTray.Root>
        </>,
      );
      const card = screen.getByTestId("card");
      expect(card.getAttribute("data-status")).toBe("interrupted");
      const failure = screen.getByTestId("failure");
      expect([...failure.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
        "The helper was interrupted before it finished.",
        "The helper stopped making progress.",
        interrupted.event.error,
      ]);
      expect(failure.getAttribute("data-child-still-running")).toBe("");
      expect(failure.getAttribute("data-retryable")).toBe("");
      // The tool part's output-error is not the run's failure.
      expect(card.textContent).not.toContain("The helper failed.");
      // The child still runs: Reconnect (re-dispatching the id re-attaches to it), not Retry.
      expect((within(card).getByRole("button", { name: "Retry" }) as HTMLButtonElement).disabled).toBe(true);
      await user.click(within(card).getByRole("button", { name: "Reconnect" }));
      expect(call.mock.calls).toEqual([["retryAgentTool", [RUN]]]);
      // The tray's default item says the same and offers the same recovery.
      const item = screen.getByRole("listitem", { name: "Crawler" });
      expect(item.textContent).toContain("The helper was interrupted before it finished.");
      expect(within(item).getByRole("button", { name: /^Reconnect/ })).toBeTruthy();
      expect(within(item).queryByRole("button", { name: /^Retry/ })).toBeNull();
      expect(onError).not.toHaveBeenCalled();
      runs.dispose();
    });
  }
});
