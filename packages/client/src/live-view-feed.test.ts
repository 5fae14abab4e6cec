/**
 * LiveViewFeed without React: when it calls `refresh`, what it does with the answers, and what its snapshot
 * says. The feed's own schedule runs on fake timers, so nothing here depends on how fast the machine is.
 */
import type { LiveViewMode, LiveViewSession } from "@runboard/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveViewFeed, type LiveViewFeedOptions } from "./live-view-feed.ts";

let minted = 0;
/** A session like the mock's: one page target with a URL that is new on every call. */
function session(expiresInMs = 10_000, mode: LiveViewMode = "tab"): LiveViewSession {
  minted += 1;
  return {
    sessionId: `s${minted}`,
    targets: [
      {
        targetId: "LOGIN",
        url: `https://live.browser.run/${mode}/${minted}`,
        pageUrl: "https://shop.example/login",
        title: "Sign in",
        type: "page",
      },
    ],
    expiresInMs,
  };
}

/** A refresh whose answers the test settles by hand, recording every call's mode. */
function manualRefresh() {
  const calls: { mode: LiveViewMode; resolve: (s: unknown) => void; reject: (e: unknown) => void }[] = [];
  const refresh = vi.fn(
    ({ mode }: { mode: LiveViewMode }) =>
      new Promise<LiveViewSession>((resolve, reject) => {
        calls.push({ mode, resolve: resolve as (s: unknown) => void, reject });
      }),
  );
  return { refresh, calls };
}

const feeds: LiveViewFeed[] = [];
function feed(options: LiveViewFeedOptions): LiveViewFeed {
  const f = new LiveViewFeed(options);
  feeds.push(f);
  return f;
}

/** Lets settled promises run their handlers, without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  for (const f of feeds.splice(0)) f.dispose();
  vi.useRealTimers();
});

describe("fetching", () => {
  it("does nothing until started, though a fetch due at once already shows as under way", async () => {
    const { refresh } = manualRefresh();
    const f = feed({ refresh });
    expect(f.getSnapshot()).toMatchObject({ received: undefined, fetching: "tab", failure: undefined });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("fetches at once without a session and shows what comes back", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    f.start();
    f.start();
    await settle();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith({ mode: "tab" });
    const s = session();
    calls[0]?.resolve(s);
    await settle();
    expect(f.getSnapshot()).toMatchObject({
      received: { session: s, mode: "tab", receivedAt: 1_000_000 },
      fetching: undefined,
      failure: undefined,
      expired: false,
      closed: false,
    });
  });

  it("refreshes a margin before the URLs expire (20% by default, or refreshMarginMs)", async () => {
    const { refresh, calls } = manualRefresh();
    feed({ session: session(10_000), refresh }).start();
    await vi.advanceTimersByTimeAsync(7_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    calls[0]?.resolve(session(10_000));
    await vi.advanceTimersByTimeAsync(8_000);
    expect(refresh).toHaveBeenCalledTimes(2);

    const other = manualRefresh();
    feed({ session: session(60_000), refresh: other.refresh, refreshMarginMs: 5_000 }).start();
    await vi.advanceTimersByTimeAsync(54_999);
    expect(other.refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(other.refresh).toHaveBeenCalledTimes(1);
  });

  it("retries a failed fetch after 1 s, 2 s, 4 s, and a success clears the failure", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    f.start();
    await settle();
    const boom = new Error("offline");
    calls[0]?.reject(boom);
    await settle();
    expect(f.getSnapshot().failure).toEqual({ error: boom, attempts: 1, mode: "tab", retryAt: 1_001_000 });
    expect(f.getSnapshot().fetching).toBeUndefined();
    for (const [wait, attempts] of [
      [1_000, 2],
      [2_000, 3],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(refresh).toHaveBeenCalledTimes(attempts - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(refresh).toHaveBeenCalledTimes(attempts);
      calls[attempts - 1]?.reject(boom);
      await settle();
      expect(f.getSnapshot().failure?.attempts).toBe(attempts);
    }
    await vi.advanceTimersByTimeAsync(4_000);
    expect(refresh).toHaveBeenCalledTimes(4);
    calls[3]?.resolve(session());
    await settle();
    expect(f.getSnapshot().failure).toBeUndefined();
    expect(f.getSnapshot().received?.session.sessionId).toBe(`s${minted}`);
  });

  it("counts an answer that is not a session as a failure", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    f.start();
    await settle();
    calls[0]?.resolve({ nope: true });
    await settle();
    expect(f.getSnapshot().failure?.error).toMatchObject({ name: "InvalidSessionError" });
    expect(f.getSnapshot().received).toBeUndefined();
  });

  it("counts a refresh that throws instead of rejecting as a failure", async () => {
    const refresh = vi.fn(() => {
      throw new Error("sync");
    });
    const f = feed({ refresh });
    f.start();
    await settle();
    expect(f.getSnapshot().failure).toMatchObject({ attempts: 1, error: new Error("sync") });
  });
});

describe("mode", () => {
  it("fetches for the new mode at once and drops a late answer for the old one", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ session: session(), refresh });
    f.start();
    await vi.advanceTimersByTimeAsync(8_000);
    expect(calls.map((c) => c.mode)).toEqual(["tab"]);
    f.setOptions({ session: f.getSnapshot().received?.session, refresh, mode: "devtools" });
    expect(f.getSnapshot()).toMatchObject({ mode: "devtools", fetching: "tab" });
    await settle();
    expect(calls.map((c) => c.mode)).toEqual(["tab", "devtools"]);
    calls[0]?.resolve(session(10_000, "tab"));
    await settle();
    expect(f.getSnapshot().received?.mode).toBe("tab");
    const dev = session(10_000, "devtools");
    calls[1]?.resolve(dev);
    await settle();
    expect(f.getSnapshot().received).toMatchObject({ session: dev, mode: "devtools" });
    expect(f.getSnapshot().fetching).toBeUndefined();
  });

  it("keeps the session it holds when the mode changes back before the answer comes", async () => {
    const { refresh, calls } = manualRefresh();
    const first = session();
    const f = feed({ session: first, refresh });
    f.start();
    f.setOptions({ session: first, refresh, mode: "devtools" });
    await settle();
    f.setOptions({ session: first, refresh, mode: "tab" });
    calls[0]?.resolve(session(10_000, "devtools"));
    await settle();
    expect(f.getSnapshot().received?.session.sessionId).toBe(first.sessionId);
    expect(f.getSnapshot().fetching).toBeUndefined();
  });
});

describe("the session option", () => {
  it("ignores a rebuilt object with the same content (the refresh is not pushed back)", async () => {
    const { refresh } = manualRefresh();
    const s = session(10_000);
    const f = feed({ session: s, refresh });
    f.start();
    const before = f.getSnapshot();
    await vi.advanceTimersByTimeAsync(5_000);
    f.setOptions({ session: structuredClone(s), refresh });
    expect(f.getSnapshot()).toBe(before);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("adopts a session with new content in place of a fetched one, and notifies", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    const listener = vi.fn();
    f.subscribe(listener);
    f.start();
    await settle();
    calls[0]?.resolve(session());
    await settle();
    const next = session(60_000);
    listener.mockClear();
    f.setOptions({ session: next, refresh });
    expect(f.getSnapshot().received?.session).toEqual(next);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("expiry and closing", () => {
  it("without refresh: shows the session until its URLs expire, then reports it closed", async () => {
    const f = feed({ session: session(10_000) });
    const listener = vi.fn();
    f.subscribe(listener);
    f.start();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(f.getSnapshot()).toMatchObject({ expired: false, closed: false, fetching: undefined });
    await vi.advanceTimersByTimeAsync(1);
    expect(f.getSnapshot()).toMatchObject({ expired: true, closed: true });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("with a refresh that keeps failing: expired, but not closed (it is still retrying)", async () => {
    const refresh = vi.fn(() => Promise.reject(new Error("down")));
    const f = feed({ session: session(10_000), refresh });
    f.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalled();
    expect(f.getSnapshot()).toMatchObject({ expired: true, closed: false });
  });

  it("dispose stops everything: no timers, no more fetches, and a late answer is ignored", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    f.start();
    await settle();
    const seen = f.getSnapshot();
    f.dispose();
    expect(f.getSnapshot()).toMatchObject({ closed: true, fetching: undefined });
    expect(vi.getTimerCount()).toBe(0);
    calls[0]?.resolve(session());
    await vi.advanceTimersByTimeAsync(120_000);
    expect(f.getSnapshot().received).toBe(seen.received);
    expect(refresh).toHaveBeenCalledTimes(1);
    f.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe("hand-offs as the docs show them", () => {
  it("shows a single-URL hand-off, as the session option or as refresh's answer", async () => {
    const url = "https://live.browser.run/ui/view?mode=tab&wss=1";
    const given = feed({ session: { needsHumanLogin: url } });
    expect(given.getSnapshot().received?.session.targets.map((t) => t.url)).toEqual([url]);
    const { refresh, calls } = manualRefresh();
    const f = feed({ refresh });
    f.start();
    await settle();
    calls[0]?.resolve("https://live.browser.run/ui/view?mode=tab&wss=2");
    await settle();
    expect(f.getSnapshot()).toMatchObject({
      failure: undefined,
      received: { session: { expiresInMs: 300_000 } },
    });
  });

  it("a session the agent closed (null or undefined) ends the feed: nothing shown, no more fetches", async () => {
    for (const answer of [null, undefined]) {
      const { refresh, calls } = manualRefresh();
      const f = feed({ session: session(10_000), refresh });
      f.start();
      await vi.advanceTimersByTimeAsync(8_000);
      calls[0]?.resolve(answer);
      await settle();
      expect(f.getSnapshot()).toMatchObject({
        ended: true,
        closed: true,
        received: undefined,
        failure: undefined,
      });
      await vi.advanceTimersByTimeAsync(600_000);
      expect(refresh).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
      // Reload asks again.
      f.refresh();
      expect(refresh).toHaveBeenCalledTimes(2);
      calls[1]?.resolve(session());
      await settle();
      expect(f.getSnapshot()).toMatchObject({ ended: false, closed: false });
      f.dispose();
    }
  });

  it("refresh() fetches at once, so a tab the agent opened shows before the expiry refresh", async () => {
    const { refresh, calls } = manualRefresh();
    const f = feed({ session: session(300_000), refresh });
    f.start();
    f.refresh();
    expect(refresh).toHaveBeenCalledTimes(1);
    const two = session(300_000);
    two.targets = [
      ...two.targets,
      { ...two.targets[0], targetId: "NEW", url: "https://live.browser.run/new" },
    ] as typeof two.targets;
    calls[0]?.resolve(two);
    await settle();
    expect(f.getSnapshot().received?.session.targets.map((t) => t.targetId)).toEqual(["LOGIN", "NEW"]);
  });

  it("refreshIntervalMs fetches on a clock, well before the URLs expire", async () => {
    const { refresh, calls } = manualRefresh();
    feed({ session: session(300_000), refresh, refreshIntervalMs: 10_000 }).start();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    calls[0]?.resolve(session(300_000));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
