/**
 * Issue 17 §2: the page shell as a person meets it: the colour-scheme switch (sets `data-theme` on <html>, is
 * remembered, "System" hands back to the system), the connection pill (says reconnecting after a drop), the
 * composer (Enter sends, Shift+Enter does not, an empty box sends nothing), and a decided approval card's
 * outcome line.
 */
import type { ApprovalRequest } from "@runboard/protocol";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Card } from "./approvals.tsx";
import { Composer } from "./composer.tsx";
import { AppHeader, ThemeSwitch } from "./shell.tsx";
import { THEME_KEY } from "./theme.ts";

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.removeAttribute("data-theme");
});

describe("the colour-scheme switch", () => {
  it("follows the system by default, sets data-theme when pressed, remembers it and hands back on System", () => {
    const { unmount } = render(<ThemeSwitch />);
    const root = document.documentElement;
    expect(root.hasAttribute("data-theme")).toBe(false);
    expect(screen.getByRole("button", { name: "System" }).getAttribute("aria-pressed")).toBe("true");

    fireEvent.click(screen.getByRole("button", { name: "Dark" }));
    expect(root.getAttribute("data-theme")).toBe("dark");
    expect(screen.getByRole("button", { name: "Dark" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("button", { name: "System" }).getAttribute("aria-pressed")).toBe("false");
    expect(localStorage.getItem(THEME_KEY)).toBe("dark");

    // A new page load starts with the stored choice.
    unmount();
    root.removeAttribute("data-theme");
    render(<ThemeSwitch />);
    expect(root.getAttribute("data-theme")).toBe("dark");
    expect(screen.getByRole("button", { name: "Dark" }).getAttribute("aria-pressed")).toBe("true");

    fireEvent.click(screen.getByRole("button", { name: "Light" }));
    expect(root.getAttribute("data-theme")).toBe("light");
    fireEvent.click(screen.getByRole("button", { name: "System" }));
    expect(root.hasAttribute("data-theme")).toBe(false);
    expect(localStorage.getItem(THEME_KEY)).toBe(null);
  });

  it("ignores a stored value it does not know", () => {
    localStorage.setItem(THEME_KEY, "sepia");
    render(<ThemeSwitch />);
    expect(document.documentElement.hasAttribute("data-theme")).toBe(false);
    expect(screen.getByRole("button", { name: "System" }).getAttribute("aria-pressed")).toBe("true");
  });
});

describe("the connection pill", () => {
  const header = (status: "connecting" | "open" | "closed") => (
    <AppHeader agentClass="ChatAgent" agentName="demo" host="127.0.0.1:8787" status={status} busy={false} />
  );
  it("says connecting, connected, disconnected and, after having been open, reconnecting", () => {
    const { rerender } = render(header("connecting"));
    const pill = () => screen.getByRole("status", { name: /^Connection/ });
    expect(pill().textContent).toBe("Connecting…");
    rerender(header("open"));
    expect(pill().textContent).toBe("Connected");
    expect(pill().getAttribute("aria-live")).toBe("polite");
    rerender(header("closed"));
    expect(pill().textContent).toBe("Disconnected");
    rerender(header("connecting"));
    expect(pill().textContent).toBe("Reconnecting…");
    expect(pill().getAttribute("data-phase")).toBe("reconnecting");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Runboard");
    expect(screen.getByText(/ChatAgent/).textContent).toContain("demo");
    expect(screen.getByRole("link", { name: "Helix view" }).getAttribute("href")).toBe("?view=helix");
  });
});

describe("the composer", () => {
  const props = () => ({
    canSend: true,
    streaming: false,
    canRegenerate: false,
    canClear: false,
    clearing: false,
    onSend: vi.fn(),
    onStop: vi.fn(),
    onRegenerate: vi.fn(),
    onClear: vi.fn(),
  });
  it("sends on Enter and on Send, keeps Shift+Enter for a new line, and sends nothing empty", () => {
    const p = props();
    render(<Composer {...p} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    fireEvent.change(box, { target: { value: "   " } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(p.onSend).not.toHaveBeenCalled();

    fireEvent.change(box, { target: { value: "hello" } });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(p.onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: "Enter" });
    expect(p.onSend).toHaveBeenCalledWith("hello");
    expect(box.value).toBe("");

    fireEvent.change(box, { target: { value: " pay ACME 250 " } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(p.onSend).toHaveBeenLastCalledWith("pay ACME 250");
  });

  it("offers Stop only while the agent answers, and keeps the draft while sending is impossible", () => {
    const p = props();
    const { rerender } = render(<Composer {...p} />);
    expect((screen.getByRole("button", { name: "Stop" }) as HTMLButtonElement).disabled).toBe(true);
    rerender(<Composer {...p} streaming />);
    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(p.onStop).toHaveBeenCalledTimes(1);
    rerender(<Composer {...p} canSend={false} />);
    const box = screen.getByLabelText("Message") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "hello" } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(p.onSend).not.toHaveBeenCalled();
    expect(box.value).toBe("hello");
  });
});

describe("a decided approval card", () => {
  const request = (over: Partial<ApprovalRequest>): ApprovalRequest => ({
    id: "chat:a1",
    source: "chat",
    key: "a1",
    toolCallId: "t1",
    name: "processPayment",
    arguments: { amount: 250 },
    argumentsComplete: true,
    status: "requested",
    online: true,
    decide: () => true,
    ...over,
  });
  it("states its outcome as one line, with the denial's reason", async () => {
    const { rerender } = render(<Card request={request({})} />);
    const status = () => screen.getByRole("status");
    expect(status().textContent).toBe("");
    rerender(<Card request={request({ status: "approved", outcome: { approved: true, by: "here" } })} />);
    expect(status().textContent).toBe("Approved");
    rerender(
      <Card
        request={request({
          status: "denied",
          outcome: { approved: false, reason: "wrong amount", by: "here" },
        })}
      />,
    );
    expect(status().textContent).toBe("Denied: wrong amount");
    expect(screen.getByRole("article").getAttribute("data-status")).toBe("denied");
    await act(async () => {});
  });
});
