/**
 * The test controller (held frames, frame waits, dropped sockets, duplicated and delayed frames, restarts)
 * and bad input: the server logs one line per bad frame, never crashes, and its other sockets carry on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { type Frame, room, sleep, startServer, type TestClient, type TestServer } from "./ws-client.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startServer({ delayScale: 0.1, maxFrameBytes: 2048, agents: demoAgents });
});
afterAll(() => ts.close());
afterEach(() => {
  ts.server.controller.release();
  ts.server.controller.clearFaults();
});

const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const controller = () => ts.server.controller;

async function connected(path: string) {
  const c = await ts.open(path);
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  return c;
}

describe("controller", () => {
  it("hold() queues frames; next() sends them one at a time; waitForFrame resolves when one is sent", async () => {
    const name = room("held");
    const identity = controller().waitForFrame("cf_agent_identity");
    let sent = false;
    void identity.then(() => {
      sent = true;
    });
    controller().hold();
    const c = await ts.open(chatPath(name));
    await sleep(50);
    expect(c.frames).toEqual([]);
    expect(controller().heldCount).toBe(3);
    expect(sent).toBe(false);

    const [first] = controller().next();
    expect(first).toMatchObject({ agent: "chat-agent", name, frame: { type: "cf_agent_identity", name } });
    expect((await identity).frame).toBe(first?.frame);
    await c.waitFor((f) => f.type === "cf_agent_identity");
    expect(c.frames).toHaveLength(1);
    expect(controller().heldCount).toBe(2);

    controller().next();
    await c.waitFor((f) => f.type === "cf_agent_state");
    expect(c.frames).toHaveLength(2);
    controller().release();
    await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
    expect(c.frames.map((f) => f.type)).toEqual([
      "cf_agent_identity",
      "cf_agent_state",
      "cf_agent_mcp_servers",
    ]);
    // Released: nothing is held any more.
    expect((await c.rpc("increment")).result).toBe(1);
    expect(controller().heldCount).toBe(0);
    await c.close();
  });

  it("waitForFrame with a predicate, and its timeout", async () => {
    const name = room("wait");
    const c = await connected(chatPath(name));
    const done = controller().waitForFrame((f) => f.name === name && f.frame.done === true);
    c.ask("r1", "hello");
    expect((await done).frame).toMatchObject({ id: "r1", done: true });
    await expect(controller().waitForFrame("never-sent", 20)).rejects.toThrow(/no matching frame/);
    await c.close();
  });

  it("dropSocketAfter(5) terminates a socket at its fifth frame; the agent's other sockets are unaffected", async () => {
    const name = room("drop");
    const victim = await connected(chatPath(name));
    const bystander = await connected(chatPath(name));
    const before = victim.frames.length;
    controller().dropSocketAfter(5, { agent: "ChatAgent", name });
    // Replies go to the caller only, so only the victim's count grows.
    for (let i = 0; i < 7; i++) victim.rpcSend("getInfo");
    expect(await victim.waitForClose()).toBe(1006);
    expect(victim.frames.length - before).toBe(5);
    expect(bystander.closeCode).toBeUndefined();
    controller().clearFaults();
    // The bystander still talks to the same instance, and the instance forgot the dropped socket.
    bystander.ask("r1", "hello");
    await bystander.done("r1");
    expect(bystander.text("r1")).toBe("Hello! How can I help you today?");
    expect(bystander.closeCode).toBeUndefined();
    await bystander.close();
  });

  it("duplicate(pred) sends matching frames twice", async () => {
    const name = room("dup");
    const c = await connected(chatPath(name));
    controller().duplicate((f) => f.name === name && f.frame.type === "rpc");
    const reply = await c.rpc("getInfo");
    await c.quiet();
    expect(c.ofType("rpc")).toEqual([reply, reply]);
    // Only matching frames: a chat turn is not doubled.
    c.ask("r1", "hello");
    await c.done("r1");
    const seqs = c
      .responses("r1")
      .filter((f) => f.done === false)
      .map((f) => f.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    await c.close();
  });

  it("delay(pred, ms) sends matching frames later, so later frames overtake them", async () => {
    const name = room("delay");
    controller().delay((f) => f.name === name && f.frame.type === "cf_agent_state", 100);
    const c = await ts.open(chatPath(name));
    await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
    expect(c.frames.map((f) => f.type)).toEqual(["cf_agent_identity", "cf_agent_mcp_servers"]);
    await c.waitFor((f) => f.type === "cf_agent_state");
    expect(c.frames.map((f) => f.type)).toEqual([
      "cf_agent_identity",
      "cf_agent_mcp_servers",
      "cf_agent_state",
    ]);
    await c.close();
  });
});

describe("restart", () => {
  it("closes every socket with 1012 and keeps the transcript and the state", async () => {
    const name = room("restart");
    const a = await connected(chatPath(name));
    const b = await connected(chatPath(name));
    expect((await a.rpc("increment", 5)).result).toBe(5);
    a.ask("r1", "hello");
    await a.done("r1");
    const transcript = await ts.messages(chatPath(name));
    expect(controller().restart("ChatAgent", name)).toBe(true);
    expect(await a.waitForClose()).toBe(1012);
    expect(await b.waitForClose()).toBe(1012);
    expect(controller().restart("ChatAgent", room("never-created"))).toBe(false);

    const c = await connected(chatPath(name));
    expect(c.ofType("cf_agent_state")).toEqual([{ type: "cf_agent_state", state: { counter: 5 } }]);
    expect(c.ofType("cf_agent_stream_resuming")).toEqual([]);
    expect(await ts.messages(chatPath(name))).toEqual(transcript);
    c.ask("r2", "", {
      messages: [...transcript, { id: "u-r2", role: "user", parts: [{ type: "text", text: "hello" }] }],
    });
    await c.done("r2");
    expect(await ts.messages(chatPath(name))).toHaveLength(4);
    await c.close();
  });

  it("a stream cut by a restart is offered on reconnect; its ACK replays it and ends it; the partial is kept", async () => {
    const name = room("cut");
    const a = await connected(chatPath(name));
    a.ask("r1", "slow please");
    await a.chunk("r1", (x) => x.type === "text-delta" && x.delta === "word3 ");
    controller().restart("ChatAgent", name);
    expect(await a.waitForClose()).toBe(1012);
    const cut = a.text("r1");

    const b = await ts.open(chatPath(name));
    await b.waitFor((f) => f.type === "cf_agent_identity");
    expect(b.frames[0]).toEqual({ type: "cf_agent_stream_resuming", id: "r1" });
    // Nothing more is streamed: the turn stopped with the restart.
    await sleep(100);
    expect(b.responses("r1")).toEqual([]);
    b.ack("r1");
    const done = await b.done("r1");
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      replay: true,
    });
    const replay = b.responses("r1").slice(0, -1);
    for (const f of replay) expect(f).toMatchObject({ replay: true, done: false });
    expect(replay.map((f) => f.seq)).toEqual(replay.map((_, i) => i));
    expect(b.text("r1")).toBe(cut);
    const stored = await ts.messages(chatPath(name));
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored[1]?.parts.find((p) => p.type === "text")?.text).toBe(cut);
    // Ended: the next request runs.
    b.ask("r2", "", {
      messages: [...stored, { id: "u-r2", role: "user", parts: [{ type: "text", text: "hello" }] }],
    });
    await b.done("r2");
    await b.close();
  });

  // The real server's ResumableStream.start() replaces a restored (not live) stream when the next turn
  // starts; a client that never resumes (resume:false) must not wait behind the cut stream forever.
  it("after a restart, a new request is answered even if nobody ACKs the cut stream", async () => {
    const name = room("cut-no-ack");
    const a = await connected(chatPath(name));
    a.ask("r1", "slow please");
    await a.chunk("r1", (x) => x.type === "text-delta");
    controller().restart("ChatAgent", name);
    await a.waitForClose();
    const b = await connected(chatPath(name));
    const history = await ts.messages(chatPath(name));
    b.ask("r2", "", {
      messages: [...history, { id: "u-r2", role: "user", parts: [{ type: "text", text: "hello" }] }],
    });
    await b.done("r2", 2000);
    expect(b.text("r2")).toBe("Hello! How can I help you today?");
    // The cut stream's partial message is kept, before the new turn's.
    const stored = await ts.messages(chatPath(name));
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(stored[1]?.parts.find((p) => p.type === "text")?.text).toBe(a.text("r1"));
    await b.close();
  });

  it("a run cut by a restart is replayed without a terminal, and no notify or delivery turn follows", async () => {
    const name = room("cut-run");
    const a = await connected(chatPath(name));
    a.ask("r1", "start background research on websockets");
    await a.done("r1");
    const started = a.ofType("agent-tool-event")[0] as { event: { runId: string } };
    controller().restart("ChatAgent", name);
    await a.waitForClose();
    // Longer than the run would have taken.
    await sleep(400);
    const b = await connected(chatPath(name));
    await b.quiet(100);
    const replayed = b.ofType("agent-tool-event") as Array<{
      replay?: boolean;
      event: { kind: string; runId: string };
    }>;
    expect(replayed[0]?.event).toMatchObject({ kind: "started", runId: started.event.runId });
    expect(replayed.every((e) => e.replay === true && ["started", "chunk"].includes(e.event.kind))).toBe(
      true,
    );
    expect(b.ofType("cf_agent_use_chat_response")).toEqual([]);
    expect((await ts.messages(chatPath(name))).map((m) => m.id)).toEqual([
      "u-r1",
      expect.stringMatching(/^assistant_/),
    ]);
    expect(await b.rpc("cancelAgentTool", started.event.runId, "late")).toMatchObject({ result: false });
    await b.close();
  });
});

describe("bad input", () => {
  /** Sends each raw frame; returns the log lines they caused. */
  async function sendBad(c: TestClient, frames: Array<string | Buffer>) {
    const before = ts.logs.length;
    for (const f of frames) c.sendRaw(f);
    await c.quiet(80);
    return ts.logs.slice(before);
  }

  it("malformed JSON, unknown types, wrong field types and binary frames: one log line each, nothing else", async () => {
    const name = room("bad");
    const c = await connected(chatPath(name));
    const neighbour = await connected(chatPath(name));
    const seen = c.frames.length;
    const lines = await sendBad(c, [
      "{not json secret-value",
      JSON.stringify({ type: "made_up_type", x: 1 }),
      JSON.stringify({ type: "rpc", id: "r-args", method: "increment", args: "not-an-array" }),
      JSON.stringify({ type: "rpc", id: 7, method: "increment", args: [] }),
      JSON.stringify({ type: "cf_agent_use_chat_request", id: "c1", init: "POST" }),
      JSON.stringify({ type: "cf_agent_tool_approval", toolCallId: "x", approved: "yes" }),
      JSON.stringify({ type: "cf_agent_stream_resume_ack" }),
      JSON.stringify({ type: "cf_agent_state" }),
      JSON.stringify([1, 2, 3]),
      Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    ]);
    expect(lines).toHaveLength(10);
    for (const l of lines) {
      expect(l).toContain(name);
      expect(l).not.toContain("\n");
    }
    expect(lines.join("\n")).not.toContain("secret-value");
    expect(lines[0]).toContain("not valid JSON");
    expect(lines[1]).toContain("unknown type 'made_up_type'");
    expect(lines[2]).toContain("'args'");
    expect(lines[9]).toContain("not text");
    // No reply to any of them, on either socket; the state did not change.
    expect(c.frames.length).toBe(seen);
    expect(neighbour.frames.length).toBe(seen);
    expect((await c.rpc("increment")).result).toBe(1);
    expect(
      await neighbour.waitFor((f) => f.type === "cf_agent_state" && (f.state as Frame).counter === 1),
    ).toBeTruthy();
    await c.close();
    await neighbour.close();
  });

  // Checked before anything is broadcast: once, `[1,null]` reached the other sockets as a transcript.
  it("a chat request whose messages are not objects reaches no other socket", async () => {
    const name = room("bad-messages");
    const c = await connected(chatPath(name));
    const other = await connected(chatPath(name));
    const lines = await sendBad(c, [
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id: "m1",
        init: { method: "POST", body: JSON.stringify({ messages: [1, null] }) },
      }),
    ]);
    expect(lines).toHaveLength(1);
    expect(other.ofType("cf_agent_chat_messages")).toEqual([]);
    await c.close();
    await other.close();
  });

  it("a frame over maxFrameBytes closes that socket with 1009, with one log line; the others carry on", async () => {
    const name = room("big");
    const c = await connected(chatPath(name));
    const neighbour = await connected(chatPath(name));
    const before = ts.logs.length;
    c.send({ type: "cf_agent_state", state: { blob: "x".repeat(4096) } });
    expect(await c.waitForClose()).toBe(1009);
    await sleep(30);
    expect(ts.logs.slice(before)).toHaveLength(1);
    expect(neighbour.ofType("cf_agent_state")).toHaveLength(1); // the connect frame only: nothing was applied
    expect((await neighbour.rpc("increment")).result).toBe(1);
    expect(neighbour.closeCode).toBeUndefined();
    await neighbour.close();
  });

  it("the server survives all of it: health answers, new sockets connect", async () => {
    const res = await fetch(`${ts.server.url}/health`);
    expect(res.status).toBe(200);
    const c = await connected(chatPath(room("after")));
    c.ask("r1", "hello");
    await c.done("r1");
    await c.close();
  });

  it("refuses unknown agents with 404 and invalid names with 400", async () => {
    expect(await ts.refusedWith("/agents/no-such-agent/room")).toBe(404);
    expect(await ts.refusedWith("/not-agents/chat-agent/room")).toBe(404);
    expect(await ts.refusedWith("/agents/chat-agent/")).toBe(400);
    expect(await ts.refusedWith("/agents/chat-agent")).toBe(400);
    // A child name that is not valid percent-encoding.
    expect(await ts.refusedWith(`/agents/chat-agent/${room("p")}/sub/researcher/%E0%A4%A`)).toBe(400);
    expect((await fetch(`${ts.server.url}/agents/no-such-agent/room/get-messages`)).status).toBe(404);
  });
});
