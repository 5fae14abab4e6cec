/**
 * Issue 18: a tool part the parser accepts but with an odd `input` or `output` (null, a string, an array, a
 * number, a huge string, markup) renders as text; a part that cannot be shown is replaced by a fallback while
 * the rest of the chat stays.
 */
import { CHAT_SESSION } from "@runboard/client";
import type { UseAgentChatResult, UseAgentToolEventsResult } from "@runboard/react";
import { cleanup, render, screen } from "@testing-library/react";
import type { UIMessage } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Conversation } from "./conversation.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const noRuns = Object.freeze(Object.create(null));

/** The hooks' results, reduced to what `Conversation` reads. */
function setup(messages: UIMessage[], renderApproval = () => null) {
  const store = { subscribe: () => () => {}, getSnapshot: () => ({ messages }) };
  const chat = { messages, addToolOutput: () => {}, [CHAT_SESSION]: store } as unknown as UseAgentChatResult;
  const runs = { runsByToolCallId: noRuns, store: undefined } as unknown as UseAgentToolEventsResult;
  return render(
    <Conversation chat={chat} runs={runs} onDrillIn={() => {}} renderApproval={renderApproval} />,
  );
}

const toolMessage = (id: string, part: Record<string, unknown>): UIMessage =>
  ({
    id,
    role: "assistant",
    parts: [{ type: "tool-pay", toolCallId: `call-${id}`, ...part }],
  }) as unknown as UIMessage;

const text = (id: string, t: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text: t }],
});

describe("Conversation: tool parts with inputs of any shape", () => {
  it("shows a tool part whose input is null, and the messages after it", () => {
    setup([toolMessage("m1", { state: "input-available", input: null }), text("m2", "after")]);
    expect(screen.getByText("pay")).toBeTruthy();
    expect(screen.getByText("after")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows string, array and number inputs and outputs as text, never as markup", () => {
    const payload = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { container } = setup([
      toolMessage("a", { state: "input-available", input: payload }),
      toolMessage("b", { state: "output-available", input: [1, "two"], output: payload }),
      toolMessage("c", { state: "output-available", input: 42, output: null }),
      toolMessage("d", { state: "input-available", input: "x".repeat(1_000_000) }),
    ]);
    expect(container.querySelector("img, script")).toBeNull();
    expect(screen.getAllByText(payload).length).toBe(2);
    expect(screen.getByText('[1,"two"]')).toBeTruthy();
    expect(screen.getByText("42")).toBeTruthy();
    // A megabyte of input is cut for display.
    const pre = [...container.querySelectorAll("pre")].find((p) => p.textContent?.startsWith("xxx"));
    expect(pre?.textContent?.length).toBeLessThan(5_000);
  });

  it("names a dynamic tool by its toolName", () => {
    setup([
      {
        id: "m",
        role: "assistant",
        parts: [
          { type: "dynamic-tool", toolName: "lookup", toolCallId: "c", state: "input-available", input: {} },
        ],
      } as UIMessage,
    ]);
    expect(screen.getByText("lookup")).toBeTruthy();
  });
});

describe("Conversation: a message that cannot be shown", () => {
  it("is replaced by an alert with the details, and the next message still renders", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const boom = () => {
      throw new Error("renderer broke");
    };
    setup([toolMessage("m1", { state: "input-available", input: {} }), text("m2", "still here")], boom);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("This message could not be shown");
    expect(alert.querySelector("details")?.textContent).toContain("renderer broke");
    expect(screen.getByText("still here")).toBeTruthy();
    const ours = logged.mock.calls.filter((c) => String(c[0]).includes("could not be shown"));
    expect(ours.length).toBe(1);
  });
});
