/**
 * Clearing a chat's runs (issue 15 §3, docs/protocol.md#clearing-runs) against the REAL agents runtime, on both
 * hosts. The Worker's `clearHelperRuns()` calls agents 0.32's `clearAgentToolRuns()`. Before the clear, a new
 * connection is replayed the run; after `AgentToolRuns.clearChat` (the callable, then `cf_agent_chat_clear`),
 * a new connection is replayed none, and a second tab that was open empties its runs on the clear frame.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, AgentToolRuns, ChatSession } from "../packages/client/src/index.ts";
import { AGENT, type Host, roomNames, SKIP_REAL, until, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();

const room = roomNames("clear");
const count = (runs: AgentToolRuns) => Object.keys(runs.getSnapshot().runsById).length;

function connect(host: Host, name: string) {
  const client = new AgentClient({ agent: AGENT[host], name, host: `127.0.0.1:${real?.port}`, WebSocket });
  const frames: string[] = [];
  client.addEventListener("message", (e) => frames.push(String((e as MessageEvent).data)));
  const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
  return { client, runs, frames };
}

/** What the server sent on connect: the RPC answer comes after it, replay included. */
const settled = (client: AgentClient) => client.call("noSuchMethod").catch(() => undefined);

describe.skipIf(SKIP_REAL)("clearHelperRuns on the real runtime", () => {
  for (const host of ["ai-chat", "think"] as Host[]) {
    it(`${host}: after clear + reconnect the runs do not come back; the other tab empties its runs`, async () => {
      const name = room(host);
      const tab = connect(host, name);
      const chat = new ChatSession({ agent: tab.client, throttleMs: 0 });
      const open: Array<ReturnType<typeof connect>> = [tab];
      try {
        await chat.sendMessage({ text: "research durable objects" });
        await until(
          "the research run completes",
          () =>
            Object.values(tab.runs.getSnapshot().runsById).some((r) => r.status === "completed") &&
            chat.getSnapshot().status === "ready",
        );
        const before = connect(host, name);
        open.push(before);
        await settled(before.client);
        expect(count(before.runs)).toBeGreaterThan(0);

        const other = connect(host, name);
        open.push(other);
        await settled(other.client);
        expect(count(other.runs)).toBeGreaterThan(0);

        expect(await tab.runs.clearChat(chat)).toBe(true);
        expect(count(tab.runs)).toBe(0);
        await until("the other tab's runs go", () => count(other.runs) === 0);
        expect(other.frames.some((f) => f.includes('"cf_agent_chat_clear"'))).toBe(true);

        const after = connect(host, name);
        open.push(after);
        await settled(after.client);
        expect(after.frames.filter((f) => f.includes('"agent-tool-event"'))).toEqual([]);
        expect(count(after.runs)).toBe(0);
      } finally {
        chat.dispose();
        for (const c of open) {
          c.runs.dispose();
          c.client.close();
        }
      }
    }, 120_000);
  }
});
