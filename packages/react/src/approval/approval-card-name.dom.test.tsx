/**
 * The dev warning about a card without an accessible name. In a file of its own: each warning is printed once
 * per module instance, and other files render nameless cards on purpose.
 */

import type { ApprovalRequest } from "@runboard/protocol";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { ApprovalCard } from "./approval-card.tsx";

afterEach(cleanup);

const request: ApprovalRequest = {
  id: "chat:a1",
  source: "chat",
  key: "a1",
  toolCallId: "call-1",
  name: "processPayment",
  arguments: { amount: 250 },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
};

const nameWarnings = (warn: { mock: { calls: unknown[][] } }) =>
  warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("has no accessible name"));

it("a card with a Title is named by it and never warns, also on its first mount", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  render(
    <ApprovalCard.Root request={request}>
      <ApprovalCard.Title />
    </ApprovalCard.Root>,
  );
  expect(screen.getByRole("article", { name: "processPayment" })).toBeTruthy();
  expect(nameWarnings(warn)).toEqual([]);
  warn.mockRestore();
});

it("a card with neither a Title nor a label warns, naming the part and the fix", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  render(<ApprovalCard.Root request={request} />);
  expect(nameWarnings(warn)).toEqual([
    expect.stringMatching(/ApprovalCard\.Root has no accessible name\. Render <ApprovalCard\.Title>/),
  ]);
  warn.mockRestore();
});
