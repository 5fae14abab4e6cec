/**
 * Think's memory session as far as a client sees it (docs/protocol.md#compaction, docs/protocol.md#branches):
 * regenerations keep the earlier answers as siblings of the user message (read back with the
 * `getResponseVersions` callable of upstream's assistant example), and a compaction replaces older messages
 * by a `compaction_<id>` summary and shortens long tool outputs, announced with `cf_agent_session`.
 */
import type { MessageList, ServerFrame } from "@runboard/protocol";
import type { UIMessage } from "ai";
import * as ids from "./ids.ts";
import type { Step } from "./script.ts";

const siblings = new WeakMap<MessageList, Map<string, UIMessage[]>>();

/** Before Think's regenerate truncates: keeps the answer after `parentId` (the message it branches from) as a sibling. */
export function keepBranch(transcript: MessageList, parentId: string): void {
  const ms = transcript.messages;
  const i = ms.findIndex((m) => m.id === parentId);
  const user = ms[i];
  const answer = ms[i + 1];
  if (!user || answer?.role !== "assistant") return;
  const byUser = siblings.get(transcript) ?? new Map<string, UIMessage[]>();
  siblings.set(transcript, byUser);
  const kept = byUser.get(user.id) ?? [];
  if (!kept.some((m) => m.id === answer.id)) kept.push(structuredClone(answer) as UIMessage);
  byUser.set(user.id, kept);
}

/** `session.getBranches(userMessageId)`: the answers to that user message, oldest first, the current last. */
export function responseVersions(transcript: MessageList, userMessageId: string): UIMessage[] {
  const kept = siblings.get(transcript)?.get(userMessageId) ?? [];
  const ms = transcript.messages;
  const at = ms.findIndex((m) => m.id === userMessageId);
  const current = at >= 0 && ms[at + 1]?.role === "assistant" ? [ms[at + 1] as UIMessage] : [];
  return [...kept.filter((m) => !current.some((c) => c.id === m.id)), ...current];
}

/** What a compaction needs from its instance. */
export interface CompactionHost {
  readonly transcript: MessageList;
  broadcast(frame: ServerFrame): void;
  /** Scaled sleep: summarising takes a while. */
  sleep(ms: number): Promise<void>;
}

/** How long the summariser "runs" (scaled like every scripted delay). */
const SUMMARISE_MS = 600;

/** A rough token estimate (4 characters a token), as the session's heuristic. */
function tokens(messages: readonly UIMessage[]): number {
  return Math.ceil(JSON.stringify(messages).length / 4);
}

/** The `compact` step: `compacting`, the summary and the shortened outputs, the new transcript, `idle`. */
export async function compactTranscript(
  host: CompactionHost,
  step: Extract<Step, { kind: "compact" }>,
): Promise<void> {
  const { transcript } = host;
  const before = transcript.messages;
  const threshold = Math.max(1, Math.floor(tokens(before) / 2));
  host.broadcast({
    type: "cf_agent_session",
    phase: "compacting",
    tokenEstimate: tokens(before),
    tokenThreshold: threshold,
  });
  await host.sleep(SUMMARISE_MS);
  const now = transcript.messages;
  const keep = Math.max(0, Math.min(step.keep ?? 2, now.length));
  const head = now.slice(0, now.length - keep);
  const limit = step.toolOutputChars ?? 200;
  const kept = now.slice(now.length - keep).map((m) => shorten(m as UIMessage, limit));
  const summary: UIMessage = {
    id: `compaction_${ids.uuid()}`,
    role: "assistant",
    parts: [{ type: "text", text: step.summary }],
  };
  transcript.replaceAll(head.length > 0 ? [summary, ...kept] : kept);
  host.broadcast({ type: "cf_agent_chat_messages", messages: [...transcript.messages] });
  host.broadcast({
    type: "cf_agent_session",
    phase: "idle",
    tokenEstimate: tokens(transcript.messages),
    tokenThreshold: threshold,
  });
}

/** A message whose long tool outputs are cut, listed in `metadata.compactedToolOutputs` (agents' row limit). */
function shorten(m: UIMessage, limit: number): UIMessage {
  const cut: string[] = [];
  const parts = m.parts.map((p) => {
    const part = p as Record<string, unknown>;
    if (part.state !== "output-available" || typeof part.toolCallId !== "string") return p;
    const text = JSON.stringify(part.output) ?? "";
    if (text.length <= limit) return p;
    cut.push(part.toolCallId);
    return {
      ...part,
      output: `${text.slice(0, limit)}… [truncated ${text.length - limit} chars]`,
    } as typeof p;
  });
  if (cut.length === 0) return m;
  return { ...m, parts, metadata: { ...(m.metadata as object), compactedToolOutputs: cut } };
}
