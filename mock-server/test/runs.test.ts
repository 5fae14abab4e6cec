/**
 * Child runs (docs/protocol.md#agent-tool-events, docs/protocol.md#synthetic-messages): `agent-tool-event` frames of awaited runs with the real server's sequence
 * numbers, connect-time replay, fan-out order, failing and interrupted runs, detached runs with their notify
 * message and delivery turn, cancelling a run, and drilling into a child's own chat.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { type Frame, room, startServer, type TestClient, type TestServer } from "./ws-client.ts";

let ts: TestServer;
beforeAll(async () => {
  // The researcher child takes ~400 ms here, long enough to connect to it while it runs.
  ts = await startServer({ delayScale: 0.3, agents: demoAgents });
});
afterAll(() => ts.close());

interface RunEvent {
  type: "agent-tool-event";
  parentToolCallId?: string;
  sequence: number;
  replay?: true;
  event: { kind: string; runId: string; body?: string; [k: string]: unknown };
}

const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const events = (c: TestClient, runId?: string) =>
  (c.ofType("agent-tool-event") as unknown as RunEvent[]).filter((e) => !runId || e.event.runId === runId);
const chunkType = (e: RunEvent) =>
  e.event.body ? (JSON.parse(e.event.body) as { type: string }).type : undefined;
const isTransient = (e: RunEvent) =>
  ["data-agent-progress", "data-agent-milestone"].includes(chunkType(e) ?? "");
const toolCall = (c: TestClient, id: string, toolName: string) =>
  c.chunks(id).find((x) => x.type === "tool-input-available" && x.toolName === toolName)
    ?.toolCallId as string;
const SUMMARY = "Researching now.Summary: found 2 sources; durable objects give each agent its own SQLite.";

async function connected(path: string) {
  const c = await ts.open(path);
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  return c;
}

/** Runs `research` in a fresh room and returns the socket, room and run id once the turn has ended. */
async function research() {
  const name = room("research");
  const c = await connected(chatPath(name));
  c.ask("r1", "research durable objects for me");
  await c.done("r1");
  const toolCallId = toolCall(c, "r1", "research");
  return { c, name, toolCallId, runId: `agent-tool:${toolCallId}` };
}

describe("an awaited run", () => {
  it("started at 0 with the parent tool call, stored chunks 1..n, progress reusing the next number, finished", async () => {
    const { c, toolCallId, runId } = await research();
    const all = events(c);
    expect(all.length).toBeGreaterThan(10);
    for (const e of all) {
      expect(e.parentToolCallId).toBe(toolCallId);
      expect(e.event.runId).toBe(runId);
      expect(e).not.toHaveProperty("replay");
    }
    expect(all[0]).toEqual({
      type: "agent-tool-event",
      parentToolCallId: toolCallId,
      sequence: 0,
      event: {
        kind: "started",
        runId,
        agentType: "Researcher",
        inputPreview: JSON.stringify({ query: "durable objects" }),
        order: 0,
        display: { name: "Researcher" },
      },
    });
    const chunks = all.filter((e) => e.event.kind === "chunk");
    const stored = chunks.filter((e) => !isTransient(e));
    expect(stored.map((e) => e.sequence)).toEqual(stored.map((_, i) => i + 1));
    expect(chunkType(stored[0] as RunEvent)).toBe("start");
    // Two progress frames and a milestone, all numbered like the tool output stored right after them.
    const transient = chunks.filter(isTransient);
    expect(transient.map(chunkType)).toEqual([
      "data-agent-progress",
      "data-agent-progress",
      "data-agent-milestone",
    ]);
    const next = chunks[chunks.indexOf(transient[2] as RunEvent) + 1] as RunEvent;
    expect(chunkType(next)).toBe("tool-output-available");
    for (const t of transient) expect(t.sequence).toBe(next.sequence);
    expect(JSON.parse(transient[0]?.event.body as string)).toMatchObject({
      type: "data-agent-progress",
      transient: true,
      data: { fraction: 0.25, message: "Searching for sources", phase: "searching" },
    });
    expect(JSON.parse(transient[2]?.event.body as string)).toEqual({
      type: "data-agent-milestone",
      data: { name: "sources-gathered", sequence: 0, at: expect.any(Number), data: { sources: 2 } },
    });
    expect(all.at(-1)).toEqual({
      type: "agent-tool-event",
      parentToolCallId: toolCallId,
      sequence: stored.length + 1,
      event: { kind: "finished", runId, summary: SUMMARY },
    });
    // The parent's tool gets the summary after the run has ended.
    const output = c.frames.find(
      (f) => f.id === "r1" && typeof f.body === "string" && f.body.includes('"tool-output-available"'),
    );
    expect(c.frames.indexOf(output as Frame)).toBeGreaterThan(
      c.frames.indexOf(all.at(-1) as unknown as Frame),
    );
    expect(c.chunks("r1").find((x) => x.type === "tool-output-available")).toEqual({
      type: "tool-output-available",
      toolCallId,
      output: SUMMARY,
    });
    await c.close();
  });

  it("a socket connecting later gets started, stored chunks and the terminal as replay, without progress", async () => {
    const { c, name, runId } = await research();
    const late = await connected(chatPath(name));
    await late.quiet();
    const replayed = events(late, runId);
    // Right after the connect frames, all flagged replay, numbered exactly as they were live.
    expect(late.frames.indexOf(replayed[0] as unknown as Frame)).toBe(
      late.indexOf((f) => f.type === "cf_agent_mcp_servers") + 1,
    );
    for (const e of replayed) expect(e.replay).toBe(true);
    const strip = ({ replay: _, ...e }: RunEvent) => e;
    expect(replayed.map(strip)).toEqual(events(c, runId).filter((e) => !isTransient(e)));
    expect(replayed.some(isTransient)).toBe(false);
    expect(replayed.map((e) => e.event.kind)).toEqual([
      "started",
      ...Array(replayed.length - 2).fill("chunk"),
      "finished",
    ]);
    await c.close();
    await late.close();
  });

  it("fanout starts three runs with orders 0, 1, 2, each bound to its own tool call", async () => {
    const c = await connected(chatPath(room("fanout")));
    c.ask("r1", "fanout please");
    await c.done("r1");
    const started = events(c).filter((e) => e.event.kind === "started");
    expect(started.map((e) => [e.event.agentType, e.event.order, e.event.display])).toEqual([
      ["Researcher", 0, { name: "Researcher", icon: "🔎" }],
      ["FactChecker", 1, { name: "Fact checker", icon: "✔" }],
      ["Summarizer", 2, { name: "Summarizer", icon: "✎" }],
    ]);
    const calls = ["research", "factCheck", "summarize"].map((t) => toolCall(c, "r1", t));
    expect(started.map((e) => e.parentToolCallId)).toEqual(calls);
    expect(started.map((e) => e.event.runId)).toEqual(calls.map((id) => `agent-tool:${id}`));
    for (const s of started) {
      const terminal = events(c, s.event.runId).at(-1);
      expect(terminal?.event.kind).toBe("finished");
    }
    // The factChecker's milestone: the child's own ordinal, from 0.
    const milestone = events(c, started[1]?.event.runId).find((e) => chunkType(e) === "data-agent-milestone");
    expect(JSON.parse(milestone?.event.body as string).data).toMatchObject({
      name: "claim-verified",
      sequence: 0,
    });
    await c.close();
  });

  it("fail: a failing tool, a run ending in error and one interrupted with no-progress", async () => {
    const name = room("fail");
    const c = await connected(chatPath(name));
    c.ask("r1", "this will fail");
    const done = await c.done("r1");
    expect(done).not.toHaveProperty("error");
    const chunks = c.chunks("r1");
    const invoice = toolCall(c, "r1", "fetchInvoice");
    expect(chunks).toContainEqual({
      type: "tool-output-error",
      toolCallId: invoice,
      errorText: "Invoice service returned 503",
    });
    const verify = `agent-tool:${toolCall(c, "r1", "verify")}`;
    const crawl = `agent-tool:${toolCall(c, "r1", "crawl")}`;
    expect(events(c, verify).at(-1)?.event).toEqual({
      kind: "error",
      runId: verify,
      error: "Verifier crashed: upstream timeout",
    });
    expect(events(c, crawl).at(-1)?.event).toEqual({
      kind: "interrupted",
      runId: crawl,
      error: "No progress for 30 seconds",
      reason: "no-progress",
      childStillRunning: true,
    });
    // As agentTool() does, the parent's tool calls end with a failure envelope, not `tool-output-error`
    // (docs/protocol.md#agent-tool-failure-envelope).
    expect(chunks).toContainEqual({
      type: "tool-output-available",
      toolCallId: toolCall(c, "r1", "verify"),
      output: { ok: false, status: "error", error: "Verifier crashed: upstream timeout", retryable: false },
    });
    expect(chunks).toContainEqual({
      type: "tool-output-available",
      toolCallId: toolCall(c, "r1", "crawl"),
      output: {
        ok: false,
        status: "interrupted",
        error: "No progress for 30 seconds",
        retryable: true,
        reason: "no-progress",
        childStillRunning: true,
      },
    });
    expect(chunks.filter((k) => k.type === "tool-output-error")).toHaveLength(1);
    expect(c.text("r1")).toContain("Some steps failed");
    // A late socket gets the same terminals as replay, interrupted with its reason and childStillRunning.
    const late = await connected(chatPath(name));
    await late.quiet();
    for (const runId of [verify, crawl])
      expect(events(late, runId).at(-1)).toEqual({ ...events(c, runId).at(-1), replay: true });
    await c.close();
    await late.close();
  });

  it("retryAgentTool(runId) re-attaches to an interrupted run: the same run id streams on and ends finished", async () => {
    const name = room("retry");
    const c = await connected(chatPath(name));
    c.ask("r1", "this will fail");
    await c.done("r1");
    const crawl = `agent-tool:${toolCall(c, "r1", "crawl")}`;
    const verify = `agent-tool:${toolCall(c, "r1", "verify")}`;
    const before = events(c, crawl);
    const interruptedAt = before.at(-1)?.sequence ?? 0;
    const answer = await c.rpc("retryAgentTool", crawl);
    expect(answer).toMatchObject({
      success: true,
      result: {
        runId: crawl,
        agentType: "Crawler",
        status: "completed",
        summary: "Crawled 100 pages; 3 links are broken.",
      },
    });
    const after = events(c, crawl).slice(before.length);
    // No new `started` (agents 0.32 sends none on a re-dispatch); new stored chunks take the next numbers.
    expect(after.map((e) => e.event.kind)).not.toContain("started");
    const stored = after.filter((e) => e.event.kind === "chunk" && !isTransient(e));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored[0]?.sequence).toBe(interruptedAt);
    expect(after.at(-1)?.event).toEqual({
      kind: "finished",
      runId: crawl,
      summary: "Crawled 100 pages; 3 links are broken.",
    });
    expect(after.at(-1)?.sequence).toBe((stored.at(-1)?.sequence ?? 0) + 1);
    // A run that ended hard is answered with its result and sends nothing; an unknown id fails.
    const n = events(c).length;
    expect(await c.rpc("retryAgentTool", verify)).toMatchObject({
      success: true,
      result: { runId: verify, status: "error", error: "Verifier crashed: upstream timeout" },
    });
    expect(await c.rpc("retryAgentTool", crawl)).toMatchObject({ result: { status: "completed" } });
    expect(events(c)).toHaveLength(n);
    expect(await c.rpc("retryAgentTool", "agent-tool:nope")).toMatchObject({ success: false });
    // A late socket's replay ends with the real end, not the interrupt.
    const late = await connected(chatPath(name));
    await late.quiet();
    expect(events(late, crawl).at(-1)?.event.kind).toBe("finished");
    await c.close();
    await late.close();
  });

  it("cancelAgentTool(runId, reason) aborts a running child with the reason", async () => {
    const c = await connected(chatPath(room("cancel")));
    c.ask("r1", "research queues");
    const started = (await c.waitFor(
      (f) => f.type === "agent-tool-event" && (f.event as Frame).kind === "started",
    )) as unknown as RunEvent;
    const { runId } = started.event;
    expect(await c.rpc("cancelAgentTool", runId, "user")).toEqual({
      type: "rpc",
      id: expect.any(String),
      success: true,
      done: true,
      result: true,
    });
    await c.done("r1");
    expect(events(c, runId).at(-1)?.event).toEqual({ kind: "aborted", runId, reason: "user" });
    expect(
      events(c, runId).filter((e) => ["finished", "error", "aborted"].includes(e.event.kind)),
    ).toHaveLength(1);
    // The parent tool part ends with the cancelled envelope, as agentTool() returns it on the real server (the
    // cancel's reason does not reach it).
    expect(c.chunks("r1")).toContainEqual({
      type: "tool-output-available",
      toolCallId: runId.slice("agent-tool:".length),
      output: { ok: false, status: "aborted", error: "agent tool run was cancelled", retryable: false },
    });
    // Already over: a second cancel does nothing.
    expect(await c.rpc("cancelAgentTool", runId, "again")).toMatchObject({ success: true, result: false });
    await c.close();
  });
});

describe("a detached run", () => {
  it("outlives the turn, then a detached-finish user message and a detached-delivery turn", async () => {
    const name = room("background");
    const c = await connected(chatPath(name));
    c.ask("r1", "start background research on websockets");
    const turnDone = await c.done("r1");
    const started = events(c).find((e) => e.event.kind === "started") as RunEvent;
    const { runId } = started.event;
    expect(runId).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(started).toEqual({
      type: "agent-tool-event",
      sequence: 0,
      event: {
        kind: "started",
        runId,
        agentType: "Researcher",
        inputPreview: '{"query":"websockets"}',
        order: 0,
      },
    });
    expect(c.chunks("r1").find((x) => x.type === "tool-output-available")?.output).toEqual({
      runId,
      agentType: "Researcher",
      status: "running",
    });

    const finished = await c.waitFor(
      (f) => f.type === "agent-tool-event" && (f.event as Frame).kind === "finished",
    );
    expect(c.frames.indexOf(finished)).toBeGreaterThan(c.frames.indexOf(turnDone));
    expect(finished).not.toHaveProperty("parentToolCallId");
    const notify = await c.waitFor(
      (f) => f.type === "cf_agent_chat_messages" && JSON.stringify(f).includes("detached-finish:"),
    );
    expect(c.frames.indexOf(notify)).toBeGreaterThan(c.frames.indexOf(finished));
    const injected = (notify.messages as Frame[]).at(-1);
    expect(injected).toEqual({
      id: `detached-finish:${runId}:completed`,
      role: "user",
      parts: [{ type: "text", text: `Background task "Researcher" (run ${runId}) finished:\n\n${SUMMARY}` }],
      metadata: { source: "detached-agent-tool", runId, agentType: "Researcher", status: "completed" },
    });

    const delivery = await c.waitFor(
      (f) => f.type === "cf_agent_use_chat_response" && String(f.id).startsWith("detached-delivery:"),
    );
    const id = delivery.id as string;
    expect(id).toMatch(/^detached-delivery:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(c.frames.indexOf(delivery)).toBeGreaterThan(c.frames.indexOf(notify));
    const end = await c.done(id);
    // Nobody sent it: no messageIds, and every socket (the one that asked included) gets the end snapshot.
    expect(end).toEqual({ type: "cf_agent_use_chat_response", id, body: "", done: true });
    expect(c.frames.at(-2)).toMatchObject({ type: "cf_agent_chat_messages" });
    const stored = await ts.messages(chatPath(name));
    expect(stored.map((m) => m.id).slice(2)).toEqual([
      `detached-finish:${runId}:completed`,
      c.chunks(id)[0]?.messageId,
    ]);
    await c.close();
  });
});

describe("drill-in", () => {
  const subPath = (name: string, runId: string) =>
    `${chatPath(name)}/sub/researcher/${encodeURIComponent(runId)}`;

  it("while the child runs, its socket is offered the child's stream and sees it to the end", async () => {
    const name = room("drill");
    const c = await connected(chatPath(name));
    c.ask("r1", "research durable objects for me");
    const started = (await c.waitFor((f) => f.type === "agent-tool-event")) as unknown as RunEvent;
    const { runId } = started.event;
    const child = await ts.open(subPath(name, runId));
    const offer = await child.waitFor((f) => f.type === "cf_agent_stream_resuming");
    expect(child.frames[0]).toBe(offer);
    expect(await child.waitFor((f) => f.type === "cf_agent_identity")).toEqual({
      type: "cf_agent_identity",
      name: runId,
      agent: "researcher",
    });
    child.ack(offer.id as string);
    await child.done(offer.id as string);
    expect(child.text(offer.id as string)).toBe(SUMMARY);
    // The child's chunks are the ones the parent forwarded as agent-tool chunk events.
    const forwarded = events(c, runId)
      .filter((e) => e.event.kind === "chunk" && !isTransient(e))
      .map((e) => e.event.body);
    expect(child.chunks(offer.id as string).filter((x) => !String(x.type).startsWith("data-agent-"))).toEqual(
      forwarded.map((b) => JSON.parse(b as string)),
    );
    await c.done("r1");
    await c.close();
    await child.close();
  });

  it("after the run, the child's own transcript is served at …/sub/researcher/<runId>/get-messages", async () => {
    const { c, name, runId } = await research();
    const messages = await ts.messages(subPath(name, runId));
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[0]?.parts).toEqual([
      { type: "text", text: JSON.stringify({ query: "durable objects" }, null, 2) },
    ]);
    const texts = messages[1]?.parts.filter((p) => p.type === "text").map((p) => p.text);
    expect(texts?.join("")).toBe(SUMMARY);
    expect(
      messages[1]?.parts.some((p) => p.type === "tool-gatherSources" && p.state === "output-available"),
    ).toBe(true);
    // The parent's transcript is its own.
    expect((await ts.messages(chatPath(name))).map((m) => m.id)).toContain("u-r1");
    // Connecting now: no stream to offer, identity first.
    const child = await ts.open(subPath(name, runId));
    expect(await child.waitFor(() => true)).toMatchObject({ type: "cf_agent_identity", name: runId });
    await c.close();
    await child.close();
  });

  it("an unknown child, or a run under the wrong class, is 404", async () => {
    const { c, name, runId } = await research();
    const unknown = `${chatPath(name)}/sub/researcher/${encodeURIComponent("agent-tool:call-nope")}`;
    expect(await ts.refusedWith(unknown)).toBe(404);
    expect(await ts.refusedWith(`${chatPath(name)}/sub/fact-checker/${encodeURIComponent(runId)}`)).toBe(404);
    expect((await fetch(`${ts.server.url}${unknown}/get-messages`)).status).toBe(404);
    await c.close();
  });
});
