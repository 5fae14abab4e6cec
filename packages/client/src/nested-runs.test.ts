/**
 * Nested runs against the mock's "nested" demo (Planner → Researcher → FactChecker): the grandchild runs only
 * reach a connection to the child (docs/protocol.md#drill-in), and every followed level is one socket.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { room, until } from "../test/helpers.ts";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { AgentToolRuns } from "./agent-tool-runs.ts";
import { ChatSession } from "./chat-session.ts";
import { ChildFollower } from "./nested-runs.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());

/** Counts the sockets this test opened that are not closed yet. */
let open = 0;
class CountingWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    open++;
    this.once("close", () => open--);
  }
}

const address = (name: string): AgentClientOptions => ({
  agent: "ChatAgent",
  name,
  host: `127.0.0.1:${server.port}`,
  WebSocket: CountingWebSocket,
  reconnect: { minDelayMs: 20, maxDelayMs: 50 },
});

type Part = { type: string; toolCallId?: string };
/** The one run the parent's "nested" turn dispatched, once every level has finished. */
async function nestedTurn() {
  const parent = address(room("nested"));
  const client = new AgentClient(parent);
  const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  await chat.sendMessage({ text: "nested" });
  await until(() => chat.getSnapshot().status === "ready" && runs.getSnapshot().unboundRuns.length === 0);
  await until(() => Object.values(runs.getSnapshot().runsById).some((r) => r.status === "completed"));
  const [top] = Object.values(runs.getSnapshot().runsById);
  if (!top) throw new Error("no run");
  return {
    parent,
    top,
    close() {
      chat.dispose();
      runs.dispose();
      client.close();
    },
  };
}

/** The runs a followed child dispatched from the tool call in its transcript (a run's `parts`). */
function runsUnder(child: { runs: AgentToolRuns }, run: { parts: readonly unknown[] }) {
  const call = (run.parts as Part[]).find((p) => p.toolCallId !== undefined);
  return call?.toolCallId ? child.runs.getRunsForToolCall(call.toolCallId) : [];
}

describe("ChildFollower", () => {
  it("follows a child to its grandchild runs and on to the great-grandchild, closing each socket", async () => {
    const t = await nestedTurn();
    expect(t.top.agentType).toBe("Planner");
    const socketsBefore = open;
    const follower = new ChildFollower({ runs: { storage: null, throttleMs: 0 } });
    const child = follower.follow(t.parent, t.top);
    if (!child) throw new Error("not followed");
    await until(() => runsUnder(child, t.top)[0]?.status === "completed", "grandchild run");
    const [grandchild] = runsUnder(child, t.top);
    expect(grandchild).toMatchObject({ agentType: "Researcher", status: "completed" });
    expect(child.address.sub).toEqual([{ agent: "Planner", name: t.top.runId }]);

    const deeper = follower.follow(child, grandchild!);
    if (!deeper) throw new Error("not followed");
    expect(deeper.depth).toBe(2);
    await until(() => runsUnder(deeper, grandchild!)[0]?.status === "completed", "great-grandchild");
    const [great] = runsUnder(deeper, grandchild!);
    expect(great?.agentType).toBe("FactChecker");
    expect(open - socketsBefore).toBe(2);
    expect(follower.openCount).toBe(2);

    deeper.close();
    await until(() => open - socketsBefore === 1, "great-grandchild socket closed");
    child.close();
    await until(() => open === socketsBefore, "child socket closed");
    expect(follower.openCount).toBe(0);
    t.close();
  });

  it("refuses to go deeper than maxDepth or past maxOpen, opening no socket", async () => {
    const t = await nestedTurn();
    const socketsBefore = open;
    const follower = new ChildFollower({ maxDepth: 1, maxOpen: 1, runs: { storage: null, throttleMs: 0 } });
    const child = follower.follow(t.parent, t.top);
    if (!child) throw new Error("not followed");
    await until(() => runsUnder(child, t.top).length === 1, "grandchild run");
    // One level only: the grandchild is shown but not followed.
    expect(follower.follow(child, runsUnder(child, t.top)[0]!)).toBeNull();
    // One socket only: a second follow of the same run waits for the first to close.
    expect(follower.follow(t.parent, t.top)).toBeNull();
    expect(open - socketsBefore).toBe(1);
    child.close();
    const again = follower.follow(t.parent, t.top);
    expect(again).not.toBeNull();
    follower.closeAll();
    await until(() => open === socketsBefore, "sockets closed");
    t.close();
  });
});
