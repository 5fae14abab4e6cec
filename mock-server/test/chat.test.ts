/**
 * Chat turns over raw sockets, as each host sends them: the frames of a turn and its terminal, who gets which
 * transcript snapshot, queueing, cancel, errors, clear, regenerate, persistence across reconnects, and bad
 * request bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAgents, text } from "../src/index.ts";
import { type Frame, room, startServer, type TestServer, userMessage } from "./ws-client.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startServer({
    // Small but non-zero: `slow` takes ~300 ms, so a second request really arrives mid-turn.
    delayScale: 0.05,
    agents: {
      ...demoAgents,
      Faulty: {
        host: "ai-chat",
        turns: [
          {
            match: "inband",
            steps: [text("partial answer"), { kind: "error", message: "Model overloaded" }],
          },
          {
            match: "thrown",
            steps: [text("partial"), { kind: "error", message: "Tool crashed", thrown: true }],
          },
        ],
      },
      FaultyThink: {
        host: "think",
        turns: [{ match: "inband", steps: [{ kind: "error", message: "Boom" }] }],
      },
    },
  });
});
afterAll(() => ts.close());

const HELLO = "Hello! How can I help you today?";
const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const thinkPath = (name: string) => `/agents/think-agent/${name}`;
const snapshots = (frames: Frame[]) => frames.filter((f) => f.type === "cf_agent_chat_messages");
const ids = (f: Frame | undefined) => ((f?.messages ?? []) as Array<{ id: string }>).map((m) => m.id);

async function connected(path: string) {
  const c = await ts.open(path);
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  return c;
}

describe("a turn (AIChatAgent)", () => {
  it("streams hello as numbered chunks and ends with messageIds and no outcome", async () => {
    const name = room("hello");
    const c = await connected(chatPath(name));
    c.ask("r1", "hello");
    const done = await c.done("r1");
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      messageIds: ["u-r1"],
    });

    const live = c.responses("r1").filter((f) => f.done === false);
    // Every chunk frame has exactly the real server's fields, and seq counts from 0 without gaps.
    for (const f of live) expect(Object.keys(f).sort()).toEqual(["body", "done", "id", "seq", "type"]);
    expect(live.map((f) => f.seq)).toEqual(live.map((_, i) => i));
    const chunks = c.chunks("r1");
    expect(chunks.map((x) => x.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      ...Array(7).fill("text-delta"),
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(chunks[0]?.messageId).toMatch(/^assistant_\d+_[a-z0-9]{9}$/);
    expect(chunks.at(-1)).toEqual({ type: "finish", messageMetadata: { finishReason: "stop" } });
    expect(c.text("r1")).toBe(HELLO);
    // The sender never gets a transcript snapshot for its own turn.
    expect(snapshots(c.frames)).toEqual([]);

    const stored = await ts.messages(chatPath(name));
    expect(stored.map((m) => [m.id, m.role])).toEqual([
      ["u-r1", "user"],
      [chunks[0]?.messageId, "assistant"],
    ]);
    expect(stored[1]?.parts.find((p) => p.type === "text")?.text).toBe(HELLO);
    await c.close();
  });

  it("other sockets get the user message twice at turn start and the end snapshot before done; the sender none", async () => {
    const name = room("observer");
    const sender = await connected(chatPath(name));
    const observer = await connected(chatPath(name));
    const before = observer.frames.length;
    sender.ask("r1", "hello from sender");
    await observer.done("r1");
    await sender.done("r1");

    const seen = observer.frames.slice(before);
    const firstChunk = seen.findIndex((f) => f.type === "cf_agent_use_chat_response");
    const snaps = snapshots(seen);
    expect(snaps).toHaveLength(3);
    // Two snapshots of the user message, both before the observer's first chunk…
    expect(ids(snaps[0])).toEqual(["u-r1"]);
    expect(ids(snaps[1])).toEqual(["u-r1"]);
    expect(seen.indexOf(snaps[1] as Frame)).toBeLessThan(firstChunk);
    // …and the full transcript after the finish chunk, right before done.
    const start = observer.chunks("r1")[0];
    expect(ids(snaps[2])).toEqual(["u-r1", start?.messageId]);
    expect(seen.indexOf(snaps[2] as Frame)).toBe(seen.length - 2);
    expect(seen.at(-1)).toMatchObject({ id: "r1", done: true, messageIds: ["u-r1"] });
    // The observer saw the same chunks as the sender.
    expect(observer.chunks("r1")).toEqual(sender.chunks("r1"));
    expect(snapshots(sender.frames)).toEqual([]);
    await sender.close();
    await observer.close();
  });
});

describe("a turn (Think)", () => {
  it("sends the end snapshot to every socket, a top-level finishReason and outcome completed", async () => {
    const name = room("think");
    const sender = await connected(thinkPath(name));
    const observer = await connected(thinkPath(name));
    sender.ask("r1", "hello");
    const done = await sender.done("r1");
    await observer.done("r1");
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      outcome: "completed",
      messageIds: ["u-r1"],
    });
    const chunks = sender.chunks("r1");
    expect(chunks[0]?.messageId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
    expect(sender.text("r1")).toBe(HELLO);

    for (const c of [sender, observer]) {
      const end = snapshots(c.frames).at(-1);
      expect(ids(end)).toEqual(["u-r1", chunks[0]?.messageId]);
      // The snapshot comes right before done.
      expect(c.frames.indexOf(end as Frame)).toBe(c.frames.length - 2);
    }
    await sender.close();
    await observer.close();
  });
});

describe("queue and cancel", () => {
  it("a second request waits until the first has ended", async () => {
    const c = await connected(chatPath(room("queue")));
    c.ask("r1", "slow please");
    c.ask("r2", "hello");
    await c.chunk("r1", (x) => x.type === "text-delta");
    await c.done("r2");
    const lastR1 = c.frames.length - 1 - [...c.frames].reverse().findIndex((f) => f.id === "r1");
    const firstR2 = c.frames.findIndex((f) => f.id === "r2");
    expect(c.frames[lastR1]).toMatchObject({ done: true });
    expect(firstR2).toBeGreaterThan(lastR1);
    expect(c.text("r1").split(" ")).toHaveLength(40);
    expect(c.text("r2")).toBe(HELLO);
    expect(c.chunks("r2")[0]?.type).toBe("start");
    await c.close();
  });

  it("cancel stops the turn: done with outcome aborted, nothing after it, the partial message kept", async () => {
    const name = room("cancel");
    const c = await connected(chatPath(name));
    c.ask("r1", "slow please");
    await c.chunk("r1", (x) => x.type === "text-delta" && x.delta === "word2 ");
    c.send({ type: "cf_agent_chat_request_cancel", id: "r1" });
    const done = await c.done("r1");
    expect(done).toEqual({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "",
      done: true,
      outcome: "aborted",
      messageIds: ["u-r1"],
    });
    await c.quiet();
    expect(c.frames.at(-1)).toBe(done);
    const partial = c.text("r1");
    expect(partial.split(" ").length).toBeLessThan(40);
    const stored = await ts.messages(chatPath(name));
    expect(stored.at(-1)?.parts.find((p) => p.type === "text")?.text).toBe(partial);
    await c.close();
  });
});

describe("errors", () => {
  it("an in-band error: {error:true, done:false} with the message, then a plain done", async () => {
    const c = await connected(`/agents/faulty/${room("inband")}`);
    c.ask("r1", "inband");
    await c.done("r1");
    const tail = c.responses("r1").filter((f) => f.error === true || f.done === true);
    expect(tail).toEqual([
      { type: "cf_agent_use_chat_response", id: "r1", body: "Model overloaded", done: false, error: true },
      { type: "cf_agent_use_chat_response", id: "r1", body: "", done: true, messageIds: ["u-r1"] },
    ]);
    expect(c.text("r1")).toBe("partial answer");
    // The error is not a stored chunk: no chunk body names it.
    expect(c.chunks("r1").some((x) => x.type === "error")).toBe(false);

    const t = await connected(`/agents/faulty-think/${room("inband")}`);
    t.ask("r2", "inband");
    expect(await t.done("r2")).toMatchObject({ outcome: "error" });
    expect(t.responses("r2").find((f) => f.error === true)).toMatchObject({ body: "Boom", done: false });
    await c.close();
    await t.close();
  });

  it("a thrown error ends the stream with one {error:true, done:true} frame carrying the message", async () => {
    const c = await connected(`/agents/faulty/${room("thrown")}`);
    c.ask("r1", "thrown");
    const end = await c.done("r1");
    expect(end).toMatchObject({
      type: "cf_agent_use_chat_response",
      id: "r1",
      body: "Tool crashed",
      error: true,
    });
    expect(c.responses("r1").filter((f) => f.error === true)).toEqual([end]);
    await c.quiet();
    expect(c.frames.at(-1)).toBe(end);
    await c.close();
  });
});

describe("transcript", () => {
  it("clear is echoed to the other sockets only and empties the transcript", async () => {
    const name = room("clear");
    const a = await connected(chatPath(name));
    const b = await connected(chatPath(name));
    a.ask("r1", "hello");
    await a.done("r1");
    await b.done("r1");
    expect(await ts.messages(chatPath(name))).toHaveLength(2);
    a.send({ type: "cf_agent_chat_clear" });
    expect(await b.waitFor((f) => f.type === "cf_agent_chat_clear")).toEqual({ type: "cf_agent_chat_clear" });
    await a.quiet();
    expect(a.ofType("cf_agent_chat_clear")).toEqual([]);
    expect(await ts.messages(chatPath(name))).toEqual([]);
    await a.close();
    await b.close();
  });

  // Bug in instance.ts (reported): `clear` empties the transcript but neither stops the streaming turn nor
  // drops the queued one. The cut turn streams on to its 40th word and re-creates its assistant message with
  // no user message before it (get-messages right after the clear already shows `word4 word5 …`), and the
  // queued `hello` then runs too. AIChatAgent's clear calls resetTurnState(): the turn queue's generation
  // moves on (queued turns end as `outcome:"skipped"`) and every in-flight turn is aborted.
  it("clear during a turn stops it and skips the queued one; the transcript stays empty", async () => {
    const name = room("clear-mid");
    const c = await connected(chatPath(name));
    c.ask("r1", "slow please");
    c.ask("r2", "hello");
    await c.chunk("r1", (x) => x.type === "text-delta" && x.delta === "word3 ");
    c.send({ type: "cf_agent_chat_clear" });
    await c.done("r1");
    await c.quiet(150);
    expect(c.text("r1").split(" ").length).toBeLessThan(40);
    expect(c.chunks("r2")).toEqual([]);
    expect(await ts.messages(chatPath(name))).toEqual([]);
    await c.close();
  });

  for (const [host, path] of [
    ["AIChatAgent", chatPath],
    ["Think", thinkPath],
  ] as const) {
    it(`${host}: regenerate with the truncated list replaces the last assistant message`, async () => {
      const name = room("regen");
      const c = await connected(path(name));
      c.ask("r1", "hello");
      await c.done("r1");
      const before = await ts.messages(path(name));
      expect(before.map((m) => m.role)).toEqual(["user", "assistant"]);
      c.ask("r2", "", { messages: [userMessage("u-r1", "hello")], trigger: "regenerate-message" });
      await c.done("r2");
      const after = await ts.messages(path(name));
      expect(after.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(after[0]?.id).toBe("u-r1");
      expect(after[1]?.id).toBe(c.chunks("r2")[0]?.messageId);
      expect(after[1]?.id).not.toBe(before[1]?.id);
      await c.close();
    });
  }

  it("the transcript outlives the socket: a reconnecting socket reads it and continues it", async () => {
    const name = room("persist");
    const first = await connected(chatPath(name));
    first.ask("r1", "hello");
    await first.done("r1");
    await first.close();

    const again = await connected(chatPath(name));
    // AIChatAgent does not push the transcript on connect; the client reads it over HTTP.
    expect(snapshots(again.frames)).toEqual([]);
    const history = await ts.messages(chatPath(name));
    expect(history.map((m) => m.role)).toEqual(["user", "assistant"]);
    again.ask("r2", "", { messages: [...history, userMessage("u-r2", "what is the weather in Porto?")] });
    await again.done("r2");
    const now = await ts.messages(chatPath(name));
    expect(now.map((m) => m.id).slice(0, 3)).toEqual([history[0]?.id, history[1]?.id, "u-r2"]);
    expect(now).toHaveLength(4);
    expect(again.text("r2")).toContain('"city":"Porto"');
    await again.close();

    // Think pushes it on connect instead.
    const tname = room("persist-think");
    const t = await connected(thinkPath(tname));
    t.ask("r1", "hello");
    await t.done("r1");
    await t.close();
    const t2 = await ts.open(thinkPath(tname));
    const pushed = await t2.waitFor((f) => f.type === "cf_agent_chat_messages");
    expect(t2.frames[0]).toBe(pushed);
    expect(pushed.connect).toBe(true);
    expect(ids(pushed)).toEqual((await ts.messages(thinkPath(tname))).map((m) => m.id));
    expect(ids(pushed)).toHaveLength(2);
    await t2.close();
  });

  it("a client's transcript (setMessages): AIChatAgent stores it and tells the others; Think ignores it with a log line", async () => {
    const name = room("set-messages");
    const a = await connected(chatPath(name));
    const b = await connected(chatPath(name));
    const messages = [userMessage("u-1", "from the client")];
    a.send({ type: "cf_agent_chat_messages", messages });
    expect(await b.waitFor((f) => f.type === "cf_agent_chat_messages")).toEqual({
      type: "cf_agent_chat_messages",
      messages,
    });
    await a.quiet();
    expect(snapshots(a.frames)).toEqual([]);
    expect(await ts.messages(chatPath(name))).toEqual(messages);

    const tname = room("set-messages-think");
    const t = await connected(thinkPath(tname));
    const u = await connected(thinkPath(tname));
    const logged = ts.logs.length;
    t.send({ type: "cf_agent_chat_messages", messages });
    await u.quiet();
    expect(snapshots(u.frames)).toHaveLength(1); // the connect frame only
    expect(await ts.messages(thinkPath(tname))).toEqual([]);
    expect(ts.logs.slice(logged)).toEqual([
      expect.stringContaining("Think ignores client cf_agent_chat_messages"),
    ]);
    for (const c of [a, b, t, u]) await c.close();
  });

  it("a request with an invalid body gets no response frame and one log line", async () => {
    const name = room("badbody");
    const c = await connected(chatPath(name));
    const other = await connected(chatPath(name));
    const logged = ts.logs.length;
    const bodies = [
      "{broken",
      JSON.stringify({ trigger: "submit-message" }),
      JSON.stringify({ messages: "hi" }),
    ];
    bodies.forEach((body, i) => {
      c.send({ type: "cf_agent_use_chat_request", id: `bad-${i}`, init: { method: "POST", body } });
    });
    await c.quiet(100);
    expect(c.frames.filter((f) => typeof f.id === "string" && f.id.startsWith("bad-"))).toEqual([]);
    expect(
      other.frames.filter(
        (f) => f.type === "cf_agent_use_chat_response" || f.type === "cf_agent_chat_messages",
      ),
    ).toEqual([]);
    const lines = ts.logs.slice(logged);
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).toContain(name);
    expect(await ts.messages(chatPath(name))).toEqual([]);
    // The socket still chats.
    c.ask("ok", "hello");
    await c.done("ok");
    await c.close();
    await other.close();
  });
});
