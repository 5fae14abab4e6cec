/**
 * Requests no client of the kit sends, aimed at the Node mock server's routes: each gets an HTTP answer and
 * the server keeps serving. A throw in a request's callback would end the process (`runboard-mock` exits 1, and
 * `npm run dev` runs Vite in the same process), so the test listens for uncaught exceptions while it sends.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { startServer, type TestServer } from "./ws-client.ts";

let t: TestServer;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);
beforeAll(async () => {
  process.on("uncaughtException", onUncaught);
  t = await startServer({ agents: demoAgents, delayScale: 0 });
});
afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await t.close();
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Sends one request with the target written as is (no client-side normalisation) and resolves with the
 * answer, or rejects with the exception it caused in the server, whichever comes first.
 */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const seen = uncaught.length;
  return new Promise((resolve, reject) => {
    const watch = setInterval(() => {
      if (uncaught.length > seen) {
        clearInterval(watch);
        reject(new Error(`the server threw: ${String(uncaught[seen])}`));
      }
    }, 5);
    const req = request(
      {
        host: "127.0.0.1",
        port: t.server.port,
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
        res.on("end", () => {
          clearInterval(watch);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
      },
    );
    req.on("error", (e) => {
      clearInterval(watch);
      reject(e);
    });
    req.end(body);
  });
}

const json = { "content-type": "application/json" };

describe("a malformed percent escape in a child's name", () => {
  it.each(["%E0%A4%A", "%", "%zz", "%C0%80", "%ED%A0%80"])(
    "POST …/%s/message and …/terminate answer 400, and the server keeps serving",
    async (name) => {
      for (const action of ["message", "terminate"]) {
        const res = await send("POST", `/helix/children/${name}/${action}`, json, '{"message":"hi"}');
        expect(res.status, `${name} ${action}`).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ ok: false });
      }
      expect((await send("GET", "/health")).status).toBe(200);
      expect(uncaught).toEqual([]);
    },
  );

  it("a well-formed one still decodes", async () => {
    const res = await send("POST", "/helix/children/monitor%201/message", json, '{"message":"hi"}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, name: "monitor 1", action: "message" });
  });
});

describe("every route answers whatever the request holds", () => {
  const targets = [
    "/helix/stream?cut=%E0%A4%A",
    "/helix/stream?cut=-1",
    "/helix/%E0%A4%A",
    "/agents/chat-agent/room/sub/researcher/%E0%A4%A/get-messages",
    "/agents/chat-agent/%E0%A4%A/get-messages",
    "/agents/%E0%A4%A/room/get-messages",
    "/live-view/%E0%A4%A",
    "/live-view/%E0%A4%A/devtools",
    "/%E0%A4%A",
    "/health?%",
  ];
  it.each(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"])(
    "%s on hostile targets",
    async (method) => {
      for (const path of targets) {
        const res = await send(method, path, {}, method === "GET" || method === "HEAD" ? undefined : "x");
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
      expect((await send("GET", "/health")).status).toBe(200);
      expect(uncaught).toEqual([]);
    },
  );

  it("a body over the limit, one that is not JSON, and one cut off mid-way are answered or dropped", async () => {
    const big = JSON.stringify({ message: "x".repeat(100 << 10) });
    expect((await send("POST", "/helix/children/a/message", json, big)).status).toBe(413);
    expect((await send("POST", "/helix/children/a/message", json, "{not json")).status).toBe(400);
    await new Promise<void>((resolve) => {
      const req = request({
        host: "127.0.0.1",
        port: t.server.port,
        method: "POST",
        path: "/helix/children/a/message",
        headers: { ...json, "content-length": "1000" },
      });
      req.on("error", () => resolve());
      req.write('{"message":');
      // The client goes away with most of its body unsent.
      setImmediate(() => req.destroy());
    });
    expect((await send("GET", "/health")).status).toBe(200);
    expect(uncaught).toEqual([]);
  });
});
