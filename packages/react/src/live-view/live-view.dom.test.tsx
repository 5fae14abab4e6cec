/**
 * LiveView in jsdom: the tabs a person sees, the frame (sandbox, control, loading and failing), what is
 * refused and why, and that no URL reaches the console. Refreshing, modes and continue are in
 * live-view-session.dom.test.tsx.
 */

import type { LiveViewSession } from "@runboard/protocol";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { LiveView } from "./index.ts";
import {
  expectNoUrlLogged,
  frameFor,
  frames,
  ORIGIN,
  root,
  session,
  target,
  urlOf,
  urlsUsed,
  View,
  watchConsole,
} from "./live-view-fixtures.test.tsx";

const logged = watchConsole();

describe("tabs", () => {
  it("shows one tab per real page, named by title or host, and hides workers, blank and internal pages", () => {
    render(<View session={session()} />);
    const tabs = within(screen.getByRole("tablist", { name: "Remote tabs" })).getAllByRole("tab");
    expect(tabs.map((t) => t.textContent)).toEqual(["Sign in · Example Shop", "shop.example"]);
    expect(frames()).toHaveLength(2);
    expect(screen.getAllByRole("tabpanel", { hidden: true })).toHaveLength(2);
  });

  it("wires tabs and panels (WAI-ARIA) with a roving tabindex and one visible panel", () => {
    render(<View session={session()} />);
    const [login, orders] = screen.getAllByRole("tab") as [HTMLElement, HTMLElement];
    expect(login?.getAttribute("aria-selected")).toBe("true");
    expect(orders?.getAttribute("aria-selected")).toBe("false");
    expect([login.tabIndex, orders.tabIndex]).toEqual([0, -1]);
    for (const tab of [login, orders]) {
      const panel = document.getElementById(tab.getAttribute("aria-controls") as string) as HTMLElement;
      expect(panel?.getAttribute("role")).toBe("tabpanel");
      expect(panel?.getAttribute("aria-labelledby")).toBe(tab.id);
    }
    expect(screen.getByRole("tabpanel", { name: "Sign in · Example Shop" }).hidden).toBe(false);
    expect(document.getElementById(orders.getAttribute("aria-controls") as string)?.hidden).toBe(true);
  });

  it("moves focus and selection with the arrow keys (wrapping), Home and End", async () => {
    const onValueChange = vi.fn();
    const user = userEvent.setup();
    render(<View session={session()} onValueChange={onValueChange} />);
    const [login, orders] = screen.getAllByRole("tab") as [HTMLElement, HTMLElement];
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(login);
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(orders);
    expect(orders?.getAttribute("aria-selected")).toBe("true");
    expect([login.tabIndex, orders.tabIndex]).toEqual([-1, 0]);
    expect(screen.getByRole("tabpanel", { name: "shop.example" }).hidden).toBe(false);
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(login);
    await user.keyboard("{ArrowLeft}");
    expect(document.activeElement).toBe(orders);
    await user.keyboard("{Home}");
    expect(document.activeElement).toBe(login);
    await user.keyboard("{End}");
    expect(document.activeElement).toBe(orders);
    expect(onValueChange.mock.calls.map((c) => c[0])).toEqual([
      "ORDERS",
      "LOGIN",
      "ORDERS",
      "LOGIN",
      "ORDERS",
    ]);
    // Switching tabs never touches the frames: both stay mounted.
    expect(frames()).toHaveLength(2);
  });

  it("follows a controlled value and falls back to the first tab for an id it does not show", () => {
    const s = session();
    const { rerender } = render(<View session={s} value="ORDERS" />);
    expect(screen.getByRole("tab", { selected: true })?.textContent).toContain("shop.example");
    rerender(<View session={s} value="SW" />);
    expect(screen.getByRole("tab", { selected: true })?.textContent).toContain("Sign in · Example Shop");
  });
});

describe("the frame", () => {
  it("is sandboxed, sends no referrer, asks for no permissions and is named after its tab", () => {
    const s = session();
    render(<View session={s} />);
    const frame = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    expect(frame.getAttribute("src")).toBe(urlOf(s, "LOGIN"));
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin allow-forms");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame.getAttribute("allow")).toBe("");
    expect(frame.title).toBe("Live view: Sign in · Example Shop");
  });

  it("never allows top navigation, even when the app asks", () => {
    render(
      <View
        session={session()}
        sandbox="allow-scripts allow-top-navigation allow-top-navigation-by-user-activation allow-popups"
      />,
    );
    expect(frames()[0]?.getAttribute("sandbox")).toBe("allow-scripts allow-popups");
  });

  it("keeps the sandbox, referrer policy and link safety even when a part's props ask otherwise", () => {
    render(
      <View session={session()}>
        <LiveView.TabList />
        <LiveView.Panels>
          {() => (
            <LiveView.Panel>
              <LiveView.Frame sandbox="allow-top-navigation allow-scripts" referrerPolicy="unsafe-url" />
            </LiveView.Panel>
          )}
        </LiveView.Panels>
        <LiveView.OpenInNewTab rel="opener" target="_self" />
      </View>,
    );
    const frame = frames()[0] as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin allow-forms");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    const link = screen.getByRole("link");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(link.getAttribute("target")).toBe("_blank");
  });

  it("keeps the policy when the parts render the app's own elements (asChild) or get srcDoc/allow (issue 26 §4)", () => {
    const s = session();
    render(
      <View session={s}>
        <LiveView.TabList />
        <LiveView.Panels>
          {() => (
            <LiveView.Panel>
              <LiveView.Frame asChild allow="camera; microphone" srcDoc="<script>parent.x=1</script>">
                <iframe
                  title="mine"
                  sandbox="allow-top-navigation allow-scripts allow-same-origin"
                  referrerPolicy="unsafe-url"
                  src="https://evil.example/"
                  allow="geolocation"
                  srcDoc="<p>hi</p>"
                />
              </LiveView.Frame>
            </LiveView.Panel>
          )}
        </LiveView.Panels>
        <LiveView.OpenInNewTab asChild>
          <a href="https://elsewhere.example/" rel="opener" target="_self" referrerPolicy="unsafe-url">
            Open
          </a>
        </LiveView.OpenInNewTab>
      </View>,
    );
    const frame = frames()[0] as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts allow-same-origin allow-forms");
    expect(frame.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(frame.getAttribute("allow")).toBe("");
    expect(frame.hasAttribute("srcdoc")).toBe(false);
    expect(frame.getAttribute("src")).toBe(urlOf(s, "LOGIN"));
    const link = screen.getByRole("link", { name: "Open" });
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("referrerpolicy")).toBe("no-referrer");
    expect(link.getAttribute("href")).toBe(urlOf(s, "LOGIN"));
  });

  it("never moves a frame: a reordered session keeps tab and frame order, new targets are appended", () => {
    const s = session();
    const { rerender } = render(<View session={s} />);
    const [login, orders] = frames();
    const reordered: LiveViewSession = {
      ...s,
      sessionId: "sess-2",
      targets: [target("CART", "https://shop.example/cart", "Cart"), ...[...s.targets].reverse()],
    };
    rerender(<View session={reordered} />);
    expect(frames().slice(0, 2)).toEqual([login, orders]);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Sign in · Example Shop",
      "shop.example",
      "Cart",
    ]);
  });

  it("is watch-only (inert) while the agent drives, and takes input once the human takes over", async () => {
    const user = userEvent.setup();
    const onControlChange = vi.fn();
    render(<View session={session()} onControlChange={onControlChange} />);
    const frame = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    expect(root()?.getAttribute("data-control")).toBe("agent");
    expect(frame?.hasAttribute("inert")).toBe(true);
    expect(screen.getByRole("tabpanel")?.getAttribute("tabindex")).toBe("0");
    await user.click(screen.getByRole("button", { name: "Take over" }));
    expect(onControlChange).toHaveBeenCalledWith("human");
    expect(root()?.getAttribute("data-control")).toBe("human");
    expect(frame?.hasAttribute("inert")).toBe(false);
    expect(frame?.getAttribute("data-control")).toBe("human");
    expect(screen.getByRole("tabpanel")?.hasAttribute("tabindex")).toBe(false);
    expect((screen.getByRole("button", { name: "Take over" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.load(frame);
    expect(screen.getByRole("status")?.textContent).toContain("You are in control");
  });

  it("goes from loading to live on load", () => {
    render(<View session={session()} />);
    expect(root()?.getAttribute("data-status")).toBe("loading");
    fireEvent.load(frameFor("Sign in · Example Shop") as HTMLIFrameElement);
    expect(root()?.getAttribute("data-status")).toBe("live");
    expect(screen.getByRole("status")?.textContent).toContain("Agent is browsing");
  });

  it("fails when no load comes in time, and offers the page in a new tab prominently", async () => {
    vi.useFakeTimers();
    const s = session();
    render(<View session={s} loadTimeoutMs={5000} />);
    const link = screen.getByRole("link", { name: "Open in new tab" });
    expect(link?.hasAttribute("data-prominent")).toBe(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4999);
    });
    expect(root()?.getAttribute("data-status")).toBe("loading");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(root()?.getAttribute("data-status")).toBe("failed");
    expect(screen.getByRole("tabpanel")?.getAttribute("data-status")).toBe("failed");
    expect(link?.hasAttribute("data-prominent")).toBe(true);
    expect(link?.getAttribute("href")).toBe(urlOf(s, "LOGIN"));
    expect(link?.getAttribute("target")).toBe("_blank");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByRole("status")?.textContent).toContain("did not load. Open it in a new tab");
    // A late load means the frame works after all.
    fireEvent.load(frameFor("Sign in · Example Shop") as HTMLIFrameElement);
    expect(root()?.getAttribute("data-status")).toBe("live");
  });

  it("fails on the frame's error event", () => {
    render(<View session={session()} />);
    const frame = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    act(() => {
      frame.dispatchEvent(new Event("error"));
    });
    expect(root()?.getAttribute("data-status")).toBe("failed");
    expect(screen.getByRole("link", { name: "Open in new tab" })?.hasAttribute("data-prominent")).toBe(true);
  });
});

describe("refused URLs", () => {
  const cases: Array<[string, string, string]> = [
    ["javascript:alert(document.cookie)", "scheme", "Not embedded: javascript: addresses are not allowed"],
    ["data:text/html,<h1>hi</h1>", "scheme", "Not embedded: data: addresses are not allowed"],
    ["https://evil.example/s/x", "origin", "Not embedded: origin https://evil.example is not allowed."],
    ["http://live.browser.run/s/x", "insecure", "uses plain http; only https is allowed"],
    ["http://127.0.0.1:8787/s/x", "insecure", "allowLoopbackHttp"],
    ["https://user:pass@live.browser.run/s/x", "credentials", "carries a user name or password"],
    ["not a url", "unparsable", "the address is not a valid URL"],
  ];
  it.each(cases)("refuses %s with a visible reason, no frame and no link", (url, reason, text) => {
    urlsUsed.add(url);
    const s: LiveViewSession = {
      sessionId: "s",
      targets: [target("T1", "https://shop.example/", "Shop", { url })],
      expiresInMs: 60_000,
    };
    render(<View session={s} allowedOrigins={[ORIGIN, "http://127.0.0.1:8787"]} />);
    const refused = document.querySelector("p[data-status=refused]") as HTMLElement;
    expect(refused.textContent).toMatch(text);
    expect(refused?.getAttribute("data-status")).toBe("refused");
    expect(refused?.getAttribute("data-reason")).toBe(reason);
    expect(refused.closest("[role=tabpanel]")?.getAttribute("data-status")).toBe("refused");
    expect(root()?.getAttribute("data-status")).toBe("refused");
    expect(frames()).toHaveLength(0);
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByRole("status")?.textContent).toContain("cannot be embedded");
    // Never the path or query of the refused address.
    expect(document.body.innerHTML).not.toContain("/s/x");
  });

  it("refuses a page on the app's own origin (the default sandbox would let it script the app)", () => {
    // jsdom's page origin; listing it and allowing loopback http leaves only the same-origin rule to refuse it.
    const own = window.location.origin;
    const url = `${own}/live-view/s/x`;
    urlsUsed.add(url);
    const s: LiveViewSession = {
      sessionId: "s",
      targets: [target("T1", "https://shop.example/", "Shop", { url })],
      expiresInMs: 60_000,
    };
    render(<View session={s} allowedOrigins={[own]} allowLoopbackHttp />);
    const refused = document.querySelector("p[data-status=refused]") as HTMLElement;
    expect(refused?.getAttribute("data-reason")).toBe("same-origin");
    expect(refused.textContent).toContain("is this app's own address");
    expect(frames()).toHaveLength(0);
    expect(screen.queryByRole("link")).toBeNull();
    expect(logged.some((l) => l.includes("LiveView: a target's URL was not embedded (same-origin)"))).toBe(
      true,
    );
  });

  it("embeds a same-origin page when the sandbox withholds allow-same-origin", () => {
    const own = window.location.origin;
    const url = `${own}/live-view/s/y`;
    urlsUsed.add(url);
    const s: LiveViewSession = {
      sessionId: "s",
      targets: [target("T1", "https://shop.example/", "Shop", { url })],
      expiresInMs: 60_000,
    };
    render(<View session={s} allowedOrigins={[own]} allowLoopbackHttp sandbox="allow-scripts allow-forms" />);
    expect(frames()[0]?.getAttribute("src")).toBe(url);
  });

  it("refuses a wildcard allowedOrigins entry as a configuration error, not as allow-all", () => {
    render(<View session={session()} allowedOrigins={["https://*"]} />);
    const refused = document.querySelector("p[data-status=refused]") as HTMLElement;
    expect(refused?.getAttribute("data-reason")).toBe("wildcard");
    expect(refused.textContent).toContain("wildcard pattern, which is not supported");
    expect(frames()).toHaveLength(0);
    expect(logged.some((l) => l.includes("allowedOrigins entry is a wildcard pattern"))).toBe(true);
  });

  it("embeds loopback http with allowLoopbackHttp and the origin allowed (development)", () => {
    const url = "http://127.0.0.1:8787/live-view/login";
    urlsUsed.add(url);
    const s: LiveViewSession = {
      sessionId: "s",
      targets: [target("T1", "https://shop.example/login", "Sign in", { url })],
      expiresInMs: 60_000,
    };
    render(<View session={s} allowedOrigins={["http://127.0.0.1:8787"]} allowLoopbackHttp />);
    expect(frames()[0]?.getAttribute("src")).toBe(url);
  });

  it("embeds only the allowed tab when one of two is refused", async () => {
    const user = userEvent.setup();
    const s: LiveViewSession = {
      sessionId: "s",
      targets: [
        target("OK", "https://shop.example/", "Shop"),
        target("BAD", "https://shop.example/x", "Other", { url: "https://evil.example/s/bad" }),
      ],
      expiresInMs: 60_000,
    };
    urlsUsed.add("https://evil.example/s/bad");
    render(<View session={s} />);
    expect(frames()).toHaveLength(1);
    await user.click(screen.getByRole("tab", { name: "Other" }));
    expect(screen.getByRole("tabpanel")?.textContent).toContain(
      "Not embedded: origin https://evil.example is not allowed.",
    );
    expect(screen.getByRole("tab", { name: "Other" })?.getAttribute("data-status")).toBe("refused");
    expect(screen.queryByRole("link")).toBeNull();
  });
});

describe("the console", () => {
  it("never receives a URL (dev warnings name the part and the fix only)", () => {
    // Trigger every warning path once more in case earlier tests did not.
    render(
      <View
        session={{
          sessionId: "s",
          targets: [
            target("X", "https://shop.example/", "X", { url: "https://evil.example/s/console-check" }),
          ],
          expiresInMs: 1000,
        }}
        allowedOrigins={["not an origin", ORIGIN]}
        sandbox="allow-scripts allow-top-navigation"
      />,
    );
    urlsUsed.add("https://evil.example/s/console-check");
    expect(logged.join("\n")).toMatch(/\[runboard\] LiveView/);
    expectNoUrlLogged(logged);
  });
});
