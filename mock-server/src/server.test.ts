import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, type MockAgentServer } from "./server.ts";

let server: MockAgentServer;
const logs: string[] = [];
beforeAll(async () => {
  server = await createMockAgentServer({
    agents: { ChatAgent: { host: "ai-chat", initialState: { counter: 0 } }, ThinkAgent: { host: "think" } },
    log: (l) => logs.push(l),
  });
});
afterAll(() => server.close());

/** Opens a socket and collects parsed frames. */
async function open(path: string) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}${path}`);
  const frames: Array<Record<string, unknown>> = [];
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

/** The connect frames the real server sent, from the recorded transcript. */
function recordedConnect(host: string) {
  const url = new URL(
    `../../packages/protocol/test/fixtures/real-server/${host}/connect.jsonl`,
    import.meta.url,
  );
  return readFileSync(url, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.dir === "in")
    .map((l) => l.frame as Record<string, unknown>);
}

describe("mock server (base)", () => {
  for (const [agent, host] of [
    ["chat-agent", "ai-chat"],
    ["think-agent", "think"],
  ] as const) {
    it(`sends the real ${host} connect frames in the real order`, async () => {
      const c = await open(`/agents/${agent}/room-1?_pk=abc`);
      const expected = recordedConnect(host).map((f) =>
        f.type === "cf_agent_identity" ? { ...f, name: "room-1" } : f,
      );
      expect(await c.waitFor(expected.length)).toEqual(expected);
      c.ws.close();
    });
  }

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

  it("broadcasts a client's state to the other tabs only, and survives malformed frames", async () => {
    const a = await open("/agents/chat-agent/shared");
    const b = await open("/agents/chat-agent/shared");
    await a.waitFor(3);
    await b.waitFor(3);
    a.ws.send("{not json");
    a.ws.send(JSON.stringify({ type: "cf_agent_state", state: { counter: 5 } }));
    expect((await b.waitFor(4))[3]).toEqual({ type: "cf_agent_state", state: { counter: 5 } });
    await new Promise((r) => setTimeout(r, 30));
    expect(a.frames).toHaveLength(3);
    expect(logs.some((l) => l.includes("not valid JSON"))).toBe(true);
    // A new tab sees the state the first one set.
    const c = await open("/agents/chat-agent/shared");
    expect((await c.waitFor(2))[1]).toEqual({ type: "cf_agent_state", state: { counter: 5 } });
    for (const x of [a, b, c]) x.ws.close();
  });

  it("refuses unknown agents with 404 and serves health", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(await res.json()).toEqual({ ok: true });
    const ws = new WebSocket(`${server.url.replace("http", "ws")}/agents/nobody/x`);
    const status = await new Promise((resolve) =>
      ws.on("unexpected-response", (_q, r) => resolve(r.statusCode)),
    );
    expect(status).toBe(404);
  });
});
