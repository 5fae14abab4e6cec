import { describe, expect, it } from "vitest";
import { DecisionLedger, ledgerFor } from "./decision-ledger.ts";

describe("DecisionLedger", () => {
  it("gives one claim per id until released", () => {
    const l = new DecisionLedger();
    expect(l.claim("x", { approved: true })).toBe(true);
    expect(l.claim("x", { approved: true })).toBe(false);
    expect(l.claim("x", { approved: false })).toBe(false);
    expect(l.get("x")).toEqual({ decision: { approved: true }, phase: "sending" });
    l.mark("x", "failed", "Connection closed");
    expect(l.get("x")).toMatchObject({ phase: "failed", error: "Connection closed" });
    l.release("x");
    expect(l.claim("x", { approved: false, reason: "no" })).toBe(true);
  });

  it("tells its subscribers about every change, and only about changes", () => {
    const l = new DecisionLedger();
    let calls = 0;
    const off = l.subscribe(() => calls++);
    l.claim("x", { approved: true });
    l.claim("x", { approved: false });
    l.mark("x", "settled");
    l.mark("x", "settled");
    l.release("nope");
    expect(calls).toBe(2);
    off();
    l.release("x");
    expect(calls).toBe(2);
    expect(l.sending()).toEqual([]);
  });

  it("is one per connection object", () => {
    const a = {};
    expect(ledgerFor(a)).toBe(ledgerFor(a));
    expect(ledgerFor(a)).not.toBe(ledgerFor({}));
  });
});
