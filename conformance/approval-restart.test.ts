/**
 * A decision lost while the REAL agent restarts (issue 18 §12): workerd is stopped and started again on the same
 * port with the same Durable Object storage, as a deploy or an eviction would, while a decision is unconfirmed.
 * The decision frame is dropped on the way out (the socket it went on dies with the agent); the transcript read
 * back after the restart still asks, so `ChatApprovals` shows `interrupted`, sends nothing by itself, and the one
 * decision made again is applied once.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UIMessage } from "ai";
import { afterAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  AgentClient,
  ChatApprovals,
  type ChatApprovalsTarget,
  ChatSession,
} from "../packages/client/src/index.ts";
import { until } from "./real-server-harness.ts";

const SKIP_REAL = process.env.RUNBOARD_SKIP_REAL_SERVER === "1";
type Server = { port: number; stop(): Promise<void> };
let real: Server | undefined;
const state = mkdtempSync(join(tmpdir(), "runboard-restart-"));
afterAll(async () => {
  await real?.stop();
  rmSync(state, { recursive: true, force: true });
});

type ToolPart = { type: string; toolCallId: string; state: string; approval?: { id: string } };
const payment = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).find((p) => p.type === "tool-processPayment") as ToolPart | undefined;
const allText = (ms: readonly UIMessage[]) =>
  ms
    .flatMap((m) => m.parts)
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");

it.skipIf(SKIP_REAL)(
  "real server restarted with a decision unconfirmed: interrupted, decided again once, applied once",
  {
    timeout: 240_000,
  },
  async () => {
    if (!existsSync(new URL("./node_modules/wrangler", import.meta.url)))
      throw new Error("conformance/ is not installed: run `npm ci --prefix conformance`");
    const { startRealServer, freePort } = await import("./start.mjs");
    const port = (await freePort()) as number;
    real = (await startRealServer({ port, persistTo: state })) as Server;
    const client = new AgentClient({
      agent: "ChatAgent",
      name: `restart-${Date.now().toString(36)}`,
      host: `127.0.0.1:${port}`,
      WebSocket,
      reconnect: { minDelayMs: 100, maxDelayMs: 500 },
    });
    const decisions: string[] = [];
    const send = client.send.bind(client);
    client.send = (data: string) => {
      if (data.includes('"cf_agent_tool_approval"')) decisions.push(data);
      send(data);
    };
    const chat = new ChatSession({ agent: client, throttleMs: 0 });
    const stored = async () => (await (await fetch(client.getHttpUrl("get-messages"))).json()) as UIMessage[];
    await chat.sendMessage({ text: "please pay ACME 250" });
    await until(
      "approval request",
      () => payment(chat.getSnapshot().messages)?.state === "approval-requested",
    );
    await until("stored request", async () => payment(await stored())?.state === "approval-requested");
    chat.dispose();

    // An app's chat (the official hook's shape) over the server's transcript. Its first answer is lost with the
    // dying socket; after the restart it sends for real.
    let lose = true;
    const target: ChatApprovalsTarget = {
      messages: await stored(),
      addToolApprovalResponse: ({ id, approved }) => {
        const part = payment(target.messages);
        if (lose || part?.approval?.id !== id) return;
        client.send(
          JSON.stringify({
            type: "cf_agent_tool_approval",
            toolCallId: part.toolCallId,
            approved,
            autoContinue: true,
          }),
        );
      },
      addToolOutput: () => {},
    };
    const approvals = new ChatApprovals({ chat: target, agent: client });
    const approvalId = payment(target.messages)?.approval?.id ?? "";
    expect(approvals.decide(approvalId, { approved: true })).toBe(true);
    // The hook's local patch, as it would show it.
    target.messages = target.messages.map((m) => ({
      ...m,
      parts: m.parts.map((p) =>
        p.type === "tool-processPayment"
          ? ({ ...p, state: "approval-responded", approval: { id: approvalId, approved: true } } as typeof p)
          : p,
      ),
    }));
    approvals.setOptions({ chat: target });
    expect(approvals.getSnapshot()[0]?.status).toBe("submitting");

    await real.stop();
    await until("the socket closes", () => client.status !== "open");
    real = (await startRealServer({ port, persistTo: state })) as Server;
    await until("reconnected", () => client.status === "open", 120_000);

    // The transcript read back after the restart: the request survived, still asking.
    target.messages = await stored();
    expect(payment(target.messages)?.state).toBe("approval-requested");
    approvals.setOptions({ chat: target });
    const [lost] = approvals.getSnapshot();
    expect(lost).toMatchObject({ status: "interrupted", outcome: { approved: true, by: "here" } });
    expect(decisions).toEqual([]);

    lose = false;
    expect(lost?.decide({ approved: true })).toBe(true);
    expect(approvals.decide(approvalId, { approved: true })).toBe(false);
    expect(decisions).toHaveLength(1);
    await until("the continuation is stored", async () => allText(await stored()).includes("Done."), 120_000);
    const final = await stored();
    expect(payment(final)?.state).toBe("output-available");
    expect(allText(final).split("Tool processPayment returned").length - 1).toBe(1);
    approvals.dispose();
    client.close();
  },
);
