import { describe, expect, it } from "vitest";
import { isoDuration, partKey } from "./format.ts";

describe("small formats", () => {
  it("writes ISO durations", () => {
    expect(isoDuration(0)).toBe("PT0S");
    expect(isoDuration(65_000)).toBe("PT1M5S");
    expect(isoDuration(3_600_000)).toBe("PT1H");
  });
  it("keys tool parts by call id and others by position", () => {
    expect(partKey({ type: "tool-x", toolCallId: "c1" }, 3)).toBe("tool:c1");
    expect(partKey({ type: "text" }, 2)).toBe("text#2");
  });
});
