/**
 * The helix demo over HTTP (SSE) read by the protocol's decoder and reducer, its origin rules, and the
 * `delegate` word's synchronous AgentTool call.
 */
import { request } from "node:http";
import { parseSyncAgentTool } from "@runboard/protocol";
import { createHelixStreamDecoder, HelixRunsReducer, type HelixRunsState } from "@runboard/protocol/helix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { room, startServer, type TestServer } from "./ws-client.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startServer({ agents: demoAgents, delayScale: 0 });
});
afterAll(() => ts.close());

/** GET with chosen headers (fetch cannot set Host). */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(`${ts.server.url}${path}`, { headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    },
  );
}

function reduce(sse: string, end = true): HelixRunsState {
  const r = new HelixRunsReducer();
  const d = createHelixStreamDecoder("sse");
  for (const text of [...d.push(sse), ...d.end()]) expect(r.apply(text).kind).not.toBe("error");
  if (end) r.endStream();
  return r.state;
}

const byType = (s: HelixRunsState, t: string) => Object.values(s.runsById).filter((r) => r.agentType === t);

describe("helix stream over SSE", () => {
  it("serves three nested levels, two parallel researchers (one failed) and persistent children", async () => {
    const res = await get("/helix/stream", { origin: "http://localhost:5173" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(res.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const s = reduce(res.body);
    const [processor] = byType(s, "processor");
    const [sentiment] = byType(s, "sentiment");
    expect(processor).toMatchObject({ status: "completed", depth: 1 });
    expect(sentiment).toMatchObject({ status: "completed", depth: 2, callerRunId: processor?.runId });
    expect(byType(s, "researcher").map((r) => [r.status, r.inputPreview, r.error])).toEqual([
      ["completed", { query: "pricing" }, undefined],
      ["error", { query: "competitors" }, "Rate limited by the search API"],
    ]);
    const spawned = (s.root.parts as unknown as Record<string, unknown>[]).filter(
      (p) => p.type === "tool-companion__spawnAgent" && p.state === "output-available",
    );
    expect(spawned.map((p) => (p.output as { name: string }).name)).toEqual(["monitor-1", "writer-1"]);
    expect(s.root.status).toBe("completed");
  });

  it("?cut=n ends the stream mid-run: the open runs are interrupted", async () => {
    const s = reduce((await get("/helix/stream?cut=5")).body);
    expect([...byType(s, "processor"), ...byType(s, "sentiment")].map((r) => r.status)).toEqual([
      "interrupted",
      "interrupted",
    ]);
  });

  it("follows the mock's origin rules: a foreign Host is refused, a foreign Origin gets no CORS header", async () => {
    expect((await get("/helix/stream", { host: "evil.example" })).status).toBe(403);
    const foreign = await get("/helix/stream?cut=1", { origin: "https://evil.example" });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("acknowledges Send message and Terminate for a child", async () => {
    const res = await fetch(`${ts.server.url}/helix/children/monitor-1/terminate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await res.json()).toEqual({ ok: true, name: "monitor-1", action: "terminate" });
    expect((await fetch(`${ts.server.url}/helix/nothing`)).status).toBe(404);
  });
});

describe("the delegate word", () => {
  it("plays one blocking AgentTool call whose text result is cut at 5,000 characters", async () => {
    const c = await ts.open(`/agents/chat-agent/${room("delegate")}`);
    await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
    c.ask("r1", "delegate the log review");
    await c.done("r1");
    const chunks = c.chunks("r1");
    const input = chunks.find((x) => x.type === "tool-input-available");
    const output = chunks.find((x) => x.type === "tool-output-available");
    expect(chunks.some((x) => String(x.type).startsWith("data-agent"))).toBe(false);
    const call = parseSyncAgentTool({
      type: `tool-${input?.toolName}`,
      toolCallId: String(input?.toolCallId),
      state: "output-available",
      input: input?.input,
      output: output?.output,
    });
    expect(call).toMatchObject({
      allowedTools: ["Read", "Grep", "Glob"],
      model: "claude-haiku",
      cutByAgent: true,
    });
    expect(call?.result).toHaveLength(5000);
  });
});
