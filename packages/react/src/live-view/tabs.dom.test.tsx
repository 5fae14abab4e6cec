/**
 * LiveView's parts in jsdom, as a user of the kit sees them: selection and frame status on tabs and panels,
 * keyboard use of the tab list in right-to-left pages and with manual activation, tabs and panels laid out
 * by hand, the mode buttons, the status line, and that an unmounted view stops fetching.
 */
import type { LiveViewSession, LiveViewTarget } from "@runboard/protocol";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveView, type LiveViewRootProps } from "./index.ts";

const ORIGIN = "https://live.browser.run";

const target = (targetId: string, title: string): LiveViewTarget => ({
  targetId,
  url: `${ORIGIN}/s/${targetId.toLowerCase()}`,
  pageUrl: `https://shop.example/${targetId.toLowerCase()}`,
  title,
  type: "page",
});

const SESSION: LiveViewSession = {
  sessionId: "s1",
  targets: [target("LOGIN", "Sign in"), target("ORDERS", "Orders"), target("CART", "Cart")],
  expiresInMs: 300_000,
};

function View(props: Partial<LiveViewRootProps> & { children?: ReactNode }) {
  const { children, ...rest } = props;
  return (
    <LiveView.Root session={SESSION} allowedOrigins={[ORIGIN]} aria-label="Browser" {...rest}>
      {children ?? (
        <>
          <LiveView.TabList />
          <LiveView.Panels />
        </>
      )}
    </LiveView.Root>
  );
}

const tab = (name: string) => screen.getByRole("tab", { name });
const panelOf = (name: string) =>
  document.getElementById(tab(name).getAttribute("aria-controls") as string) as HTMLElement;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("data attributes", () => {
  it("tabs and panels say active or inactive in data-state, and their frame's status in data-status", async () => {
    const user = userEvent.setup();
    render(<View />);
    expect(tab("Sign in").getAttribute("data-state")).toBe("active");
    expect(tab("Orders").getAttribute("data-state")).toBe("inactive");
    expect(panelOf("Sign in").getAttribute("data-state")).toBe("active");
    expect(panelOf("Orders").getAttribute("data-state")).toBe("inactive");
    expect(tab("Sign in").getAttribute("data-status")).toBe("loading");
    fireEvent.load(within(panelOf("Sign in")).getByTitle("Live view: Sign in"));
    expect(tab("Sign in").getAttribute("data-status")).toBe("live");
    expect(panelOf("Sign in").getAttribute("data-status")).toBe("live");
    await user.click(tab("Orders"));
    expect(tab("Orders").getAttribute("data-state")).toBe("active");
    expect(tab("Sign in").getAttribute("data-state")).toBe("inactive");
    expect(panelOf("Orders").getAttribute("data-state")).toBe("active");
    // Selection moved; the first frame still works.
    expect(tab("Sign in").getAttribute("data-status")).toBe("live");
    const list = screen.getByRole("tablist");
    expect(list.getAttribute("data-count")).toBe("3");
    expect(list.getAttribute("data-orientation")).toBe("horizontal");
  });

  it("mode buttons say active or inactive; one that cannot be chosen is disabled with data-disabled", () => {
    render(
      <View>
        <LiveView.ModeSwitch />
      </View>,
    );
    const tabMode = screen.getByRole("button", { name: "Tab" });
    const devtools = screen.getByRole("button", { name: "DevTools" });
    expect(tabMode.getAttribute("data-state")).toBe("active");
    expect(devtools.getAttribute("data-state")).toBe("inactive");
    expect(devtools.hasAttribute("data-disabled")).toBe(true);
    expect(tabMode.hasAttribute("data-disabled")).toBe(false);
  });

  it("Take over is disabled with data-disabled once the human is in control", async () => {
    const user = userEvent.setup();
    render(
      <View>
        <LiveView.TakeOver />
      </View>,
    );
    const button = screen.getByRole("button", { name: "Take over" });
    expect(button.hasAttribute("data-disabled")).toBe(false);
    await user.click(button);
    expect(button.hasAttribute("data-disabled")).toBe(true);
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it("every part is named after its public name (React DevTools, warnings)", () => {
    for (const [key, part] of Object.entries(LiveView))
      expect((part as { displayName?: string }).displayName).toBe(`LiveView.${key}`);
  });
});

describe("keyboard", () => {
  it('in dir="rtl" ArrowLeft moves to the next tab and ArrowRight to the previous', async () => {
    const user = userEvent.setup();
    render(
      <View>
        <LiveView.TabList dir="rtl" />
        <LiveView.Panels />
      </View>,
    );
    expect(screen.getByRole("tablist").getAttribute("dir")).toBe("rtl");
    tab("Sign in").focus();
    await user.keyboard("{ArrowLeft}");
    expect(document.activeElement).toBe(tab("Orders"));
    expect(tab("Orders").getAttribute("aria-selected")).toBe("true");
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(tab("Sign in"));
    await user.keyboard("{ArrowRight}");
    // Wraps to the last tab.
    expect(document.activeElement).toBe(tab("Cart"));
  });

  it('with activationMode="manual" arrows only move focus; Enter or Space selects', async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    render(
      <View onValueChange={onValueChange}>
        <LiveView.TabList activationMode="manual" />
        <LiveView.Panels />
      </View>,
    );
    tab("Sign in").focus();
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(tab("Orders"));
    expect(tab("Sign in").getAttribute("aria-selected")).toBe("true");
    expect(panelOf("Orders").hidden).toBe(true);
    expect(onValueChange).not.toHaveBeenCalled();
    await user.keyboard("{Enter}");
    expect(tab("Orders").getAttribute("aria-selected")).toBe("true");
    expect(panelOf("Orders").hidden).toBe(false);
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(tab("Cart"));
    await user.keyboard(" ");
    expect(tab("Cart").getAttribute("aria-selected")).toBe("true");
    expect(onValueChange.mock.calls.map((c) => c[0])).toEqual(["ORDERS", "CART"]);
  });

  it("a vertical list moves with ArrowDown and ArrowUp", async () => {
    const user = userEvent.setup();
    render(
      <View>
        <LiveView.TabList orientation="vertical" />
        <LiveView.Panels />
      </View>,
    );
    tab("Sign in").focus();
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(tab("Orders"));
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(tab("Sign in"));
  });
});

describe("tabs and panels laid out by hand", () => {
  it("a Tab and a Panel given a value speak for that target", async () => {
    const user = userEvent.setup();
    render(
      <View>
        <LiveView.TabList aria-label="Pick">
          <LiveView.Tab value="ORDERS">Your orders</LiveView.Tab>
          <LiveView.Tab value="GONE">Not in the session</LiveView.Tab>
        </LiveView.TabList>
        <LiveView.Panels>
          <LiveView.Panel value="ORDERS">
            <LiveView.Frame />
          </LiveView.Panel>
        </LiveView.Panels>
      </View>,
    );
    const list = screen.getByRole("tablist", { name: "Pick" });
    expect(
      within(list)
        .getAllByRole("tab")
        .map((t) => t.textContent),
    ).toEqual(["Your orders"]);
    const orders = within(list).getByRole("tab", { name: "Your orders" });
    expect(orders.getAttribute("data-state")).toBe("inactive");
    const panel = screen.getByRole("tabpanel", { hidden: true });
    expect(panel.getAttribute("aria-labelledby")).toBe(orders.id);
    expect(within(panel).getByTitle("Live view: Orders", { exact: true })).toBeTruthy();
    await user.click(orders);
    expect(orders.getAttribute("data-state")).toBe("active");
    expect(panel.hidden).toBe(false);
  });

  it("a Tab outside a list and without a value says how to fix it", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() =>
      render(
        <View>
          <LiveView.Tab />
        </View>,
      ),
    ).toThrow(/render it inside <LiveView.TabList>.*or pass value/);
    vi.restoreAllMocks();
  });
});

describe("status line", () => {
  it("is a visible polite live region by default, and visually hidden with visible={false}", () => {
    const { rerender } = render(
      <View>
        <LiveView.Status />
      </View>,
    );
    const status = screen.getByRole("status");
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.getAttribute("data-status")).toBe("loading");
    expect(status.style.position).toBe("");
    rerender(
      <View>
        <LiveView.Status visible={false} />
      </View>,
    );
    expect(screen.getByRole("status").style.position).toBe("absolute");
  });
});

describe("lifetime", () => {
  it("stops fetching once unmounted", async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(async () => SESSION);
    const { unmount } = render(<View session={{ ...SESSION, expiresInMs: 10_000 }} refresh={refresh} />);
    unmount();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(120_000);
    });
    expect(refresh).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
