/** The shared clock: a part mounted after the clock stood still starts from the real time, not the last tick. */

import type { ApprovalRequest } from "@runboard/protocol";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApprovalCard } from "../approval/approval-card.tsx";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const request = (expiresAt: number): ApprovalRequest => ({
  id: `chat:${expiresAt}`,
  source: "chat",
  key: String(expiresAt),
  name: "transferFunds",
  arguments: {},
  argumentsComplete: true,
  status: "requested",
  online: true,
  expiresAt,
  decide: () => false,
});

function Card({ r }: { r: ApprovalRequest }) {
  return (
    <ApprovalCard.Root request={r}>
      <ApprovalCard.Title />
      <ApprovalCard.Expiry />
      <ApprovalCard.Approve />
    </ApprovalCard.Root>
  );
}

describe("useNow", () => {
  it("a countdown mounted long after the last tick shows the time left now, before any tick", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const start = Date.now();
    const first = render(<Card r={request(start + 300_000)} />);
    act(() => vi.advanceTimersByTime(2000));
    first.unmount();
    // Nothing shows a running time for ten minutes: the shared interval is stopped meanwhile.
    vi.setSystemTime(start + 600_000);
    render(<Card r={request(start + 360_000)} />);
    // No tick yet: what shows comes from mounting alone.
    expect(screen.getByRole("article").getAttribute("data-status")).toBe("expired");
    expect(screen.getByText("Expired")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Approve" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
