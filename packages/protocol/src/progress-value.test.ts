import { describe, expect, it } from "vitest";
import { normalizeFraction, progressPercent, progressState, progressValueText } from "./progress-value.ts";

describe("normalizeFraction", () => {
  it("keeps fractions and unknowns as they are", () => {
    expect(normalizeFraction(0.4)).toEqual({ value: 0.4 });
    expect(normalizeFraction(0)).toEqual({ value: 0 });
    expect(normalizeFraction(1)).toEqual({ value: 1 });
    expect(normalizeFraction(undefined)).toEqual({ value: null });
    expect(normalizeFraction(null)).toEqual({ value: null });
  });

  it("clamps out-of-range values and drops non-numbers, saying why", () => {
    expect(normalizeFraction(-0.2)).toMatchObject({ value: 0, problem: expect.stringContaining("below 0") });
    expect(normalizeFraction(1.5).value).toBe(1);
    expect(normalizeFraction(50).problem).toContain("pass a fraction such as 0.5, not a percentage");
    expect(normalizeFraction(Number.POSITIVE_INFINITY).value).toBe(1);
    expect(normalizeFraction(Number.NaN)).toMatchObject({ value: null, problem: expect.any(String) });
    expect(normalizeFraction("0.5")).toMatchObject({ value: null, problem: expect.any(String) });
  });
});

describe("progressState", () => {
  it("is indeterminate without a fraction, loading below 1, complete at 1 or when told", () => {
    expect(progressState(null)).toBe("indeterminate");
    expect(progressState(0)).toBe("loading");
    expect(progressState(0.99)).toBe("loading");
    expect(progressState(1)).toBe("complete");
    expect(progressState(0.3, true)).toBe("complete");
    expect(progressState(null, true)).toBe("complete");
  });
});

describe("progressValueText", () => {
  it("says phase and message, then the percentage", () => {
    expect(
      progressValueText({ value: 0.5, state: "loading", phase: "comparing", message: "Comparing 3 sources" }),
    ).toBe("comparing: Comparing 3 sources, 50%");
    expect(progressValueText({ value: 0.257, state: "loading", message: "Reading" })).toBe("Reading, 26%");
    expect(progressValueText({ value: 0.5, state: "loading", phase: "reading" })).toBe("reading, 50%");
    expect(progressValueText({ value: 1, state: "complete" })).toBe("100%");
  });

  it("gives no percentage while indeterminate, and nothing when there is nothing to say", () => {
    expect(progressValueText({ value: null, state: "indeterminate", message: "Starting" })).toBe("Starting");
    expect(
      progressValueText({ value: null, state: "indeterminate", phase: " ", message: "" }),
    ).toBeUndefined();
  });

  it("rounds to whole percent", () => {
    expect(progressPercent(0.004)).toBe(0);
    expect(progressPercent(0.995)).toBe(100);
  });
});
