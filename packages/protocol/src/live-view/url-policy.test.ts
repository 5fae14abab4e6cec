/** The embed policy: https from allowed origins only, loopback http as an explicit development setting. */
import { describe, expect, it } from "vitest";
import { checkLiveViewUrl, isLoopbackHost, normalizeOrigins, sandboxCanLiftItself } from "./url-policy.ts";

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

describe("the app's own origin", () => {
  const app = "https://app.example";
  const own = { allowedOrigins: [app, "https://live.browser.run"], pageOrigin: `${app}/` };

  it("refuses a page on the app's own origin while the sandbox has scripts and same-origin", () => {
    for (const sandbox of [
      undefined,
      "allow-scripts allow-same-origin allow-forms",
      "ALLOW-SAME-ORIGIN allow-scripts",
    ])
      expect(checkLiveViewUrl(`${app}/live/s/1`, { ...own, sandbox })).toEqual({
        allowed: false,
        reason: "same-origin",
        message:
          "Not embedded: https://app.example is this app's own address, and a page from it could take control of the app. Live View pages must come from another origin.",
      });
  });

  it("says so even when the app's origin is not in the allow-list", () => {
    const v = checkLiveViewUrl(`${app}/x`, { allowedOrigins: ["https://live.browser.run"], pageOrigin: app });
    expect(v).toMatchObject({ allowed: false, reason: "same-origin" });
  });

  it("allows a same-origin page whose sandbox lacks allow-same-origin or allow-scripts", () => {
    for (const sandbox of ["allow-scripts allow-forms", "allow-same-origin allow-forms", ""])
      expect(checkLiveViewUrl(`${app}/live/s/1`, { ...own, sandbox })).toMatchObject({
        allowed: true,
        origin: app,
      });
  });

  it("leaves other origins alone, and cannot check without the page's origin", () => {
    expect(checkLiveViewUrl("https://live.browser.run/s", own)).toMatchObject({ allowed: true });
    expect(checkLiveViewUrl(`${app}/s`, { allowedOrigins: [app] })).toMatchObject({ allowed: true });
    expect(checkLiveViewUrl(`${app}/s`, { allowedOrigins: [app], pageOrigin: "null" })).toMatchObject({
      allowed: true,
    });
  });

  it("also applies to loopback pages in development", () => {
    const dev = {
      allowedOrigins: ["http://localhost:3000"],
      allowLoopbackHttp: true,
      pageOrigin: "http://localhost:3000",
    };
    expect(checkLiveViewUrl("http://localhost:3000/live", dev)).toMatchObject({ reason: "same-origin" });
    expect(
      checkLiveViewUrl("http://localhost:3000/live", { ...dev, pageOrigin: "http://localhost:6006" }),
    ).toMatchObject({
      allowed: true,
    });
  });
});

describe("sandboxCanLiftItself", () => {
  it("is true only with both allow-scripts and allow-same-origin (or no sandbox given)", () => {
    expect(
      [
        undefined,
        "allow-scripts allow-same-origin",
        "allow-scripts",
        "allow-same-origin",
        "allow-scripts-x allow-same-origin",
      ].map(sandboxCanLiftItself),
    ).toEqual([true, true, false, false, false]);
  });
});

describe("wildcard origins", () => {
  it.each([["*"], ["https://*"], ["https://*.browser.run"], ["*.browser.run"], ["https://live.*.run"]])(
    "refuses %s as a pattern, never as allow-all",
    (pattern) => {
      const v = checkLiveViewUrl("https://live.browser.run/s/1", { allowedOrigins: [pattern] });
      expect(v).toEqual({
        allowed: false,
        reason: "wildcard",
        message:
          "Not embedded: origin https://live.browser.run is not allowed. The allowed origins contain a wildcard pattern, which is not supported; list each origin exactly.",
      });
    },
  );

  it("does not match a URL whose host literally is the pattern", () => {
    expect(
      checkLiveViewUrl("https://*.browser.run/s", { allowedOrigins: ["https://*.browser.run"] }),
    ).toMatchObject({
      allowed: false,
      reason: "wildcard",
    });
  });

  it("still allows the exact origins listed beside a pattern", () => {
    const mixed = { allowedOrigins: ["https://*", "https://live.browser.run"] };
    expect(checkLiveViewUrl("https://live.browser.run/s", mixed)).toMatchObject({ allowed: true });
    expect(checkLiveViewUrl("https://evil.example/s", mixed)).toMatchObject({ reason: "wildcard" });
  });

  it("are counted apart from invalid entries", () => {
    expect(normalizeOrigins(["*", "https://*.example.com", "nope", "https://ok.example"])).toEqual({
      origins: new Set(["https://ok.example"]),
      invalid: 1,
      wildcards: 2,
    });
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
