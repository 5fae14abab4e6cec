/**
 * Reads and edits of an instance's persisted transcript that more than one role needs: what a request's
 * messages say, the AIChatAgent reconciler, Think's edits and regenerate's truncation, and rewriting one tool
 * part.
 */
import type { MessageList } from "@runboard/protocol";
import type { UIMessage } from "ai";

/** Trailing user message ids of a request's messages (what terminal frames carry as `messageIds`). */
export function trailingUserIds(messages: readonly UIMessage[]): string[] | undefined {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") break;
    out.unshift(m.id);
  }
  return out.length ? out : undefined;
}

/** Text of the last user message, which picks the script. */
export function lastUserText(messages: readonly UIMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
  }
  return "";
}

/** Server-resolved assistant messages win over the client's stale copies (AIChatAgent's reconciler). */
export function reconcile(server: readonly UIMessage[], incoming: readonly UIMessage[]): UIMessage[] {
  const byId = new Map(server.map((m) => [m.id, m]));
  return incoming.map((m) => (m.role === "assistant" ? (byId.get(m.id) ?? m) : m));
}

/** Drops everything after the message `id` (Think's regenerate branches from it); nothing if it is unknown. */
export function truncateAfter(transcript: MessageList, id: string): void {
  const i = transcript.messages.findIndex((m) => m.id === id);
  if (i >= 0) transcript.truncate(i + 1);
}

/** Same parts and metadata, the server-owned `channel` aside: Think skips such a message (no edit). */
export function sameContent(a: UIMessage, b: UIMessage): boolean {
  const of = (m: UIMessage) => {
    const { channel: _c, ...metadata } = (m.metadata ?? {}) as Record<string, unknown>;
    return JSON.stringify([m.parts, metadata]);
  };
  return of(a) === of(b);
}

/**
 * Finds the message holding a tool call and persists a copy with that part changed; returns the copy.
 * `dropAfter`: what the model wrote after a durable pause goes; the resumed turn writes it anew.
 */
export function updateToolPart(
  transcript: MessageList,
  toolCallId: string,
  change: (part: Record<string, unknown>) => void,
  dropAfter = false,
): UIMessage | undefined {
  for (const m of transcript.messages) {
    const i = m.parts.findIndex((p) => (p as { toolCallId?: string }).toolCallId === toolCallId);
    if (i < 0) continue;
    const parts = dropAfter ? m.parts.slice(0, i + 1) : m.parts.slice();
    const part = { ...(parts[i] as Record<string, unknown>) };
    change(part);
    parts[i] = part as UIMessage["parts"][number];
    const updated = { ...m, parts };
    transcript.upsert(updated);
    return updated;
  }
  return undefined;
}

/** Whether a tool call's part still waits for a result (a settled one takes none, docs/protocol.md#client-tools). */
export function awaitsToolResult(messages: readonly UIMessage[], toolCallId: string): boolean {
  return messages.some((m) =>
    m.parts.some((p) => {
      const t = p as { toolCallId?: string; state?: string };
      return (
        t.toolCallId === toolCallId &&
        (t.state === "input-available" ||
          t.state === "approval-requested" ||
          t.state === "approval-responded")
      );
    }),
  );
}
