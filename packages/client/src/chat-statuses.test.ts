/**
 * Issue 16 §2/§3 against the mock server: what a person should see besides the messages (an eviction
 * recovered or given up, a stream started elsewhere, a compaction) and Think's response branches.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { classifySyntheticMessage } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { room, textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { ChatSession } from "./chat-session.ts";
import type { ChatSnapshot } from "./chat-types.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());

function connect(agent: "ChatAgent" | "ThinkAgent", name: string, withBranches = false) {
  const errors: Error[] = [];
  const client = new AgentClient({
    agent,
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
    // Frames the shared parse rejects are reported by the connection; the chat store reports the rest.
    onError: (e) => errors.push(e),
  });
  const chat = new ChatSession({
    agent: client,
    throttleMs: 0,
    onError: (e) => errors.push(e),
    ...(withBranches ? { getBranches: (id: string) => client.call("getResponseVersions", [id]) } : {}),
  });
  /** Every snapshot published, to check what was shown on the way. */
  const seen: ChatSnapshot[] = [];
  chat.subscribe(() => seen.push(chat.getSnapshot()));
  const snap = () => chat.getSnapshot();
  const idle = () => snap().status === "ready" && !snap().isServerStreaming;
  const inject = (raw: string) => {
    for (const c of server.controller.instance(agent, name)?.conns ?? []) c.send(raw);
  };
  const close = () => {
    chat.dispose();
    client.close();
  };
  return { client, chat, errors, seen, snap, idle, inject, close };
}

describe.each(["ChatAgent", "ThinkAgent"] as const)("%s: recovery statuses", (agent) => {
  it("an eviction mid-turn shows recovering (a server stream), then the recovered answer", async () => {
    const s = connect(agent, room("recover"));
    await s.chat.sendMessage({ text: "recover please" });
    await until(() => textOf(s.snap().messages.at(-1)).includes("Recovered:"), "recovered text");
    await until(s.idle, "idle");
    console.log(
      JSON.stringify(s.seen.map((x) => [x.isRecovering, x.serverStream, x.status, x.isServerStreaming])),
    );
    expect(s.seen.some((x) => x.isRecovering)).toBe(true);
    expect(s.seen.some((x) => x.serverStream?.source === "server")).toBe(true);
    expect(s.snap().isRecovering).toBe(false);
    expect(s.snap().recoveryGaveUp).toBeUndefined();
    s.close();
  });

  it("a recovery that gives up is shown with its reason until the next turn", async () => {
    const s = connect(agent, room("giveup"));
    await s.chat.sendMessage({ text: "give up please" });
    await until(() => s.snap().recoveryGaveUp !== undefined, "gave up");
    expect(s.snap().recoveryGaveUp?.reason).toBe(
      "The assistant was interrupted and could not recover. Please try again.",
    );
    await until(() => !s.snap().isRecovering, "recovering cleared");
    // The partial answer stays; this tab's own status is not an error (the server's turn failed, not ours).
    expect(textOf(s.snap().messages.at(-1))).toContain("Starting an answer");
    expect(s.snap().status).toBe("ready");
    await s.chat.sendMessage({ text: "hello" });
    expect(s.snap().recoveryGaveUp).toBeUndefined();
    await until(() => s.idle() && textOf(s.snap().messages.at(-1)).startsWith("Hello"), "next turn");
    s.close();
  });
});

describe("a stream this tab did not start", () => {
  it("names another tab's turn", async () => {
    const name = room("tabs");
    const a = connect("ChatAgent", name);
    const b = connect("ChatAgent", name);
    await until(() => a.client.status === "open" && b.client.status === "open", "open");
    await b.chat.sendMessage({ text: "slow stream please" });
    await until(() => a.snap().serverStream !== undefined, "observed");
    expect(a.snap().serverStream?.source).toBe("another-tab");
    expect(b.snap().serverStream).toBeUndefined();
    b.chat.stop();
    a.close();
    b.close();
  });

  it("names the agent's own follow-up turn after a Think notify (an agent event, not a user turn)", async () => {
    const s = connect("ThinkAgent", room("notify"));
    await s.chat.sendMessage({ text: "start background research on websockets" });
    await until(() => s.snap().messages.length >= 4 && s.idle(), "follow-up");
    const notify = s.snap().messages[2];
    expect(notify?.role).toBe("user");
    expect(classifySyntheticMessage(notify as never)).toMatchObject({
      kind: "detached-completion",
      fromText: true,
    });
    expect(s.seen.some((x) => x.serverStream?.source === "server")).toBe(true);
    s.close();
  });
});

describe("compaction (Think)", () => {
  it("shows compacting, then the summary message and the count", async () => {
    const s = connect("ThinkAgent", room("compact"));
    await s.chat.sendMessage({ text: "hello" });
    await until(() => s.idle() && s.snap().messages.length === 2, "hello");
    await s.chat.sendMessage({ text: "compact now" });
    await until(() => s.idle() && textOf(s.snap().messages.at(-1)).startsWith("I compacted"), "compacted");
    expect(s.seen.some((x) => x.isCompacting && x.session?.phase === "compacting")).toBe(true);
    expect(s.snap().isCompacting).toBe(false);
    expect(s.snap().session?.phase).toBe("idle");
    const first = s.snap().messages[0];
    expect(first?.id.startsWith("compaction_")).toBe(true);
    expect(s.snap().compaction).toEqual({ summaries: 1, toolOutputs: 0, textParts: 0 });
    expect(s.errors).toEqual([]);
    s.close();
  });

  it("the count follows marks put on and taken off a message in the middle of the transcript", async () => {
    // The count is kept up to date message by message (only the changed ones are read again): a mark that
    // arrives on an older message, and one that goes away, must both show.
    const s = connect("ChatAgent", room("marks"));
    await s.chat.sendMessage({ text: "hello" });
    await until(() => s.idle() && s.snap().messages.length === 2, "hello");
    await s.chat.sendMessage({ text: "hello again" });
    await until(() => s.idle() && s.snap().messages.length === 4, "second turn");
    expect(s.snap().compaction).toBeUndefined();
    const answer = s.snap().messages[1] as UIMessage;
    const marked = {
      ...answer,
      metadata: { compactedToolOutputs: ["tc1", "tc2"], compactedTextParts: [0] },
    };
    s.inject(JSON.stringify({ type: "cf_agent_message_updated", message: marked }));
    await until(() => s.snap().compaction !== undefined, "marks counted");
    expect(s.snap().compaction).toEqual({ summaries: 0, toolOutputs: 2, textParts: 1 });
    s.inject(JSON.stringify({ type: "cf_agent_message_updated", message: { ...answer, metadata: {} } }));
    await until(() => s.snap().compaction === undefined, "marks gone");
    expect(s.snap().messages).toHaveLength(4);
    expect(s.errors).toEqual([]);
    s.close();
  });

  it("a malformed cf_agent_session is reported once (by the connection) and changes nothing", async () => {
    const name = room("badsession");
    const s = connect("ThinkAgent", name);
    await s.chat.sendMessage({ text: "hello" });
    await until(() => s.idle() && s.snap().messages.length === 2, "hello");
    s.inject('{"type":"cf_agent_session","phase":"compacting","tokenEstimate":100,"tokenThreshold":50}');
    await until(() => s.snap().isCompacting, "compacting");
    const bad = '{"type":"cf_agent_session","phase":"shrinking","tokenEstimate":1,"tokenThreshold":null}';
    // Once: by the connection, not a second time by the chat store.
    s.inject(bad);
    await until(() => s.errors.length >= 1, "reported");
    await s.chat.sendMessage({ text: "hello again" });
    await until(() => s.idle() && s.snap().messages.length === 4, "next turn");
    expect(s.errors.map((e) => e.message)).toEqual([
      "cf_agent_session: field 'phase' must be 'idle' or 'compacting'",
    ]);
    expect(s.snap().session).toEqual({ phase: "compacting", tokenEstimate: 100, tokenThreshold: 50 });
    s.close();
  });
});

describe("Think response branches", () => {
  it("a regenerate keeps the earlier answer as a sibling; selectBranch shows it", async () => {
    const s = connect("ThinkAgent", room("branches"), true);
    await s.chat.sendMessage({ text: "give me an idea" });
    await until(() => s.idle() && s.snap().messages.length === 2, "first answer");
    const first = s.snap().messages[1];
    await s.chat.regenerate();
    await until(() => s.snap().branches.size === 1, "branches");
    const second = s.snap().messages[1];
    expect(second?.id).not.toBe(first?.id);
    expect(s.snap().branches.get(second?.id ?? "")).toEqual({
      userMessageId: s.snap().messages[0]?.id,
      index: 1,
      count: 2,
      ids: [first?.id, second?.id],
    });
    expect(s.chat.selectBranch(second?.id ?? "", 0)).toBe(true);
    expect(s.snap().messages[1]?.id).toBe(first?.id);
    expect(textOf(s.snap().messages[1])).toBe(textOf(first));
    expect(s.snap().branches.get(first?.id ?? "")?.index).toBe(0);
    expect(s.chat.selectBranch(first?.id ?? "", 5)).toBe(false);
    expect(s.chat.selectBranch(first?.id ?? "", 1)).toBe(true);
    expect(s.snap().messages[1]?.id).toBe(second?.id);
    s.close();
  });

  it("a malformed getBranches answer is reported once, never thrown; the chat goes on", async () => {
    const errors: Error[] = [];
    const client = new AgentClient({
      agent: "ThinkAgent",
      name: room("badbranch"),
      host: `127.0.0.1:${server.port}`,
      WebSocket,
    });
    const chat = new ChatSession({
      agent: client,
      throttleMs: 0,
      onError: (e) => errors.push(e),
      getBranches: async () => ({ not: "a list" }),
    });
    await chat.sendMessage({ text: "give me an idea" });
    await until(() => chat.getSnapshot().status === "ready" && chat.getSnapshot().messages.length === 2);
    await chat.regenerate();
    await until(() => errors.length === 1, "reported");
    const user = chat.getSnapshot().messages[0]?.id ?? "";
    await chat.refreshBranches(user);
    expect(errors.map((e) => e.message)).toEqual([
      `getBranches(${user}): branch versions must be a list of messages`,
    ]);
    expect(chat.getSnapshot().branches.size).toBe(0);
    chat.dispose();
    client.close();
  });
});
