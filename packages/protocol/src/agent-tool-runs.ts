/**
 * Reducer for `agent-tool-event` frames: child (sub-agent) runs, grouped by the tool call that spawned them
 * (docs/protocol.md#agent-tool-events).
 *
 * ## Dedupe rule
 * The reference describes a `(parentToolCallId, runId, sequence)` dedupe key. On the real server (agents 0.32)
 * that key is not unique: progress and milestone chunks, and chunks too large to store (`unstoredId`), are not
 * written to the child's chunk store and reuse the sequence of the next stored chunk (one sequence was seen four
 * times: two progress frames, a milestone and a tool output), so that rule would drop the second progress, the
 * milestone and the tool output. (agents 0.32's own hook keys those frames by progress id, milestone sequence
 * and `unstoredId` instead.) Connect-time replay numbers only stored chunks and carries no progress. So:
 *
 * - Stored chunks (every chunk except `data-agent-progress` / `data-agent-milestone`) carry their index in the
 *   child's chunk store, live and replayed alike, numbered 1, 2, 3, … without gaps. Per run we keep the highest
 *   index applied and apply a stored chunk only when its sequence is the next one. A sequence at or below it is
 *   a replay or a duplicate and is dropped, so text is never doubled; a chunk is never lost to a progress frame
 *   that shared its number. A chunk that arrives early (above the next index) waits until the gap fills, even
 *   after the run ended; the waiting ones are applied in order anyway once more than `MAX_GAP` are waiting, so
 *   a server that numbered with gaps would delay chunks, never lose them.
 * - Progress chunks are never deduped by sequence. Latest wins, except that one carrying a lower sequence than
 *   the progress already shown (a late or replayed frame) is dropped, and an exact repeat of a progress chunk id
 *   is dropped; so the bar never moves backwards.
 * - Milestones are deduped by the milestone's own `data.sequence`, kept sorted; only a milestone newer than all
 *   seen moves the progress snapshot, so a late replay never rolls it back. They are kept in `milestones`, not
 *   in `parts`: replay cannot carry them, and a run must look the same whether it was watched live or replayed.
 * - Lifecycle events are guarded by kind, not sequence (detached terminals use `Date.now()` as sequence):
 *   `started` creates a run and is ignored once the run is terminal; `finished`, `error` and `aborted` are
 *   final and the first one wins; `interrupted` is a soft seal that any later terminal replaces. After a final
 *   one, progress is ignored and a late milestone joins the timeline without moving the progress snapshot.
 * - Frames for a run whose `started` was never seen are ignored without being remembered, so a later replay
 *   (which always begins with `started`) can still deliver them.
 *
 * ## Bounds (a long session must not get slower or bigger with age)
 * - Finished runs beyond `maxFinishedRuns` are evicted, the earliest to finish first; a running run never
 *   is. The ids of evicted runs are remembered (the latest `10 × maxFinishedRuns`) so the replay of the next
 *   connect does not bring them back.
 * - A run keeps its newest `maxMilestones` milestones; `omittedMilestones` counts the others.
 * - Dedupe sets hold recent ids only (see `RECENT_IDS`).
 */
import type { UIMessageChunk } from "ai";
import { type AgentToolFailure, failureOfRunEnd, sameFailure } from "./agent-tool-failure.ts";
import type {
  AgentToolMilestone,
  AgentToolRunProgress,
  AgentToolRunState,
  AgentToolRunStatus,
} from "./agent-tool-run-state.ts";
import { applyChunkToParts, copyOnWriteTarget, createPartContext, type Part } from "./chunk-applier.ts";
import type { AgentToolEventFrame } from "./frames.ts";
import { parseChunkBody } from "./parse.ts";

export * from "./agent-tool-run-state.ts";
export {
  type AgentToolApplyResult,
  type AgentToolRunsOptions,
  type AgentToolRunsState,
  compareRuns,
  DEFAULT_MAX_FINISHED_RUNS,
  DEFAULT_MAX_MILESTONES,
  RECENT_IDS,
} from "./agent-tool-runs-support.ts";

import {
  type AgentToolApplyResult,
  type AgentToolRunsOptions,
  type AgentToolRunsState,
  addRecent,
  capOf,
  DEFAULT_MAX_FINISHED_RUNS,
  DEFAULT_MAX_MILESTONES,
  EMPTY_STATE,
  EVICTED_MEMORY,
  isTime,
  lowerBound,
  NO_IDS,
  placeRun,
  RECENT_IDS,
  type RunBook,
  record,
  runIndex,
} from "./agent-tool-runs-support.ts";

const PROGRESS = "data-agent-progress";
const MILESTONE = "data-agent-milestone";
const HARD_TERMINAL = new Set<AgentToolRunStatus>(["completed", "error", "aborted"]);
/** How many early chunks a run holds back before it stops waiting for the missing ones. */
export const MAX_GAP = 32;

/** How many not-yet-started runs may have frames waiting for their `started`. */
const MAX_WAITING_RUNS = 16;

/** An incremental reducer over agent-tool events with copy-on-write snapshots. */
export class AgentToolRunsReducer {
  private readonly books = new Map<string, RunBook>();
  private readonly owned = new Set<object>();
  private readonly changed = new Set<string>();
  private published: AgentToolRunsState = EMPTY_STATE;
  /**
   * The ids of the runs that changed (or were evicted) in the latest snapshot `state` made (empty after
   * `reset`), so a layer over the reducer can update only those instead of walking every run.
   */
  get lastChanges(): readonly string[] {
    return this.snapshotChanges;
  }
  private snapshotChanges: readonly string[] = [];
  private readonly now: () => number;
  private readonly maxFinishedRuns: number;
  private readonly maxMilestones: number;
  /** Finished runs in the order they finished: the first is evicted first. */
  private readonly finished = new Set<string>();
  /** Finished runs marked `stale` (see `start`): evicted before any in `finished`. */
  private readonly finishedStale = new Set<string>();
  /** Ids of evicted runs, the newest `EVICTED_MEMORY × maxFinishedRuns`: their frames are ignored. */
  private readonly evicted = new Set<string>();
  private readonly evictedMemory: number;
  /** Evicted since the last `takeEvicted()`. */
  private evictedSince: string[] = [];
  /** Inside a connect-time replay (frames with `replay: true`), and whether no held run was replayed yet. */
  private inReplay = false;
  private replayAheadOfKnown = false;

  constructor(options: AgentToolRunsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxFinishedRuns = capOf(options.maxFinishedRuns, DEFAULT_MAX_FINISHED_RUNS);
    this.maxMilestones = capOf(options.maxMilestones, DEFAULT_MAX_MILESTONES);
    this.evictedMemory = Math.max(DEFAULT_MAX_FINISHED_RUNS, this.maxFinishedRuns * EVICTED_MEMORY);
  }

  /**
   * The current state; unchanged runs and groups keep their identity. Only the runs changed since the last
   * read are visited: each is put in place in its group (binary search), so a read costs a shallow copy of
   * the id index and of the changed groups, never a scan or sort of every run. The indexes are plain records
   * (the official shape) and a published state never changes, so that copy is O(runs held): what bounds it is
   * `maxFinishedRuns` (plus the runs still running), not the length of the session.
   */
  get state(): AgentToolRunsState {
    if (this.changed.size === 0) return this.published;
    const prev = this.published;
    const runsById = record(prev.runsById);
    const runsByToolCallId = record(prev.runsByToolCallId);
    let unboundRuns = prev.unboundRuns;
    // Group arrays copied during this read, so a group with several changed runs is copied once.
    const fresh = new Set<readonly AgentToolRunState[]>();
    const groupOf = (run: AgentToolRunState): AgentToolRunState[] => {
      const g = run.parentToolCallId;
      let list = g === undefined ? unboundRuns : runsByToolCallId[g];
      if (!list || !fresh.has(list)) {
        list = list ? list.slice() : [];
        fresh.add(list);
        if (g === undefined) unboundRuns = list;
        else runsByToolCallId[g] = list;
      }
      return list as AgentToolRunState[];
    };
    for (const id of this.changed) {
      const book = this.books.get(id);
      if (!book) {
        // Evicted: out of the index and of its group (a group left empty goes, as the official shape has
        // no empty groups).
        const gone = runsById[id];
        if (!gone) continue;
        delete runsById[id];
        const list = groupOf(gone);
        const at = runIndex(list, gone);
        if (list[at]?.runId === id) list.splice(at, 1);
        if (list.length === 0 && gone.parentToolCallId !== undefined)
          delete runsByToolCallId[gone.parentToolCallId];
        continue;
      }
      const run = book.run;
      runsById[id] = run;
      placeRun(groupOf(run), run);
    }
    this.published = { runsById, runsByToolCallId, unboundRuns };
    this.snapshotChanges = [...this.changed];
    this.changed.clear();
    // Published objects are shared from now on; the next write to a run copies it.
    this.owned.clear();
    return this.published;
  }

  /**
   * One run as it is now, without publishing a snapshot (reading `state` copies the id index). The object
   * may still change in place until the next `state` read: read it, do not keep it.
   */
  peekRun(runId: string): AgentToolRunState | undefined {
    return this.books.get(runId)?.run;
  }

  /** Runs spawned by one tool call, in display order. */
  getRunsForToolCall(toolCallId: string): readonly AgentToolRunState[] {
    return (
      this.state.runsByToolCallId[toolCallId] ?? (EMPTY_STATE.unboundRuns as readonly AgentToolRunState[])
    );
  }

  /**
   * Forgets everything (the official `resetLocalState`); the next connect replays retained runs, evicted ones
   * too.
   */
  reset(): void {
    this.books.clear();
    this.waiting.clear();
    this.envelopes.clear();
    this.changed.clear();
    this.owned.clear();
    this.finished.clear();
    this.finishedStale.clear();
    this.evicted.clear();
    this.evictedSince = [];
    this.inReplay = this.replayAheadOfKnown = false;
    this.published = EMPTY_STATE;
    this.snapshotChanges = [];
  }

  /**
   * The ids of the runs evicted since the last call (`maxFinishedRuns`), so a layer over the reducer can drop
   * what it keeps for them (the client store removes their saved progress).
   */
  takeEvicted(): readonly string[] {
    if (this.evictedSince.length === 0) return NO_IDS;
    const out = this.evictedSince;
    this.evictedSince = [];
    return out;
  }

  /**
   * Says that a replay is over: call it for a frame that is not an `agent-tool-event` (the frames a connect
   * sends before its replay: identity, state, MCP list, chat frames). A live `agent-tool-event` says so too.
   */
  endReplay(): void {
    this.inReplay = false;
  }

  /** A run ended: it joins the finished ones, and the oldest finished beyond `maxFinishedRuns` are evicted. */
  private ended(book: RunBook): void {
    const id = book.run.runId;
    (book.stale ? this.finishedStale : this.finished).add(id);
    while (this.finished.size + this.finishedStale.size > this.maxFinishedRuns) {
      const from = this.finishedStale.size > 0 ? this.finishedStale : this.finished;
      const victim = from.values().next().value as string;
      from.delete(victim);
      this.books.delete(victim);
      this.changed.add(victim);
      addRecent(this.evicted, victim, this.evictedMemory);
      this.evictedSince.push(victim);
    }
  }

  /**
   * Frames of a run whose `started` has not arrived yet. A link that reorders can deliver a run's first chunks
   * before its `started` (found by the fault suites: the first text of a run went missing). They are applied,
   * with the usual dedupe, once it starts; a replay that starts the run brings them again anyway. Bounded:
   * a run that never starts costs at most `MAX_GAP` frames, and only the newest `MAX_WAITING_RUNS` runs wait.
   */
  private readonly waiting = new Map<string, AgentToolEventFrame[]>();

  private hold(frame: AgentToolEventFrame): AgentToolApplyResult {
    const runId = frame.event.runId;
    let list = this.waiting.get(runId);
    if (!list) {
      list = [];
      this.waiting.set(runId, list);
      if (this.waiting.size > MAX_WAITING_RUNS)
        this.waiting.delete(this.waiting.keys().next().value as string);
    }
    if (list.length >= MAX_GAP) list.shift();
    list.push(frame);
    return { kind: "ignored", runId, reason: `${frame.event.kind} for a run that has not started (held)` };
  }

  /** Applies one parsed `agent-tool-event` frame. */
  apply(frame: AgentToolEventFrame): AgentToolApplyResult {
    const ev = frame.event;
    const runId = ev.runId;
    const book = this.books.get(runId);
    if (frame.replay !== true) this.inReplay = false;
    else if (!this.inReplay) {
      // A replay begins: until it replays a run held here, the runs it brings started before every held one.
      this.inReplay = true;
      this.replayAheadOfKnown = this.books.size > 0;
    }
    if (!book && this.evicted.has(runId))
      return { kind: "ignored", runId, reason: "run was evicted (maxFinishedRuns)" };
    if (ev.kind === "started") {
      const result = this.start(frame, book);
      const held = this.waiting.get(runId);
      if (held && result.kind === "applied") {
        this.waiting.delete(runId);
        for (const f of held) this.apply(f);
      }
      const callId = frame.parentToolCallId;
      const envelope = callId === undefined ? undefined : this.envelopes.get(callId);
      if (envelope && callId !== undefined && result.kind === "applied") {
        this.envelopes.delete(callId);
        const started = this.books.get(runId);
        if (started) this.joinEnvelope(started, envelope);
      }
      return result;
    }
    if (!book) return this.hold(frame);
    if (ev.kind === "chunk") return this.chunk(book, frame.sequence, ev.body, ev.unstoredId);

    const status = book.run.status;
    if (HARD_TERMINAL.has(status)) return book.duplicate;
    const wasRunning = status === "running";
    // Chunks waiting behind a gap keep waiting after the end: the missing one can still come, from a link
    // that reordered frames or from the replay after a reconnect. (Flushing here lost it for good, since a
    // late chunk at or below the applied index counts as a duplicate: found by the fault suites, text went
    // missing from runs whose chunks were overtaken by their own terminal event.) The store numbers stored
    // chunks without gaps, so the wait ends; `MAX_GAP` bounds it all the same.
    const run = this.writable(book);
    switch (ev.kind) {
      case "finished":
        run.status = "completed";
        run.summary = ev.summary;
        delete run.error;
        delete run.failure;
        delete run.retryable;
        delete run.reason;
        delete run.childStillRunning;
        break;
      case "error":
        run.status = "error";
        run.error = ev.error;
        break;
      case "aborted":
        run.status = "aborted";
        if (ev.reason !== undefined) run.error = ev.reason;
        break;
      case "interrupted":
        run.status = "interrupted";
        run.error = ev.error;
        if (ev.reason !== undefined) run.reason = ev.reason;
        if (ev.childStillRunning !== undefined) run.childStillRunning = ev.childStillRunning;
        break;
    }
    if (run.status !== "completed") {
      // The envelope, when it came first, is what the model was told: it stays. Else the event's own words,
      // shaped as `agentTool()` shapes its envelope from the same result.
      if (!book.envelope) run.failure = failureOfRunEnd(run);
      run.retryable = run.failure?.retryable ?? false;
    }
    if (wasRunning) this.ended(book);
    return book.applied;
  }

  /**
   * The parent tool part's failure envelope (from `parseAgentToolFailure`), joined to the run its tool call
   * spawned. Held for a run not started yet (replayed messages may come first), the newest `MAX_WAITING_RUNS`.
   */
  applyToolFailure(toolCallId: string, failure: AgentToolFailure): AgentToolApplyResult {
    const runId = `agent-tool:${toolCallId}`;
    if (this.evicted.has(runId))
      return { kind: "ignored", runId, reason: "run was evicted (maxFinishedRuns)" };
    let book = this.books.get(runId);
    for (const b of book ? [] : this.books.values()) if (b.run.parentToolCallId === toolCallId) book ??= b;
    if (book) return this.joinEnvelope(book, failure);
    this.envelopes.set(toolCallId, failure);
    if (this.envelopes.size > MAX_WAITING_RUNS)
      this.envelopes.delete(this.envelopes.keys().next().value as string);
    return { kind: "ignored", runId, reason: "no run for this tool call yet (held)" };
  }

  private readonly envelopes = new Map<string, AgentToolFailure>();

  private joinEnvelope(book: RunBook, failure: AgentToolFailure): AgentToolApplyResult {
    if (book.envelope && sameFailure(book.envelope, failure)) return book.duplicate;
    book.envelope = failure;
    const run = this.writable(book);
    const wasRunning = run.status === "running";
    if (wasRunning || (run.status === "interrupted" && failure.status !== "interrupted"))
      run.status = failure.status;
    run.failure = failure;
    run.retryable = failure.retryable;
    if (run.error === undefined && !failure.malformed) run.error = failure.error;
    if (failure.reason !== undefined) run.reason = failure.reason;
    if (failure.childStillRunning !== undefined) run.childStillRunning = failure.childStillRunning;
    if (wasRunning && run.status !== "running") this.ended(book);
    return book.applied;
  }

  private start(frame: AgentToolEventFrame, book: RunBook | undefined): AgentToolApplyResult {
    const ev = frame.event as Extract<AgentToolEventFrame["event"], { kind: "started" }>;
    if (book && frame.replay === true) this.replayAheadOfKnown = false;
    if (book) {
      // A replayed `started` after the run ended must not revive it.
      if (book.run.status !== "running")
        return { kind: "ignored", runId: ev.runId, reason: "run already ended" };
      return { kind: "duplicate", runId: ev.runId };
    }
    const run: AgentToolRunState = {
      runId: ev.runId,
      agentType: ev.agentType,
      order: typeof ev.order === "number" ? ev.order : 0,
      status: "running",
      parts: [],
      milestones: [],
      subAgent: { agent: ev.agentType, name: ev.runId },
    };
    if (frame.parentToolCallId !== undefined) run.parentToolCallId = frame.parentToolCallId;
    if (ev.inputPreview !== undefined) run.inputPreview = ev.inputPreview;
    if (ev.display !== undefined) run.display = ev.display;
    this.owned.add(run);
    this.owned.add(run.parts);
    this.owned.add(run.milestones);
    this.books.set(ev.runId, {
      run,
      storedHigh: 0,
      progressSeq: Number.NEGATIVE_INFINITY,
      progressIds: new Set(),
      unstoredIds: new Set(),
      milestoneHigh: Number.NEGATIVE_INFINITY,
      omittedSeqs: new Set(),
      // The replay sends runs in start order (docs/protocol.md#agent-tool-replay), so a run it brings before
      // any run held here started before all of them: one evicted so long ago that its id was forgotten. It
      // is evicted first, so it cannot push out the newer runs the same replay brings next.
      stale: frame.replay === true && this.replayAheadOfKnown,
      ctx: createPartContext(),
      early: new Map(),
      applied: Object.freeze({ kind: "applied", runId: ev.runId }),
      duplicate: Object.freeze({ kind: "duplicate", runId: ev.runId }),
    });
    this.changed.add(ev.runId);
    return { kind: "applied", runId: ev.runId };
  }

  private chunk(book: RunBook, sequence: number, body: string, unstoredId?: string): AgentToolApplyResult {
    const runId = book.run.runId;
    const parsed = parseChunkBody(body);
    if (parsed.kind === "empty") return { kind: "ignored", runId, reason: "empty chunk body" };
    if (parsed.kind === "error") {
      // The server stored this chunk; remember its number so a replay of the same bad body is not re-reported.
      if (sequence > book.storedHigh) book.storedHigh = sequence;
      return { kind: "error", runId, reason: parsed.reason };
    }
    const chunk = parsed.chunk as UIMessageChunk & { type: string; id?: unknown; data?: unknown };
    if (chunk.type === PROGRESS) return this.progress(book, sequence, chunk);
    if (chunk.type === MILESTONE) return this.milestone(book, chunk.data, sequence);
    if (typeof unstoredId === "string") {
      // Never replayed and it does not own its sequence (the next stored chunk has it): dedupe by its id. Its
      // sequence cannot reject a repeat (a reordering link may deliver it after the chunk that owns that
      // number), so the recent ids decide: a repeat comes from a link that duplicated the frame, right after
      // it, never from a replay. One repeated after `RECENT_IDS` newer unstored chunks would apply again.
      if (book.unstoredIds.has(unstoredId)) return book.duplicate;
      addRecent(book.unstoredIds, unstoredId, RECENT_IDS);
      return this.applyToParts(book, chunk);
    }
    if (sequence <= book.storedHigh || (book.early.size > 0 && book.early.has(sequence)))
      return book.duplicate;
    if (sequence > book.storedHigh + 1) {
      book.early.set(sequence, chunk);
      if (book.early.size > MAX_GAP) this.flushEarly(book);
      return { kind: "buffered", runId };
    }
    const result = this.applyStored(book, sequence, chunk);
    if (book.early.size === 0) return result;
    // The chunk may have filled a gap: apply the ones that were waiting behind it.
    for (let next = book.early.get(book.storedHigh + 1); next; next = book.early.get(book.storedHigh + 1)) {
      book.early.delete(book.storedHigh + 1);
      this.applyStored(book, book.storedHigh + 1, next);
    }
    return result;
  }

  /** Applies every early chunk in sequence order, accepting the gaps. */
  private flushEarly(book: RunBook): void {
    if (book.early.size === 0) return;
    const waiting = [...book.early].sort((a, b) => a[0] - b[0]);
    book.early.clear();
    for (const [seq, chunk] of waiting) this.applyStored(book, seq, chunk);
  }

  private applyStored(book: RunBook, sequence: number, chunk: UIMessageChunk): AgentToolApplyResult {
    book.storedHigh = sequence;
    return this.applyToParts(book, chunk);
  }

  private applyToParts(book: RunBook, chunk: UIMessageChunk): AgentToolApplyResult {
    const parts = this.writable(book).parts;
    // The target only holds the array and the owned set, so it is reused until the run's array is copied.
    if (book.target?.parts !== parts) book.target = copyOnWriteTarget(parts, this.owned);
    const effect = applyChunkToParts(book.target, book.ctx, chunk);
    if (effect.kind === "ignored") return { kind: "ignored", runId: book.run.runId, reason: effect.reason };
    return book.applied;
  }

  private progress(
    book: RunBook,
    sequence: number,
    chunk: { id?: unknown; data?: unknown },
  ): AgentToolApplyResult {
    const runId = book.run.runId;
    // A finished run's state is final (issue 26 §3): a progress frame delivered after the terminal (a reordered
    // link, a slow replay) must not turn "Done" back into "Searching…".
    if (HARD_TERMINAL.has(book.run.status))
      return { kind: "ignored", runId, reason: "progress after the run ended" };
    if (sequence < book.progressSeq)
      return { kind: "ignored", runId, reason: "progress older than the one shown" };
    // Only ids at the sequence shown can repeat unseen: a repeat of an earlier one carries a lower sequence
    // and is dropped above. So the ids are forgotten when the sequence moves on, and at one sequence (a
    // child reporting progress without storing chunks numbers it all alike) the newest `RECENT_IDS` are
    // kept: a duplicate comes right after its original; one after that many newer would show once more.
    if (sequence > book.progressSeq) book.progressIds.clear();
    if (typeof chunk.id === "string") {
      if (book.progressIds.has(chunk.id)) return book.duplicate;
      addRecent(book.progressIds, chunk.id, RECENT_IDS);
    }
    book.progressSeq = sequence;
    const d = (chunk.data ?? {}) as Record<string, unknown>;
    const progress: AgentToolRunProgress = { at: this.now() };
    if (typeof d.fraction === "number") progress.fraction = d.fraction;
    if (typeof d.message === "string") progress.message = d.message;
    if (typeof d.phase === "string") progress.phase = d.phase;
    if (d.data !== undefined) progress.data = d.data;
    this.writable(book).progress = progress;
    return book.applied;
  }

  private milestone(book: RunBook, data: unknown, frameSequence: number): AgentToolApplyResult {
    const runId = book.run.runId;
    const d = (data ?? {}) as Record<string, unknown>;
    if (typeof d.name !== "string")
      return { kind: "error", runId, reason: "milestone without a string 'name'" };
    const sequence = typeof d.sequence === "number" ? d.sequence : 0;
    // Deduped against the kept list (binary search) and the recent sequences not kept.
    const at = lowerBound(book.run.milestones, sequence);
    if (book.run.milestones[at]?.sequence === sequence || book.omittedSeqs.has(sequence))
      return book.duplicate;
    if (at === 0 && book.run.milestones.length >= this.maxMilestones) {
      // Older than every kept milestone of a full list: counted, not kept (and never the newest, so the
      // progress snapshot stays).
      this.omit(book, this.writable(book), sequence);
      return book.applied;
    }
    const m: AgentToolMilestone = {
      name: d.name,
      sequence,
      at: isTime(d.at) ? d.at : this.now(),
    };
    if (typeof d.fraction === "number") m.fraction = d.fraction;
    if (typeof d.message === "string") m.message = d.message;
    if (typeof d.phase === "string") m.phase = d.phase;
    if (d.data !== undefined) m.data = d.data;
    const run = this.writable(book);
    // The list is copied once per published snapshot (consumers keep the old one), then written in place.
    let list = run.milestones as AgentToolMilestone[];
    if (!this.owned.has(list)) {
      list = list.slice();
      this.owned.add(list);
      run.milestones = list;
    }
    // Frames nearly always come in order, so the usual case is a push; otherwise one splice of at most
    // `maxMilestones` elements.
    if (at === list.length) list.push(m);
    else list.splice(at, 0, m);
    if (list.length > this.maxMilestones) this.omit(book, run, (list.shift() as AgentToolMilestone).sequence);
    // A milestone delivered after the terminal still belongs on the timeline (it happened), but the run's last
    // progress is final once it ended.
    if (sequence > book.milestoneHigh && !HARD_TERMINAL.has(run.status)) {
      book.milestoneHigh = sequence;
      // The snapshot it sets is as new as its frame: a progress frame sent before it and delivered after it
      // must not replace it (found by the fault suites, a reordered link lost the milestone name).
      if (frameSequence > book.progressSeq) book.progressSeq = frameSequence;
      // A milestone without its own fraction/phase/message keeps the ones already shown: the real server's
      // milestones often carry only a name, and the bar should not jump back to indeterminate.
      const prev = run.progress;
      const p: AgentToolRunProgress = { milestone: m.name, at: m.at };
      if (prev?.fraction !== undefined) p.fraction = prev.fraction;
      if (prev?.message !== undefined) p.message = prev.message;
      if (prev?.phase !== undefined) p.phase = prev.phase;
      if (m.fraction !== undefined) p.fraction = m.fraction;
      if (m.message !== undefined) p.message = m.message;
      if (m.phase !== undefined) p.phase = m.phase;
      run.progress = p;
    }
    return book.applied;
  }

  /** Counts a milestone not kept (`omittedMilestones`) and remembers its sequence for a while. */
  private omit(book: RunBook, run: AgentToolRunState, sequence: number): void {
    run.omittedMilestones = (run.omittedMilestones ?? 0) + 1;
    addRecent(book.omittedSeqs, sequence, RECENT_IDS);
  }

  /** The run as a mutable object, copied first if it was published. */
  private writable(book: RunBook): AgentToolRunState & { parts: Part[] } {
    this.changed.add(book.run.runId);
    if (!this.owned.has(book.run)) {
      const copy = { ...book.run, parts: book.run.parts.slice() };
      this.owned.add(copy);
      this.owned.add(copy.parts);
      book.run = copy;
    }
    return book.run as AgentToolRunState & { parts: Part[] };
  }
}
