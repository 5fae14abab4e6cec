/**
 * Issue 16 §2/§3 against the REAL Think runtime (agents 0.32, think 0.23): a regenerate keeps the earlier
 * answer as a sibling that `session.getBranches` returns (the Worker's `getResponseVersions`, as upstream's
 * assistant example), which the chat store turns into branch navigation; a compaction overlay arrives as a
 * `compaction_<id>` assistant message holding the summary; Think's detached notify turn is a user message
 * the classifier reads as an agent event (docs/protocol.md#branches, docs/protocol.md#compaction,
 * docs/protocol.md#synthetic-messages-gap). AIChatAgent has neither branches nor compaction overlays.
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, ChatSession } from "../packages/client/src/index.ts";
import { classifySyntheticMessage } from "../packages/protocol/src/index.ts";
import { roomNames, SKIP_REAL, until, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();

const room = roomNames("think");
const textOf = (m: { parts: readonly unknown[] } | undefined) =>
  (m?.parts ?? [])
    .map((p) => ((p as { type: string }).type === "text" ? (p as { text: string }).text : ""))
    .join("");

function tab(name: string) {
  const errors: Error[] = [];
  const client = new AgentClient({ agent: "ThinkAgent", name, host: `127.0.0.1:${real.port}`, WebSocket });
  const chat = new ChatSession({
    agent: client,
    throttleMs: 0,
    onError: (e) => errors.push(e),
    getBranches: (id) => client.call("getResponseVersions", [id]),
  });
  const idle = () => chat.getSnapshot().status === "ready" && !chat.getSnapshot().isServerStreaming;
  const close = () => {
    chat.dispose();
    client.close();
  };
  return { client, chat, errors, idle, close };
}

describe.skipIf(SKIP_REAL)("Think sessions on the real runtime", () => {
  it("a regenerate keeps the first answer as a sibling; selectBranch shows it", {
    timeout: 90_000,
  }, async () => {
    const t = tab(room("branches"));
    try {
      await t.chat.sendMessage({ text: "hello" });
      await until("first answer", () => t.idle() && t.chat.getSnapshot().messages.length === 2);
      const [user, first] = t.chat.getSnapshot().messages;
      await t.chat.regenerate();
      await until("branches", () => t.chat.getSnapshot().branches.size === 1 && t.idle());
      const snap = t.chat.getSnapshot();
      const second = snap.messages[1];
      expect(second?.id).not.toBe(first?.id);
      expect(snap.branches.get(second?.id ?? "")).toEqual({
        userMessageId: user?.id,
        index: 1,
        count: 2,
        ids: [first?.id, second?.id],
      });
      // The raw answer of the callable: both answers, oldest first, as UIMessages.
      const raw = (await t.client.call("getResponseVersions", [user?.id])) as Array<{
        id: string;
        role: string;
      }>;
      expect(raw.map((m) => [m.id, m.role])).toEqual([
        [first?.id, "assistant"],
        [second?.id, "assistant"],
      ]);
      expect(t.chat.selectBranch(second?.id ?? "", 0)).toBe(true);
      expect(t.chat.getSnapshot().messages[1]?.id).toBe(first?.id);
      expect(textOf(t.chat.getSnapshot().messages[1])).toBe(textOf(first));
      expect(t.errors).toEqual([]);
    } finally {
      t.close();
    }
  });

  it("a compaction overlay arrives as a compaction_ summary message", { timeout: 90_000 }, async () => {
    const name = room("compact");
    const t = tab(name);
    try {
      await t.chat.sendMessage({ text: "hello" });
      await until("hello", () => t.idle() && t.chat.getSnapshot().messages.length === 2);
      await t.chat.sendMessage({ text: "hello again" });
      await until("hello again", () => t.idle() && t.chat.getSnapshot().messages.length === 4);
      const stored = (await t.client.call("compactHistory", ["Summary: the user said hello twice."])) as {
        id: string;
      };
      expect(stored?.id).toBeTruthy();
    } finally {
      t.close();
    }
    // Think pushes its transcript on connect: a new tab sees the overlay in place of the first two messages.
    const late = tab(name);
    try {
      await until("transcript", () => late.chat.getSnapshot().messages.length > 0);
      const messages = late.chat.getSnapshot().messages;
      const overlay = messages[0];
      expect(overlay?.id.startsWith("compaction_")).toBe(true);
      expect(overlay?.role).toBe("assistant");
      expect(textOf(overlay)).toBe("Summary: the user said hello twice.");
      expect(classifySyntheticMessage(overlay as never)).toEqual({
        kind: "compaction",
        compactionId: overlay?.id.slice("compaction_".length),
      });
      expect(late.chat.getSnapshot().compaction).toEqual({ summaries: 1, toolOutputs: 0, textParts: 0 });
      expect(messages.map((m) => m.role)).toEqual(["assistant", "user", "assistant"]);
    } finally {
      late.close();
    }
  });

  it("a detached run's notify turn is read as an agent event", { timeout: 90_000 }, async () => {
    const t = tab(room("notify"));
    try {
      await t.chat.sendMessage({ text: "start background research on websockets" });
      await until("notify turn", () => t.chat.getSnapshot().messages.length >= 3, 60_000);
      const notify = t.chat.getSnapshot().messages[2];
      expect(notify?.role).toBe("user");
      expect(notify?.metadata === undefined || !("source" in (notify.metadata as object))).toBe(true);
      expect(classifySyntheticMessage(notify as never)).toMatchObject({
        kind: "detached-completion",
        status: "completed",
        agentType: "Researcher",
        fromText: true,
      });
    } finally {
      t.close();
    }
  });
});
