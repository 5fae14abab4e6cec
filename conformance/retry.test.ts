/**
 * Retry by re-dispatching the same run id (issue 15 §2, docs/protocol.md#retry-and-reconnect) against the REAL
 * agents runtime, on both hosts. The Worker's `retryAgentTool(runId)` calls `runAgentTool(cls, { runId })`. A run
 * that already ended (`completed`, `error`) is answered with its stored result and nothing is broadcast: no new
 * `started`, no chunk, no terminal. An id no child class has is an error. (An `interrupted` run, the case Retry is
 * offered for, is sealed by agents 0.32 only while it recovers a restarted parent, which this suite cannot
 * provoke; the mock's re-attach follows the runtime's code path for it.)
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, AgentToolRuns, ChatSession } from "../packages/client/src/index.ts";
import { AGENT, type Host, roomNames, SKIP_REAL, until, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();

const room = roomNames("retry");

describe.skipIf(SKIP_REAL)("retryAgentTool on the real runtime", () => {
  for (const host of ["ai-chat", "think"] as Host[]) {
    it(`${host}: a run that ended is answered with its stored result and nothing is broadcast`, async () => {
      const client = new AgentClient({
        agent: AGENT[host],
        name: room(host),
        host: `127.0.0.1:${real?.port}`,
        WebSocket,
      });
      const events: Array<{ sequence: number; event: { kind: string; runId: string } }> = [];
      client.addEventListener("message", (e) => {
        try {
          const f = JSON.parse(String((e as MessageEvent).data));
          if (f.type === "agent-tool-event") events.push(f);
        } catch {
          // not JSON
        }
      });
      const chat = new ChatSession({ agent: client, throttleMs: 0 });
      const runs = new AgentToolRuns({ agent: client, storage: null, throttleMs: 0 });
      try {
        await chat.sendMessage({ text: "this will fail" });
        const ended = () => Object.values(runs.getSnapshot().runsById).filter((r) => r.status !== "running");
        await until(
          "the failing runs end",
          () => ended().length >= 2 && chat.getSnapshot().status === "ready",
        );
        await chat.sendMessage({ text: "research durable objects" });
        await until(
          "the research run completes",
          () =>
            Object.values(runs.getSnapshot().runsById).some(
              (r) => r.agentType === "Researcher" && r.status === "completed",
            ) && chat.getSnapshot().status === "ready",
        );
        const byType = (t: string) =>
          Object.values(runs.getSnapshot().runsById).find((r) => r.agentType === t);
        const research = byType("Researcher");
        const verifier = byType("Verifier");
        expect(research?.status).toBe("completed");
        expect(verifier?.status).toBe("error");
        const before = events.length;
        const again = (await client.call("retryAgentTool", [research?.runId])) as Record<string, unknown>;
        expect(again).toMatchObject({ runId: research?.runId, agentType: "Researcher", status: "completed" });
        expect(again.summary).toBe(research?.summary);
        const failed = (await client.call("retryAgentTool", [verifier?.runId])) as Record<string, unknown>;
        expect(failed).toMatchObject({ runId: verifier?.runId, agentType: "Verifier", status: "error" });
        await expect(client.call("retryAgentTool", ["agent-tool:nope"])).rejects.toThrow(/No agent-tool run/);
        // Give a broadcast time to arrive: none does.
        await new Promise((r) => setTimeout(r, 300));
        expect(events.slice(before)).toEqual([]);
        expect(runs.getSnapshot().runsById[research?.runId ?? ""]?.status).toBe("completed");
      } finally {
        runs.dispose();
        chat.dispose();
        client.close();
      }
    }, 120_000);
  }
});
