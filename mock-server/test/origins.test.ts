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
  server = await createMockAgentServer({ agents, log: (l) => logs.push(l) });
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
});
