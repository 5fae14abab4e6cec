/**
 * A chat transcript that chat streams are applied to (docs/protocol.md#client-merge-rules, docs/protocol.md#transcript-sync).
 *
 * Streams are keyed by their request id. A new (non-continuation) stream writes the message named by its
 * server-stamped `start.messageId`; a continuation appends to the last assistant message whatever its id.
 * A `start` that opens a stream rebuilds the message from scratch, so a replay — even one offered twice —
 * never doubles content that was hydrated or already streamed.
 *
 * Cost: the working list is mutated in place with copy-on-write, so a text delta is O(1) amortised and never
 * clones the list. `messages` publishes an immutable snapshot; messages that did not change since the last
 * snapshot keep their object identity, and `publishedChanges` tells a reader which ones did.
 */
import type { UIMessage, UIMessageChunk } from "ai";
import {
  applyChunkToParts,
  copyOnWriteTarget,
  createPartContext,
  findToolPartIndex,
  type Part,
  type PartContext,
  type PartsEffect,
  type PartsTarget,
  toolPartIndexOf,
  updateToolPart,
} from "./chunk-applier.ts";

/** Flags of the frame a chunk came in. */
export interface StreamFrameFlags {
  continuation?: boolean;
  replay?: boolean;
}

/** What applying one chunk did, for the caller's callbacks (`onData`, `onFinish`, errors). */
export interface ChunkOutcome {
  /** The message the chunk was applied to, if any. */
  messageId?: string;
  effect: PartsEffect | { kind: "start" | "finish" | "metadata" | "error" | "abort" };
  /** From either host's `finish` shape: top-level (Think) or in `messageMetadata` (AIChatAgent). */
  finishReason?: string;
  /** The text of an in-band `error` chunk. */
  errorText?: string;
}

interface StreamState {
  messageId: string | undefined;
  continuation: boolean;
  sawStart: boolean;
  ctx: PartContext;
  /** For continuations: the message as it was before this stream touched it, so a replay can start over. */
  base?: { parts: Part[]; metadata: unknown };
  /** A replay this list must not apply (see `replayOfEnded`): its chunks are dropped until it ends. */
  discard?: boolean;
}

/**
 * A continuation that ended: the message it wrote and what that message held before it; `null` when it
 * ended here without one chunk of it applied (see `endStream`).
 */
type EndedContinuation = { messageId: string; base: { parts: Part[]; metadata: unknown } } | null;

/** How many ended continuations are remembered for a late replay; only recent ones can still be replayed. */
const MAX_ENDED_CONTINUATIONS = 32;

type Msg = UIMessage;

/**
 * Per snapshot a `MessageList` published: the snapshot published before it and the indices that differ. Only
 * for a publish with nothing removed or replaced wholesale in between (see `publishedChanges`).
 */
const publications = new WeakMap<
  readonly unknown[],
  { prev: readonly unknown[]; changed: readonly number[] }
>();
const NONE: readonly number[] = Object.freeze([]);

/**
 * Which messages differ between two transcripts a `MessageList` published, when it knows: the indices `i`
 * (ascending) where `next[i]` may be another object than `prev[i]`. `next` is `prev` with messages changed in
 * place and possibly some appended: every index from `prev.length` on is listed (those messages are new, with
 * ids `prev` does not hold), a listed index below it keeps its id, and at every index not listed the message is
 * the same object. `undefined` means unknown: compare the arrays yourself. That is the answer unless `next` is
 * the snapshot published right after `prev` (or the same array) and nothing was removed (`truncate`) or
 * replaced wholesale (`replaceAll`) in between, and for arrays no `MessageList` published (another store's, a
 * branch view).
 *
 * Why: while a reply streams into a long transcript one message changes per snapshot, and a reader that finds
 * it by comparing all messages (a row-per-message hub, a compaction count) pays for the whole transcript on
 * every animation frame. Only the pair of consecutive snapshots is remembered, so an old snapshot does not
 * keep the ones before it alive.
 *
 * @example
 * ```ts
 * const changed = publishedChanges(next, prev);
 * if (changed) for (const i of changed) onMessageChanged(next[i]);
 * else next.forEach((m, i) => m !== prev[i] && onMessageChanged(m)); // unknown: compare every message
 * ```
 */
export function publishedChanges(
  next: readonly unknown[],
  prev: readonly unknown[],
): readonly number[] | undefined {
  if (next === prev) return NONE;
  const p = publications.get(next);
  return p?.prev === prev ? p.changed : undefined;
}

/** Options of a message list. */
export interface MessageListOptions {
  /** Id for an assistant message of a stream that never sent `start.messageId`. Default `stream:<id>`. */
  messageIdForStream?: (streamId: string) => string;
}

/** A transcript plus the streams being applied to it. */
export class MessageList {
  private list: Msg[];
  private readonly index = new Map<string, number>();
  private owned = new Set<object>();
  private published: readonly Msg[];
  private dirty = false;
  /** Indices replaced or appended since `published` (for `publishedChanges`), unless `removed`. */
  private touched: number[] = [];
  /** Messages were removed since `published`: the next snapshot's changes are not recorded. */
  private removed = false;
  private readonly streams = new Map<string, StreamState>();
  /**
   * Tool call id → part index, per message a live stream writes (built at its first tool chunk, dropped when its
   * stream ends or its parts are replaced other than by a chunk): a tool chunk finds its part without a walk.
   */
  private readonly toolIndexes = new Map<string, Map<string, number>>();
  private readonly endedContinuations = new Map<string, EndedContinuation>();
  private readonly idFor: (streamId: string) => string;

  constructor(initial: readonly Msg[] = [], options: MessageListOptions = {}) {
    this.list = initial.slice();
    this.published = initial;
    this.idFor = options.messageIdForStream ?? ((id) => `stream:${id}`);
    this.reindex();
  }

  /** The current transcript. Cheap when nothing changed; unchanged messages keep their identity. */
  get messages(): readonly Msg[] {
    if (this.dirty) {
      const prev = this.published;
      const next = this.list.slice();
      // Only consecutive snapshots are linked: `prev` stops naming its own predecessor, so no chain of old
      // snapshots stays reachable from the newest one.
      publications.delete(prev);
      if (!this.removed) publications.set(next, { prev, changed: sortedUnique(this.touched) });
      this.published = next;
      this.touched = [];
      this.removed = false;
      // Everything handed out is now shared: the next write to it must copy first.
      this.owned = new Set();
      this.dirty = false;
    }
    return this.published;
  }

  /** The message with this id as `messages` holds it (pending changes are published first), without a scan. */
  get(id: string): Msg | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.messages[i];
  }

  /** Number of messages, without publishing a snapshot. */
  get length(): number {
    return this.list.length;
  }

  /** True while a stream with this id is being applied. */
  hasStream(streamId: string): boolean {
    return this.streams.has(streamId);
  }

  /** Ids of the streams being applied. */
  activeStreams(): string[] {
    return [...this.streams.keys()];
  }

  /** Applies one chunk of stream `streamId`. */
  applyChunk(streamId: string, chunk: UIMessageChunk, flags: StreamFrameFlags = {}): ChunkOutcome {
    const c = chunk as UIMessageChunk & Record<string, unknown>;
    let stream = this.streams.get(streamId);
    if (!stream) {
      stream = {
        messageId: undefined,
        continuation: flags.continuation === true,
        sawStart: false,
        ctx: createPartContext(),
        ...(flags.replay ? this.replayOfEnded(streamId) : {}),
      };
      this.streams.set(streamId, stream);
    }
    if (stream.discard)
      return { effect: { kind: "ignored", reason: "replay of a continuation already shown" } };
    if (flags.continuation) stream.continuation = true;

    if (c.type === "start") return this.applyStart(streamId, stream, c, flags);

    const i = this.targetIndex(streamId, stream);
    const msg = this.ownMessage(i);
    switch (c.type) {
      case "finish": {
        this.mergeMetadata(i, c.messageMetadata);
        const meta = c.messageMetadata as { finishReason?: unknown } | undefined;
        const reason = c.finishReason ?? meta?.finishReason;
        return {
          messageId: msg.id,
          effect: { kind: "finish" },
          ...(typeof reason === "string" ? { finishReason: reason } : {}),
        };
      }
      case "message-metadata":
        this.mergeMetadata(i, c.messageMetadata);
        return { messageId: msg.id, effect: { kind: "metadata" } };
      case "error":
        return { messageId: msg.id, effect: { kind: "error" }, errorText: String(c.errorText ?? "") };
      case "abort":
        return { messageId: msg.id, effect: { kind: "abort" } };
    }
    const effect = applyChunkToParts(this.target(msg, true), stream.ctx, chunk);
    if (effect.kind === "elsewhere") return this.applyElsewhere(effect.toolCallId, c, stream.ctx, msg.id);
    return { messageId: msg.id, effect };
  }

  /**
   * Ends stream `streamId` (its `done`, `error` or a local abort). A later live chunk opens a new stream.
   * `continuation` says the ending frame was a live continuation's: one that ends here before any of its
   * chunks was applied had its content delivered another way (the server holds a stream's chunks back from a
   * socket whose resume ACK it has not read yet, while the transcript it sends meanwhile already holds the
   * text), so a later replay of it would append that text a second time (seen in the consumer suite's
   * approval turn under load) and is dropped instead.
   */
  endStream(streamId: string, { continuation = false }: { continuation?: boolean } = {}): void {
    const s = this.streams.get(streamId);
    this.streams.delete(streamId);
    if (s?.messageId !== undefined) this.toolIndexes.delete(s.messageId);
    if (!s) {
      if (continuation) this.rememberEnded(streamId, null);
      return;
    }
    if (!s.continuation || s.discard || s.messageId === undefined || !s.base) return;
    this.rememberEnded(streamId, { messageId: s.messageId, base: s.base });
  }

  private rememberEnded(streamId: string, ended: EndedContinuation) {
    this.endedContinuations.delete(streamId);
    this.endedContinuations.set(streamId, ended);
    if (this.endedContinuations.size > MAX_ENDED_CONTINUATIONS)
      this.endedContinuations.delete(this.endedContinuations.keys().next().value as string);
  }

  /**
   * A replay of a continuation that already ended here: an ACK raced the stream's live end, so the server
   * replays what was already shown (found by the fault suites: the continuation's text came out twice). A
   * continuation appends, so the replay must start over from the message as it was before the continuation,
   * not from what it holds now. When a later assistant message follows that message (Think's end snapshot
   * keeps a continuation as a message of its own, or a newer turn came), the transcript has moved past the
   * stream and the replay is dropped.
   */
  private replayOfEnded(streamId: string): Partial<StreamState> {
    const ended = this.endedContinuations.get(streamId);
    if (ended === undefined) return {};
    if (ended === null) return { discard: true };
    const i = this.index.get(ended.messageId);
    const laterAssistant = i !== undefined && this.list.slice(i + 1).some((m) => m.role === "assistant");
    if (i === undefined || laterAssistant) return { discard: true };
    return { continuation: true, messageId: ended.messageId, base: ended.base };
  }

  /**
   * Points stream `streamId` at another message: the server stored the message it writes under another id
   * than this client gave it (a reply without a `start` id), and a snapshot brought the server's copy.
   */
  rebindStream(streamId: string, messageId: string): void {
    const s = this.streams.get(streamId);
    if (s) s.messageId = messageId;
  }

  /** Drops every stream (clear, a full snapshot that replaces the transcript). */
  endAllStreams(): void {
    this.streams.clear();
    this.toolIndexes.clear();
  }

  /** Appends a message (a user turn) or replaces the one with the same id. */
  upsert(message: Msg): void {
    this.toolIndexes.delete(message.id);
    const i = this.index.get(message.id);
    if (i === undefined) {
      this.index.set(message.id, this.list.length);
      this.list.push(message);
      this.touched.push(this.list.length - 1);
    } else {
      this.list[i] = message;
      this.touched.push(i);
    }
    this.dirty = true;
  }

  /**
   * Replaces the whole transcript (a server snapshot, `setMessages`, clear). Streams in flight keep going and
   * re-attach to their message by id.
   */
  replaceAll(messages: readonly Msg[]): void {
    this.list = messages.slice();
    this.reindex();
    this.toolIndexes.clear();
    this.owned = new Set();
    this.published = messages;
    this.touched = [];
    this.removed = false;
    this.dirty = false;
    for (const s of this.streams.values()) s.ctx = createPartContext();
  }

  /**
   * Applies `cf_agent_message_updated`: the local message with that id, else the first one holding any of its
   * tool calls, takes the server's content but keeps its local id. Never appends (#1094/#1096).
   * Returns false when no message matched.
   */
  applyMessageUpdated(message: Msg): boolean {
    let i = this.index.get(message.id);
    if (i === undefined) {
      const ids = new Set<string>();
      for (const p of message.parts as Array<{ toolCallId?: unknown }>) {
        if (typeof p.toolCallId === "string") ids.add(p.toolCallId);
      }
      if (ids.size > 0) {
        i = this.list.findIndex((m) =>
          (m.parts as Array<{ toolCallId?: unknown }>).some((p) => ids.has(p.toolCallId as string)),
        );
      }
    }
    if (i === undefined || i < 0) return false;
    const local = this.list[i] as Msg;
    this.toolIndexes.delete(local.id);
    this.list[i] = { ...message, id: local.id };
    this.touched.push(i);
    this.dirty = true;
    // Open-block indices of a stream writing this message no longer point at the same parts.
    for (const s of this.streams.values()) if (s.messageId === local.id) s.ctx = createPartContext();
    return true;
  }

  /** Removes messages from `fromIndex` on (regenerate truncates before the regenerated answer). */
  truncate(fromIndex: number): void {
    if (fromIndex >= this.list.length) return;
    this.list = this.list.slice(0, Math.max(0, fromIndex));
    this.reindex();
    this.toolIndexes.clear();
    this.removed = true;
    this.dirty = true;
  }

  // ───────────── internals ─────────────

  private applyStart(
    streamId: string,
    stream: StreamState,
    c: Record<string, unknown>,
    flags: StreamFrameFlags,
  ): ChunkOutcome {
    const restart = !stream.sawStart || flags.replay === true;
    stream.sawStart = true;
    let i: number;
    if (stream.continuation) {
      // A continuation never creates a message: the server strips `messageId` from its `start` (#1235).
      i = this.targetIndex(streamId, stream);
      if (restart && stream.base) {
        // A replay of this continuation starts over from what the message held before it (#1733).
        const m = this.ownMessage(i);
        this.toolIndexes.delete(m.id);
        m.parts = stream.base.parts.slice();
        if (stream.base.metadata === undefined) delete m.metadata;
        else m.metadata = stream.base.metadata;
        this.owned.add(m.parts);
        stream.ctx = createPartContext();
      }
    } else {
      const id = typeof c.messageId === "string" ? c.messageId : (stream.messageId ?? this.idFor(streamId));
      const existing = this.index.get(id);
      if (existing === undefined) {
        i = this.list.length;
        this.list.push({ id, role: "assistant", parts: [] });
        this.index.set(id, i);
        this.touched.push(i);
        this.dirty = true;
      } else {
        i = existing;
        if (restart) {
          // The stream's first chunk is about to arrive again: rebuild rather than append to what is there.
          const m = this.ownMessage(i);
          this.toolIndexes.delete(m.id);
          m.parts.length = 0;
          delete m.metadata;
          stream.ctx = createPartContext();
        }
      }
      stream.messageId = id;
    }
    this.mergeMetadata(i, c.messageMetadata);
    return { messageId: (this.list[i] as Msg).id, effect: { kind: "start" } };
  }

  /** The message a stream writes to, created when the stream never said which. */
  private targetIndex(streamId: string, stream: StreamState): number {
    if (stream.messageId !== undefined) {
      const i = this.index.get(stream.messageId);
      if (i !== undefined) return i;
    }
    if (stream.continuation) {
      for (let i = this.list.length - 1; i >= 0; i--) {
        const m = this.list[i] as Msg;
        if (m.role === "assistant") {
          stream.messageId = m.id;
          if (!stream.base) stream.base = { parts: m.parts.slice(), metadata: m.metadata };
          return i;
        }
      }
    }
    const id = stream.messageId ?? this.idFor(streamId);
    stream.messageId = id;
    const existing = this.index.get(id);
    if (existing !== undefined) return existing;
    this.list.push({ id, role: "assistant", parts: [] });
    this.index.set(id, this.list.length - 1);
    if (stream.continuation) stream.base = { parts: [], metadata: undefined };
    this.touched.push(this.list.length - 1);
    this.dirty = true;
    return this.list.length - 1;
  }

  /** A tool result for a call made in an earlier message: apply it there (docs/protocol.md#applying-chunks). */
  private applyElsewhere(
    toolCallId: string,
    c: UIMessageChunk & Record<string, unknown>,
    ctx: PartContext,
    currentId: string,
  ): ChunkOutcome {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const j = findToolPartIndex((this.list[i] as Msg).parts, toolCallId);
      if (j >= 0) {
        const m = this.ownMessage(i);
        return { messageId: m.id, effect: updateToolPart(this.target(m), j, ctx, c) };
      }
    }
    return {
      messageId: currentId,
      effect: { kind: "ignored", reason: `no tool call '${toolCallId}' in the transcript` },
    };
  }

  /** `indexed`: with the message's tool index (`toolIndexes`), for the message its stream writes. */
  private target(m: Msg, indexed = false): PartsTarget {
    if (!indexed) return copyOnWriteTarget(m.parts as Part[], this.owned);
    let tools = this.toolIndexes.get(m.id);
    if (!tools) {
      tools = toolPartIndexOf(m.parts);
      this.toolIndexes.set(m.id, tools);
    }
    return copyOnWriteTarget(m.parts as Part[], this.owned, tools);
  }

  /** Returns the message at `i`, copied first if it was published, with a parts array of its own. */
  private ownMessage(i: number): Msg {
    const m = this.list[i] as Msg;
    this.dirty = true;
    if (this.owned.has(m)) return m;
    const copy = { ...m, parts: roomyCopy(m.parts) };
    this.owned.add(copy);
    this.owned.add(copy.parts);
    this.list[i] = copy;
    this.touched.push(i);
    return copy;
  }

  private mergeMetadata(i: number, extra: unknown): void {
    if (extra === undefined || extra === null || typeof extra !== "object") return;
    const m = this.ownMessage(i);
    m.metadata = { ...(m.metadata as object | undefined), ...extra };
  }

  private reindex(): void {
    this.index.clear();
    this.list.forEach((m, i) => {
      this.index.set(m.id, i);
    });
  }
}

/** Slots of room a long parts array is copied with (see `roomyCopy`). */
const ROOM: readonly undefined[] = new Array(64).fill(undefined);

/**
 * A copy of `parts` to write to, with room for parts to come. A copy made by `slice()` is full, so the first
 * part appended to it copies the whole array again (an engine grows a full array by reallocating it): for a
 * message with thousands of tool calls every publish paid two copies of its parts instead of one (issue 26 §2).
 * Copied with spare slots past its length instead (V8 keeps a backing store that shrinks by a little); short
 * arrays are sliced, their copies cost nothing.
 */
function roomyCopy(parts: Part[]): Part[] {
  if (parts.length < 256) return parts.slice();
  const copy = parts.concat(ROOM as unknown as Part[]);
  copy.length = parts.length;
  return copy;
}

/** `xs` ascending without repeats (usually one index: the message a stream writes). */
function sortedUnique(xs: number[]): readonly number[] {
  if (xs.length < 2) return xs;
  return [...new Set(xs)].sort((a, b) => a - b);
}
