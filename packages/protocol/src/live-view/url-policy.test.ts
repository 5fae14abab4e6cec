/** The embed policy: https from allowed origins only, loopback http as an explicit development setting. */
import { describe, expect, it } from "vitest";
import { checkLiveViewUrl, isLoopbackHost, normalizeOrigins } from "./url-policy.ts";

const policy = { allowedOrigins: ["https://live.browser.run", "http://127.0.0.1:8787/"] };

describe("checkLiveViewUrl", () => {
  it("allows https pages from an allowed origin, normalized", () => {
    expect(checkLiveViewUrl("https://live.browser.run/s/abc?t=1", policy)).toEqual({
      allowed: true,
      url: "https://live.browser.run/s/abc?t=1",
      origin: "https://live.browser.run",
    });
    expect(checkLiveViewUrl("  https://LIVE.browser.run:443/x ", policy)).toMatchObject({
      allowed: true,
      url: "https://live.browser.run/x",
    });
  });

  it.each([
    ["javascript:alert(1)", "scheme", "Not embedded: javascript: addresses are not allowed; only https is."],
    [
      "data:text/html,<script>alert(1)</script>",
      "scheme",
      "Not embedded: data: addresses are not allowed; only https is.",
    ],
    [
      "blob:https://live.browser.run/1",
      "scheme",
      "Not embedded: blob: addresses are not allowed; only https is.",
    ],
    ["/relative/page", "unparsable", "Not embedded: the address is not a valid URL."],
    ["https://", "unparsable", "Not embedded: the address is not a valid URL."],
    [
      "https://user:pw@live.browser.run/s",
      "credentials",
      "Not embedded: the address carries a user name or password.",
    ],
    ["https://evil.example/s", "origin", "Not embedded: origin https://evil.example is not allowed."],
    [
      "https://live.browser.run:8443/s",
      "origin",
      "Not embedded: origin https://live.browser.run:8443 is not allowed.",
    ],
    [
      "http://live.browser.run/s",
      "insecure",
      "Not embedded: http://live.browser.run uses plain http; only https is allowed.",
    ],
  ])("refuses %s (%s) with a reason", (url, reason, message) => {
    expect(checkLiveViewUrl(url, policy)).toEqual({ allowed: false, reason, message });
  });

  it("refuses values that are not strings", () => {
    for (const v of [undefined, null, 42, { href: "https://live.browser.run" }])
      expect(checkLiveViewUrl(v, policy)).toMatchObject({ allowed: false, reason: "unparsable" });
  });

  it("allows loopback http only with allowLoopbackHttp, and still only from allowed origins", () => {
    const url = "http://127.0.0.1:8787/live-view/login";
    expect(checkLiveViewUrl(url, policy)).toMatchObject({ allowed: false, reason: "insecure" });
    expect((checkLiveViewUrl(url, policy) as { message: string }).message).toContain("allowLoopbackHttp");
    const dev = { ...policy, allowLoopbackHttp: true };
    expect(checkLiveViewUrl(url, dev)).toMatchObject({ allowed: true, origin: "http://127.0.0.1:8787" });
    expect(checkLiveViewUrl("http://127.0.0.1:9999/x", dev)).toMatchObject({
      allowed: false,
      reason: "origin",
    });
    expect(checkLiveViewUrl("http://192.168.1.2:8787/x", dev)).toMatchObject({
      allowed: false,
      reason: "insecure",
    });
    // A host that merely starts with a loopback name is not loopback.
    expect(checkLiveViewUrl("http://localhost.evil.example/x", dev)).toMatchObject({
      allowed: false,
      reason: "insecure",
    });
  });

  it("never puts the path, query or credentials of a refused URL into the reason", () => {
    for (const url of [
      "https://evil.example/secret-token?sig=abc",
      "http://evil.example/secret-token?sig=abc",
      "https://user:secret-token@live.browser.run/x",
    ]) {
      const v = checkLiveViewUrl(url, policy);
      expect(v.allowed).toBe(false);
      expect(JSON.stringify(v)).not.toContain("secret-token");
    }
  });
});

describe("normalizeOrigins", () => {
  it("keeps http(s) origins, tolerates paths, counts the rest as invalid", () => {
    const { origins, invalid } = normalizeOrigins([
      "https://live.browser.run/",
      "http://localhost:6006/some/path",
      "live.browser.run",
      "javascript:alert(1)",
      "https://u:p@live.example",
    ]);
    expect([...origins]).toEqual(["https://live.browser.run", "http://localhost:6006"]);
    expect(invalid).toBe(3);
  });
});

describe("isLoopbackHost", () => {
  it("knows the three loopback spellings and nothing else", () => {
    expect(["127.0.0.1", "localhost", "LOCALHOST", "[::1]"].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["127.0.0.2", "localhost.example", "::1", "0.0.0.0"].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
