/**
 * Duplicate approval decisions against the REAL agents runtime (issue 18 §5), on both hosts:
 * - what the server does with the same `cf_agent_tool_approval` sent twice, and with an Approve followed by a
 *   Deny in the same tick (raw frames, past the kit's decision ledger): docs/protocol.md#duplicate-decisions;
 * - two `ChatApprovals` stores on one `AgentClient`, one approving and one denying in the same tick: exactly one
 *   decision frame goes out and the tool ends as the first decision said.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, ChatApprovals, ChatSession } from "../packages/client/src/index.ts";
import {
  AGENT,
  type Host,
  mountBeforeFirstSend,
  roomNames,
  SKIP_REAL,
  until,
  useRealServer,
} from "./real-server-harness.ts";

const real = useRealServer();
type ToolPart = {
  type: string;
  toolCallId: string;
  state: string;
  output?: unknown;
  approval?: { id: string };
};
const payment = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).find((p) => p.type === "tool-processPayment") as ToolPart | undefined;
const allText = (ms: readonly UIMessage[]) =>
  ms
    .flatMap((m) => m.parts)
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");
const occurrences = (hay: string, needle: string) => hay.split(needle).length - 1;

const room = roomNames("dup");

/** A tab on the real server that records every frame it sends and receives. */
function tab(host: Host, name: string) {
  const client = new AgentClient({
    agent: AGENT[host],
    name,
    host: `127.0.0.1:${real?.port}`,
    WebSocket,
    reconnect: { minDelayMs: 50, maxDelayMs: 200 },
  });
  const sent: Array<Record<string, unknown>> = [];
  const received: Array<Record<string, unknown>> = [];
  const send = client.send.bind(client);
  client.send = (data: string) => {
    sent.push(JSON.parse(data));
    send(data);
  };
  client.addEventListener("message", (e) => {
    try {
      received.push(JSON.parse(String((e as MessageEvent).data)));
    } catch {
      // Not JSON: nothing a decision could be about.
    }
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  mountBeforeFirstSend(client, chat);
  const messages = () => chat.getSnapshot().messages;
  const idle = () => {
    const s = chat.getSnapshot();
    return s.status === "ready" && !s.isServerStreaming && !s.isToolContinuation;
  };
  return {
    client,
    chat,
    sent,
    received,
    messages,
    idle,
    decisions: () => sent.filter((f) => f.type === "cf_agent_tool_approval"),
    async persisted(): Promise<UIMessage[]> {
      const res = await fetch(client.getHttpUrl("get-messages"));
      return (await res.json()) as UIMessage[];
    },
    close() {
      chat.dispose();
      client.close();
    },
  };
}
type Tab = ReturnType<typeof tab>;

async function askToPay(t: Tab, amount: number): Promise<ToolPart> {
  await t.chat.sendMessage({ text: `please pay ACME ${amount}` });
  await until(
    "approval request",
    () => t.idle() && payment(t.messages())?.state === "approval-requested",
    120_000,
  ).catch((e: Error) => {
    const s = t.chat.getSnapshot();
    const flags = {
      status: s.status,
      serverStreaming: s.isServerStreaming,
      continuation: s.isToolContinuation,
    };
    throw new Error(
      `${e.message}: ${JSON.stringify(flags)}, part ${payment(s.messages)?.state}\n${chatFrames(t)}`,
    );
  });
  return payment(t.messages()) as ToolPart;
}

/**
 * Waits until the server's stored copy of the tool part is final and the turn has ended, then a while longer
 * (counted in stored-copy reads, not time) so a second continuation a duplicate might start has room to show.
 */
async function finalStored(t: Tab, done: (ms: readonly UIMessage[]) => boolean): Promise<UIMessage[]> {
  let copy: UIMessage[] = [];
  await until("the stored turn ends", () => t.idle() && done(t.messages()), 120_000);
  const end = Date.now() + 15_000;
  for (let stable = 0; stable < 10 && Date.now() < end; ) {
    const next = await t.persisted();
    stable = done(next) && JSON.stringify(next) === JSON.stringify(copy) ? stable + 1 : 0;
    copy = next;
    await new Promise((r) => setTimeout(r, 50));
  }
  return copy;
}

const errorFrames = (t: Tab) =>
  t.received.filter(
    (f) =>
      (typeof f.type === "string" && /error/i.test(f.type)) ||
      (f.type === "cf_agent_use_chat_response" && f.error === true),
  );
/** Continuation streams the tab received (a decision's `autoContinue` starts one). */
const continuations = (t: Tab) =>
  new Set(
    t.received
      .filter((f) => f.type === "cf_agent_use_chat_response" && f.continuation === true)
      .map((f) => f.id),
  ).size;
/** The chat frames the tab received, one short line each: what a failed count is read against. */
const chatFrames = (t: Tab) =>
  t.received
    .filter(
      (f) => typeof f.type === "string" && f.type.startsWith("cf_agent_") && f.type !== "cf_agent_state",
    )
    .map((f) => JSON.stringify(f).slice(0, 200))
    .join("\n");
/** The tool-part states the server announced in `cf_agent_message_updated`, in order. */
const updates = (t: Tab) =>
  t.received
    .filter((f) => f.type === "cf_agent_message_updated")
    .map((f) => payment([f.message as UIMessage])?.state);

describe.skipIf(SKIP_REAL).concurrent.each(["ai-chat", "think"] as Host[])("real server, %s", (host) => {
  it("the same approval sent twice: applied once, the tool runs once, no error", {
    timeout: 240_000,
  }, async () => {
    const t = tab(host, room("twice"));
    const part = await askToPay(t, 250);
    const frame = JSON.stringify({
      type: "cf_agent_tool_approval",
      toolCallId: part.toolCallId,
      approved: true,
      autoContinue: true,
    });
    // Raw, past the kit's ledger: what a second tab, a retry or a buggy client would send.
    t.client.send(frame);
    t.client.send(frame);
    const hasDone = (ms: readonly UIMessage[]) => allText(ms).includes("Done.");
    const stored = await finalStored(t, hasDone);
    expect(payment(stored)).toMatchObject({
      state: "output-available",
      output: { ok: true, charged: 250, recipient: "ACME", txId: "tx_123" },
    });
    expect(occurrences(allText(stored), "Tool processPayment returned")).toBe(1);
    expect(occurrences(allText(t.messages()), "Tool processPayment returned")).toBe(1);
    // The duplicate gets no answer at all: one update, one continuation, no error frame.
    // (Think also announces the output in an update; AIChatAgent only streams it.)
    expect(updates(t).filter((s) => s !== "output-available")).toEqual(["approval-responded"]);
    expect(continuations(t), chatFrames(t)).toBe(1);
    expect(errorFrames(t)).toEqual([]);
    t.close();
  });

  it("Approve then Deny in the same tick: the first decision wins, the second is dropped silently", {
    timeout: 240_000,
  }, async () => {
    const t = tab(host, room("both"));
    const part = await askToPay(t, 120);
    const frame = (approved: boolean) =>
      JSON.stringify({
        type: "cf_agent_tool_approval",
        toolCallId: part.toolCallId,
        approved,
        autoContinue: true,
      });
    t.client.send(frame(true));
    t.client.send(frame(false));
    const stored = await finalStored(t, (ms) => allText(ms).includes("Done."));
    expect(payment(stored)).toMatchObject({ state: "output-available", output: { charged: 120 } });
    expect(occurrences(allText(stored), "Tool processPayment returned")).toBe(1);
    // The Deny came too late: the part was no longer `approval-requested`, so it is never `output-denied`.
    // (Think also announces the output in an update; AIChatAgent only streams it.)
    expect(updates(t).filter((s) => s !== "output-available")).toEqual(["approval-responded"]);
    expect(continuations(t), chatFrames(t)).toBe(1);
    expect(errorFrames(t)).toEqual([]);
    t.close();
  });

  it("two ChatApprovals over two chats on one connection, Approve and Deny in the same tick: one frame, the Approve", {
    timeout: 240_000,
  }, async () => {
    const t = tab(host, room("stores"));
    const part = await askToPay(t, 75);
    // A second chat on the same connection (a second hook or panel): its own transcript, so nothing but the
    // connection's decision ledger stops it from answering the same request.
    const other = new ChatSession({ agent: t.client, throttleMs: 0 });
    await until(
      "the second chat sees the request",
      () => payment(other.getSnapshot().messages)?.state === "approval-requested",
      120_000,
    );
    const card = new ChatApprovals({ chat: t.chat, agent: t.client });
    const queue = new ChatApprovals({ chat: other, agent: t.client });
    const approvalId = part.approval?.id ?? "";
    const results = [
      card.decide(approvalId, { approved: true }),
      queue.decide(approvalId, { approved: false }),
    ];
    expect(results).toEqual([true, false]);
    expect(t.decisions()).toEqual([
      { type: "cf_agent_tool_approval", toolCallId: part.toolCallId, approved: true, autoContinue: true },
    ]);
    const stored = await finalStored(t, (ms) => allText(ms).includes("Done."));
    expect(payment(stored)).toMatchObject({ state: "output-available", output: { charged: 75 } });
    expect(t.decisions()).toHaveLength(1);
    const [seen] = queue.getSnapshot();
    expect(seen?.status).toBe("approved");
    card.dispose();
    queue.dispose();
    other.dispose();
    t.close();
  });
});
