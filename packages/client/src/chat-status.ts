/**
 * What the chat store publishes: its `status` and streaming flags, read from the resume machine's live
 * streams and the store's own bookkeeping, as the official hook reports them.
 */
import {
  applyBranches,
  type BranchEntry,
  type CompactionSummary,
  classifySyntheticMessage,
  compactionOfCounts,
  countCompaction,
  getToolName,
  isToolUIPart,
  type MessageBranch,
  type MessageList,
  publishedChanges,
  type ResumeMachine,
  type SessionStatus,
  type StreamOrigin,
  type ToolPartLike,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatQueue } from "./chat-queue.ts";
import type { ChatSessionOptions, ChatSnapshot, ChatStatus } from "./chat-types.ts";
import { detectToolsRequiringConfirmation } from "./client-tools.ts";

/** What the status is read from: the chat store's shared state (`ChatCore`). */
export interface ChatStatusSource<M extends UIMessage> {
  readonly list: MessageList;
  readonly rm: ResumeMachine;
  readonly options: ChatSessionOptions<M>;
  readonly queue: ChatQueue<M>;
  readonly failed: boolean;
  readonly error: Error | undefined;
  readonly recovering: boolean;
  readonly recoveryGaveUp: { requestId: string; reason: string } | undefined;
  readonly session: SessionStatus | undefined;
  readonly streamMessage: ReadonlyMap<string, string>;
  readonly recoveryIds: ReadonlySet<string>;
  /** Unset while the store is being made (its first snapshot). */
  readonly sides: { branches: { readonly entries: ReadonlyMap<string, BranchEntry<M>> } } | undefined;
  readonly localRequest: string | undefined;
  readonly started: ReadonlySet<string>;
  readonly stopped: ReadonlySet<string>;
  readonly probed: ReadonlySet<string>;
  readonly claimed: ReadonlySet<string>;
  readonly toolCallsRunning: ReadonlySet<string>;
}

const NO_BRANCHES: ReadonlyMap<string, BranchEntry> = new Map();

/** The snapshot subscribers see. */
export function snapshotOf<M extends UIMessage>(c: ChatStatusSource<M>): ChatSnapshot<M> {
  const isServerStreaming = serverStreaming(c);
  const status = currentStatus(c);
  const all = c.list.messages as readonly M[];
  // Kept current at every snapshot, so it is counted again only for the messages that changed.
  const prompt = lastUserIndex(c.list, all);
  const view = applyBranches(
    all,
    (c.sides?.branches.entries ?? NO_BRANCHES) as ReadonlyMap<string, BranchEntry<M>>,
  );
  return {
    messages: view.messages,
    status,
    error: c.error,
    isStreaming: status === "streaming" || isServerStreaming,
    isServerStreaming,
    isToolContinuation: c.rm.isToolContinuation,
    isRecovering: c.recovering,
    experimental_queuedMessages: c.queue.messages,
    serverStream: isServerStreaming ? serverStreamOf(c, prompt) : undefined,
    recoveryGaveUp: c.recoveryGaveUp,
    session: c.session,
    isCompacting: c.session?.phase === "compacting",
    compaction: compactionOf(all),
    branches: stableBranches(view.byMessageId),
  };
}

let lastBranches: ReadonlyMap<string, MessageBranch> = new Map();
/**
 * The same map object while the branch data is the same, so a view that reads only `branches` (a picker)
 * re-renders when an answer is chosen or a regeneration lands, not on every streamed chunk.
 */
function stableBranches(next: ReadonlyMap<string, MessageBranch>): ReadonlyMap<string, MessageBranch> {
  const last = lastBranches;
  let same = next.size === last.size;
  if (same)
    for (const [id, b] of next) {
      const o = last.get(id);
      if (!o || o.index !== b.index || o.count !== b.count || o.userMessageId !== b.userMessageId) {
        same = false;
        break;
      }
    }
  if (!same) lastBranches = next;
  return lastBranches;
}

let lastCompaction:
  | { messages: readonly UIMessage[]; counts: CompactionSummary; summary: CompactionSummary | undefined }
  | undefined;

/**
 * The transcript's compaction, counted again only when the message list changed (one list per commit), and
 * then only for the messages that changed: while a reply streams into a long transcript one message changes
 * per commit, and reading the metadata of all 2,000 cost more than the rest of the snapshot (paced chat bench).
 * The list says which messages it changed or appended (`publishedChanges`); other lists of the same length
 * are compared message by message.
 */
function compactionOf(messages: readonly UIMessage[]): CompactionSummary | undefined {
  const last = lastCompaction;
  if (last?.messages === messages) return last.summary;
  const before = last?.messages;
  // Indices to count again: named by the list, or all of them when the length is the same (one comparison).
  const at = before && publishedChanges(messages, before);
  let counts: CompactionSummary;
  if (last && before && (at || before.length === messages.length)) {
    counts = { ...last.counts };
    const n = at ? at.length : messages.length;
    for (let k = 0; k < n; k++) {
      const i = at ? (at[k] as number) : k;
      const m = messages[i] as UIMessage;
      const was = before[i];
      if (m === was) continue;
      if (was) countCompaction(counts, was, -1);
      countCompaction(counts, m, 1);
    }
  } else {
    counts = { summaries: 0, toolOutputs: 0, textParts: 0 };
    for (const m of messages) countCompaction(counts, m);
  }
  const same =
    last?.summary !== undefined &&
    last.summary.summaries === counts.summaries &&
    last.summary.toolOutputs === counts.toolOutputs &&
    last.summary.textParts === counts.textParts;
  const summary = same ? last?.summary : compactionOfCounts(counts);
  lastCompaction = { messages, counts, summary };
  return summary;
}

/** Per message list: its last published transcript and the index of the last user message in it (-1: none). */
const lastUsers = new WeakMap<object, { messages: readonly UIMessage[]; index: number }>();

/**
 * The index of the last user message in `messages`, the transcript `list` published. Found again only among the
 * messages that changed since the previous snapshot (`publishedChanges`): a session of thousands of turns, or of
 * thousands of assistant messages without a user message between them (streams that never end), walked back
 * through all of them at every frame.
 */
function lastUserIndex(list: object, messages: readonly UIMessage[]): number {
  const last = lastUsers.get(list);
  if (last?.messages === messages) return last.index;
  const at = last && publishedChanges(messages, last.messages);
  let index = -1;
  let known = false;
  if (last && at) {
    index = last.index;
    known = true;
    for (const i of at) {
      const user = messages[i]?.role === "user";
      if (i === index && !user) {
        // The last user message is one no longer: look again.
        known = false;
        break;
      }
      if (i > index && user) index = i;
    }
  }
  if (!known) {
    index = messages.length - 1;
    while (index >= 0 && messages[index]?.role !== "user") index--;
  }
  lastUsers.set(list, { messages, index });
  return index;
}

/**
 * Who started the first live stream this tab did not ask for. The agent's own turns: a `detached-delivery:`
 * turn, a recovery (its id named by `cf_agent_chat_recovering`), or a reply to a server-injected message;
 * otherwise a user typed it elsewhere.
 */
function serverStreamOf<M extends UIMessage>(
  c: ChatStatusSource<M>,
  lastUser: number,
): { id: string; source: "server" | "another-tab" } | undefined {
  for (const [id, origin] of c.rm.activeStreams) {
    if (!shownAsServer(c, id, origin)) continue;
    if (id.startsWith("detached-delivery:") || c.recovering || c.recoveryIds.has(id))
      return { id, source: "server" };
    const ms = c.list.messages;
    const streamed = c.streamMessage.get(id);
    // The last user message, unless the stream writes that very message (then the one before it).
    let i = lastUser;
    if (i === ms.length - 1 && streamed !== undefined && ms[i]?.id === streamed) {
      i--;
      while (i >= 0 && ms[i]?.role !== "user") i--;
    }
    const prompt = ms[i];
    return { id, source: prompt && classifySyntheticMessage(prompt) ? "server" : "another-tab" };
  }
  return undefined;
}

/**
 * As the official hook: `submitted` from a request of this tab, a tool result or approval awaiting its
 * continuation, or a stream found by a resume probe, until its first content chunk; `streaming` while it
 * delivers. The wait for the answer to a resume probe stays `ready`, as upstream's. Streams of other tabs and of the server
 * show as `isServerStreaming` instead, and so do client tool calls still running here.
 */
export function currentStatus<M extends UIMessage>(c: ChatStatusSource<M>): ChatStatus {
  if (c.failed) return "error";
  let waiting = c.localRequest !== undefined && !c.stopped.has(c.localRequest);
  for (const [id, origin] of c.rm.activeStreams) {
    if (!asked(c, id, origin) || c.stopped.has(id)) continue;
    if (c.started.has(id)) return "streaming";
    waiting = true;
  }
  return waiting || c.rm.isToolContinuation ? "submitted" : "ready";
}

/**
 * A stream this tab asked for: its own request, its tool continuation, or one a probe of its own found (also
 * one it was showing as another's, see `claimed`). Others (another tab's turn, an offer nobody here asked
 * for) show as `isServerStreaming`, as upstream's observer does, and never hold `status`.
 */
function asked<M extends UIMessage>(c: ChatStatusSource<M>, id: string, origin: StreamOrigin): boolean {
  if (origin === "local") return true;
  return c.probed.has(id) || c.rm.continuationStream === id;
}

/**
 * A live stream shown as `isServerStreaming`: one this tab did not ask for, or one it showed so until a probe
 * of its own claimed it (upstream's observer stays on until that stream's `done`).
 */
function shownAsServer<M extends UIMessage>(
  c: ChatStatusSource<M>,
  id: string,
  origin: StreamOrigin,
): boolean {
  return (!asked(c, id, origin) || c.claimed.has(id)) && !c.stopped.has(id);
}

function serverStreaming<M extends UIMessage>(c: ChatStatusSource<M>): boolean {
  for (const [id, origin] of c.rm.activeStreams) if (shownAsServer(c, id, origin)) return true;
  return hasPendingClientToolCalls(c);
}

/** A client tool call of the last message is running here, or will (its tool has `execute`). */
function hasPendingClientToolCalls<M extends UIMessage>(c: ChatStatusSource<M>): boolean {
  const last = c.list.messages.at(-1);
  if (last?.role !== "assistant") return false;
  const { tools } = c.options;
  if (!tools && c.toolCallsRunning.size === 0) return false;
  const confirm = confirmationTools(c);
  for (const p of last.parts) {
    if (!isToolUIPart(p) || p.state !== "input-available") continue;
    const name = getToolName(p as ToolPartLike);
    if (confirm.includes(name)) continue;
    if (c.toolCallsRunning.has((p as ToolPartLike).toolCallId) || tools?.[name]?.execute) return true;
  }
  return false;
}

/** Tools whose calls wait for a human: `toolsRequiringConfirmation`, or the `tools` without `execute`. */
export function confirmationTools<M extends UIMessage>(c: ChatStatusSource<M>): string[] {
  return c.options.toolsRequiringConfirmation ?? detectToolsRequiringConfirmation(c.options.tools);
}

/** A request of ours is running, or the assistant waits for a tool result or an approval. */
export function isRequesting<M extends UIMessage>(c: ChatStatusSource<M>): boolean {
  const status = currentStatus(c);
  return status === "submitted" || status === "streaming";
}

/** A request of ours is running, or the last assistant message waits for a tool result or an approval. */
export function isBusy<M extends UIMessage>(c: ChatStatusSource<M>): boolean {
  if (isRequesting(c)) return true;
  const last = c.list.messages.at(-1);
  return (
    last?.role === "assistant" &&
    last.parts.some(
      (p) => isToolUIPart(p) && (p.state === "input-available" || p.state === "approval-requested"),
    )
  );
}
