import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { room, until } from "../test/helpers.ts";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";
import { ChatSession } from "./chat-session.ts";
import { openChildChat } from "./drill-in.ts";

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
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
};
const textOf = (parts: readonly UIMessage["parts"][number][]) =>
  parts
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

describe("AgentToolRuns against the mock server", () => {
  it("builds the research run beside its tool call: parts, progress, milestone, summary", async () => {
    const client = new AgentClient(address(room("tr")));
    const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
    const chat = new ChatSession({ agent: client, throttleMs: 0 });
    await chat.sendMessage({ text: "research durable objects for me" });
    await until(() => Object.values(runs.getSnapshot().runsById)[0]?.status === "completed");
    const call = chat
      .getSnapshot()
      .messages.at(-1)
      ?.parts.find((p) => p.type === "tool-research") as { toolCallId: string };
    const [run] = runs.getRunsForToolCall(call.toolCallId);
    expect(run).toMatchObject({
      runId: `agent-tool:${call.toolCallId}`,
      agentType: "Researcher",
      status: "completed",
    });
    expect(run?.summary).toBe(
      "Researching now.Summary: found 2 sources; durable objects give each agent its own SQLite.",
    );
    expect(run?.milestones.map((m) => m.name)).toEqual(["sources-gathered"]);
    expect(run?.progress?.fraction).toBe(0.75);
    const gather = run?.parts.find((p) => p.type === "tool-gatherSources") as { state: string };
    expect(gather.state).toBe("output-available");
    expect(textOf(run?.parts ?? [])).toBe(
      "Researching now.Summary: found 2 sources; durable objects give each agent its own SQLite.",
    );
    chat.dispose();
    runs.dispose();
    client.close();
  });

  it("fan-out: three runs in display order; fail: error and interrupted runs with their reasons", async () => {
    const client = new AgentClient(address(room("tr")));
    const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
    const chat = new ChatSession({ agent: client, throttleMs: 0 });
    await chat.sendMessage({ text: "fanout please" });
    await until(() => {
      const all = Object.values(runs.getSnapshot().runsById);
      return all.length === 3 && all.every((r) => r.status === "completed");
    });
    const byCall = Object.values(runs.getSnapshot().runsByToolCallId).flat();
    expect(byCall.map((r) => r.agentType).sort()).toEqual(["FactChecker", "Researcher", "Summarizer"]);
    await until(() => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming);
    await chat.sendMessage({ text: "now fail" });
    await until(
      () => Object.values(runs.getSnapshot().runsById).length === 5 && chat.getSnapshot().status === "ready",
    );
    await until(() => Object.values(runs.getSnapshot().runsById).every((r) => r.status !== "running"));
    const failed = Object.values(runs.getSnapshot().runsById).filter((r) => r.status !== "completed");
    expect(failed.map((r) => [r.agentType, r.status]).sort()).toEqual([
      ["Crawler", "interrupted"],
      ["Verifier", "error"],
    ]);
    expect(failed.find((r) => r.agentType === "Crawler")).toMatchObject({
      reason: "no-progress",
      childStillRunning: true,
    });
    chat.dispose();
    runs.dispose();
    client.close();
  });

  it("a page refresh during a background run: replay brings the run back, storage brings its progress back", async () => {
    const name = room("tr");
    const storage = memoryStorage();
    const first = new AgentClient(address(name));
    const runs1 = new AgentToolRuns({ agent: first, storage, storageKey: name, throttleMs: 0 });
    const chat1 = new ChatSession({ agent: first, throttleMs: 0 });
    await chat1.sendMessage({ text: "start background research on websockets" });
    await until(() => (Object.values(runs1.getSnapshot().runsById)[0]?.milestones.length ?? 0) > 0);
    // "Refresh": a new page with new stores and the same sessionStorage.
    chat1.dispose();
    runs1.dispose();
    first.close();
    const second = new AgentClient(address(name));
    const fresh = new AgentToolRuns({ agent: second, storage: null, throttleMs: 0 });
    const runs2 = new AgentToolRuns({ agent: second, storage, storageKey: name, throttleMs: 0 });
    await until(() => Object.keys(runs2.getSnapshot().runsById).length === 1);
    const [restored] = Object.values(runs2.getSnapshot().runsById);
    expect(restored?.milestones.map((m) => m.name)).toEqual(["sources-gathered"]);
    // Without storage the replayed run has no progress at all: the server does not replay it (docs/protocol.md#agent-tool-replay).
    const [bare] = Object.values(fresh.getSnapshot().runsById);
    expect(bare?.milestones).toEqual([]);
    runs2.dispose();
    fresh.dispose();
    second.close();
  });

  it("drills into a child run: its own transcript over the sub-agent URL", async () => {
    const name = room("tr");
    const client = new AgentClient(address(name));
    const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
    const chat = new ChatSession({ agent: client, throttleMs: 0 });
    await chat.sendMessage({ text: "research durable objects for me" });
    await until(() => Object.values(runs.getSnapshot().runsById)[0]?.status === "completed");
    const [run] = Object.values(runs.getSnapshot().runsById);
    const child = openChildChat(address(name), run as NonNullable<typeof run>, { throttleMs: 0 });
    await until(() => child.chat.getSnapshot().messages.length === 2);
    const [prompt, answer] = child.chat.getSnapshot().messages;
    expect(prompt?.role).toBe("user");
    expect(textOf(answer?.parts ?? [])).toBe(
      "Researching now.Summary: found 2 sources; durable objects give each agent its own SQLite.",
    );
    child.close();
    chat.dispose();
    runs.dispose();
    client.close();
  });
});
