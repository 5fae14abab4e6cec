// Idle instances are evicted and a client's ignored frames cannot flood the log: the hub, with fake sockets.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectionId, Hub, type HubOptions, type MockConnection } from "../src/index.ts";

const agents = { ChatAgent: { host: "ai-chat" as const, initialState: { n: 0 } } };

/** Opens a fake socket on the hub; `frames` collects what it was sent. */
function open(hub: Hub, name: string) {
  const frames: string[] = [];
  const conn: MockConnection = {
    id: connectionId(),
    send: (t) => frames.push(t),
    close() {},
    terminate() {},
  };
  const a = hub.accept(`/agents/chat-agent/${name}`);
  if (a.status !== 200) throw new Error(`refused: ${a.status}`);
  a.open(conn);
  return { conn, frames };
}

const hubWith = (options: Partial<HubOptions> = {}) => {
  const logs: string[] = [];
  return { hub: new Hub({ agents, log: (l) => logs.push(l), delayScale: 0, ...options }), logs };
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("idle instance eviction", () => {
  it("drops an instance idleInstanceMs after its last socket left, state and all", () => {
    const { hub } = hubWith({ idleInstanceMs: 60_000 });
    const { conn } = open(hub, "room");
    hub.message(conn, JSON.stringify({ type: "cf_agent_state", state: { n: 5 } }));
    expect(hub.find("ChatAgent", "room")?.state).toEqual({ n: 5 });
    // Connected sockets keep it however long they stay.
    vi.advanceTimersByTime(10 * 60_000);
    expect(hub.find("ChatAgent", "room")).toBeDefined();
    hub.dropConnection(conn);
    vi.advanceTimersByTime(30_000);
    expect(hub.find("ChatAgent", "room")).toBeDefined();
    vi.advanceTimersByTime(40_000);
    expect(hub.find("ChatAgent", "room")).toBeUndefined();
    // A new socket gets a fresh instance.
    const again = open(hub, "room");
    expect(hub.find("ChatAgent", "room")?.state).toEqual({ n: 0 });
    hub.dropConnection(again.conn);
    hub.closeAll();
  });

  it("keeps every instance with idleInstanceMs 0", () => {
    const { hub } = hubWith({ idleInstanceMs: 0 });
    hub.dropConnection(open(hub, "kept").conn);
    vi.advanceTimersByTime(24 * 3600_000);
    expect(hub.find("ChatAgent", "kept")).toBeDefined();
  });
});

describe("log rate limit", () => {
  it("logs at most logLimit.lines ignored frames per connection per window, then one suppressed line", () => {
    const { hub, logs } = hubWith({ logLimit: { lines: 3, perMs: 1000 } });
    const a = open(hub, "noisy");
    const b = open(hub, "noisy");
    for (let i = 0; i < 100; i++) hub.message(a.conn, "{not json");
    expect(logs.filter((l) => l.includes("ignored frame"))).toHaveLength(3);
    // Another connection has its own budget.
    hub.message(b.conn, "{not json");
    expect(logs.filter((l) => l.includes("ignored frame"))).toHaveLength(4);
    vi.advanceTimersByTime(1000);
    hub.message(a.conn, "{not json");
    expect(logs.filter((l) => l.includes("suppressed 97 more"))).toHaveLength(1);
    expect(logs.filter((l) => l.includes("ignored frame"))).toHaveLength(5);
    for (let i = 0; i < 10; i++) hub.message(a.conn, "{not json");
    hub.dropConnection(a.conn);
    expect(logs.at(-1)).toContain("suppressed 8 more");
    expect(logs).toHaveLength(9);
  });
});
