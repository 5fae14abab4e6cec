// Which pages may reach the Node mock server: loopback pages and non-browser clients by default, more on request.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, type MockAgentServer } from "../src/index.ts";

let server: MockAgentServer;
let open: MockAgentServer;
const logs: string[] = [];
const agents = { ChatAgent: { host: "ai-chat" as const } };
beforeAll(async () => {
  // Every refusal of this file's tests logged (the default budget is 10 lines per 10 s).
  server = await createMockAgentServer({
    agents,
    log: (l) => logs.push(l),
    logLimit: { lines: 1000, perMs: 60_000 },
  });
  open = await createMockAgentServer({ agents, log: () => {}, allowedOrigins: ["http://192.168.1.20:5173"] });
});
afterAll(async () => {
  await server.close();
  await open.close();
});

/** Resolves with "open" or the HTTP status the upgrade was refused with. */
function upgrade(s: MockAgentServer, headers: Record<string, string>) {
  const ws = new WebSocket(`${s.url.replace(/^http/, "ws")}/agents/chat-agent/origins`, { headers });
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

/** A request with any headers (fetch would not let a test set Host, Origin or Sec-Fetch-Site). */
function send(
  s: MockAgentServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(
        {
          port: s.port,
          host: "127.0.0.1",
          method,
          path,
          // Node sends a DELETE or OPTIONS body without a length unless told one.
          headers:
            body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            text += d;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    },
  );
}

/** The status of a GET sent with the given Host header (fetch would not let a test set it). */
function statusWithHost(path: string, host: string) {
  return new Promise<number | undefined>((resolve, reject) => {
    const req = request({ port: server.port, host: "127.0.0.1", path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("mock server origins", () => {
  it("accepts sockets from loopback pages and from clients that send no Origin", async () => {
    expect(await upgrade(server, {})).toBe("open");
    for (const origin of [
      "http://localhost:5173",
      "http://127.0.0.1:6006",
      "https://localhost",
      "http://[::1]:3000",
    ])
      expect(await upgrade(server, { origin }), origin).toBe("open");
  });

  it("refuses sockets from other pages with 403 and says why in the log", async () => {
    expect(await upgrade(server, { origin: "https://evil.example" })).toBe(403);
    expect(await upgrade(server, { origin: "null" })).toBe(403);
    expect(await upgrade(server, { origin: "http://localhost.evil.example" })).toBe(403);
    expect(logs.some((l) => l.includes("refused a socket from origin https://evil.example"))).toBe(true);
  });

  it("refuses a Host that is not this machine (DNS rebinding), on sockets and HTTP routes", async () => {
    expect(await upgrade(server, { host: "evil.example" })).toBe(403);
    expect(await upgrade(server, { host: "evil.example", origin: "http://evil.example" })).toBe(403);
    expect(await statusWithHost("/agents/chat-agent/origins/get-messages", "evil.example")).toBe(403);
    expect(await statusWithHost("/health", `evil.example:${server.port}`)).toBe(403);
    expect(await statusWithHost("/health", `127.0.0.1:${server.port}`)).toBe(200);
    expect(await upgrade(server, { host: `localhost:${server.port}` })).toBe("open");
  });

  it("reflects only an allowed Origin on the transcript route, never *", async () => {
    const url = `${server.url}/agents/chat-agent/origins/get-messages`;
    const evil = await fetch(url, { headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(200);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const none = await fetch(url);
    expect(none.headers.get("access-control-allow-origin")).toBeNull();
    const local = await fetch(url, { headers: { origin: "http://localhost:5173" } });
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(local.headers.get("vary")).toBe("Origin");
  });

  it("allows the configured origins and their hosts besides loopback", async () => {
    expect(await upgrade(open, { origin: "http://192.168.1.20:5173" })).toBe("open");
    expect(await upgrade(open, { origin: "http://192.168.1.20:5173", host: "192.168.1.20:8787" })).toBe(
      "open",
    );
    expect(await upgrade(open, { origin: "http://192.168.1.20:9999" })).toBe(403);
    expect(await upgrade(open, { origin: "http://localhost:5173" })).toBe("open");
    const res = await fetch(`${open.url}/agents/chat-agent/origins/get-messages`, {
      headers: { origin: "http://192.168.1.20:5173" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("http://192.168.1.20:5173");
  });

  it("refuses an allowedOrigins entry that is not an http(s) origin", async () => {
    await expect(createMockAgentServer({ agents, allowedOrigins: ["evil"] })).rejects.toThrow(
      /allowedOrigins/,
    );
  });

  it("refuses a socket from a page elsewhere that sends no Origin but says so in Sec-Fetch-Site", async () => {
    expect(await upgrade(server, { "sec-fetch-site": "cross-site" })).toBe(403);
    expect(await upgrade(server, { "sec-fetch-site": "same-site" })).toBe(403);
    expect(await upgrade(server, { "sec-fetch-site": "same-origin" })).toBe("open");
  });
});

describe("requests that act (the helix POSTs)", () => {
  const path = "/helix/children/monitor-1/message";
  const json = { "content-type": "application/json" };
  const body = JSON.stringify({ message: "hello" });

  it("refuses a page on another origin, even with the simple POST a no-cors fetch sends", async () => {
    // What a page elsewhere can send without a preflight: a form or plain-text body.
    for (const type of [
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ])
      for (const origin of ["https://evil.example", "null", "http://localhost.evil.example"]) {
        const res = await send(server, "POST", path, { origin, "content-type": type }, body);
        expect(res.status, `${origin} ${type}`).toBe(403);
        expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      }
    // With a JSON type, too (a browser would have asked first, and been refused).
    const evil = await send(server, "POST", path, { origin: "https://evil.example", ...json }, body);
    expect(evil.status).toBe(403);
    expect(logs.some((l) => l.includes("refused POST /helix/children/monitor-1/message"))).toBe(true);
  });

  it("refuses a request without Origin whose Sec-Fetch-Site names another site", async () => {
    for (const site of ["cross-site", "same-site"])
      expect((await send(server, "POST", path, { "sec-fetch-site": site, ...json }, body)).status).toBe(403);
    expect(
      (await send(server, "POST", path, { "sec-fetch-site": "same-origin", ...json }, body)).status,
    ).toBe(200);
  });

  it("takes JSON only, from loopback pages and from clients that send no Origin", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await send(
        server,
        "POST",
        path,
        { origin: "http://localhost:5173", "content-type": type },
        body,
      );
      expect(res.status, type).toBe(415);
    }
    expect((await send(server, "POST", path, {}, body)).status).toBe(415);
    const local = await send(server, "POST", path, { origin: "http://127.0.0.1:5173", ...json }, body);
    expect(local.status).toBe(200);
    expect(local.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:5173");
    expect(JSON.parse(local.body)).toEqual({ ok: true, name: "monitor-1", action: "message" });
    const node = await send(server, "POST", "/helix/children/monitor-1/terminate", {
      "content-type": "application/json; charset=utf-8",
    });
    expect(node.status).toBe(200);
  });

  it("answers the preflight of allowed pages only", async () => {
    const preflight = (origin: string, s = server) =>
      send(s, "OPTIONS", path, {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      });
    const ok = await preflight("http://localhost:5173");
    expect(ok.status).toBe(204);
    expect(ok.headers).toMatchObject({
      "access-control-allow-origin": "http://localhost:5173",
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "content-type",
    });
    const evil = await preflight("https://evil.example");
    expect(evil.status).toBe(403);
    expect(evil.headers["access-control-allow-origin"]).toBeUndefined();
    expect((await preflight("http://192.168.1.20:5173", open)).status).toBe(204);
    expect((await preflight("http://192.168.1.20:5173")).status).toBe(403);
  });

  it("refuses every other method on the action routes", async () => {
    for (const method of ["GET", "PUT", "DELETE"])
      expect((await send(server, method, path, json, method === "GET" ? undefined : body)).status).toBe(405);
  });

  it("no other route acts: the agent and Live View routes refuse every method but GET and HEAD", async () => {
    for (const p of ["/health", "/agents/chat-agent/origins/get-messages", "/live-view/x"])
      for (const method of ["POST", "PUT", "DELETE", "PATCH"])
        expect((await send(server, method, p, json, "{}")).status, `${method} ${p}`).toBe(405);
  });

  it("logs refusals within the logLimit budget, however many a page sends", async () => {
    const lines: string[] = [];
    const quiet = await createMockAgentServer({
      agents,
      log: (l) => lines.push(l),
      logLimit: { lines: 3, perMs: 60_000 },
    });
    try {
      const headers = { origin: "https://evil.example", "content-type": "text/plain" };
      for (let i = 0; i < 20; i++) expect((await send(quiet, "POST", path, headers, body)).status).toBe(403);
      for (let i = 0; i < 5; i++) expect(await upgrade(quiet, { origin: "https://evil.example" })).toBe(403);
      expect(lines.filter((l) => l.includes("refused"))).toHaveLength(3);
    } finally {
      await quiet.close();
    }
  });
});
