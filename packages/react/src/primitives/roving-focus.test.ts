import { describe, expect, it } from "vitest";
import { rovingTarget } from "./roving-focus.ts";

describe("rovingTarget", () => {
  it("moves right to the next item left-to-right and to the previous one right-to-left", () => {
    expect(rovingTarget("ArrowRight", 1, 3)).toBe(2);
    expect(rovingTarget("ArrowRight", 1, 3, { dir: "rtl" })).toBe(0);
    expect(rovingTarget("ArrowLeft", 1, 3, { dir: "rtl" })).toBe(2);
  });
  it("wraps at the ends unless loop is off, and jumps with Home and End", () => {
    expect(rovingTarget("ArrowRight", 2, 3)).toBe(0);
    expect(rovingTarget("ArrowRight", 2, 3, { loop: false })).toBe(2);
    expect(rovingTarget("Home", 2, 3)).toBe(0);
    expect(rovingTarget("End", 0, 3)).toBe(2);
  });
  it("uses Up and Down when vertical and ignores the other arrows and keys", () => {
    expect(rovingTarget("ArrowDown", 0, 3, { orientation: "vertical" })).toBe(1);
    expect(rovingTarget("ArrowRight", 0, 3, { orientation: "vertical" })).toBeNull();
    expect(rovingTarget("a", 0, 3)).toBeNull();
    expect(rovingTarget("ArrowRight", -1, 3)).toBeNull();
  });
});
