/** The root's and each tab's status, and the status line. */
import { describe, expect, it } from "vitest";
import { liveViewState, liveViewStatusText, targetState } from "./status.ts";

describe("targetState", () => {
  it("orders refused > failed > expired > loading > live", () => {
    expect(targetState({ allowed: false, load: "failed", expired: true })).toBe("refused");
    expect(targetState({ allowed: true, load: "failed", expired: true })).toBe("failed");
    expect(targetState({ allowed: true, load: "loaded", expired: true })).toBe("expired");
    expect(targetState({ allowed: true, load: "loading", expired: false })).toBe("loading");
    expect(targetState({ allowed: true, load: "loaded", expired: false })).toBe("live");
  });
});

describe("liveViewState", () => {
  it("without a tab: loading while fetching, error after a failed fetch, else idle", () => {
    expect(liveViewState({ active: undefined, fetching: true, refreshFailed: false })).toBe("loading");
    expect(liveViewState({ active: undefined, fetching: false, refreshFailed: true })).toBe("error");
    expect(liveViewState({ active: undefined, fetching: false, refreshFailed: false })).toBe("idle");
  });

  it("with a tab: the most pressing problem first", () => {
    expect(liveViewState({ active: "refused", fetching: true, refreshFailed: true })).toBe("refused");
    expect(liveViewState({ active: "failed", fetching: false, refreshFailed: true })).toBe("failed");
    expect(liveViewState({ active: "live", fetching: false, refreshFailed: true })).toBe("error");
    expect(liveViewState({ active: "expired", fetching: true, refreshFailed: false })).toBe("expired");
    expect(liveViewState({ active: "live", fetching: true, refreshFailed: false })).toBe("refreshing");
    expect(liveViewState({ active: "loading", fetching: false, refreshFailed: false })).toBe("loading");
    expect(liveViewState({ active: "live", fetching: false, refreshFailed: false })).toBe("live");
  });

  it("ended wins over everything, and says so", () => {
    expect(liveViewState({ active: undefined, fetching: false, refreshFailed: true, ended: true })).toBe(
      "ended",
    );
    expect(liveViewStatusText("ended", "agent")).toBe("Session ended.");
  });
});

describe("liveViewStatusText", () => {
  it("says who is in control while it works, and what is wrong otherwise", () => {
    expect(liveViewStatusText("live", "agent")).toBe("Agent is browsing");
    expect(liveViewStatusText("refreshing", "human")).toBe("You are in control");
    expect(liveViewStatusText("expired", "agent")).toBe("Session expired, refreshing…");
    expect(liveViewStatusText("expired", "agent", { canRefresh: false })).toBe("Session expired.");
    expect(liveViewStatusText("error", "agent")).toMatch(/Retrying/);
  });
});
