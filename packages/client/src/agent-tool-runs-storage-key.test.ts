import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { AgentToolRuns, type ProgressStorage } from "./agent-tool-runs.ts";

// The run store's default storage key: the agent's address, never its token.

const memoryStorage = (): ProgressStorage & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
};

/** A run with progress, as the child's frames bring it: the store saves it. */
const frames = [
  { type: "agent-tool-event", sequence: 0, parentToolCallId: "call_1", event: started() },
  {
    type: "agent-tool-event",
    sequence: 1,
    parentToolCallId: "call_1",
    event: {
      kind: "chunk",
      runId: "run-1",
      body: JSON.stringify({
        type: "data-agent-progress",
        id: "p",
        transient: true,
        data: { fraction: 0.4 },
      }),
    },
  },
];
function started() {
  return {
    kind: "started",
    runId: "run-1",
    agentType: "Researcher",
    order: 0,
    display: { name: "Researcher" },
  };
}

/** The agent's real URL (an `AgentClient` that never connects), its frames delivered by hand. */
function agentAt(options: Partial<AgentClientOptions>) {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: "room-1",
    host: "agents.example",
    WebSocket,
    startClosed: true,
    ...options,
  });
  const events = new EventTarget();
  return {
    url: client.getHttpUrl(),
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    getHttpUrl: () => client.getHttpUrl(),
    /** Delivers the first `count` frames (all by default). */
    deliver: (count = frames.length) => {
      for (const f of frames.slice(0, count))
        events.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) }));
    },
  };
}

function keysAfterARun(options: Partial<AgentClientOptions>, storage = memoryStorage()) {
  const agent = agentAt(options);
  const runs = new AgentToolRuns({ agent, storage, throttleMs: 0 });
  agent.deliver();
  runs.dispose();
  return { keys: [...storage.map.keys()], url: agent.url, storage };
}

describe("AgentToolRuns storage keys", () => {
  it("never hold the agent's token or query", () => {
    const { keys, url } = keysAfterARun({ query: { token: "secret" } });
    expect(url).toContain("token=secret"); // the URL the store reads does carry it
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain("secret");
    expect(keys[0]).not.toContain("token");
    expect(keys[0]).not.toContain("?");
    expect(keys[0]).not.toContain("agents.example");
  });

  it("stay the same when the token rotates: the run keeps its progress", () => {
    const before = keysAfterARun({ query: { token: "old" } });
    const after = keysAfterARun({ query: { token: "new" } });
    expect(after.keys).toEqual(before.keys);
    // After a refresh on the rotated token, the replayed run (no progress on the wire) shows the saved progress.
    const agent = agentAt({ query: { token: "new" } });
    const runs = new AgentToolRuns({ agent, storage: before.storage, throttleMs: 0 });
    agent.deliver(1);
    expect(runs.getSnapshot().runsById["run-1"]?.progress).toMatchObject({ fraction: 0.4 });
    runs.dispose();
  });

  it("differ between agents, instances and sub-agents", () => {
    const keys = [
      keysAfterARun({ name: "room-1" }),
      keysAfterARun({ name: "room-2" }),
      keysAfterARun({ agent: "OtherAgent", name: "room-1" }),
      keysAfterARun({ name: "room-1", sub: [{ agent: "Researcher", name: "r1" }] }),
    ].map((r) => r.keys[0]);
    expect(new Set(keys).size).toBe(4);
  });
});
