/** Reading a Live View session from an untyped tool output or callable result. */
import { describe, expect, it } from "vitest";
import { parseLiveViewSession } from "./session.ts";

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
});
