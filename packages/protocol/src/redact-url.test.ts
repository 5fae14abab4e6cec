import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactUrl } from "./redact-url.ts";

describe("redactUrl", () => {
  it("replaces user info and every query value, keeping scheme, host, path and parameter names", () => {
    expect(redactUrl("https://me:pw@agents.example:8787/agents/chat/room?token=abc&_pk=p1&mode=x")).toBe(
      "https://***@agents.example:8787/agents/chat/room?token=***&_pk=***&mode=***",
    );
    expect(redactUrl(new URL("wss://agents.example/agents/chat/room?access_token=abc"))).toBe(
      "wss://agents.example/agents/chat/room?access_token=***",
    );
  });

  it("leaves a URL without credentials or query as it was", () => {
    expect(redactUrl("http://127.0.0.1:8787/agents/echo/a/get-messages")).toBe(
      "http://127.0.0.1:8787/agents/echo/a/get-messages",
    );
  });

  it("redacts a user name alone, an encoded password and a user info holding @", () => {
    expect(redactUrl("https://tok3n@h/x")).toBe("https://***@h/x");
    expect(redactUrl("https://u:p%40ss@h/x")).toBe("https://***@h/x");
    expect(redactUrl("https://a@b:c@h/x")).toBe("https://***@h/x");
  });

  it("redacts values holding = (base64 padding) and pairs in the fragment", () => {
    expect(redactUrl("https://h/cb?sig=AbC+/d==&x=1#access_token=zzz&state=s")).toBe(
      "https://h/cb?sig=***&x=***#access_token=***&state=***",
    );
  });

  it("keeps empty values and is idempotent", () => {
    expect(redactUrl("https://h/?a=&b")).toBe("https://h/?a=&b");
    const once = redactUrl("https://u:p@h/?token=abc");
    expect(redactUrl(once)).toBe(once);
  });

  it("never echoes a URL that does not parse", () => {
    expect(() => new URL("not a url?token=secret&key=k1")).toThrow();
    expect(redactUrl("not a url?token=secret&key=k1")).toBe("not a url?token=***&key=***");
    expect(redactUrl("user:secret@agents.example/x")).toBe("***@agents.example/x");
    expect(redactUrl("http//user:secret@host/x?password=secret")).not.toContain("secret");
  });

  it("redacts URLs quoted inside an error message (fetch, new URL and WebSocket quote them)", () => {
    expect(
      redactUrl(
        "Request cannot be constructed from a URL that includes credentials: http://u:secret@h/x?token=secret",
      ),
    ).toBe("Request cannot be constructed from a URL that includes credentials: http://***@h/x?token=***");
    expect(redactUrl("Failed to parse URL from not a url?token=secret")).toBe(
      "Failed to parse URL from not a url?token=***",
    );
    expect(redactUrl("The URL 'ws://h/a?token=secret' is invalid.")).toBe(
      "The URL 'ws://h/a?token=***' is invalid.",
    );
  });

  it("leaves no query value or password behind, for any URL", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_~.+/-]{6,20}$/).map((s) => `S3CR3T${s}`);
    const name = fc.constantFrom("token", "access_token", "auth", "key", "api_key", "sig", "_pk", "q");
    fc.assert(
      fc.property(
        secret,
        secret,
        fc.array(fc.tuple(name, secret), { maxLength: 4 }),
        (user, pass, params) => {
          const search = params.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join("&");
          const userInfo = `${encodeURIComponent(user)}:${encodeURIComponent(pass)}`;
          const out = redactUrl(`https://${userInfo}@agents.example/a/b${search ? `?${search}` : ""}`);
          expect(out).not.toContain("S3CR3T");
          for (const [n] of params) expect(out).toContain(`${n}=${REDACTED}`);
        },
      ),
    );
  });
});
