/** Refresh timing: fetch a margin before expiry, never spin, back off after failures. */
import { describe, expect, it } from "vitest";
import { defaultRefreshMargin, refreshDelay, retryDelay } from "./refresh-timing.ts";

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
