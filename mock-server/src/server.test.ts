import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, type MockAgentServer } from "./server.ts";

type Frame = Record<string, unknown>;

let server: MockAgentServer;
const logs: string[] = [];
beforeAll(async () => {
  server = await createMockAgentServer({
    agents: {
      ChatAgent: { host: "ai-chat", initialState: { counter: 0 } },
      ThinkAgent: { host: "think" },
      StatefulThink: { host: "think", initialState: { n: 1 } },
      BareChat: { host: "ai-chat" },
    },
    log: (l) => logs.push(l),
  });
});
afterAll(() => server.close());

const wsUrl = (path: string) => `${server.url.replace(/^http/, "ws")}${path}`;

/** Opens a socket and collects parsed frames. */
async function open(path: string) {
  const ws = new WebSocket(wsUrl(path));
  const frames: Frame[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(d.toString())));
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const waitFor = async (n: number) => {
    for (let i = 0; i < 200 && frames.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    return frames;
  };
  return { ws, frames, waitFor };
}

/** The HTTP status an upgrade is refused with. */
function refusedWith(path: string) {
  const ws = new WebSocket(wsUrl(path));
  return new Promise<number | undefined>((resolve, reject) => {
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode);
      res.resume();
    });
    ws.on("open", () => reject(new Error(`${path} was accepted`)));
    ws.on("error", () => {});
  });
}

/** Writes `request` on a raw TCP socket (no client-side URL checks) and resolves with the response's status line. */
function rawStatusLine(request: string | Buffer) {
  const socket = connect(server.port, "127.0.0.1");
  let text = "";
  return new Promise<string>((resolve, reject) => {
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (text.includes("\r\n")) {
        resolve(text.slice(0, text.indexOf("\r\n")));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`closed without a status line: ${JSON.stringify(text)}`)));
  });
}

/** The connect frames the real server sent, from the recorded transcript. */
function recordedConnect(host: string) {
  const file = new URL(`../../test-support/fixtures/real-server/${host}/connect.jsonl`, import.meta.url);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.dir === "in")
    .map((l) => l.frame as Frame);
}

/** Room and class names differ between the recording and the test; everything else must match exactly. */
const normalise = (f: Frame) =>
  f.type === "cf_agent_identity" ? { ...f, name: "<name>", agent: "<agent>" } : f;

describe("mock server (base)", () => {
  for (const [agent, host] of [
    ["chat-agent", "ai-chat"],
    ["think-agent", "think"],
  ] as const) {
    it(`sends the real ${host} connect frames in the real order`, async () => {
      const c = await open(`/agents/${agent}/room-1?_pk=abc`);
      const expected = recordedConnect(host);
      expect(expected.length).toBeGreaterThanOrEqual(3);
      const got = await c.waitFor(expected.length);
      expect(got.map(normalise)).toEqual(expected.map(normalise));
      expect(got.find((f) => f.type === "cf_agent_identity")).toMatchObject({ name: "room-1", agent });
      // Nothing more arrives unasked.
      await new Promise((r) => setTimeout(r, 30));
      expect(c.frames).toHaveLength(expected.length);
      c.ws.close();
    });
  }

  it("sets stateFollows exactly when a state frame follows", async () => {
    const think = await open("/agents/stateful-think/s");
    expect((await think.waitFor(4)).map((f) => f.type)).toEqual([
      "cf_agent_chat_messages",
      "cf_agent_identity",
      "cf_agent_state",
      "cf_agent_mcp_servers",
    ]);
    expect(think.frames[1]).toEqual({
      type: "cf_agent_identity",
      name: "s",
      agent: "stateful-think",
      stateFollows: true,
    });
    const bare = await open("/agents/bare-chat/s");
    await new Promise((r) => setTimeout(r, 30));
    expect(bare.frames.map((f) => f.type)).toEqual(["cf_agent_identity", "cf_agent_mcp_servers"]);
    expect(bare.frames[0]).not.toHaveProperty("stateFollows");
    think.ws.close();
    bare.ws.close();
  });

  it("answers a resume probe with an idle none carrying the probe id, and unknown RPCs with an error", async () => {
    const c = await open("/agents/chat-agent/probe");
    await c.waitFor(3);
    c.ws.send(JSON.stringify({ type: "cf_agent_stream_resume_request", probeId: "p1" }));
    c.ws.send(JSON.stringify({ type: "rpc", id: "r1", method: "nope", args: [] }));
    const frames = await c.waitFor(5);
    expect(frames.slice(3)).toEqual([
      { type: "cf_agent_stream_resume_none", reason: "idle", probeId: "p1" },
      { type: "rpc", id: "r1", success: false, error: "Method nope does not exist" },
    ]);
    c.ws.close();
  });

  it("broadcasts a client's state to the other connections of the instance only", async () => {
    const a = await open("/agents/chat-agent/shared");
    const b = await open("/agents/chat-agent/shared");
    const elsewhere = await open("/agents/chat-agent/other-room");
    await Promise.all([a.waitFor(3), b.waitFor(3), elsewhere.waitFor(3)]);
    a.ws.send(JSON.stringify({ type: "cf_agent_state", state: { counter: 5 } }));
    expect((await b.waitFor(4))[3]).toEqual({ type: "cf_agent_state", state: { counter: 5 } });
    await new Promise((r) => setTimeout(r, 30));
    expect(a.frames).toHaveLength(3);
    expect(elsewhere.frames).toHaveLength(3);
    // A new connection sees the state the first one set.
    const c = await open("/agents/chat-agent/shared");
    expect((await c.waitFor(2))[1]).toEqual({ type: "cf_agent_state", state: { counter: 5 } });
    for (const x of [a, b, c, elsewhere]) x.ws.close();
  });

  it("ignores malformed frames with one log line and keeps serving every connection", async () => {
    const a = await open("/agents/chat-agent/malformed");
    const b = await open("/agents/chat-agent/malformed");
    await Promise.all([a.waitFor(3), b.waitFor(3)]);
    const before = logs.length;
    a.ws.send("{not json secret-token");
    a.ws.send(JSON.stringify({ type: "rpc", id: 7 }));
    a.ws.send(JSON.stringify({ type: "from-the-future", x: 1 }));
    a.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    a.ws.send("[]");
    // Both connections still work: a's probe is answered, b receives a's state.
    a.ws.send(JSON.stringify({ type: "cf_agent_stream_resume_request", probeId: "after" }));
    a.ws.send(JSON.stringify({ type: "cf_agent_state", state: { counter: 9 } }));
    expect((await a.waitFor(4))[3]).toEqual({
      type: "cf_agent_stream_resume_none",
      reason: "idle",
      probeId: "after",
    });
    expect((await b.waitFor(4))[3]).toEqual({ type: "cf_agent_state", state: { counter: 9 } });
    const lines = logs.slice(before);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain("not valid JSON");
    expect(lines[1]).toContain("rpc: field 'id' must be a string");
    expect(lines[2]).toContain("unknown type 'from-the-future'");
    expect(lines.join("\n")).not.toContain("secret-token");
    a.ws.close();
    b.ws.close();
  });

  it("refuses unknown agents with 404 and bad names with 400", async () => {
    expect(await refusedWith("/agents/nobody/x")).toBe(404);
    expect(await refusedWith("/agents/chat-agent/room/extra")).toBe(404);
    expect(await refusedWith("/elsewhere")).toBe(404);
    expect(await refusedWith("/agents/chat-agent/")).toBe(400);
    expect(await refusedWith("/agents/chat-agent")).toBe(400);
  });

  it("serves health and an empty transcript over HTTP", async () => {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    const messages = await fetch(`${server.url}/agents/chat-agent/room-1/get-messages`);
    expect(messages.status).toBe(200);
    expect(await messages.json()).toEqual([]);
    expect((await fetch(`${server.url}/agents/nobody/room-1/get-messages`)).status).toBe(404);
    expect((await fetch(`${server.url}/nothing-here`)).status).toBe(404);
  });

  it("answers malformed request targets with 400 and keeps serving", async () => {
    const upgrade =
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    const requests: (string | Buffer)[] = [
      "GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET /health%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET /agents/chat-agent/room%00/get-messages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      // Node's parser refuses a raw NUL itself; the server must still answer it and live on.
      Buffer.from("GET /health\0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "latin1"),
      `GET //[ HTTP/1.1\r\nHost: x\r\n${upgrade}\r\n`,
      `GET http://[::1 HTTP/1.1\r\nHost: x\r\n${upgrade}\r\n`,
      `GET /agents/chat-agent/room%00 HTTP/1.1\r\nHost: x\r\n${upgrade}\r\n`,
    ];
    for (const request of requests) {
      expect(await rawStatusLine(request), String(request)).toMatch(/^HTTP\/1\.1 400 /);
    }
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const c = await open("/agents/chat-agent/after-bad-requests");
    expect((await c.waitFor(3)).length).toBeGreaterThanOrEqual(3);
    c.ws.close();
  });
});
