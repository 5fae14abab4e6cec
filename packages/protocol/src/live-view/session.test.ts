/** Reading a Live View session from an untyped tool output or callable result. */
import { describe, expect, it } from "vitest";
import { DEFAULT_LIVE_VIEW_TTL_MS, parseLiveViewSession } from "./session.ts";
import { visibleTargets } from "./targets.ts";

describe("parseLiveViewSession", () => {
  it("reads the mock's and the Worker's shape", () => {
    const s = {
      sessionId: "s1",
      targets: [{ targetId: "A", url: "https://x/a", pageUrl: "https://p/", title: "P", type: "page" }],
      expiresInMs: 300_000,
    };
    expect(parseLiveViewSession(s)).toEqual(s);
  });

  it("rejects what is not a session, drops non-object targets, and reads a missing sessionId as empty", () => {
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
      sessionId: "",
      targets: [{ targetId: "A" }],
      expiresInMs: 0,
    });
  });

  it("reads a single-URL hand-off, a bare URL and needsHumanLogin as one visible tab, default TTL 5 minutes", () => {
    const url = "https://live.browser.run/ui/view?mode=tab&wss=token";
    const one = {
      sessionId: "",
      targets: [
        { targetId: "live-view", url, pageUrl: "https://live.browser.run", title: "Live view", type: "page" },
      ],
      expiresInMs: DEFAULT_LIVE_VIEW_TTL_MS,
    };
    expect(DEFAULT_LIVE_VIEW_TTL_MS).toBe(300_000);
    expect(parseLiveViewSession(url)).toEqual(one);
    expect(parseLiveViewSession({ url })).toEqual(one);
    expect(parseLiveViewSession({ needsHumanLogin: url })).toEqual(one);
    expect(parseLiveViewSession({ needsHumanLogin: { url, targetId: "T1", expiresInMs: 60_000 } })).toEqual({
      ...one,
      targets: [{ ...one.targets[0], targetId: "T1" }],
      expiresInMs: 60_000,
    });
    expect(visibleTargets(parseLiveViewSession({ url })?.targets ?? [])).toHaveLength(1);
    // Not URLs a frame could show: refused here already.
    for (const v of ["javascript:alert(1)", { url: "/relative" }, { needsHumanLogin: true }, { url: 5 }])
      expect(parseLiveViewSession(v)).toBeUndefined();
  });
});
