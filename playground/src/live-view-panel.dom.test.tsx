/**
 * Issue 16 §5: the playground's Live View asks the agent for a fresh session after every agent turn (so tabs
 * the agent opened show without waiting for the expiry refresh), offers Reload, and shows a tool's
 * `{ needsHumanLogin: url }` hand-off.
 */
import type { AgentClient } from "@runboard/client";
import type { UseAgentChatResult } from "@runboard/react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AGENT_HOST } from "./config.ts";
import { LiveViewPanel } from "./live-view-panel.tsx";

afterEach(cleanup);

const page = (id: string) => `http://${AGENT_HOST}/live-view/${id}`;
const chat = (status: string, output: unknown) =>
  ({
    status,
    messages: [
      {
        id: "a1",
        role: "assistant",
        parts: [{ type: "tool-login", toolCallId: "t1", state: "output-available", input: {}, output }],
      },
    ],
  }) as unknown as UseAgentChatResult;

describe("playground Live View", () => {
  it("shows a needsHumanLogin hand-off, and fetches once after each finished turn", async () => {
    const call = vi.fn(async () => ({ url: page("b") }));
    const agent = { call } as unknown as AgentClient<Record<string, unknown>>;
    const output = { needsHumanLogin: page("a") };
    const { rerender } = render(<LiveViewPanel agent={agent} chat={chat("ready", output)} approvals={[]} />);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Live view"]);
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    for (const status of ["submitted", "streaming", "ready"])
      rerender(<LiveViewPanel agent={agent} chat={chat(status, output)} approvals={[]} />);
    await act(async () => {});
    expect(call.mock.calls).toEqual([["liveView", [{ mode: "tab" }]]]);
  });
});
