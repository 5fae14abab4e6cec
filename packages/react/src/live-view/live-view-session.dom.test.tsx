/**
 * LiveView sessions in jsdom: the frame a person uses keeps its element and URL across refreshes, expiry and
 * failing refreshes, switching to DevTools, take over → continue, and the sessions the mock server and the
 * conformance Worker send. No URL reaches the console here either.
 */
import { LiveViews } from "@runboard/mock-server";
import type { LiveViewMode, LiveViewSession } from "@runboard/protocol";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import {
  expectNoUrlLogged,
  frameFor,
  frames,
  ORIGIN,
  root,
  session,
  urlOf,
  urlsUsed,
  View,
  watchConsole,
} from "./live-view-fixtures.test.tsx";

const logged = watchConsole();

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
    expect(root()?.getAttribute("data-status")).toBe("live");

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
    expect(root()?.getAttribute("data-status")).toBe("expired");
    expect(screen.getByRole("status")?.textContent).toContain("Session expired, refreshing…");
    await act(async () => {
      answer(second);
    });
    expect(frameFor("Sign in · Example Shop")).toBe(active);
    expect(active.getAttribute("src")).toBe(urlOf(second, "LOGIN"));
    expect(root()?.getAttribute("data-status")).toBe("loading");
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
    expect(root()?.getAttribute("data-status")).toBe("error");
    const error = screen.getByText("Refreshing the live view failed once; retrying automatically.");
    expect(error?.getAttribute("data-status")).toBe("error");
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
    expect(root()?.getAttribute("data-status")).not.toBe("error");
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
    expect(root()?.getAttribute("data-status")).toBe("loading");
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
    expect(root().getAttribute("data-status")).toBe("loading");
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
    expect(button?.getAttribute("data-status")).toBe("pending");
    await act(async () => settle());
    expect(button?.getAttribute("data-status")).toBe("done");
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
    expect(button?.getAttribute("data-status")).toBe("done");
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
    expect(root().getAttribute("data-status")).toBe("live");
  });
});

describe("the console", () => {
  it("never receives a URL, not even from a refresh that failed with one in its message", () => {
    expectNoUrlLogged(logged);
  });
});
