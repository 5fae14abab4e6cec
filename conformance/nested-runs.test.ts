/**
 * Nested runs (issue 15 §4) against the REAL agents runtime and the mock, with ChatAgent and ThinkAgent as the
 * parent: the `nested` word dispatches a Planner child (a Think on the real server) that dispatches a Researcher
 * of its own through `agentTool()`. The grandchild's `agent-tool-event` frames reach only a socket on the
 * Planner's sub-agent URL (docs/protocol.md#drill-in), which `ChildFollower` opens; the parent's socket never
 * sees them.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the real server (the mock half still runs).
 */
import { existsSync } from "node:fs";
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../mock-server/src/index.ts";
import {
  AgentClient,
  type AgentClientOptions,
  AgentToolRuns,
  ChatSession,
  ChildFollower,
} from "../packages/client/src/index.ts";
import { roomNames, until } from "./real-server-harness.ts";

const SKIP_REAL = process.env.RUNBOARD_SKIP_REAL_SERVER === "1";
type Target = "mock" | "real";
type Host = "ai-chat" | "think";
const AGENT: Record<Host, string> = { "ai-chat": "ChatAgent", think: "ThinkAgent" };

const hosts: Partial<Record<Target, string>> = {};
let mock: MockAgentServer | undefined;
let real: { port: number; stop(): Promise<void> } | undefined;

beforeAll(async () => {
  mock = await createMockAgentServer({ agents: demoAgents, log: () => {} });
  hosts.mock = `127.0.0.1:${mock.port}`;
  if (SKIP_REAL) return;
  if (!existsSync(new URL("./node_modules/wrangler", import.meta.url)))
    throw new Error(
      "conformance/ is not installed: run `npm ci --prefix conformance` (or RUNBOARD_SKIP_REAL_SERVER=1)",
    );
  const { startRealServer } = await import("./start.mjs");
  real = await startRealServer();
  hosts.real = `127.0.0.1:${real.port}`;
}, 120_000);
afterAll(async () => {
  await mock?.close();
  await real?.stop();
});

interface EventFrame {
  type: "agent-tool-event";
  parentToolCallId?: string;
  sequence: number;
  replay?: true;
  event: { kind: string; runId: string; agentType?: string };
}
/** The agent-tool-event frames a connection receives, raw. */
function recordEvents(client: AgentClient): EventFrame[] {
  const seen: EventFrame[] = [];
  client.addEventListener("message", (e) => {
    const data = (e as MessageEvent).data;
    if (typeof data !== "string" || !data.includes('"agent-tool-event"')) return;
    seen.push(JSON.parse(data) as EventFrame);
  });
  return seen;
}
const toolCallIds = (parts: readonly unknown[]) =>
  (parts as { type: string; toolCallId?: string }[])
    .filter((p) => p.type.startsWith("tool-") && p.toolCallId)
    .map((p) => p.toolCallId as string);

const room = roomNames("nest");
const targets: Target[] = SKIP_REAL ? ["mock"] : ["real", "mock"];

for (const target of targets) {
  for (const host of ["ai-chat", "think"] as Host[]) {
    describe.concurrent(`${target} server, ${host} parent`, () => {
      it("following the child's sub-agent URL shows the grandchild run the parent's socket never gets", {
        timeout: 240_000,
      }, async () => {
        const address: AgentClientOptions = {
          agent: AGENT[host],
          name: room(host),
          host: hosts[target] as string,
          WebSocket,
        };
        const client = new AgentClient(address);
        const parentEvents = recordEvents(client);
        const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
        const chat = new ChatSession({ agent: client, throttleMs: 0 });
        await chat.sendMessage({ text: "nested" });
        await until("the Planner run completed", () =>
          Object.values(runs.getSnapshot().runsById).some((r) => r.status === "completed"),
        );
        const [planner] = Object.values(runs.getSnapshot().runsById);
        expect(planner).toMatchObject({ agentType: "Planner", status: "completed" });
        expect(planner?.subAgent).toEqual({ agent: "Planner", name: planner?.runId });
        // The Planner's transcript (forwarded to the parent) holds its own research tool call.
        const [researchCall] = toolCallIds(planner?.parts ?? []);
        expect(researchCall).toBeDefined();

        const follower = new ChildFollower({ runs: { storage: null, throttleMs: 0 } });
        const child = follower.follow(address, planner as NonNullable<typeof planner>);
        if (!child) throw new Error("not followed");
        const childEvents = recordEvents(child.client);
        await until("the grandchild run on the child's connection", () =>
          child.runs.getRunsForToolCall(researchCall as string).some((r) => r.status === "completed"),
        );
        const [researcher] = child.runs.getRunsForToolCall(researchCall as string);
        expect(researcher).toMatchObject({
          agentType: "Researcher",
          runId: `agent-tool:${researchCall}`,
          parentToolCallId: researchCall,
          status: "completed",
        });
        // The real Researcher gathers sources; the mock's goes one level deeper (a FactChecker) first.
        expect(researcher?.summary).toMatch(
          target === "real" ? /Summary: found 2 sources/ : /Researcher done/,
        );
        // Frames of the grandchild: on the child's socket (replayed, as it ended before the follow), never on
        // the parent's.
        const kinds = childEvents.filter((f) => f.event.runId === researcher?.runId).map((f) => f.event.kind);
        expect(kinds[0]).toBe("started");
        expect(kinds.at(-1)).toBe("finished");
        expect(childEvents[0]).toMatchObject({ parentToolCallId: researchCall, sequence: 0 });
        expect(parentEvents.some((f) => f.event.runId === researcher?.runId)).toBe(false);
        if (process.env.RUNBOARD_PRINT_FRAMES === "1")
          console.log(target, host, JSON.stringify(childEvents[0]), JSON.stringify(childEvents.at(-1)));

        child.close();
        expect(follower.openCount).toBe(0);
        const last = chat.getSnapshot().messages.at(-1) as UIMessage | undefined;
        expect(last?.role).toBe("assistant");
        chat.dispose();
        runs.dispose();
        client.close();
      });
    });
  }
}
