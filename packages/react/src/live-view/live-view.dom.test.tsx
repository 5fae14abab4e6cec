/**
 * LiveView in jsdom: the tabs a person sees, the frame they use staying the same element (and URL) across
 * refreshes, what is refused and why, take over → continue, load failures, and that no URL reaches the console.
 */
import { LiveViews } from "@runboard/mock-server";
import type { LiveViewMode, LiveViewSession, LiveViewTarget } from "@runboard/protocol";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, StrictMode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LiveView, type LiveViewRootProps } from "./live-view.tsx";

const ORIGIN = "https://live.browser.run";
/** Every URL handed to the component, so the console check can look for each. */
const urlsUsed = new Set<string>();
let minted = 0;

const target = (
  targetId: string,
  pageUrl: string,
  title: string,
  extra: Partial<LiveViewTarget> = {},
): LiveViewTarget => {
  minted += 1;
  const url = extra.url ?? `${ORIGIN}/s/${targetId.toLowerCase()}-${minted}-token${minted}`;
  urlsUsed.add(url);
  urlsUsed.add(pageUrl);
  return { targetId, url, pageUrl, title, type: "page", ...extra };
};

/** The mock's shape: two real tabs plus what a real browser also reports and must stay hidden. */
function session(opts: { expiresInMs?: number; mode?: LiveViewMode } = {}): LiveViewSession {
  const dev = opts.mode === "devtools" ? "-devtools" : "";
  return {
    sessionId: "sess-1",
    targets: [
      target(`LOGIN`, "https://shop.example/login", `Sign in · Example Shop${dev}`),
      target("SW", "https://shop.example/sw.js", "", { type: "service_worker" }),
      target("BG", "chrome-extension://abc/bg.html", "", { type: "background_page" }),
      target("BLANK", "about:blank", "about:blank"),
      target("NEWTAB", "chrome://newtab/", "New Tab"),
      target("DEVTOOLS", "devtools://devtools/bundled/inspector.html", "DevTools"),
      target("ORDERS", "https://shop.example/orders", ""),
    ],
    expiresInMs: opts.expiresInMs ?? 300_000,
  };
}

const urlOf = (s: LiveViewSession, id: string) => s.targets.find((t) => t.targetId === id)?.url;

/** Every part, in StrictMode (effects run twice, so timers and fetches must not double). */
function View(props: Partial<LiveViewRootProps> & { children?: ReactNode }) {
  const { children, ...rest } = props;
  return (
    <StrictMode>
      <LiveView.Root allowedOrigins={[ORIGIN]} aria-label="Browser" {...rest}>
        {children ?? (
          <>
            <LiveView.ModeSwitch />
            <LiveView.TabList />
            <LiveView.Panels />
            <LiveView.OpenInNewTab />
            <LiveView.TakeOver />
            <LiveView.Continue />
            <LiveView.Error />
            <LiveView.Status />
          </>
        )}
      </LiveView.Root>
    </StrictMode>
  );
}

const root = () => screen.getByRole("region", { name: "Browser" });
const frames = () => Array.from(document.querySelectorAll("iframe"));
const frameFor = (name: string) =>
  within(screen.getByRole("tabpanel", { name })).queryByTitle(
    /^(Live view|DevTools): /,
  ) as HTMLIFrameElement | null;

// Everything written to the console by this file, checked at the end for URLs.
const logged: string[] = [];
beforeAll(() => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
    });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(() => vi.restoreAllMocks());

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
    expect(root()?.getAttribute("data-state")).toBe("loading");
    fireEvent.load(frameFor("Sign in · Example Shop") as HTMLIFrameElement);
    expect(root()?.getAttribute("data-state")).toBe("live");
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
    expect(root()?.getAttribute("data-state")).toBe("loading");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(root()?.getAttribute("data-state")).toBe("failed");
    expect(screen.getByRole("tabpanel")?.getAttribute("data-state")).toBe("failed");
    expect(link?.hasAttribute("data-prominent")).toBe(true);
    expect(link?.getAttribute("href")).toBe(urlOf(s, "LOGIN"));
    expect(link?.getAttribute("target")).toBe("_blank");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByRole("status")?.textContent).toContain("did not load. Open it in a new tab");
    // A late load means the frame works after all.
    fireEvent.load(frameFor("Sign in · Example Shop") as HTMLIFrameElement);
    expect(root()?.getAttribute("data-state")).toBe("live");
  });

  it("fails on the frame's error event", () => {
    render(<View session={session()} />);
    const frame = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    act(() => {
      frame.dispatchEvent(new Event("error"));
    });
    expect(root()?.getAttribute("data-state")).toBe("failed");
    expect(screen.getByRole("link", { name: "Open in new tab" })?.hasAttribute("data-prominent")).toBe(true);
  });
});

describe("refreshing", () => {
  it("fetches once before expiry, keeps the active frame's element and URL, gives the inactive one the fresh URL", async () => {
    vi.useFakeTimers();
    const first = session({ expiresInMs: 60_000 });
    const second = session({ expiresInMs: 60_000 });
    const refresh = vi.fn(async () => second);
    render(<View session={first} refresh={refresh} />);
    const active = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    const inactive = document.querySelectorAll("iframe")[1] as HTMLIFrameElement;
    fireEvent.load(active);
    // Default margin: 20% of 60 s = 12 s before expiry.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(47_999);
    });
    expect(refresh).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith({ mode: "tab" });
    expect(frameFor("Sign in · Example Shop")).toBe(active);
    expect(active.getAttribute("src")).toBe(urlOf(first, "LOGIN"));
    expect(document.querySelectorAll("iframe")[1]).toBe(inactive);
    expect(inactive.getAttribute("src")).toBe(urlOf(second, "ORDERS"));
    expect(root()?.getAttribute("data-state")).toBe("live");

    // The active frame's URL runs out: now, and only now, it takes the fresh one, in the same element.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(11_999);
    });
    expect(active.getAttribute("src")).toBe(urlOf(first, "LOGIN"));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(frameFor("Sign in · Example Shop")).toBe(active);
    expect(active.getAttribute("src")).toBe(urlOf(second, "LOGIN"));
    // The next fetch is scheduled from the second session: still exactly one so far.
    expect(refresh).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(36_000);
    });
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("honours refreshMarginMs", async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(async () => session());
    render(<View session={session({ expiresInMs: 60_000 })} refresh={refresh} refreshMarginMs={30_000} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(29_999);
    });
    expect(refresh).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("shows the expired state when no fresh URL comes, and swaps as soon as one does", async () => {
    vi.useFakeTimers();
    const first = session({ expiresInMs: 10_000 });
    const second = session({ expiresInMs: 10_000 });
    let answer!: (s: LiveViewSession) => void;
    const refresh = vi.fn(() => new Promise<LiveViewSession>((r) => (answer = r)));
    render(<View session={first} refresh={refresh} />);
    const active = frameFor("Sign in · Example Shop") as HTMLIFrameElement;
    fireEvent.load(active);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(root()?.getAttribute("data-state")).toBe("expired");
    expect(screen.getByRole("status")?.textContent).toContain("Session expired, refreshing…");
    await act(async () => {
      answer(second);
    });
    expect(frameFor("Sign in · Example Shop")).toBe(active);
    expect(active.getAttribute("src")).toBe(urlOf(second, "LOGIN"));
    expect(root()?.getAttribute("data-state")).toBe("loading");
  });

  it("shows a refresh error, retries, and recovers without crashing", async () => {
    vi.useFakeTimers();
    const good = session({ expiresInMs: 10_000 });
    const refresh = vi
      .fn<(o: { mode: LiveViewMode }) => Promise<LiveViewSession>>()
      .mockRejectedValueOnce(new Error(`fetch ${ORIGIN}/s/secret-refresh-token failed`))
      .mockImplementationOnce(() => {
        throw new Error("sync throw");
      })
      .mockResolvedValueOnce({ nope: true } as unknown as LiveViewSession)
      .mockResolvedValue(good);
    urlsUsed.add(`${ORIGIN}/s/secret-refresh-token`);
    render(<View session={session({ expiresInMs: 10_000 })} refresh={refresh} />);
    fireEvent.load(frameFor("Sign in · Example Shop") as HTMLIFrameElement);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(8_000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(root()?.getAttribute("data-state")).toBe("error");
    const error = screen.getByText("Refreshing the live view failed once; retrying automatically.");
    expect(error?.getAttribute("data-state")).toBe("error");
    expect(error?.getAttribute("data-attempts")).toBe("1");
    expect(screen.getByRole("status")?.textContent).toContain("Could not refresh the live view. Retrying…");
    // Retries after 1 s, then 2 s, then 4 s (a sync throw and a non-session answer count as failures too).
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(error?.getAttribute("data-attempts")).toBe("2");
    expect(error.textContent).toBe("Refreshing the live view failed 2 times; retrying automatically.");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(refresh).toHaveBeenCalledTimes(3);
    expect(error?.getAttribute("data-attempts")).toBe("3");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4000);
    });
    expect(refresh).toHaveBeenCalledTimes(4);
    expect(screen.queryByText(/Refreshing the live view failed/)).toBeNull();
    expect(root()?.getAttribute("data-state")).not.toBe("error");
  });

  it("keeps the frame element when the same session prop comes back as a new object", () => {
    const s = session();
    const { rerender } = render(<View session={s} />);
    const frame = frames()[0];
    rerender(<View session={{ ...s, targets: [...s.targets] }} />);
    expect(frames()[0]).toBe(frame);
  });

  it("fetches on mount when there is no session yet", async () => {
    const s = session();
    const refresh = vi.fn(async () => s);
    render(<View refresh={refresh} defaultMode="devtools" />);
    expect(root()?.getAttribute("data-state")).toBe("loading");
    expect(await screen.findAllByRole("tab")).toHaveLength(2);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith({ mode: "devtools" });
  });
});

describe("mode", () => {
  it("switching to DevTools fetches a DevTools session and shows it in the same frame element", async () => {
    const user = userEvent.setup();
    const dev = session({ mode: "devtools" });
    const refresh = vi.fn(async ({ mode }: { mode: LiveViewMode }) =>
      mode === "devtools" ? dev : session(),
    );
    const onModeChange = vi.fn();
    render(<View session={session()} refresh={refresh} onModeChange={onModeChange} />);
    const frame = frames()[0] as HTMLIFrameElement;
    const group = screen.getByRole("group", { name: "View" });
    expect(within(group).getByRole("button", { name: "Tab" })?.getAttribute("aria-pressed")).toBe("true");
    await user.click(within(group).getByRole("button", { name: "DevTools" }));
    expect(onModeChange).toHaveBeenCalledWith("devtools");
    expect(refresh).toHaveBeenCalledWith({ mode: "devtools" });
    expect(root()?.getAttribute("data-mode")).toBe("devtools");
    expect(within(group).getByRole("button", { name: "DevTools" })?.getAttribute("aria-pressed")).toBe(
      "true",
    );
    await vi.waitFor(() => expect(frame.getAttribute("src")).toBe(urlOf(dev, "LOGIN")));
    expect(frames()[0]).toBe(frame);
    expect(frame.title).toBe("DevTools: Sign in · Example Shop-devtools");
    expect(screen.getByRole("tabpanel")?.getAttribute("data-mode")).toBe("devtools");
  });

  it("cannot switch without refresh", () => {
    render(<View session={session()} />);
    expect((screen.getByRole("button", { name: "DevTools" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Tab" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("drops a slow answer for the mode the user already left", async () => {
    const user = userEvent.setup();
    const answers: Array<(s: LiveViewSession) => void> = [];
    const refresh = vi.fn(() => new Promise<LiveViewSession>((r) => answers.push(r)));
    const tab = session();
    render(<View session={tab} refresh={refresh} />);
    await user.click(screen.getByRole("button", { name: "DevTools" }));
    await user.click(screen.getByRole("button", { name: "Tab" }));
    // Back in the mode it already has a session for: nothing more to fetch.
    expect(refresh.mock.calls.map((c) => (c as unknown as [{ mode: string }])[0].mode)).toEqual(["devtools"]);
    await act(async () => answers[0]?.(session({ mode: "devtools" })));
    expect(frames()[0]?.getAttribute("src")).toBe(urlOf(tab, "LOGIN"));
    expect(frames()[0]?.title).toBe("Live view: Sign in · Example Shop");
    expect(root().getAttribute("data-state")).toBe("loading");
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
    const refused = document.querySelector("p[data-state=refused]") as HTMLElement;
    expect(refused.textContent).toMatch(text);
    expect(refused?.getAttribute("data-state")).toBe("refused");
    expect(refused?.getAttribute("data-reason")).toBe(reason);
    expect(refused.closest("[role=tabpanel]")?.getAttribute("data-state")).toBe("refused");
    expect(root()?.getAttribute("data-state")).toBe("refused");
    expect(frames()).toHaveLength(0);
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByRole("status")?.textContent).toContain("cannot be embedded");
    // Never the path or query of the refused address.
    expect(document.body.innerHTML).not.toContain("/s/x");
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
    expect(screen.getByRole("tab", { name: "Other" })?.getAttribute("data-state")).toBe("refused");
    expect(screen.queryByRole("link")).toBeNull();
  });
});

describe("take over → continue", () => {
  it("calls onContinue exactly once however often it is pressed, then hands control back", async () => {
    const user = userEvent.setup();
    let settle!: () => void;
    const onContinue = vi.fn(() => new Promise<void>((r) => (settle = r)));
    render(<View session={session()} onContinue={onContinue} />);
    await user.click(screen.getByRole("button", { name: "Take over" }));
    expect(root()?.getAttribute("data-control")).toBe("human");
    const button = screen.getByRole("button", { name: "Done, continue" });
    fireEvent.click(button);
    fireEvent.click(button);
    await user.dblClick(button);
    expect(onContinue).toHaveBeenCalledTimes(1);
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button?.getAttribute("data-state")).toBe("pending");
    await act(async () => settle());
    expect(button?.getAttribute("data-state")).toBe("done");
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(root()?.getAttribute("data-control")).toBe("agent");
    fireEvent.click(button);
    expect(onContinue).toHaveBeenCalledTimes(1);
  });

  it("is not rendered without onContinue, and a new round starts once it comes back", async () => {
    const s = session();
    const first = vi.fn();
    const { rerender } = render(<View session={s} />);
    expect(screen.queryByRole("button", { name: "Done, continue" })).toBeNull();
    rerender(<View session={s} onContinue={first} />);
    fireEvent.click(screen.getByRole("button", { name: "Done, continue" }));
    fireEvent.click(screen.getByRole("button", { name: "Done, continue" }));
    expect(first).toHaveBeenCalledTimes(1);
    rerender(<View session={s} />);
    const second = vi.fn();
    rerender(<View session={s} onContinue={second} />);
    fireEvent.click(screen.getByRole("button", { name: "Done, continue" }));
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("allows another try when onContinue fails", async () => {
    const onContinue = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(undefined);
    render(<View session={session()} onContinue={onContinue} />);
    const button = screen.getByRole("button", { name: "Done, continue" });
    await act(async () => fireEvent.click(button));
    expect((button as HTMLButtonElement).disabled).toBe(false);
    await act(async () => fireEvent.click(button));
    expect(onContinue).toHaveBeenCalledTimes(2);
    expect(button?.getAttribute("data-state")).toBe("done");
  });

  it("follows a controlled control prop", () => {
    const s = session();
    const { rerender } = render(<View session={s} control="human" />);
    expect(frames()[0]?.hasAttribute("inert")).toBe(false);
    rerender(<View session={s} control="agent" />);
    expect(frames()[0]?.hasAttribute("inert")).toBe(true);
  });
});

describe("with the mock server's sessions", () => {
  it("embeds what the mock's liveView() mints: two named tabs on its URLs", () => {
    const views = new LiveViews(300_000);
    const base = "http://127.0.0.1:8787";
    const mint = (mode: LiveViewMode) => {
      const s = views.mint(base, mode);
      for (const t of s.targets) urlsUsed.add(t.url);
      return s;
    };
    const first = mint("tab");
    render(<View session={first} allowedOrigins={[base]} allowLoopbackHttp />);
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Sign in · Example Shop",
      "Your orders · Example Shop",
    ]);
    expect(frames().map((f) => f.getAttribute("src"))).toEqual(first.targets.map((t) => t.url));
  });
});

describe("with the conformance Worker's sessions", () => {
  it("stays live across refreshes that return the same fixed URLs", async () => {
    vi.useFakeTimers();
    const origin = "http://127.0.0.1:8787";
    // The Worker's liveView(): fixed ids and URLs, 5 minutes.
    const worker = (): LiveViewSession => ({
      sessionId: "live-session-conformance",
      targets: ["login", "orders"].map((tab) => ({
        targetId: `TARGET-${tab.toUpperCase()}`,
        url: `${origin}/live-view/${tab}`,
        pageUrl: `https://shop.example/${tab}`,
        title: tab,
        type: "page",
      })),
      expiresInMs: 300_000,
    });
    for (const t of worker().targets) urlsUsed.add(t.url);
    const refresh = vi.fn(async () => worker());
    render(<View session={worker()} refresh={refresh} allowedOrigins={[origin]} allowLoopbackHttp />);
    const frame = frames()[0] as HTMLIFrameElement;
    fireEvent.load(frame);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(300_000);
    });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(frames()[0]).toBe(frame);
    expect(frame.getAttribute("src")).toBe(`${origin}/live-view/login`);
    expect(root().getAttribute("data-state")).toBe("live");
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
    for (const line of logged) {
      for (const url of urlsUsed) expect(line).not.toContain(url);
      expect(line).not.toMatch(/https?:\/\/|javascript:|data:text/);
    }
  });
});
