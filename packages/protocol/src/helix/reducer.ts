/**
 * Reducer for helix-agents streams (docs/helix.md): builds the same run records and snapshot shape as the
 * `agent-tool-event` reducer (`runsById`, `runsByToolCallId`, `unboundRuns`), so RunTray, AgentToolRun,
 * Progress and MilestoneTimeline render helix sub-agents unchanged.
 *
 * - `subagent_start` opens a run (its `subAgentType`, its caller, `input` when present) and puts a tool part
 *   `tool-subagent__<type>` in the caller's transcript (the root agent's, or the calling run's): the run's
 *   `parentToolCallId` is that part's `toolCallId`, so a renderer finds nested runs the way it finds agent-tool
 *   runs, by looking a tool part's id up in `runsByToolCallId`. A `tool_start` of `subagent__<type>` the caller
 *   sent first is that part (no second one is made).
 * - The sub-agent's `text_delta` / `tool_start` / `tool_end` become its transcript parts, `output` its result
 *   (`output`, and `summary` as text), `subagent_end` ends it: `{ success: false, error }` is an `error` run.
 *
 * ## Pairing rule (docs/helix.md#pairing)
 * helix does not specify ids, and two sub-agents of the same type may run in parallel. So:
 * - A chunk that carries an id (`subSessionId` or `runId`; for a start or end also `callId` / `toolCallId`) is
 *   paired by it exactly.
 * - Without one, a `subagent_end` ends the OLDEST open run of that `subAgentType` under the same caller, and a
 *   chunk whose `agentType` names a sub-agent goes to the OLDEST open run of that type (first in, first out).
 *   Two same-type runs are always two runs; only their interleaved content cannot be told apart without ids.
 * - Tool calls: `tool_end` pairs by `toolCallId` when present, else with the oldest open call of that tool name
 *   in the same agent.
 *
 * ## Bad input (docs/helix.md#bad-input). Never throws; every rejection is a result the client reports.
 * - A malformed chunk (no `type` / `agentType`, or a known type without its fields) is dropped (`error`).
 * - A chunk whose `agentType` is neither the root agent (the first agent seen, or `rootAgentType`) nor an open
 *   sub-agent is dropped (`error`): its sub-agent never started, or already ended. A `subagent_start` whose
 *   caller is such an agent still opens its run, at the top level, so no sub-agent is lost.
 * - A chunk of a type helix does not name is kept as a `data-helix-<type>` part of its agent (`unknown`).
 * - `end()` (the stream closed) seals every open run `interrupted` (reason `stream-ended`); so does a run's
 *   end for its still-open descendants (reason `caller-ended`).
 */
import type { AgentToolRunState, AgentToolRunsState } from "../agent-tool-runs.ts";
import type { Part } from "../chunk-applier.ts";
import type { AgentToolInterruptReason } from "../frames.ts";
import { valueText } from "../run-display.ts";
import { HELIX_CHUNK_TYPES, type HelixChunk, helixFailureOf, idOf, readHelixChunk } from "./chunks.ts";

/** The tool name helix gives a sub-agent tool: `subagent__<agent-name>`. */
export const helixSubagentToolName = (subAgentType: string) => `subagent__${subAgentType}`;

/** Why helix sealed a run `interrupted`: its stream ended, or its caller ended first (docs/helix.md). */
export type HelixInterruptReason = "stream-ended" | "caller-ended";

/**
 * One helix sub-agent run: an agent-tool run record plus where it sits in the tree. Its `reason` may also be a
 * `HelixInterruptReason`; the field keeps the agent-tool type so a helix run goes wherever a run goes.
 */
export interface HelixRun extends AgentToolRunState {
  /** The agent type that called it (the start chunk's `agentType`). */
  caller: string;
  /** The calling run; undefined when the root agent (or an agent never started) called it. */
  callerRunId?: string;
  /** 1 for a child of the root agent, 2 for a grandchild, … */
  depth: number;
  /** The sub-agent's `output` chunk, else its `subagent_end` result. */
  output?: unknown;
}

/** The agent at the root of the stream (the parent every sub-agent descends from). */
export interface HelixRoot {
  /** The root agent's type; undefined before the first chunk. */
  agentType?: string;
  /** `idle` before any chunk, `running` until the stream ends. */
  status: "idle" | "running" | "completed" | "error" | "interrupted";
  /** The root agent's transcript: its text, its tool calls, and one tool part per sub-agent it called. */
  parts: readonly Part[];
  output?: unknown;
  error?: string;
}

/** The published state: `AgentToolRunsState` of helix runs, plus the root agent. */
export interface HelixRunsState extends AgentToolRunsState {
  runsById: Readonly<Record<string, HelixRun>>;
  runsByToolCallId: Readonly<Record<string, readonly HelixRun[]>>;
  unboundRuns: readonly HelixRun[];
  root: HelixRoot;
}

/** What applying one chunk did. `unknown`: kept as a `data-helix-<type>` part. */
export type HelixApplyResult =
  | { kind: "applied"; runId?: string }
  | { kind: "unknown"; type: string; runId?: string }
  | { kind: "error"; reason: string; runId?: string };

/** Options of `HelixRunsReducer`. */
export interface HelixRunsReducerOptions {
  /** The root agent's type. Default: the `agentType` of the first chunk. */
  rootAgentType?: string;
}

type MutablePart = Record<string, unknown> & { type: string };

interface Owner {
  parts: MutablePart[];
  /** Open tool calls: toolCallId → index in `parts`. */
  openTools: Map<string, number>;
  /** The index of the text part new deltas append to; -1 after anything else. */
  textAt: number;
  toolSeq: number;
  key: string;
}

interface Book extends Owner {
  run: HelixRun;
  wireId?: string;
}

const START_IDS = ["subSessionId", "runId", "callId", "toolCallId"] as const;
const CONTENT_IDS = ["subSessionId", "runId"] as const;
const TOOL_IDS = ["toolCallId", "callId", "id"] as const;

const record = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
const owner = (key: string): Owner => ({ parts: [], openTools: new Map(), textAt: -1, toolSeq: 0, key });
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

const EMPTY_ROOT: HelixRoot = Object.freeze({ status: "idle", parts: Object.freeze([]) as readonly Part[] });

/** An incremental reducer over helix chunks; `state` is a fresh snapshot whose unchanged runs keep identity. */
export class HelixRunsReducer {
  private books = new Map<string, Book>();
  /** Open runs per sub-agent type, oldest first (the pairing rule). */
  private open = new Map<string, string[]>();
  private wireIds = new Map<string, string>();
  private root: Owner = owner("root");
  private rootInfo: Omit<HelixRoot, "parts"> = { status: "idle" };
  private seq = 0;
  private readonly changed = new Set<string>();
  private rootChanged = false;
  private published: HelixRunsState | undefined;
  private readonly rootAgentType: string | undefined;

  constructor(options: HelixRunsReducerOptions = {}) {
    this.rootAgentType = options.rootAgentType;
    this.rootInfo.agentType = options.rootAgentType;
  }

  /** Forgets everything (a new stream). */
  reset(): void {
    this.books = new Map();
    this.open = new Map();
    this.wireIds = new Map();
    this.root = owner("root");
    this.rootInfo = { status: "idle", agentType: this.rootAgentType };
    this.seq = 0;
    this.changed.clear();
    this.rootChanged = false;
    this.published = undefined;
  }

  /** Whether any run is still open. */
  get hasOpenRuns(): boolean {
    for (const list of this.open.values()) if (list.length > 0) return true;
    return false;
  }

  /** Applies one chunk (an object, or its JSON text). Never throws. */
  apply(value: unknown): HelixApplyResult {
    const read = readHelixChunk(value);
    if (read.kind === "error") return { kind: "error", reason: read.reason };
    const chunk = read.chunk;
    if (this.rootInfo.agentType === undefined) this.rootInfo.agentType = chunk.agentType;
    if (this.rootInfo.status === "idle") {
      this.rootInfo.status = "running";
      this.rootChanged = true;
    }
    switch (chunk.type) {
      case "subagent_start":
        return this.start(chunk as HelixChunk & { subAgentType: string });
      case "subagent_end":
        return this.end(chunk as HelixChunk & { subAgentType: string });
    }
    const who = this.producer(chunk);
    if (who === undefined)
      return {
        kind: "error",
        reason: `${chunk.type} from '${chunk.agentType}', a sub-agent that is not running (dropped)`,
      };
    const runId = who === this.root ? undefined : (who as Book).run.runId;
    const done = (r: HelixApplyResult): HelixApplyResult => {
      this.touch(who);
      return r;
    };
    switch (chunk.type) {
      case "text_delta":
        this.text(who, chunk.delta as string);
        return done({ kind: "applied", runId });
      case "tool_start":
        this.toolStart(who, chunk);
        return done({ kind: "applied", runId });
      case "tool_end":
        return done(this.toolEnd(who, chunk, runId));
      case "output":
        if (who === this.root) this.rootInfo.output = chunk.output;
        else this.setOutput((who as Book).run, chunk.output);
        return done({ kind: "applied", runId });
      case "error": {
        const message = str(chunk.error) ?? str(chunk.message) ?? "The agent reported an error.";
        if (who === this.root) {
          this.rootInfo.error = message;
          this.rootInfo.status = "error";
        } else this.finish(who as Book, "error", message);
        return done({ kind: "applied", runId });
      }
    }
    // Not a type helix names: kept, so nothing the runtime sent is lost; the client reports the type once.
    who.parts.push({ type: `data-helix-${chunk.type}`, data: chunk });
    who.textAt = -1;
    return done({ kind: "unknown", type: chunk.type, runId });
  }

  /**
   * The stream ended: open runs are sealed `interrupted` (reason `stream-ended`) and the root completes (or is
   * interrupted when runs were open). Returns the ids of the runs it sealed.
   */
  endStream(): string[] {
    const sealed: string[] = [];
    for (const book of this.books.values())
      if (book.run.status === "running") {
        this.interrupt(book, "stream-ended", "The stream ended before the sub-agent finished.");
        sealed.push(book.run.runId);
      }
    if (this.rootInfo.status === "running") {
      this.rootInfo.status = sealed.length > 0 ? "interrupted" : "completed";
      this.closeText(this.root);
      this.rootChanged = true;
    }
    return sealed;
  }

  /** The current state; runs unchanged since the last read keep their objects. */
  get state(): HelixRunsState {
    const prev = this.published;
    if (prev && this.changed.size === 0 && !this.rootChanged) return prev;
    const runsById = record<HelixRun>();
    if (prev) Object.assign(runsById, prev.runsById);
    for (const id of this.changed) {
      const book = this.books.get(id);
      if (book) runsById[id] = { ...book.run, parts: freezeParts(book.parts) };
    }
    const runsByToolCallId = record<HelixRun[]>();
    const unboundRuns: HelixRun[] = [];
    for (const run of Object.values(runsById).sort((a, b) => a.order - b.order)) {
      const g = run.parentToolCallId;
      if (g === undefined) unboundRuns.push(run);
      else {
        const group = runsByToolCallId[g] ?? [];
        group.push(run);
        runsByToolCallId[g] = group;
      }
    }
    const root: HelixRoot =
      prev && !this.rootChanged ? prev.root : { ...this.rootInfo, parts: freezeParts(this.root.parts) };
    if (root.agentType === undefined) delete (root as { agentType?: string }).agentType;
    this.changed.clear();
    this.rootChanged = false;
    this.published = { runsById, runsByToolCallId, unboundRuns, root };
    return this.published;
  }

  /** The initial state, before any chunk. */
  static readonly EMPTY: HelixRunsState = Object.freeze({
    runsById: Object.freeze(record<HelixRun>()),
    runsByToolCallId: Object.freeze(record<readonly HelixRun[]>()),
    unboundRuns: Object.freeze([]) as readonly HelixRun[],
    root: EMPTY_ROOT,
  });

  /** Who produced a content chunk: an open run (by id, else the oldest of its type), the root, or nobody. */
  private producer(chunk: HelixChunk): Owner | undefined {
    const wire = idOf(chunk, CONTENT_IDS);
    const byWire = wire === undefined ? undefined : this.books.get(this.wireIds.get(wire) ?? "");
    if (byWire && byWire.run.status === "running") return byWire;
    const oldest = this.open.get(chunk.agentType)?.[0];
    if (oldest !== undefined) return this.books.get(oldest);
    return chunk.agentType === this.rootInfo.agentType ? this.root : undefined;
  }

  private touch(who: Owner) {
    if (who === this.root) this.rootChanged = true;
    else this.changed.add((who as Book).run.runId);
  }

  private start(chunk: HelixChunk & { subAgentType: string }): HelixApplyResult {
    // The start's ids name the child, so the caller is found by its type alone.
    const caller = this.producer({ type: chunk.type, agentType: chunk.agentType });
    const callerBook = caller === undefined || caller === this.root ? undefined : (caller as Book);
    const n = ++this.seq;
    const wireId = idOf(chunk, START_IDS);
    let runId = wireId ?? `helix-${n}`;
    if (this.books.has(runId)) runId = `${runId}#${n}`;
    const type = chunk.subAgentType;
    const toolName = helixSubagentToolName(type);
    const parts = caller?.parts;
    // A `tool_start` of `subagent__<type>` the caller sent first is this call's part.
    let callId = str(chunk.toolCallId) ?? str(chunk.callId);
    let at = callId === undefined ? -1 : (caller?.openTools.get(callId) ?? -1);
    if (at < 0 && callId === undefined && caller)
      for (const [id, i] of caller.openTools)
        if (caller.parts[i]?.toolName === toolName && !caller.parts[i]?.boundRun) {
          callId = id;
          at = i;
          break;
        }
    callId ??= `${runId}:call`;
    const input = "input" in chunk ? chunk.input : parts?.[at]?.input;
    if (caller && parts) {
      if (at < 0) {
        const part: MutablePart = {
          type: `tool-${toolName}`,
          toolCallId: callId,
          toolName,
          state: "input-available",
        };
        if (input !== undefined) part.input = input;
        at = parts.push(part) - 1;
        caller.openTools.set(callId, at);
      }
      // Replaced, not written: the published snapshot may hold the part.
      parts[at] = { ...(parts[at] as MutablePart), boundRun: runId };
      caller.textAt = -1;
      this.touch(caller);
    }
    const run: HelixRun = {
      runId,
      agentType: type,
      parentToolCallId: callId,
      order: n,
      status: "running",
      parts: [],
      milestones: [],
      subAgent: { agent: type, name: runId },
      caller: chunk.agentType,
      depth: callerBook ? callerBook.run.depth + 1 : 1,
    };
    if (callerBook) run.callerRunId = callerBook.run.runId;
    if (input !== undefined) run.inputPreview = input;
    const book: Book = { ...owner(runId), run };
    if (wireId !== undefined) {
      book.wireId = wireId;
      this.wireIds.set(wireId, runId);
    }
    this.books.set(runId, book);
    const list = this.open.get(type) ?? [];
    list.push(runId);
    this.open.set(type, list);
    this.changed.add(runId);
    if (caller === undefined)
      return {
        kind: "error",
        runId,
        reason: `subagent_start from '${chunk.agentType}', a sub-agent that is not running: ${type} shown at the top level`,
      };
    return { kind: "applied", runId };
  }

  private end(chunk: HelixChunk & { subAgentType: string }): HelixApplyResult {
    const type = chunk.subAgentType;
    const wire = idOf(chunk, START_IDS);
    let book = wire === undefined ? undefined : this.books.get(this.wireIds.get(wire) ?? "");
    if (book && (book.run.status !== "running" || book.run.agentType !== type)) book = undefined;
    if (!book) {
      const caller = this.producer({ type: chunk.type, agentType: chunk.agentType });
      const callerRunId = caller && caller !== this.root ? (caller as Book).run.runId : undefined;
      const id = this.open.get(type)?.find((r) => this.books.get(r)?.run.callerRunId === callerRunId);
      book = id === undefined ? undefined : this.books.get(id);
    }
    if (!book) return { kind: "error", reason: `subagent_end for '${type}', which is not running (dropped)` };
    const result = chunk.result;
    const failure = helixFailureOf(result);
    if (book.run.output === undefined && failure === undefined && result !== undefined)
      this.setOutput(book.run, result);
    this.finish(book, failure === undefined ? "completed" : "error", failure, result);
    return { kind: "applied", runId: book.run.runId };
  }

  private setOutput(run: HelixRun, output: unknown) {
    run.output = output;
    const text = valueText(output);
    if (text !== "") run.summary = text;
  }

  /** Ends a run: its text is done, open descendants are interrupted, the caller's tool part settles. */
  private finish(book: Book, status: "completed" | "error", error?: string, result?: unknown) {
    const run = book.run;
    run.status = status;
    if (error !== undefined) run.error = error;
    this.closeRun(book);
    for (const other of this.books.values())
      if (other.run.status === "running" && this.descends(other.run, run.runId))
        this.interrupt(other, "caller-ended", "Its caller ended before it did.");
    const caller = run.callerRunId === undefined ? undefined : this.books.get(run.callerRunId);
    const holder: Owner | undefined = caller ?? (run.depth === 1 ? this.root : undefined);
    const id = run.parentToolCallId;
    const at = id === undefined ? undefined : holder?.openTools.get(id);
    if (holder && id !== undefined && at !== undefined) {
      const part = holder.parts[at] as MutablePart;
      holder.parts[at] =
        status === "completed"
          ? { ...part, state: "output-available", output: result ?? run.output ?? null }
          : { ...part, state: "output-error", errorText: error ?? "The sub-agent failed." };
      holder.openTools.delete(id);
      this.touch(holder);
    }
  }

  private interrupt(book: Book, reason: HelixInterruptReason, error: string) {
    book.run.status = "interrupted";
    book.run.reason = reason as string as AgentToolInterruptReason;
    book.run.error = error;
    this.closeRun(book);
  }

  private closeRun(book: Book) {
    const list = this.open.get(book.run.agentType);
    const i = list?.indexOf(book.run.runId) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    this.closeText(book);
    this.changed.add(book.run.runId);
  }

  private descends(run: HelixRun, ancestor: string): boolean {
    for (let r: HelixRun | undefined = run; r?.callerRunId !== undefined; ) {
      if (r.callerRunId === ancestor) return true;
      r = this.books.get(r.callerRunId)?.run;
    }
    return false;
  }

  private closeText(who: Owner) {
    for (let i = 0; i < who.parts.length; i++) {
      const p = who.parts[i] as MutablePart;
      if (p.type === "text" && p.state === "streaming") who.parts[i] = { ...p, state: "done" };
    }
    who.textAt = -1;
  }

  private text(who: Owner, delta: string) {
    const at = who.textAt;
    const part = at >= 0 ? who.parts[at] : undefined;
    // A new object per delta: the published snapshot still holds the previous one.
    if (part) who.parts[at] = { ...part, text: `${part.text as string}${delta}` };
    else who.textAt = who.parts.push({ type: "text", text: delta, state: "streaming" }) - 1;
  }

  private toolStart(who: Owner, chunk: HelixChunk) {
    const toolName = chunk.toolName as string;
    const toolCallId = idOf(chunk, TOOL_IDS) ?? `${who.key}:tool-${++who.toolSeq}`;
    const part: MutablePart = { type: `tool-${toolName}`, toolCallId, toolName, state: "input-available" };
    const input = chunk.input ?? chunk.args;
    if (input !== undefined) part.input = input;
    who.openTools.set(toolCallId, who.parts.push(part) - 1);
    who.textAt = -1;
  }

  private toolEnd(who: Owner, chunk: HelixChunk, runId: string | undefined): HelixApplyResult {
    const toolName = chunk.toolName as string;
    const id = idOf(chunk, TOOL_IDS);
    let at = id === undefined ? undefined : who.openTools.get(id);
    let callId = id;
    if (at === undefined && id === undefined)
      for (const [cid, i] of who.openTools)
        if (who.parts[i]?.toolName === toolName) {
          at = i;
          callId = cid;
          break;
        }
    // A call already settled (by its sub-agent's end, or a repeat of this chunk) keeps its first result.
    if (at === undefined && id !== undefined && who.parts.some((p) => p.toolCallId === id))
      return { kind: "applied", runId };
    const error = str(chunk.error);
    const output = "output" in chunk ? chunk.output : chunk.result;
    const settled: Record<string, unknown> =
      error === undefined
        ? { state: "output-available", output }
        : { state: "output-error", errorText: error };
    who.textAt = -1;
    if (at === undefined || callId === undefined) {
      // Its start never came: the result is still shown, as a settled part of its own.
      const toolCallId = id ?? `${who.key}:tool-${++who.toolSeq}`;
      who.parts.push({ type: `tool-${toolName}`, toolCallId, toolName, input: undefined, ...settled });
      return { kind: "error", runId, reason: `tool_end of '${toolName}' without its tool_start (kept)` };
    }
    const part = who.parts[at] as MutablePart;
    // The sub-agent's own end settles a bound part; a later tool_end for it changes nothing.
    if (!part.boundRun) {
      who.parts[at] = { ...part, ...settled };
      who.openTools.delete(callId);
    }
    return { kind: "applied", runId };
  }
}

/** A snapshot of parts: the array is new, parts are shared (the reducer replaces a part to change it). */
function freezeParts(parts: readonly MutablePart[]): Part[] {
  return parts.slice() as unknown as Part[];
}

/** Whether a chunk type is one helix names (the rest are kept as `data-helix-<type>` parts). */
export const isKnownHelixChunkType = (type: string) => HELIX_CHUNK_TYPES.has(type);
