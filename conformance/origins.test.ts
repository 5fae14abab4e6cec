/**
 * Which pages may reach the conformance Worker (`npm run dev -- --real` serves the playground from it): the mock
 * server's loopback-only policy (mock-server/README.md#who-may-reach-the-server). A page on another site must
 * not open an agent socket, read a transcript or send a request that acts; pages on this machine and clients
 * that send no Origin (Node, the conformance tests) may.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { SKIP_REAL, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();
const path = "/agents/chat-agent/origins";

/** Resolves with "open" or the HTTP status the upgrade was refused with. */
function upgrade(headers: Record<string, string>) {
  const ws = new WebSocket(`ws://127.0.0.1:${real.port}${path}`, { headers });
  return new Promise<number | "open">((resolve) => {
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("error", () => {});
  });
}

/** A request with any headers (fetch would not let a test set Host or Sec-Fetch-Site). */
function send(method: string, target: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: real.port,
        method,
        path: target,
        headers:
          body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe.skipIf(SKIP_REAL)("the conformance Worker's origin policy", () => {
  it("accepts sockets from loopback pages and from clients that send no Origin", async () => {
    expect(await upgrade({})).toBe("open");
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:6006", "http://[::1]:3000"])
      expect(await upgrade({ origin }), origin).toBe("open");
  });

  it("refuses sockets from other pages, and from a page that sends no Origin but Sec-Fetch-Site cross-site", async () => {
    for (const origin of ["https://evil.example", "null", "http://localhost.evil.example"])
      expect(await upgrade({ origin }), origin).toBe(403);
    expect(await upgrade({ "sec-fetch-site": "cross-site" })).toBe(403);
  });

  it("lets loopback pages read a transcript and tells no other page it may (never *)", async () => {
    const local = await send("GET", `${path}/get-messages`, { origin: "http://127.0.0.1:5173" });
    expect(local.status).toBe(200);
    expect(local.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:5173");
    expect(String(local.headers.vary)).toMatch(/origin/i);
    const evil = await send("GET", `${path}/get-messages`, { origin: "https://evil.example" });
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
    const node = await send("GET", `${path}/get-messages`, {});
    expect(node.status).toBe(200);
  });

  it("answers the preflight of loopback pages only, and refuses requests that act from other pages", async () => {
    const preflight = (origin: string) =>
      send("OPTIONS", `${path}/get-messages`, {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      });
    const ok = await preflight("http://localhost:5173");
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const evil = await preflight("https://evil.example");
    expect(evil.status).toBe(403);
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
    // The simple POST a page elsewhere may send without asking.
    for (const origin of ["https://evil.example", "null"]) {
      const post = await send("POST", `${path}/get-messages`, { origin, "content-type": "text/plain" }, "{}");
      expect(post.status, origin).toBe(403);
    }
  });

  it("refuses a Host that is not this machine (DNS rebinding), on sockets and HTTP", async () => {
    expect(await upgrade({ host: "evil.example" })).toBe(403);
    expect((await send("GET", `${path}/get-messages`, { host: "evil.example" })).status).toBe(403);
    expect((await send("GET", "/live-view/login", { host: `evil.example:${real.port}` })).status).toBe(403);
    expect((await send("GET", "/live-view/login", { host: `localhost:${real.port}` })).status).toBe(200);
  });
});
