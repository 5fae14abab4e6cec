/**
 * The resume handshake (docs/protocol.md#resume-handshake) and gated turns that continue through it (docs/protocol.md#tool-continuations): the connect-time
 * offer, the duplicate offer to a probe, ACK-gated replay with replayComplete, idle and unknown answers, a
 * socket that never ACKs; approvals, denials and client tool results continuing in a new stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { delay, demoAgents, text } from "../src/index.ts";
import {
  bodyOf,
  type Frame,
  room,
  startServer,
  type TestClient,
  type TestServer,
  until,
} from "./ws-client.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startServer({
    // `slow` streams 40 words at 15 ms each here.
    delayScale: 0.1,
    agents: {
      ...demoAgents,
      // The demo scripts with slower model pacing, so a continuation is still live when its ACK arrives.
      SlowChat: { ...demoAgents.ChatAgent, chunkDelayMs: 300 },
      Faulty: {
        host: "ai-chat",
        turns: [
          {
            match: /./,
            steps: [text("partial"), delay(3000), { kind: "error", message: "Model overloaded" }],
          },
        ],
      },
    } as typeof demoAgents,
  });
});
afterAll(() => ts.close());

const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const slowPath = (name: string) => `/agents/slow-chat/${name}`;
const isStream = (id: string) => (f: Frame) => f.type === "cf_agent_use_chat_response" && f.id === id;
/** Chunk frames (non-empty body) of a stream. */
const chunkFrames = (frames: Frame[], id: string) =>
  frames.filter((f) => isStream(id)(f) && typeof f.body === "string" && f.body !== "" && f.error !== true);

async function connected(path: string) {
  const c = await ts.open(path);
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  return c;
}

/** Checks the frames of `id` a socket got after ACKing a live stream: replay, replayComplete, live, done. */
function expectReplayThenLive(c: TestClient, id: string, continuation: boolean) {
  const frames = c.frames.filter(isStream(id));
  const complete = frames.findIndex((f) => f.replayComplete === true);
  expect(complete).toBeGreaterThan(0);
  const cont = continuation ? { continuation: true } : {};
  const replay = frames.slice(0, complete);
  const live = frames.slice(complete + 1, -1);
  expect(frames[complete]).toEqual({
    type: "cf_agent_use_chat_response",
    id,
    body: "",
    done: false,
    replay: true,
    replayComplete: true,
    ...cont,
  });
  for (const f of replay) expect(f).toMatchObject({ done: false, replay: true, ...cont });
  for (const f of live) {
    expect(f).toMatchObject({ done: false, ...cont });
    expect(f).not.toHaveProperty("replay");
  }
  // One numbering across replay and live: 0..n with no gap and no duplicate.
  expect([...replay, ...live].map((f) => f.seq)).toEqual([...replay, ...live].map((_, i) => i));
  expect(frames.at(-1)).toMatchObject({ done: true, body: "" });
  return { replay, live };
}

describe("reconnect mid-stream", () => {
  it("offers the stream before identity, again to a probe, and after one ACK replays then goes live", async () => {
    const name = room("reconnect");
    const a = await connected(chatPath(name));
    a.ask("r1", "slow please");
    await a.waitFor((f) => isStream("r1")(f) && typeof f.body === "string" && f.body.includes('"word3 "'));

    const b = await ts.open(chatPath(name));
    await b.waitFor((f) => f.type === "cf_agent_identity");
    expect(b.frames[0]).toEqual({ type: "cf_agent_stream_resuming", id: "r1" });
    expect(b.frames[1]).toMatchObject({ type: "cf_agent_identity", name });

    b.probe("p1");
    expect(await b.waitFor((f) => f.type === "cf_agent_stream_resuming" && f.probeId !== undefined)).toEqual({
      type: "cf_agent_stream_resuming",
      id: "r1",
      probeId: "p1",
    });
    // Offered twice, but nothing of the stream flows before the ACK.
    expect(b.frames.filter(isStream("r1"))).toEqual([]);

    b.ack("r1");
    await b.done("r1");
    await a.done("r1");
    const { replay, live } = expectReplayThenLive(b, "r1", false);
    expect(replay.length).toBeGreaterThanOrEqual(5); // start, start-step, text-start, word0, word1 …
    expect(live.length).toBeGreaterThan(0);
    // Replay plus live is exactly what the sender saw.
    expect([...replay, ...live].map((f) => f.body)).toEqual(chunkFrames(a.frames, "r1").map((f) => f.body));
    expect(b.text("r1")).toBe(a.text("r1"));
    // b is not the sender: the end snapshot comes right before done.
    expect(b.frames.at(-2)).toMatchObject({ type: "cf_agent_chat_messages" });
    await a.close();
    await b.close();
  });

  it("a socket that never ACKs gets no chunk, only the end snapshot and done", async () => {
    const name = room("no-ack");
    const a = await connected(chatPath(name));
    a.ask("r1", "slow please");
    await a.chunk("r1", (c) => c.type === "text-delta");
    const b = await ts.open(chatPath(name));
    await b.waitFor((f) => f.type === "cf_agent_identity");
    await a.done("r1");
    const done = await b.done("r1");
    expect(b.frames.filter(isStream("r1"))).toEqual([done]);
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      messageIds: ["u-r1"],
    });
    expect(b.frames.at(-2)).toMatchObject({ type: "cf_agent_chat_messages" });
    await a.close();
    await b.close();
  });

  it("idle probe: resume_none idle with the probeId; ACK of an unknown id: a clean replay done", async () => {
    const c = await connected(chatPath(room("idle")));
    c.probe("p-idle");
    expect(await c.waitFor((f) => f.type === "cf_agent_stream_resume_none")).toEqual({
      type: "cf_agent_stream_resume_none",
      reason: "idle",
      probeId: "p-idle",
    });
    c.ack("no-such-stream");
    expect(await c.done("no-such-stream")).toEqual({
      type: "cf_agent_use_chat_response",
      id: "no-such-stream",
      body: "",
      done: true,
      replay: true,
    });
    await c.close();
  });

  it("ACK of a finished stream replays all of it and ends with done replay:true", async () => {
    const name = room("finished");
    const a = await connected(chatPath(name));
    a.ask("r1", "hello");
    await a.done("r1");
    const b = await connected(chatPath(name));
    b.ack("r1");
    const done = await b.done("r1");
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      replay: true,
    });
    const replay = b.frames.filter(isStream("r1")).slice(0, -1);
    expect(replay.map((f) => f.body)).toEqual(chunkFrames(a.frames, "r1").map((f) => f.body));
    for (const f of replay) expect(f).toMatchObject({ replay: true, done: false });
    await a.close();
    await b.close();
  });
});

describe("a turn that failed while nobody was connected", () => {
  it("is offered to the next probe; its ACK replays it and ends with the error, without replay", async () => {
    const name = room("terminal");
    const path = `/agents/faulty/${name}`;
    const a = await connected(path);
    a.ask("r1", "go");
    await a.chunk("r1", (c) => c.type === "text-end");
    await a.close();
    await until(() => ts.server.controller.instance("Faulty", name)?.streaming === false, "the turn to fail");

    const b = await connected(path);
    // Nothing is pushed on connect.
    expect(b.frames.map((f) => f.type)).toEqual(["cf_agent_identity", "cf_agent_mcp_servers"]);
    b.probe("p1");
    expect(await b.waitFor((f) => f.type === "cf_agent_stream_resuming")).toEqual({
      type: "cf_agent_stream_resuming",
      id: "r1",
      probeId: "p1",
    });
    b.ack("r1");
    const end = await b.waitFor((f) => isStream("r1")(f) && f.error === true);
    expect(end).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "Model overloaded",
      done: true,
      error: true,
    });
    const replay = b.frames.filter(isStream("r1")).slice(0, -1);
    for (const f of replay) expect(f).toMatchObject({ replay: true, done: false });
    expect(b.text("r1")).toBe("partial");
    await b.close();
  });
});

/** Asks for a payment and waits for the gated turn to end; returns the tool call id and approval id. */
async function payTurn(c: TestClient, id: string) {
  c.ask(id, "please pay ACME 10");
  await c.done(id);
  const request = c.chunks(id).find((x) => x.type === "tool-approval-request");
  expect(request).toMatchObject({ approvalId: expect.stringMatching(/^aitxt-[A-Za-z0-9]{24}$/) });
  expect(c.chunks(id).at(-1)).toEqual({ type: "finish", messageMetadata: { finishReason: "tool-calls" } });
  return { toolCallId: request?.toolCallId as string, approvalId: request?.approvalId as string };
}

/** The part of a tool call in a message. */
const partOf = (message: unknown, toolCallId: string) =>
  (message as { parts: Array<Record<string, unknown>> }).parts.find((p) => p.toolCallId === toolCallId);

describe("gates continue through the handshake", () => {
  it("approval: message_updated, an offer for a new id, replay after ACK, live continuation, snapshot, done", async () => {
    const name = room("pay");
    const c = await connected(slowPath(name));
    const observer = await connected(slowPath(name));
    const { toolCallId, approvalId } = await payTurn(c, "r1");

    c.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true });
    const updated = await c.waitFor((f) => f.type === "cf_agent_message_updated");
    expect(partOf(updated.message, toolCallId)).toMatchObject({
      type: "tool-processPayment",
      state: "approval-responded",
      approval: { id: approvalId, approved: true },
    });
    const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    expect(c.frames.indexOf(offer)).toBeGreaterThan(c.frames.indexOf(updated));
    const id = offer.id as string;
    expect(offer).toEqual({ type: "cf_agent_stream_resuming", id });
    expect(id).not.toBe("r1");
    // Another socket probing now is told the continuation belongs to someone else.
    observer.probe("p-obs");
    expect(await observer.waitFor((f) => f.type === "cf_agent_stream_resume_none")).toEqual({
      type: "cf_agent_stream_resume_none",
      reason: "continuation-owned",
      probeId: "p-obs",
    });
    expect(c.frames.filter(isStream(id))).toEqual([]);
    c.ack(id);
    const done = await c.done(id);

    const { replay, live } = expectReplayThenLive(c, id, true);
    // What was emitted before the ACK: the continuation start (no messageId) and the approved tool's output.
    expect(bodyOf(replay[0] as Frame)).toEqual({ type: "start" });
    expect(bodyOf(replay[1] as Frame)).toEqual({
      type: "tool-output-available",
      toolCallId,
      output: { ok: true, charged: 10, recipient: "ACME", txId: "tx_123" },
    });
    expect(c.text(id)).toContain('"charged":10');
    expect(c.frames.at(-2)).toMatchObject({ type: "cf_agent_chat_messages" });
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id,
      body: "",
      done: true,
      continuation: true,
    });
    // The observer saw the same continuation live, from seq 0.
    const watched = chunkFrames(observer.frames, id);
    expect(watched.map((f) => f.body)).toEqual([...replay, ...live].map((f) => f.body));
    expect(watched.map((f) => f.seq)).toEqual(watched.map((_, i) => i));

    // One assistant message holds the call and the continuation's text.
    const stored = await ts.messages(slowPath(name));
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(partOf(stored[1], toolCallId)).toMatchObject({
      state: "output-available",
      output: { charged: 10 },
    });
    await c.close();
    await observer.close();
  });

  it("denial: the part becomes output-denied and the continuation says so without running the tool", async () => {
    const name = room("deny");
    const c = await connected(slowPath(name));
    const { toolCallId } = await payTurn(c, "r1");
    c.send({ type: "cf_agent_tool_approval", toolCallId, approved: false, autoContinue: true });
    const updated = await c.waitFor((f) => f.type === "cf_agent_message_updated");
    expect(partOf(updated.message, toolCallId)).toMatchObject({
      state: "output-denied",
      approval: { approved: false },
    });
    const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    c.ack(offer.id as string);
    await c.done(offer.id as string);
    expectReplayThenLive(c, offer.id as string, true);
    const types = c.chunks(offer.id as string).map((x) => x.type);
    expect(types).not.toContain("tool-output-available");
    expect(c.text(offer.id as string)).toBe("Understood, I did not run processPayment.");
    const stored = await ts.messages(slowPath(name));
    expect(partOf(stored[1], toolCallId)).toMatchObject({ state: "output-denied" });
    await c.close();
  });

  it("client tool: message_updated with the output (preliminary:false), then the continuation", async () => {
    const name = room("locate");
    const c = await connected(slowPath(name));
    c.ask("r1", "locate me");
    await c.done("r1");
    const input = c.chunks("r1").find((x) => x.type === "tool-input-available");
    expect(input).toMatchObject({ toolName: "getLocation" });
    const toolCallId = input?.toolCallId as string;
    const output = { lat: 38.7, lng: -9.1 };
    c.send({ type: "cf_agent_tool_result", toolCallId, toolName: "getLocation", output, autoContinue: true });
    const updated = await c.waitFor((f) => f.type === "cf_agent_message_updated");
    expect(partOf(updated.message, toolCallId)).toMatchObject({
      type: "tool-getLocation",
      state: "output-available",
      output,
      preliminary: false,
    });
    const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    expect(offer).toEqual({ type: "cf_agent_stream_resuming", id: offer.id });
    c.ack(offer.id as string);
    await c.done(offer.id as string);
    const { replay } = expectReplayThenLive(c, offer.id as string, true);
    expect(bodyOf(replay[0] as Frame)).toEqual({ type: "start" });
    expect(c.text(offer.id as string)).toBe(
      `Tool getLocation returned ${JSON.stringify({ type: "json", value: output })}. Done.`,
    );
    await c.close();
  });

  // The real server only matches input-available / approval-requested / approval-responded parts; a result
  // for a settled part (a client tool's or a server tool's) changes nothing (docs/protocol.md#client-tools, #1412).
  it("a second tool result for a settled part changes nothing and sends nothing", async () => {
    const name = room("dup-result");
    const c = await connected(chatPath(name));
    c.ask("r1", "locate me");
    await c.done("r1");
    const toolCallId = c.chunks("r1").find((x) => x.type === "tool-input-available")?.toolCallId;
    c.send({ type: "cf_agent_tool_result", toolCallId, toolName: "getLocation", output: { lat: 1 } });
    const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    await c.done(offer.id as string);
    const before = c.frames.length;
    c.send({ type: "cf_agent_tool_result", toolCallId, toolName: "getLocation", output: { lat: 999 } });
    await c.quiet(100);
    expect(c.frames.slice(before)).toEqual([]);
    const stored = await ts.messages(chatPath(name));
    expect(partOf(stored[1], toolCallId as string)?.output).toEqual({ lat: 1 });

    // Nor can a client overwrite a server tool's output.
    c.ask("r2", "", {
      messages: [...stored, { id: "u-r2", role: "user", parts: [{ type: "text", text: "weather" }] }],
    });
    await c.done("r2");
    const weather = c.chunks("r2").find((x) => x.type === "tool-output-available");
    const after = c.frames.length;
    c.send({
      type: "cf_agent_tool_result",
      toolCallId: weather?.toolCallId,
      toolName: "getWeather",
      output: "forged",
    });
    await c.quiet(100);
    expect(c.frames.slice(after)).toEqual([]);
    const final = await ts.messages(chatPath(name));
    expect(partOf(final[3], weather?.toolCallId as string)?.output).toEqual(weather?.output);
    await c.close();
  });

  it("without an ACK the answering socket only gets the end snapshot and done of the continuation", async () => {
    const name = room("locate-no-ack");
    const c = await connected(chatPath(name));
    c.ask("r1", "locate me");
    await c.done("r1");
    const toolCallId = c.chunks("r1").find((x) => x.type === "tool-input-available")?.toolCallId;
    c.send({ type: "cf_agent_tool_result", toolCallId, toolName: "getLocation", output: { lat: 1, lng: 2 } });
    const offer = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    const id = offer.id as string;
    const done = await c.done(id);
    expect(c.frames.filter(isStream(id))).toEqual([done]);
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id,
      body: "",
      done: true,
      continuation: true,
    });
    const snapshot = c.frames.at(-2) as Frame;
    expect(snapshot.type).toBe("cf_agent_chat_messages");
    // The snapshot carries the continuation's text, appended to the same assistant message.
    expect(JSON.stringify(snapshot)).toContain("Tool getLocation returned");
    expect((snapshot.messages as unknown[]).length).toBe(2);
    await c.close();
  });
});
