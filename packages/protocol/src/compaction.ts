/**
 * Conversation compaction as a client can see it (docs/protocol.md#compaction): the experimental memory
 * session's status frame (`cf_agent_session`), Think's summary overlays (`compaction_<id>` messages standing
 * in for the messages they replaced), and the row-size marks a host puts on a message whose stored copy was
 * cut down (`metadata.compactedToolOutputs`, `metadata.compactedTextParts`).
 */
import type { SessionFrame } from "./frames.ts";

/** What a `cf_agent_session` frame says: the session is compacting, or idle with a token estimate. */
export interface SessionStatus {
  /** `compacting` while the server summarises older messages. */
  phase: "idle" | "compacting";
  /** The server's token estimate for the active path. */
  tokenEstimate: number;
  /** The estimate at which the server compacts; `null` when it never does on its own. */
  tokenThreshold: number | null;
}

/** Reads a session frame, or says why it cannot be shown (the frame is then ignored and reported). */
export function readSessionStatus(
  frame: SessionFrame | Record<string, unknown>,
): { status: SessionStatus } | { problem: string } {
  const { phase, tokenEstimate, tokenThreshold } = frame as Record<string, unknown>;
  if (phase !== "idle" && phase !== "compacting")
    return { problem: `cf_agent_session: field 'phase' must be 'idle' or 'compacting'` };
  if (typeof tokenEstimate !== "number" || !Number.isFinite(tokenEstimate) || tokenEstimate < 0)
    return { problem: "cf_agent_session: field 'tokenEstimate' must be a non-negative number" };
  if (tokenThreshold !== null && (typeof tokenThreshold !== "number" || !Number.isFinite(tokenThreshold)))
    return { problem: "cf_agent_session: field 'tokenThreshold' must be a number or null" };
  return { status: { phase, tokenEstimate, tokenThreshold } };
}

/** What was cut from one message's stored copy. */
export interface CompactedMarks {
  /** Tool calls whose output the server shortened (`metadata.compactedToolOutputs`). */
  toolCallIds: ReadonlySet<string>;
  /** Indices of text parts the server truncated (`metadata.compactedTextParts`). */
  textParts: ReadonlySet<number>;
  /** Why the marks could not be read as sent (a malformed list is ignored and reported). */
  problem?: string;
}

const NONE: CompactedMarks = { toolCallIds: new Set(), textParts: new Set() };
const cache = new WeakMap<object, CompactedMarks>();

/**
 * The compaction marks of a message (cached per message object, so a long list reads each once). A list
 * that is not an array of ids (or of indices) is ignored with a `problem`.
 */
export function compactedMarks(message: { id: string; metadata?: unknown }): CompactedMarks {
  const meta = message.metadata;
  if (typeof meta !== "object" || meta === null) return NONE;
  const hit = cache.get(message);
  if (hit) return hit;
  const { compactedToolOutputs: tools, compactedTextParts: texts } = meta as Record<string, unknown>;
  let marks = NONE;
  if (tools !== undefined || texts !== undefined) {
    const problems: string[] = [];
    const toolsOk =
      tools === undefined || (Array.isArray(tools) && tools.every((t) => typeof t === "string"));
    const textsOk =
      texts === undefined ||
      (Array.isArray(texts) && texts.every((t) => Number.isInteger(t) && (t as number) >= 0));
    if (!toolsOk) problems.push("metadata.compactedToolOutputs must be a list of tool call ids");
    if (!textsOk) problems.push("metadata.compactedTextParts must be a list of part indices");
    const toolIds = toolsOk && tools !== undefined ? (tools as string[]) : [];
    const textIdx = textsOk && texts !== undefined ? (texts as number[]) : [];
    marks = {
      toolCallIds: new Set(toolIds),
      textParts: new Set(textIdx),
      ...(problems.length ? { problem: problems.join("; ") } : {}),
    };
  }
  cache.set(message, marks);
  return marks;
}

/** How much of a transcript is compacted. */
export interface CompactionSummary {
  /** Summary messages (`compaction_<id>`) standing in for older messages. */
  summaries: number;
  /** Tool outputs shortened for storage, over all messages. */
  toolOutputs: number;
  /** Text parts truncated for storage, over all messages. */
  textParts: number;
}

/**
 * Adds (`sign` 1) or takes away (-1) what one message counts towards a transcript's `CompactionSummary`: a store
 * that keeps the counts can update them for the messages that changed instead of counting the whole transcript.
 */
export function countCompaction(
  counts: CompactionSummary,
  message: { id: string; metadata?: unknown },
  sign: 1 | -1 = 1,
): void {
  if (message.id.startsWith("compaction_")) counts.summaries += sign;
  if (typeof message.metadata !== "object" || message.metadata === null) return;
  const marks = compactedMarks(message);
  counts.toolOutputs += sign * marks.toolCallIds.size;
  counts.textParts += sign * marks.textParts.size;
}

/** The summary of `counts`: `undefined` when nothing was compacted. */
export const compactionOfCounts = (counts: CompactionSummary): CompactionSummary | undefined =>
  counts.summaries + counts.toolOutputs + counts.textParts === 0 ? undefined : { ...counts };

/** Counts a transcript's compaction; `undefined` when nothing in it was compacted. */
export function compactionSummary(
  messages: readonly { id: string; metadata?: unknown }[],
): CompactionSummary | undefined {
  const counts: CompactionSummary = { summaries: 0, toolOutputs: 0, textParts: 0 };
  for (const m of messages) countCompaction(counts, m);
  return compactionOfCounts(counts);
}
