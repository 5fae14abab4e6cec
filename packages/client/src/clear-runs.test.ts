import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { room, until } from "../test/helpers.ts";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";
import { ChatSession } from "./chat-session.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());

const address = (name: string): AgentClientOptions => ({
  agent: "ChatAgent",
  name,
  host: `127.0.0.1:${server.port}`,
  WebSocket,
  reconnect: { minDelayMs: 20, maxDelayMs: 50 },
});
const memoryStorage = (): ProgressStorage & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
};
const runCount = (runs: AgentToolRuns) => Object.keys(runs.getSnapshot().runsById).length;
/** An RPC round trip: its answer comes after everything the server sent on connect, replay included. */
const settled = (client: AgentClient) => client.call("noSuchMethod").catch(() => undefined);

async function researched(name: string, storage: ProgressStorage | null = null) {
  const client = new AgentClient(address(name));
  const runs = new AgentToolRuns({ agent: client, storage, storageWriteMs: 0, throttleMs: 0 });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  await chat.sendMessage({ text: "research durable objects for me" });
  await until(() => Object.values(runs.getSnapshot().runsById)[0]?.status === "completed");
  await until(() => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming);
  return { client, runs, chat };
}

describe("clearing a chat's runs against the mock", () => {
  it("clearChat calls clearHelperRuns once, forgets runs and stored progress, and a reconnect replays none", async () => {
    const name = room("clear");
    const storage = memoryStorage();
    const { client, runs, chat } = await researched(name, storage);
    expect(runCount(runs)).toBe(1);
    expect(storage.map.size).toBe(1);
    // Before clearing, a second connection gets the run replayed.
    const before = new AgentClient(address(name));
    const beforeRuns = new AgentToolRuns({ agent: before, storage: null, throttleMs: 0 });
    await settled(before);
    expect(runCount(beforeRuns)).toBe(1);
    beforeRuns.dispose();
    before.close();

    const call = vi.spyOn(client, "call");
    const [a, b] = await Promise.all([runs.clearChat(chat), runs.clearChat(chat)]);
    expect([a, b]).toEqual([true, true]);
    expect(call.mock.calls.filter(([m]) => m === "clearHelperRuns")).toEqual([["clearHelperRuns", []]]);
    expect(runCount(runs)).toBe(0);
    expect(storage.map.size).toBe(0);
    expect(chat.getSnapshot().messages).toEqual([]);

    const after = new AgentClient(address(name));
    const afterRuns = new AgentToolRuns({ agent: after, storage: null, throttleMs: 0 });
    await settled(after);
    expect(runCount(afterRuns)).toBe(0);
    for (const x of [afterRuns, runs, chat]) x.dispose();
    after.close();
    client.close();
  });

  it("another tab's clear empties this tab's runs and their stored progress", async () => {
    const name = room("clear-tab");
    const storage = memoryStorage();
    const { client, runs, chat } = await researched(name, storage);
    expect(storage.map.size).toBe(1);
    const other = new AgentClient(address(name));
    const otherChat = new ChatSession({ agent: other, throttleMs: 0 });
    await settled(other);
    otherChat.clearHistory();
    await until(() => runCount(runs) === 0, "runs cleared by the other tab");
    expect(storage.map.size).toBe(0);
    for (const x of [runs, chat, otherChat]) x.dispose();
    other.close();
    client.close();
  });
});

const started = (runId: string) =>
  JSON.stringify({
    type: "agent-tool-event",
    sequence: 0,
    event: { kind: "started", runId, agentType: "Researcher", inputPreview: "q", order: 0 },
  });

function fakeAgent(call: (method: string, args?: unknown[]) => Promise<unknown>) {
  const target = new EventTarget();
  return Object.assign(target, {
    call: vi.fn(call),
    emit: (data: string) => target.dispatchEvent(new MessageEvent("message", { data })),
  });
}

describe("clearRuns when the callable fails or is missing", () => {
  it("a failing callable leaves the runs, reports once through onClearError, and can be tried again", async () => {
    let fail = true;
    const agent = fakeAgent(async () => {
      if (fail) throw new Error("storage is read-only");
    });
    const onClearError = vi.fn();
    const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0, onClearError });
    agent.emit(started("r1"));
    const clearing: boolean[] = [];
    runs.subscribeClearing(() => clearing.push(runs.clearing));
    expect(await runs.clearRuns()).toBe(false);
    expect(onClearError).toHaveBeenCalledTimes(1);
    expect(String(onClearError.mock.calls[0]?.[0])).toContain("storage is read-only");
    expect(runCount(runs)).toBe(1);
    expect(clearing).toEqual([true, false]);
    expect(runs.clearing).toBe(false);
    fail = false;
    expect(await runs.clearRuns()).toBe(true);
    expect(runCount(runs)).toBe(0);
    runs.dispose();
  });

  it("falls back to onError, and clearChat leaves the chat when the runs could not be cleared", async () => {
    const agent = fakeAgent(async () => {
      throw new Error("nope");
    });
    const onError = vi.fn();
    const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0, onError });
    const chat = { clearHistory: vi.fn() };
    expect(await runs.clearChat(chat)).toBe(false);
    expect(chat.clearHistory).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
    runs.dispose();
  });

  it("an agent without the callable is no error: only the local runs go", async () => {
    const agent = fakeAgent(async (m) => {
      throw new Error(`Method ${m} does not exist`);
    });
    const onError = vi.fn();
    const runs = new AgentToolRuns({
      agent,
      storage: null,
      throttleMs: 0,
      onError,
      clearRunsMethod: "wipeRuns",
    });
    agent.emit(started("r1"));
    expect(await runs.clearRuns()).toBe(true);
    expect(agent.call).toHaveBeenCalledWith("wipeRuns", []);
    expect(onError).not.toHaveBeenCalled();
    expect(runCount(runs)).toBe(0);
    runs.dispose();
  });
});
