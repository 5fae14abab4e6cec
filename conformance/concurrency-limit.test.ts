/**
 * A dispatch refused by the agent's concurrency limit (issue 15 §5, docs/protocol.md#concurrency-limit) on the
 * REAL agents runtime, on both hosts. The word `busy` sets the host's `maxConcurrentAgentTools` to 1 and has the
 * model call two `agentTool()` Researchers in one step: agents 0.32 starts the first and refuses the second with
 * `started` then `error` ("maxConcurrentAgentTools (1) exceeded"), and the refused tool part ends
 * `output-available` with the failure envelope. The run store and the words the components show say so.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file. `RUNBOARD_PRINT_FAILURE_FRAMES=1` prints the frames.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, AgentToolRuns, ChatSession } from "../packages/client/src/index.ts";
import { describeAgentToolFailure, recoveryFor } from "../packages/protocol/src/view.ts";
import { AGENT, type Host, roomNames, SKIP_REAL, until, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();

const room = roomNames("limit");
type ToolPart = { type: string; toolCallId: string; state: string; output?: unknown };
const researchParts = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).filter((p) => p.type === "tool-research") as unknown as ToolPart[];

describe.skipIf(SKIP_REAL)("the concurrency limit on the real runtime", () => {
  for (const host of ["ai-chat", "think"] as Host[]) {
    it(`${host}: the dispatch past maxConcurrentAgentTools is refused, and the run says so`, async () => {
      const client = new AgentClient({
        agent: AGENT[host],
        name: room(host),
        host: `127.0.0.1:${real?.port}`,
        WebSocket,
      });
      const frames: string[] = [];
      client.addEventListener("message", (e) => {
        const d = (e as MessageEvent).data;
        if (typeof d === "string" && /maxConcurrentAgentTools|"kind":"started"/.test(d)) frames.push(d);
      });
      const errors: Error[] = [];
      const chat = new ChatSession({ agent: client, throttleMs: 0 });
      const runs = new AgentToolRuns({
        agent: client,
        storage: null,
        throttleMs: 0,
        onError: (e) => errors.push(e),
      });
      try {
        await chat.sendMessage({ text: "busy: two helpers at once" });
        await until(
          "both research parts settle and the turn ends",
          () =>
            researchParts(chat.getSnapshot().messages).filter((p) => p.state === "output-available")
              .length === 2 && textOf(chat.getSnapshot().messages.at(-1)).includes("not started"),
          120_000,
        );
        if (process.env.RUNBOARD_PRINT_FAILURE_FRAMES === "1")
          console.log(`[${host}] concurrency-limit frames:\n${frames.join("\n")}`);
        const parts = researchParts(chat.getSnapshot().messages);
        const refused = parts.filter((p) => (p.output as { ok?: unknown })?.ok === false);
        // Exactly one of the two was refused; which one depends on the order the tools ran.
        expect(refused).toHaveLength(1);
        const part = refused[0] as ToolPart;
        expect(part.output).toEqual({
          ok: false,
          status: "error",
          error: "maxConcurrentAgentTools (1) exceeded",
          retryable: false,
        });
        const run = runs.getRunsForToolCall(part.toolCallId)[0];
        expect(run).toMatchObject({
          agentType: "Researcher",
          status: "error",
          retryable: false,
          failure: { status: "error", error: "maxConcurrentAgentTools (1) exceeded" },
        });
        expect(recoveryFor(run as NonNullable<typeof run>)).toBeNull();
        const words = describeAgentToolFailure(run?.failure ?? { status: "error", error: "" });
        expect(words.headline).toBe("The helper was not started.");
        expect(words.concurrencyLimit).toBe(1);
        // The other one ran to its end.
        const other = parts.find((p) => p !== part) as ToolPart;
        expect(runs.getRunsForToolCall(other.toolCallId)[0]?.status).toBe("completed");
        // The refusal is a started at 0 and an error at 1 on the refused tool call, nothing in between.
        const ofRefused = frames
          .map((f) => JSON.parse(f) as { type: string; parentToolCallId?: string; sequence?: number })
          .filter((f) => f.type === "agent-tool-event" && f.parentToolCallId === part.toolCallId);
        expect(ofRefused.map((f) => f.sequence)).toEqual([0, 1]);
        expect(errors).toEqual([]);
      } finally {
        runs.dispose();
        chat.dispose();
        client.close();
      }
    }, 240_000);
  }
});

function textOf(m: UIMessage | undefined) {
  return (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");
}
