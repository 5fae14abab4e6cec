import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import { classifySyntheticMessage, isSyntheticMessage } from "./synthetic-messages.ts";

const text = (t: string) => [{ type: "text" as const, text: t }];

/** The last transcript snapshot the server sent in a recorded scenario. */
function lastSnapshot(file: string): UIMessage[] {
  const frames = readTranscript(file)
    .filter((l) => l.dir === "in" && l.raw?.includes('"cf_agent_chat_messages"'))
    .map((l) => JSON.parse(l.raw as string) as { type: string; messages: UIMessage[] })
    .filter((f) => f.type === "cf_agent_chat_messages");
  const last = frames.at(-1);
  if (!last) throw new Error(`${file} has no transcript snapshot`);
  return last.messages;
}

describe("classifySyntheticMessage on the real AIChatAgent background run", () => {
  const messages = lastSnapshot("ai-chat/background.jsonl");

  it("recognises the injected detached-finish message with its metadata", () => {
    const injected = messages.find((m) => m.id.startsWith("detached-finish:"));
    expect(injected?.id).toBe("detached-finish:WbpptzvTjR2r:completed");
    expect(injected?.role).toBe("user");
    expect(classifySyntheticMessage(injected as UIMessage)).toEqual({
      kind: "detached-completion",
      runId: "WbpptzvTjR2r",
      status: "completed",
      source: "detached-agent-tool",
      agentType: "Researcher",
    });
  });

  it("treats every other message of that transcript as ordinary", () => {
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.filter(isSyntheticMessage).map((m) => m.id)).toEqual([
      "detached-finish:WbpptzvTjR2r:completed",
    ]);
  });
});

describe("classifySyntheticMessage: detached completions", () => {
  it("splits a run id that contains ':' from the status when there is no metadata", () => {
    expect(
      classifySyntheticMessage({ id: "detached-finish:agent-tool:call_1:failed", metadata: undefined }),
    ).toEqual({
      kind: "detached-completion",
      runId: "agent-tool:call_1",
      status: "failed",
    });
  });

  it("prefers run id and status from metadata", () => {
    expect(
      classifySyntheticMessage({
        id: "detached-finish:agent-tool:call_1:cancelled",
        metadata: {
          source: "my-app",
          runId: "agent-tool:call_1",
          status: "cancelled",
          agentType: "Researcher",
        },
      }),
    ).toEqual({
      kind: "detached-completion",
      runId: "agent-tool:call_1",
      status: "cancelled",
      source: "my-app",
      agentType: "Researcher",
    });
  });
});

describe("classifySyntheticMessage: milestones", () => {
  it("uses metadata when both the run id and the milestone name contain ':'", () => {
    expect(
      classifySyntheticMessage({
        id: "detached-ms:agent-tool:call_1:sources:gathered",
        metadata: {
          source: "detached-agent-tool",
          runId: "agent-tool:call_1",
          agentType: "Researcher",
          milestone: "sources:gathered",
        },
      }),
    ).toEqual({
      kind: "milestone",
      runId: "agent-tool:call_1",
      milestone: "sources:gathered",
      source: "detached-agent-tool",
      agentType: "Researcher",
    });
  });

  it("takes the milestone name from the id when metadata only gives the run id", () => {
    expect(
      classifySyntheticMessage({
        id: "detached-ms:agent-tool:call_1:sources:gathered",
        metadata: { runId: "agent-tool:call_1" },
      }),
    ).toEqual({ kind: "milestone", runId: "agent-tool:call_1", milestone: "sources:gathered" });
  });

  it("recognises a milestone without metadata, splitting at the last ':'", () => {
    expect(
      classifySyntheticMessage({ id: "detached-ms:agent-tool:call_1:gathered", metadata: undefined }),
    ).toEqual({
      kind: "milestone",
      runId: "agent-tool:call_1",
      milestone: "gathered",
    });
    expect(isSyntheticMessage({ id: "detached-ms:run42:half-way", metadata: undefined })).toBe(true);
  });
});

describe("classifySyntheticMessage: metadata markers", () => {
  it.each(["notice", "interim", "final", "command"])("reads Think's deliveryKind %s as a notice", (kind) => {
    expect(classifySyntheticMessage({ id: crypto.randomUUID(), metadata: { deliveryKind: kind } })).toEqual({
      kind: "notice",
      deliveryKind: kind,
    });
  });

  it("reads metadata.source alone as an injected message", () => {
    expect(
      classifySyntheticMessage({
        id: "5f0c2c2e-3b7e-4e59-9d43-2c1f4f0b9c11",
        metadata: { source: "my-notifier" },
      }),
    ).toEqual({ kind: "injected", source: "my-notifier" });
  });

  it("reads the detached-agent-tool source on a message with an unrecognisable id", () => {
    expect(
      classifySyntheticMessage({ id: "random", metadata: { source: "detached-agent-tool", runId: "r1" } }),
    ).toEqual({ kind: "injected", source: "detached-agent-tool" });
  });
});

describe("classifySyntheticMessage: ordinary messages", () => {
  const ordinary: Array<[string, Pick<UIMessage, "id" | "metadata"> & Partial<UIMessage>]> = [
    ["a user message", { id: "user-KIiyp_-9Gs", role: "user", parts: text("please pay ACME 250") }],
    [
      "an assistant message",
      { id: "assistant_1795344317213_uak6f98ao", role: "assistant", parts: text("Done.") },
    ],
    ["Think's channel-stamped user message", { id: "u1", role: "user", metadata: { channel: "web" } }],
    ["a message with null metadata", { id: "u2", metadata: null }],
    ["a message with non-object metadata", { id: "u3", metadata: "detached" }],
    ["a non-string source", { id: "u4", metadata: { source: 1, deliveryKind: false } }],
    ["an id that merely contains the prefix", { id: "x-detached-finish:r:completed" }],
    ["a bare prefix", { id: "detached-finish:" }],
    ["a prefix without a status", { id: "detached-finish:run" }],
    ["a milestone prefix without a name", { id: "detached-ms:run" }],
    ["a detached-delivery request id", { id: "detached-delivery:e2aa13dd-1299-4b74-8f0f-2639ccd6b10f" }],
  ];
  it.each(ordinary)("%s → undefined", (_label, message) => {
    expect(classifySyntheticMessage(message)).toBeUndefined();
    expect(isSyntheticMessage(message)).toBe(false);
  });

  it("treats the real Think transcript's messages as ordinary", () => {
    const messages = lastSnapshot("think/pay.jsonl");
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(classifySyntheticMessage(m), m.id).toBeUndefined();
  });
});

describe("classifySyntheticMessage: Think's user-role notify and milestone turns (no id, no metadata)", () => {
  // Think's default wording (formatDetachedCompletion / formatDetachedMilestone), as the conformance
  // scenario "a detached run with notify" receives it on the Think host: a random UUID and no metadata.
  const think = (t: string): UIMessage => ({ id: crypto.randomUUID(), role: "user", parts: text(t) });

  it.each([
    ['Background task "Researcher" (run 9k2Jx7Qa) finished:\n\nSummary: found 2 sources', "completed"],
    ['Background task "Researcher" (run 9k2Jx7Qa) finished successfully.', "completed"],
    ['Background task "Researcher" (run 9k2Jx7Qa) failed: boom', "error"],
    ['Background task "Researcher" (run 9k2Jx7Qa) failed.', "error"],
    ['Background task "Researcher" (run 9k2Jx7Qa) was cancelled.', "aborted"],
    [
      'Background task "Researcher" (run 9k2Jx7Qa) ran out of time before completing and was stopped.',
      "interrupted",
    ],
    ['Background task "Researcher" (run 9k2Jx7Qa) was interrupted before completing.', "interrupted"],
    ['Background task "Researcher" (run 9k2Jx7Qa) ended (skipped).', "skipped"],
  ])("%s → a detached completion (%s)", (t, status) => {
    expect(classifySyntheticMessage(think(t))).toEqual({
      kind: "detached-completion",
      runId: "9k2Jx7Qa",
      status,
      agentType: "Researcher",
      fromText: true,
    });
  });

  it("reads a react-mode milestone turn as a milestone", () => {
    expect(
      classifySyntheticMessage(
        think('Background task "Researcher" (run r-1) reached milestone "sources-gathered".\n\n{"n":2}'),
      ),
    ).toEqual({
      kind: "milestone",
      runId: "r-1",
      milestone: "sources-gathered",
      agentType: "Researcher",
      fromText: true,
    });
  });

  it.each([
    ["an assistant saying the same words", { role: "assistant" as const }],
    ["a user quoting it mid-sentence", { text: 'I saw Background task "R" (run x) finished: ok' }],
    ["an unknown ending", { text: 'Background task "R" (run x) exploded.' }],
    ["no run id", { text: 'Background task "R" finished: ok' }],
  ])("leaves %s ordinary", (_l, o: { role?: "assistant"; text?: string }) => {
    const m = think(o.text ?? 'Background task "R" (run x) finished: ok');
    expect(classifySyntheticMessage({ ...m, role: o.role ?? "user" })).toBeUndefined();
  });

  it("reads Think's compaction overlay as a compaction event", () => {
    const overlay = {
      id: "compaction_3e1f0f0a-77c4-4d0b-9f7b-3a2b1c0d9e8f",
      role: "assistant" as const,
      parts: text("The user asked about queues; we compared two designs."),
    };
    expect(classifySyntheticMessage(overlay)).toEqual({
      kind: "compaction",
      compactionId: "3e1f0f0a-77c4-4d0b-9f7b-3a2b1c0d9e8f",
    });
  });
});
