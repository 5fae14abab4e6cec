import { describe, expect, it } from "vitest";
import { runTrayItemId } from "./tray-focus.tsx";

describe("runTrayItemId (issue 26 §3: ids from the wire)", () => {
  const odd = [
    "run-a",
    "\ud800",
    "x\udfff",
    "\udc00\ud800",
    "\ud83d\ude42",
    "\ufffd",
    "\u0000",
    "%",
    "%25",
    "_25",
    "_",
    "a b",
    "a+b",
    "#x",
    "__proto__",
    "",
    "\u202e",
  ];

  it("gives every run id, lone surrogates included, an element id without throwing", () => {
    for (const id of odd) expect(() => runTrayItemId(id)).not.toThrow();
  });

  it("never gives two run ids the same element id", () => {
    const ids = odd.map(runTrayItemId);
    expect(new Set(ids).size).toBe(odd.length);
  });

  it("keeps plain run ids readable and finds them with a plain #href", () => {
    expect(runTrayItemId("run-a")).toBe("rb-run-run-a");
    for (const id of odd.map(runTrayItemId)) expect(id).toMatch(/^rb-run-[A-Za-z0-9\-.!~*'()_]*$/);
  });
});
