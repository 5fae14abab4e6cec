/**
 * An `interrupted` agent-tool run on the REAL runtime (issue 15 §1). agents 0.32 seals a run `interrupted` only
 * while a restarted parent recovers its runs, so this test stops workerd while an `agentTool()` child (the silent
 * Crawler, word "stall") runs and starts it again on the same Durable Object storage: the parent re-attaches to
 * the child, hears nothing for `RECOVERY_NO_PROGRESS_MS` and seals the run. The client's run store shows the
 * interruption with its reason and whether the child still runs, and offers the recovery that fits. Pressing it
 * (the store's reconnect: the agent's retryAgentTool(runId)) re-attaches to the still-silent child; the runtime gives
 * up again, the call answers and the run is offered the recovery again.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UIMessage } from "ai";
import { afterAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, AgentToolRuns, ChatSession } from "../packages/client/src/index.ts";
import { describeAgentToolFailure, recoveryFor } from "../packages/protocol/src/view.ts";
import { until } from "./real-server-harness.ts";

const SKIP_REAL = process.env.RUNBOARD_SKIP_REAL_SERVER === "1";
type Server = { port: number; stop(): Promise<void> };
let real: Server | undefined;
const state = mkdtempSync(join(tmpdir(), "runboard-interrupted-"));
afterAll(async () => {
  await real?.stop();
  rmSync(state, { recursive: true, force: true });
});

type ToolPart = { type: string; toolCallId: string; state: string; output?: unknown };
const crawl = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).find((p) => p.type === "tool-crawlUntilRestart") as ToolPart | undefined;

for (const agent of (process.env.RUNBOARD_INTERRUPTED_HOSTS ?? "ChatAgent,ThinkAgent").split(",")) {
  it.skipIf(SKIP_REAL)(
    `${agent}: a child cut by a restart is sealed interrupted`,
    { timeout: 360_000 },
    async () => {
      if (!existsSync(new URL("./node_modules/wrangler", import.meta.url)))
        throw new Error("conformance/ is not installed: run `npm ci --prefix conformance`");
      const { startRealServer, freePort } = await import("./start.mjs");
      const port = (await freePort()) as number;
      real = (await startRealServer({ port, persistTo: state })) as Server;
      const client = new AgentClient({
        agent,
        name: `interrupted-${Date.now().toString(36)}`,
        host: `127.0.0.1:${port}`,
        WebSocket,
        reconnect: { minDelayMs: 100, maxDelayMs: 500 },
      });
      const frames: string[] = [];
      client.addEventListener("message", (e) => {
        const d = (e as MessageEvent).data;
        if (typeof d === "string" && /"kind":"interrupted"|\\?"ok\\?":false/.test(d)) frames.push(d);
      });
      const errors: Error[] = [];
      const runs = new AgentToolRuns({
        agent: client,
        storage: null,
        throttleMs: 0,
        onError: (e) => errors.push(e),
      });
      const chat = new ChatSession({ agent: client, throttleMs: 0 });
      await chat.sendMessage({ text: "stall on the shop" });
      await until("the crawl runs", () =>
        Object.values(runs.getSnapshot().runsById).some((r) => r.agentType === "Crawler"),
      ).catch((e) => {
        console.log(
          JSON.stringify(chat.getSnapshot().messages),
          chat.getSnapshot().status,
          String(chat.getSnapshot().error),
        );
        throw e;
      });
      // Let the child reach its silence (one progress report, then a long wait).
      await new Promise((r) => setTimeout(r, 1500));
      const runId =
        Object.values(runs.getSnapshot().runsById).find((r) => r.agentType === "Crawler")?.runId ?? "";

      await real.stop();
      await until("the socket closes", () => client.status !== "open");
      real = (await startRealServer({ port, persistTo: state })) as Server;
      await until("reconnected", () => client.status === "open", 120_000);
      await until("sealed", () => runs.getSnapshot().runsById[runId]?.status === "interrupted", 120_000);

      const run = runs.getSnapshot().runsById[runId];
      expect(run).toMatchObject({
        status: "interrupted",
        retryable: true,
        failure: { status: "interrupted" },
      });
      expect(typeof run?.reason).toBe("string");
      expect(describeAgentToolFailure(run?.failure ?? { status: "interrupted", error: "" }).headline).toBe(
        "The helper was interrupted before it finished.",
      );
      expect(recoveryFor(run as NonNullable<typeof run>)).toBe(
        run?.childStillRunning ? "reconnect" : "retry",
      );
      expect(run).toMatchObject({ reason: "no-progress", childStillRunning: true });
      // The parent's `execute` died with the old Worker, so agentTool() never returned an envelope: the
      // recovered transcript closes the tool part `output-error`; the run's failure comes from its event.
      await until(
        "the tool part settles",
        () => crawl(chat.getSnapshot().messages)?.state === "output-error",
      );
      expect(crawl(chat.getSnapshot().messages)).toMatchObject({
        state: "output-error",
        errorText: "The tool call was interrupted before a result was recorded.",
      });
      if (process.env.RUNBOARD_PRINT_FAILURE_FRAMES === "1")
        console.log(`[${agent}] interrupted frames:\n${frames.join("\n")}`);

      // Reconnect, as the run's button does: the store calls the agent's retryAgentTool(runId), which re-dispatches
      // the id (docs/protocol.md#retry-and-reconnect). agents 0.32 re-attaches to the child; the Crawler is still
      // silent, so after the no-progress budget the runtime gives up again and answers the run interrupted. The
      // call answers, the run is not left recovering, still says interrupted, and offers the recovery again.
      const answers: unknown[] = [];
      client.addEventListener("message", (e) => {
        const d = (e as MessageEvent).data;
        if (typeof d === "string" && d.includes(runId) && !d.includes('"cf_agent_chat_messages"'))
          answers.push(d);
      });
      expect(runs.reconnect(runId)).toBe(true);
      expect(runs.actions.isRecovering(runId)).toBe(true);
      expect(runs.reconnect(runId)).toBe(false);
      await until("the reconnect is answered", () => !runs.actions.isRecovering(runId), 120_000);
      if (process.env.RUNBOARD_PRINT_FAILURE_FRAMES === "1")
        console.log(`[${agent}] after reconnect:\n${answers.join("\n")}`);
      const again = runs.getSnapshot().runsById[runId];
      expect(again).toMatchObject({
        status: "interrupted",
        retryable: true,
        failure: { status: "interrupted" },
      });
      expect(recoveryFor(again as NonNullable<typeof again>)).not.toBeNull();
      expect(errors).toEqual([]);
      chat.dispose();
      runs.dispose();
      client.close();
      await real.stop();
      real = undefined;
    },
  );
}
