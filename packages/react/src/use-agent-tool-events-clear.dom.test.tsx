/** useAgentToolEvents' clear: a Clear button that is disabled while on its way and consistent when it fails. */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useAgentToolEvents } from "./use-agent-tool-events.ts";

afterEach(cleanup);

function fakeAgent() {
  const target = new EventTarget();
  const pending: { resolve: (v?: unknown) => void; reject: (e: Error) => void }[] = [];
  const call = vi.fn(
    (_m: string, _a?: unknown[]) =>
      new Promise<unknown>((resolve, reject) => pending.push({ resolve, reject })),
  );
  const emit = (frame: unknown) =>
    target.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
  return Object.assign(target, { call, pending, emit });
}

function Chat({
  agent,
  chat,
  onClearError,
}: {
  agent: ReturnType<typeof fakeAgent>;
  chat: { clearHistory(): void };
  onClearError: (e: unknown) => void;
}) {
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0, onClearError });
  return (
    <>
      <output data-testid="count">{Object.keys(runs.runsById).length}</output>
      <button type="button" disabled={runs.clearing} onClick={() => void runs.clearChat(chat)}>
        Clear
      </button>
    </>
  );
}

const started = {
  type: "agent-tool-event",
  sequence: 0,
  event: { kind: "started", runId: "r1", agentType: "Researcher", inputPreview: "q", order: 0 },
};

describe("useAgentToolEvents clear", () => {
  it("calls clearHelperRuns once, disables Clear while on its way; a failure re-enables it and reports once", async () => {
    const agent = fakeAgent();
    const chat = { clearHistory: vi.fn() };
    const onClearError = vi.fn();
    render(<Chat agent={agent} chat={chat} onClearError={onClearError} />);
    await act(async () => agent.emit(started));
    expect(screen.getByTestId("count").textContent).toBe("1");
    const button = () => screen.getByRole("button", { name: "Clear" });
    fireEvent.click(button());
    fireEvent.click(button());
    expect(agent.call).toHaveBeenCalledTimes(1);
    expect(agent.call).toHaveBeenCalledWith("clearHelperRuns", []);
    expect(button().hasAttribute("disabled")).toBe(true);
    await act(async () => agent.pending[0]?.reject(new Error("clear failed")));
    expect(button().hasAttribute("disabled")).toBe(false);
    expect(onClearError).toHaveBeenCalledTimes(1);
    expect(chat.clearHistory).not.toHaveBeenCalled();
    expect(screen.getByTestId("count").textContent).toBe("1");

    fireEvent.click(button());
    await act(async () => agent.pending[1]?.resolve());
    expect(screen.getByTestId("count").textContent).toBe("0");
    expect(chat.clearHistory).toHaveBeenCalledTimes(1);
  });

  it("another tab's clear empties the runs", async () => {
    const agent = fakeAgent();
    render(<Chat agent={agent} chat={{ clearHistory() {} }} onClearError={() => {}} />);
    await act(async () => agent.emit(started));
    expect(screen.getByTestId("count").textContent).toBe("1");
    await act(async () => agent.emit({ type: "cf_agent_chat_clear" }));
    expect(screen.getByTestId("count").textContent).toBe("0");
  });
});
