import { describe, expect, it } from "vitest";
import { readDescriptor } from "./descriptor.ts";
import { findExpiry, parseExpiry } from "./expiry.ts";
import { type ApprovalRequest, approvalState, canApprove, canDeny, needsConfirmation } from "./request.ts";
import { approvalStatusText, formatArguments } from "./text.ts";

const request = (over: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  id: "chat:a1",
  source: "chat",
  key: "a1",
  name: "processPayment",
  arguments: { amount: 5 },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => true,
  ...over,
});

describe("parseExpiry", () => {
  it("reads epoch ms, epoch seconds, numeric strings, ISO strings and Dates", () => {
    expect(parseExpiry(1_800_000_000_000)).toBe(1_800_000_000_000);
    expect(parseExpiry(1_800_000_000)).toBe(1_800_000_000_000);
    expect(parseExpiry("1800000000")).toBe(1_800_000_000_000);
    expect(parseExpiry("2027-01-15T08:00:00Z")).toBe(Date.UTC(2027, 0, 15, 8));
    expect(parseExpiry(new Date(Date.UTC(2027, 0, 1)))).toBe(Date.UTC(2027, 0, 1));
  });

  it("ignores times a Date cannot hold, which would throw when the card shows them", () => {
    for (const v of [1e300, "99999999999999999999", 8.64e15 + 1]) expect(parseExpiry(v)).toBeUndefined();
    expect(parseExpiry(8.64e15)).toBe(8.64e15);
  });

  it("ignores what is not a time", () => {
    for (const v of [undefined, null, 0, -5, Number.NaN, Number.POSITIVE_INFINITY, "", "soon", {}, [], true])
      expect(parseExpiry(v)).toBeUndefined();
    expect(parseExpiry(new Date("nope"))).toBeUndefined();
  });
});

describe("findExpiry", () => {
  it("takes the first source with an expiry field, under any of the usual names", () => {
    expect(findExpiry({ amount: 1 }, { expires_at: "2027-01-01T00:00:00Z" })).toBe(Date.UTC(2027, 0, 1));
    expect(findExpiry({ deadline: 1_800_000_000 })).toBe(1_800_000_000_000);
    expect(findExpiry({ expiresAt: 1 }, { expiresAt: 2 })).toBe(1000);
  });

  it("skips non-objects and unparseable values", () => {
    expect(findExpiry(undefined, "x", [1], { expiresAt: "never" })).toBeUndefined();
  });
});

describe("approvalState", () => {
  it("is the status once past requested, whatever the clock or connection", () => {
    for (const status of ["submitting", "approved", "denied", "answered-elsewhere"] as const)
      expect(approvalState(request({ status, online: false, expiresAt: 1 }), 10)).toBe(status);
  });

  it("is expired at the expiry (before offline), offline while disconnected, else requested", () => {
    const r = request({ expiresAt: 1000 });
    expect(approvalState(r, 999)).toBe("requested");
    expect(approvalState(r, 1000)).toBe("expired");
    expect(approvalState({ ...r, online: false }, 1000)).toBe("expired");
    expect(approvalState({ ...r, online: false }, 999)).toBe("offline");
  });

  it("approve needs the complete arguments; deny does not", () => {
    const loading = request({ argumentsComplete: false });
    expect(canApprove(loading, 0)).toBe(false);
    expect(canDeny(loading, 0)).toBe(true);
    expect(canApprove(request(), 0)).toBe(true);
    expect(canDeny(request({ status: "submitting" }), 0)).toBe(false);
  });
});

describe("needsConfirmation", () => {
  it("defaults to high and critical risk, and the prop wins both ways", () => {
    expect(needsConfirmation({ risk: "high" })).toBe(true);
    expect(needsConfirmation({ risk: "Critical" })).toBe(true);
    expect(needsConfirmation({ risk: "medium" })).toBe(false);
    expect(needsConfirmation({})).toBe(false);
    expect(needsConfirmation({ risk: "high" }, false)).toBe(false);
    expect(needsConfirmation({ risk: "low" }, true)).toBe(true);
  });
});

describe("readDescriptor", () => {
  it("normalises Think's action descriptor", () => {
    expect(
      readDescriptor({
        action: "deploy",
        summary: "Deploy web-app",
        risk: "HIGH",
        permissions: ["deploy:production", 7, "secrets:read"],
        input: { service: "web-app" },
        expiresAt: 1_800_000_000,
      }),
    ).toEqual({
      name: "deploy",
      summary: "Deploy web-app",
      risk: "high",
      permissions: ["deploy:production", "secrets:read"],
      input: { service: "web-app" },
      expiresAt: 1_800_000_000_000,
    });
  });

  it("gives nothing for a missing or malformed descriptor", () => {
    expect(readDescriptor(undefined)).toEqual({});
    expect(readDescriptor("deploy")).toEqual({});
    expect(readDescriptor({ action: 5, summary: "  ", permissions: "all" })).toEqual({});
  });
});

describe("formatArguments", () => {
  it("indents JSON, keeps strings and markup as plain text, and survives cycles and BigInt", () => {
    expect(formatArguments({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(formatArguments("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>");
    expect(formatArguments({ n: 10n })).toBe('{\n  "n": "10"\n}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatArguments(cyclic)).toBe("[object Object]");
    expect(formatArguments(undefined)).toBe("");
  });
});

describe("approvalStatusText", () => {
  it("says nothing while requested, and what was decided, with the reason, once decided", () => {
    expect(approvalStatusText("requested", {})).toBe("");
    expect(approvalStatusText("submitting", { outcome: { approved: false, by: "here" } })).toBe("Denying…");
    expect(approvalStatusText("submitting", { outcome: { approved: true, by: "here" } })).toBe("Approving…");
    expect(approvalStatusText("denied", { outcome: { approved: false, reason: "No", by: "here" } })).toBe(
      "Denied: No.",
    );
    expect(approvalStatusText("answered-elsewhere", { outcome: { approved: true, by: "elsewhere" } })).toBe(
      "Answered elsewhere: approved.",
    );
    expect(approvalStatusText("answered-elsewhere", {})).toBe("Answered elsewhere.");
    expect(approvalStatusText("expired", {})).toBe("This request has expired.");
  });
});
