/** Refresh timing and which URL each frame shows: the active frame never reloads under a working URL. */
import { describe, expect, it } from "vitest";
import {
  defaultRefreshMargin,
  type FrameSource,
  parseLiveViewSession,
  reconcileSources,
  refreshDelay,
  retryDelay,
  sessionSources,
  stableOrder,
} from "./session.ts";

describe("refresh timing", () => {
  it("fetches 20% of the TTL (at most 30 s) before expiry", () => {
    expect(defaultRefreshMargin(300_000)).toBe(30_000);
    expect(defaultRefreshMargin(10_000)).toBe(2_000);
    expect(refreshDelay(300_000)).toBe(270_000);
    expect(refreshDelay(10_000)).toBe(8_000);
    expect(refreshDelay(60_000, 5_000)).toBe(55_000);
  });

  it("never schedules closer than a second, whatever the TTL or margin", () => {
    expect(refreshDelay(0)).toBe(1000);
    expect(refreshDelay(10_000, 60_000)).toBe(1000);
  });

  it("backs off 1 s, 2 s, 4 s … up to 30 s between retries", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe("parseLiveViewSession", () => {
  it("reads the mock's and the Worker's shape", () => {
    const s = {
      sessionId: "s1",
      targets: [{ targetId: "A", url: "https://x/a", pageUrl: "https://p/", title: "P", type: "page" }],
      expiresInMs: 300_000,
    };
    expect(parseLiveViewSession(s)).toEqual(s);
  });

  it("rejects what is not a session and drops non-object targets", () => {
    for (const v of [
      null,
      1,
      "x",
      {},
      { targets: [] },
      { targets: {}, expiresInMs: 1 },
      { targets: [], expiresInMs: -1 },
    ])
      expect(parseLiveViewSession(v)).toBeUndefined();
    expect(parseLiveViewSession({ targets: [1, null, { targetId: "A" }], expiresInMs: 0 })).toEqual({
      targets: [{ targetId: "A" }],
      expiresInMs: 0,
    });
  });
});

const src = (url: string, expiresAt: number, mode: "tab" | "devtools" = "tab"): FrameSource => ({
  url,
  expiresAt,
  mode,
});
const map = (entries: Record<string, FrameSource>) => new Map(Object.entries(entries));

describe("reconcileSources", () => {
  const shown = map({ A: src("a1", 100), B: src("b1", 100) });
  const fresh = map({ A: src("a2", 200), B: src("b2", 200) });

  it("keeps the active frame's URL until it expires; other frames take the fresh URL", () => {
    const next = reconcileSources(shown, fresh, "A", 50);
    expect(next.get("A")).toBe(shown.get("A"));
    expect(next.get("B")).toBe(fresh.get("B"));
  });

  it("swaps the active frame once its URL expired", () => {
    const next = reconcileSources(shown, fresh, "A", 100);
    expect(next.get("A")).toBe(fresh.get("A"));
  });

  it("swaps at once when the mode changed", () => {
    const devtools = map({ A: src("a-dev", 200, "devtools"), B: src("b-dev", 200, "devtools") });
    expect(reconcileSources(shown, devtools, "A", 50).get("A")?.url).toBe("a-dev");
  });

  it("adds new targets, drops gone ones, and returns the same map when nothing changes", () => {
    const next = reconcileSources(shown, map({ A: src("a2", 200), C: src("c1", 200) }), "A", 50);
    expect([...next.keys()]).toEqual(["A", "C"]);
    expect(next.get("A")?.url).toBe("a1");
    expect(reconcileSources(shown, map({ A: src("a1", 100), B: src("b1", 100) }), "A", 50)).toBe(shown);
    const settled = reconcileSources(shown, fresh, "A", 50);
    expect(reconcileSources(settled, fresh, "A", 60)).toBe(settled);
  });

  it("keeps an expired URL when no fresher one came (a failed refresh)", () => {
    expect(reconcileSources(shown, shown, "A", 500)).toBe(shown);
  });
});

describe("sessionSources", () => {
  it("maps visible targets to their URL and expiry", () => {
    const s = {
      targets: [
        { targetId: "A", url: "https://x/a", pageUrl: "https://p/", type: "page" },
        { targetId: "W", url: "https://x/w", pageUrl: "https://p/sw.js", type: "service_worker" },
      ],
      expiresInMs: 1000,
    };
    expect([...sessionSources(s, "devtools", 5000)]).toEqual([
      ["A", { url: "https://x/a", expiresAt: 6000, mode: "devtools" }],
    ]);
  });
});

describe("stableOrder", () => {
  it("keeps known ids in place and appends new ones, returning the same array when unchanged", () => {
    const prev = ["A", "B", "C"];
    expect(stableOrder(prev, ["C", "A", "B"])).toBe(prev);
    expect(stableOrder(prev, ["D", "C", "A"])).toEqual(["A", "C", "D"]);
    expect(stableOrder([], ["X", "Y"])).toEqual(["X", "Y"]);
  });
});
