/**
 * Issue 18: a tool part the parser accepts but with an odd `input` or `output` (null, a string, an array, a
 * number, a huge string, markup) renders as text; a part that cannot be shown is replaced by a fallback while
 * the rest of the chat stays.
 */
import { CHAT_SESSION } from "@runboard/client";
import type { UseAgentChatResult, UseAgentToolEventsResult } from "@runboard/react";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { UIMessage } from "ai";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Conversation } from "./conversation.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const noRuns = Object.freeze(Object.create(null));

/** The hooks' results, reduced to what `Conversation` reads. */
function setup(messages: UIMessage[], renderApproval: () => ReactNode = () => null) {
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
    // Inside the disclosure, pretty-printed; on the line, the first plain values only.
    const pres = [...container.querySelectorAll("pre")].map((p) => p.textContent);
    expect(pres).toContain('[\n  1,\n  "two"\n]');
    expect(pres).toContain("42");
    expect(screen.getByText("Pay — 42")).toBeTruthy();
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

/** Stands in for the app's approval card: the conversation reads only its `request` prop. */
const Card = ({ request }: { request: { status: string } }) => <article>{request.status}</article>;

describe("Conversation: a tool call as a person reads it", () => {
  it("is one line with what it did and its state in words; input and output are behind a disclosure", async () => {
    const user = userEvent.setup();
    const { container } = setup([
      toolMessage("a", { state: "input-available", input: { invoice: "INV-7" } }),
      toolMessage("b", {
        state: "output-available",
        input: { amount: 250, recipient: "ACME" },
        output: { ok: true, txId: "tx_123" },
      }),
      toolMessage("c", { state: "output-error", input: {}, errorText: "Invoice service returned 503" }),
      toolMessage("d", { state: "approval-requested", input: { amount: 5 } }),
    ]);
    const line = (start: string) =>
      [...container.querySelectorAll("summary")].find((s) => s.textContent?.startsWith(start)) as HTMLElement;
    expect(line("Pay — INV-7").textContent).toBe("Pay — INV-7Running…");
    expect(line("Pay — 250, ACME").textContent).toContain("Done");
    expect(screen.getByText("Failed: Invoice service returned 503")).toBeTruthy();
    expect(screen.getByText("Waiting for approval")).toBeTruthy();
    // No wire state words anywhere a person reads.
    expect(container.textContent).not.toMatch(
      /output-available|input-available|output-error|approval-requested/,
    );
    // Closed until asked; then the input and the output, pretty-printed.
    const details = line("Pay — 250, ACME").parentElement as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await user.click(line("Pay — 250, ACME"));
    expect(details.open).toBe(true);
    const values = [...details.querySelectorAll("pre")].map((p) => p.textContent);
    expect(values).toEqual([
      '{\n  "amount": 250,\n  "recipient": "ACME"\n}',
      '{\n  "ok": true,\n  "txId": "tx_123"\n}',
    ]);
  });

  it("keeps the approval card in sight below the line, not inside the disclosure", () => {
    const { container } = setup(
      [toolMessage("a", { state: "approval-requested", input: { amount: 5 } })],
      () => <article aria-label="Approve pay">card</article>,
    );
    const card = screen.getByRole("article", { name: "Approve pay" });
    expect(card.closest("details")).toBeNull();
    expect(container.querySelector("details")?.open).toBe(false);
  });

  it("waits for approval while a card for the call is undecided, whatever the part's state (Think's pause)", () => {
    const { container } = setup(
      [toolMessage("a", { state: "output-available", input: { amount: 5 }, output: { paused: true } })],
      () => <Card request={{ status: "requested" }} />,
    );
    expect(container.querySelector("summary")?.textContent).toContain("Waiting for approval");
    cleanup();
    const decided = setup(
      [toolMessage("a", { state: "output-available", input: { amount: 5 }, output: { paused: true } })],
      () => <Card request={{ status: "approved" }} />,
    );
    expect(decided.container.querySelector("summary")?.textContent).toContain("Done");
  });

  it("a detached dispatch reads as a run started in the background, with a way to it", () => {
    setup([
      toolMessage("a", {
        state: "output-available",
        input: { query: "queues" },
        output: { runId: "r1", agentType: "Researcher", status: "running" },
      }),
    ]);
    expect(screen.getByText("Started Researcher in the background")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Show in background runs" })).toBeTruthy();
    // The raw answer is only inside the disclosure.
    expect(screen.getByText(/"runId": "r1"/).closest("details")).toBeTruthy();
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
