/**
 * What a person should be told about a chat besides its messages (docs/protocol.md#recovering,
 * docs/protocol.md#compaction): one state and its words, from the chat store's flags. Pure, so every view
 * (and a screen reader's announcement) says the same thing.
 */
import type { CompactionSummary } from "./compaction.ts";

/** The flags the status is read from (`useAgentChat()`'s result has them all). */
export interface ChatStatusFlags {
  isRecovering: boolean;
  recoveryGaveUp?: { reason: string } | undefined;
  isCompacting?: boolean;
  serverStream?: { source: "server" | "another-tab" } | undefined;
  compaction?: CompactionSummary | undefined;
}

/** The one status shown, most urgent first. */
export type ChatStatusState = "gave-up" | "recovering" | "compacting" | "server-streaming" | "idle";

/**
 * The state and its words: a recovery that gave up (its reason), recovering after an interruption,
 * compacting, a stream started by the agent or another tab; `idle` has no words.
 */
export function describeChatStatus(flags: ChatStatusFlags): { state: ChatStatusState; text: string } {
  if (flags.recoveryGaveUp) return { state: "gave-up", text: flags.recoveryGaveUp.reason };
  if (flags.isRecovering)
    return { state: "recovering", text: "The agent was interrupted and is recovering its answer…" };
  if (flags.isCompacting) return { state: "compacting", text: "Summarising earlier messages…" };
  if (flags.serverStream)
    return {
      state: "server-streaming",
      text:
        flags.serverStream.source === "server"
          ? "The agent is responding on its own…"
          : "Responding to a message sent from another tab…",
    };
  return { state: "idle", text: "" };
}

/** Words for a transcript's compaction (`Earlier messages were summarised; 2 tool outputs shortened.`). */
export function compactionText(summary: CompactionSummary | undefined): string {
  if (!summary) return "";
  const bits: string[] = [];
  if (summary.summaries > 0) bits.push("Earlier messages were summarised");
  const n = summary.toolOutputs;
  if (n > 0) bits.push(`${n} tool output${n === 1 ? " was" : "s were"} shortened`);
  if (summary.textParts > 0) bits.push("long text was shortened");
  return bits.length ? `${bits.join("; ")}.` : "";
}
