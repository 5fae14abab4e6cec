/** Which URL each frame shows: the active frame never reloads under a working URL, and frames never move. */
import { describe, expect, it } from "vitest";
import { type FrameSource, reconcileSources, sessionSources, stableOrder } from "./frame-sources.ts";

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
      sessionId: "s1",
      targets: [
        { targetId: "A", url: "https://x/a", pageUrl: "https://p/", title: "", type: "page" },
        { targetId: "W", url: "https://x/w", pageUrl: "https://p/sw.js", title: "", type: "service_worker" },
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
