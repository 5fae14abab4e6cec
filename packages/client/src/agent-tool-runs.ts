/**
 * The store behind `useAgentToolEvents`: the protocol's run reducer fed from a socket, published to
 * subscribers, with the run actions (cancel, retry, reconnect, seen times) of its runs. The real server
 * replays runs on connect but never their progress (docs/protocol.md#agent-tool-replay), so the last progress and milestones of
 * each run can be kept in a storage adapter (sessionStorage in browsers): after a page refresh a background
 * run still shows how far it got.
 */
import {
  type AgentToolApplyResult,
  type AgentToolRunState,
  AgentToolRunsReducer,
  type AgentToolRunsState,
  agentAddressKey,
  DEFAULT_MAX_MILESTONES,
} from "@runboard/protocol";
import { toolFailuresOf } from "./agent-tool-failures.ts";
import type { AgentToolRunsOptions, ProgressStorage } from "./agent-tool-runs-options.ts";
import { ClearRunsCall, DEFAULT_CLEAR_RUNS_METHOD } from "./clear-runs.ts";
import { readFrame } from "./frame-source.ts";
import { coalesce } from "./notify.ts";
import { type CallableAgent, type RunActionHandlers, RunActions } from "./run-actions.ts";

export type { AgentToolRunsOptions, ProgressStorage } from "./agent-tool-runs-options.ts";

type Saved = Pick<AgentToolRunState, "progress" | "milestones" | "omittedMilestones">;

function defaultStorage(): ProgressStorage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null; // storage disabled by the browser
  }
}

/**
 * The agent's address hashed without its credentials. Keys written before held the whole URL, `?token=` included;
 * they are neither written nor read any more (a run's progress saved under one is lost once): sessionStorage ends
 * with the tab, so a stale key is harmless and goes with it.
 */
function defaultNamespace(agent: AgentToolRunsOptions["agent"]): string {
  const url = agent.getHttpUrl?.();
  return url ? agentAddressKey(url) : "default";
}

/** Child runs of one agent, grouped by the tool call that spawned them. */
export class AgentToolRuns {
  private readonly reducer: AgentToolRunsReducer;
  private readonly maxMilestones: number;
  /**
   * The published state, built on the first read after a change (`undefined` until then). A frame only marks
   * it stale and tells the subscribers: building it copies the index of every run, so building it per frame
   * made each frame cost O(runs) (2.6 ms per frame at 2,000 runs). Readers (React reads once per render, at
   * most once per animation frame) pay that copy once per read instead.
   */
  private snapshot: AgentToolRunsState | undefined;
  /** The clock frames are stamped with when they arrive (`now` option). */
  private readonly now: () => number;
  private readonly listeners = new Set<() => void>();
  /** Runs changed since the last publish: only they can have ended, so only they are settled. */
  private readonly touched = new Set<string>();
  private storage: ProgressStorage | null = null;
  private prefix = "";
  private listening: AgentToolRunsOptions["agent"] | undefined;
  private readonly restored = new Map<string, Saved>();
  private readonly merged = new WeakMap<AgentToolRunState, AgentToolRunState>();
  /** Runs already looked up in storage: a run without progress is read once, not on every frame. */
  private readonly checked = new Set<string>();
  /** Runs whose progress changed since it was last saved. */
  private readonly unsaved = new Set<string>();
  /** Set while saves cool down: marked runs wait for it to fire. */
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** Runs whose end was saved at once. */
  private readonly endSaved = new Set<string>();
  /** Runs whose saved progress was read since the last publish: they are merged again even if unchanged. */
  private readonly newlyRestored = new Set<string>();
  private lastIn: AgentToolRunsState | undefined;
  private lastOut: AgentToolRunsState | undefined;
  private hideTarget: Pick<EventTarget, "addEventListener" | "removeEventListener"> | undefined;
  /** `pagehide` saves at once (the page may be going away); `visibilitychange` only when it hides the page. */
  private readonly onHide = (e: Event) => {
    if (e.type === "pagehide" || typeof document === "undefined" || document.visibilityState === "hidden")
      this.saveNow();
  };
  private disposed = false;
  private readonly onMessage = (e: Event) => this.receive(e as MessageEvent);

  /**
   * Cancel, retry, reconnect and what this client saw of each run (start, end, last signal, stamped when its
   * frames arrive), for this store's runs only: two connections never share them, and every view of a run on
   * this connection (`RunTray`, `AgentToolRun`) reads the same pending cancels and times. Views subscribe to
   * it for `cancelling`.
   */
  readonly actions: RunActions = new RunActions(() => this.actionHandlers());

  /**
   * Makes the store. With `attach` (the default) it starts listening at once; `false` makes it without any
   * IO, storage access or listener until `attach()` (the hook does that in an effect, so a server render never
   * touches `sessionStorage`).
   */
  constructor(
    private options: AgentToolRunsOptions,
    attach = true,
  ) {
    const { maxFinishedRuns, maxMilestones } = options;
    this.now = options.now ?? Date.now;
    this.reducer = new AgentToolRunsReducer({ maxFinishedRuns, maxMilestones, now: this.now });
    this.maxMilestones =
      typeof maxMilestones === "number" && maxMilestones >= 0
        ? Math.floor(maxMilestones)
        : DEFAULT_MAX_MILESTONES;
    this.changed = coalesce(options.throttleMs, () => this.publish());
    if (attach) this.attach();
  }

  /** Opens the progress storage and starts listening to the agent. */
  attach(): void {
    if (this.listening || this.disposed) return;
    const { options } = this;
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.prefix = `runboard:runs:${options.storageKey ?? defaultNamespace(options.agent)}:`;
    this.listening = options.agent;
    options.agent.addEventListener("message", this.onMessage);
    if (this.storage && typeof window !== "undefined" && typeof window.addEventListener === "function") {
      this.hideTarget = window;
      window.addEventListener("pagehide", this.onHide);
      window.addEventListener("visibilitychange", this.onHide);
    }
  }

  /**
   * Takes the app's latest options; a different `agent` object (a new socket for the same agent) is listened
   * to from the next `attach()`/`followAgent()` on, and the runs seen so far stay.
   */
  setOptions(next: AgentToolRunsOptions): void {
    this.options = next;
  }

  /** Moves the listener to `options.agent` when it changed since the last attach. */
  followAgent(): void {
    const before = this.listening;
    if (!before || before === this.options.agent || this.disposed) return;
    before.removeEventListener("message", this.onMessage);
    this.listening = this.options.agent;
    this.listening.addEventListener("message", this.onMessage);
  }

  /** The runs now: by id, by the tool call that spawned them, and the detached ones. */
  getSnapshot = (): AgentToolRunsState => {
    this.snapshot ??= this.compute();
    return this.snapshot;
  };

  /** Calls `fn` after each published change; returns the unsubscribe function. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };

  /** Runs spawned by one chat tool call, in display order. */
  getRunsForToolCall(toolCallId: string): readonly AgentToolRunState[] {
    return this.getSnapshot().runsByToolCallId[toolCallId] ?? [];
  }

  /**
   * Cancels a run (the object, or its id) through the agent's `cancelMethod` callable: one call however often
   * it is asked; `actions` reads it `cancelling` until the run ends. False when nothing was sent (not running,
   * already on its way, unknown id, or an agent without `call`).
   */
  cancel(run: AgentToolRunState | string): boolean {
    const target = this.runOf(run);
    return target ? this.actions.cancel(target) : false;
  }

  /**
   * Sends one retry for a run whose recovery is a retry (`onRetry`, else the agent's `retryMethod` callable);
   * false when not offered or already on its way.
   */
  retry(run: AgentToolRunState | string): boolean {
    const target = this.runOf(run);
    return target ? this.actions.retry(target) : false;
  }

  /**
   * Sends one reconnect for an interrupted run whose child still runs (`onReconnect`, else the agent's
   * `reconnectMethod` callable); false when not offered or already on its way.
   */
  reconnect(run: AgentToolRunState | string): boolean {
    const target = this.runOf(run);
    return target ? this.actions.reconnect(target) : false;
  }

  /**
   * Clears the chat's runs: calls the agent's `clearRunsMethod` (when the agent has `call`), then forgets every
   * run here and its stored progress. One call at a time (`clearing`). Resolves false when the call failed:
   * `onClearError` (else `onError`) hears why and the runs stay, as the server still has them. A missing
   * callable is no failure.
   */
  clearRuns(): Promise<boolean> {
    const { agent, clearRunsMethod, onClearError, onError } = this.options;
    const callable = typeof agent.call === "function" ? (agent as CallableAgent) : undefined;
    const report = onClearError ?? ((e: unknown) => onError?.(e instanceof Error ? e : new Error(String(e))));
    return this.clearCall.run(
      callable,
      clearRunsMethod ?? DEFAULT_CLEAR_RUNS_METHOD,
      () => this.forgetAll(),
      report,
    );
  }

  /**
   * Clears the runs first (so no other tab's reconnect replays them), then the chat's history; when the runs
   * could not be cleared the chat is left too. Resolves as `clearRuns`.
   */
  async clearChat(chat: { clearHistory(): void }): Promise<boolean> {
    const ok = await this.clearRuns();
    if (ok) chat.clearHistory();
    return ok;
  }

  /** True while `clearRuns` is on its way. */
  get clearing(): boolean {
    return this.clearCall.clearing;
  }

  /** Calls `fn` when `clearing` changes; returns the unsubscribe function. */
  subscribeClearing = (fn: () => void): (() => void) => this.clearCall.subscribe(fn);

  /** Forgets every run here (not on the server: the next reconnect replays them). */
  resetLocalState(): void {
    // What the runs reached so far is still theirs on the server: keep it for the next page load.
    this.saveNow();
    this.reducer.reset();
    this.restored.clear();
    this.checked.clear();
    this.endSaved.clear();
    this.newlyRestored.clear();
    this.touched.clear();
    this.lastIn = this.lastOut = undefined;
    this.publish();
  }

  /** The chat was cleared (here, or in another tab): its runs and their stored progress go. */
  private forgetAll(): void {
    const storage = this.storage;
    const ids = new Set([
      ...Object.keys(this.reducer.state.runsById),
      ...this.restored.keys(),
      ...this.unsaved,
    ]);
    this.unsaved.clear();
    this.reportedEnvelopes.clear();
    if (storage?.removeItem)
      for (const id of ids) {
        try {
          storage.removeItem(this.prefix + id);
        } catch {
          // A broken storage only keeps an entry nothing shows.
        }
      }
    this.resetLocalState();
  }

  /** Stops listening to the agent for good; progress not saved yet is saved now. */
  dispose(): void {
    this.saveNow();
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.disposed = true;
    this.listening?.removeEventListener("message", this.onMessage);
    this.listening = undefined;
    this.hideTarget?.removeEventListener("pagehide", this.onHide);
    this.hideTarget?.removeEventListener("visibilitychange", this.onHide);
    this.hideTarget = undefined;
  }

  private receive(event: { data: unknown }) {
    if (this.disposed) return;
    // Parsed once per message event, whichever store on the connection asks first.
    const parsed = readFrame(event);
    // Only malformed agent-tool events are ours to report; the connection reports every rejected frame.
    if (parsed.kind === "error") {
      if (parsed.frameType === "agent-tool-event") this.options.onError?.(new Error(parsed.reason));
      return;
    }
    if (parsed.kind !== "frame") return;
    if (parsed.frame.type !== "agent-tool-event") {
      // A connect sends its identity, state and chat frames before the runs' replay: this one is not in it.
      this.reducer.endReplay();
      // Another tab cleared the chat (the server echoes the clear to the other sockets only).
      if (parsed.frame.type === "cf_agent_chat_clear") return this.forgetAll();
      return this.receiveToolOutputs(parsed.frame);
    }
    const result = this.reducer.apply(parsed.frame);
    if (result.kind === "error")
      this.options.onError?.(new Error(`agent-tool run ${result.runId}: ${result.reason}`));
    if (result.kind === "applied" || result.kind === "buffered") {
      this.signal(result.runId);
      this.remember(result.runId);
      this.touched.add(result.runId);
      this.forgetEvicted();
      this.changed();
    }
  }

  /**
   * Drops what this store keeps for the runs the reducer just evicted (`maxFinishedRuns`): their saved
   * progress (storage and memory) and their bookkeeping, so a long session keeps nothing per evicted run.
   */
  private forgetEvicted() {
    const gone = this.reducer.takeEvicted();
    if (gone.length === 0) return;
    const storage = this.storage;
    for (const id of gone) {
      this.restored.delete(id);
      this.checked.delete(id);
      this.unsaved.delete(id);
      this.endSaved.delete(id);
      this.newlyRestored.delete(id);
      this.touched.delete(id);
      try {
        storage?.removeItem?.(this.prefix + id);
      } catch {
        // A broken storage only keeps an entry nothing shows.
      }
    }
  }

  /**
   * A frame for `runId` arrived: its last signal and times are stamped now, when it is received, by the clock
   * the reducer stamps progress with, so every view of the run (tray, inline card) reads one time, whenever
   * it renders.
   */
  private signal(runId: string) {
    const run = this.reducer.peekRun(runId);
    if (run) this.actions.record(run, this.now());
  }

  /** Tool calls whose malformed failure envelope was reported: once each, however often it is replayed. */
  private readonly reportedEnvelopes = new Set<string>();

  /**
   * The parent tool parts' failure envelopes (docs/protocol.md#agent-tool-failure-envelope), from the chat
   * frames on the same socket: live `tool-output-available` chunks and the transcripts sent on connect.
   */
  private receiveToolOutputs(frame: Parameters<typeof toolFailuresOf>[0]) {
    let changed = false;
    for (const found of toolFailuresOf(frame)) {
      if (found.problem !== undefined && !this.reportedEnvelopes.has(found.toolCallId)) {
        this.reportedEnvelopes.add(found.toolCallId);
        this.options.onError?.(
          new Error(`agent-tool failure envelope of tool call ${found.toolCallId}: ${found.problem}`),
        );
      }
      const result: AgentToolApplyResult = this.reducer.applyToolFailure(found.toolCallId, found.failure);
      if (result.kind === "applied") {
        changed = true;
        this.signal(result.runId);
        this.touched.add(result.runId);
      }
    }
    // A failure envelope can end a run, and so evict the oldest finished one.
    this.forgetEvicted();
    if (changed) this.changed();
  }

  /**
   * Saves what replay cannot bring back, and recalls it for a run seen again without it. A save serialises
   * every milestone of the run, so it is not done per frame (that cost O(milestones) per frame, quadratic
   * over a long run): the first change saves at once, later ones are marked and saved when `storageWriteMs`
   * has passed, so a run is saved at most once per `storageWriteMs`. A run that ends is saved at once, once:
   * nothing newer is coming for it.
   */
  private remember(runId: string) {
    if (!this.storage) return;
    const run = this.reducer.peekRun(runId);
    if (!run) return;
    if (run.progress || run.milestones.length) {
      this.unsaved.add(runId);
      if (run.status !== "running" && !this.endSaved.has(runId)) {
        this.endSaved.add(runId);
        this.unsaved.delete(runId);
        this.save(this.storage, runId);
      }
      this.scheduleSave();
    } else if (!this.checked.has(runId)) {
      this.checked.add(runId);
      try {
        const raw = this.storage.getItem(this.prefix + runId);
        if (raw) {
          this.restored.set(runId, JSON.parse(raw) as Saved);
          this.newlyRestored.add(runId);
        }
      } catch {
        // A broken storage or entry only costs the restored progress.
      }
    }
  }

  /** Saves the marked runs now unless saves are cooling down; then starts a cool-down. */
  private scheduleSave() {
    if (this.saveTimer !== undefined || this.unsaved.size === 0) return;
    this.saveNow();
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.scheduleSave();
    }, this.options.storageWriteMs ?? 1000);
    // A pending save must not keep a Node process alive; dispose() saves anyway.
    (this.saveTimer as { unref?: () => void }).unref?.();
  }

  /** Writes every marked run now (the page hides, the store is disposed). */
  private saveNow() {
    const storage = this.storage;
    if (!storage) return;
    for (const runId of this.unsaved) this.save(storage, runId);
    this.unsaved.clear();
  }

  private save(storage: ProgressStorage, runId: string) {
    const run = this.reducer.peekRun(runId);
    if (!run) return;
    try {
      const saved: Saved = { progress: run.progress, milestones: run.milestones };
      if (run.omittedMilestones) saved.omittedMilestones = run.omittedMilestones;
      storage.setItem(this.prefix + runId, JSON.stringify(saved));
    } catch {
      // A full or broken storage only costs the restored progress.
    }
  }

  /** A run with the saved progress filled in when live frames have not brought any yet. */
  private withSaved = (run: AgentToolRunState): AgentToolRunState => {
    const saved = this.restored.get(run.runId);
    if (!saved || run.progress || run.milestones.length) return run;
    let out = this.merged.get(run);
    if (!out) {
      // An entry holds at most `maxMilestones` when this store wrote it; one written with a larger cap (or by
      // hand) is cut to the newest, as the reducer keeps them, and the rest counted.
      let milestones = Array.isArray(saved.milestones) ? saved.milestones : [];
      let omitted = typeof saved.omittedMilestones === "number" ? saved.omittedMilestones : 0;
      if (milestones.length > this.maxMilestones) {
        const cut = milestones.length - this.maxMilestones;
        milestones = milestones.slice(cut);
        omitted += cut;
      }
      out = {
        ...run,
        ...(saved.progress ? { progress: saved.progress } : {}),
        milestones,
        ...(omitted > 0 ? { omittedMilestones: omitted } : {}),
      };
      this.merged.set(run, out);
    }
    return out;
  };

  /**
   * The published state: the reducer's, with saved progress merged into runs that have none live yet. Only the
   * runs changed since the last build are merged again; the rest keep their merged objects.
   */
  private compute(): AgentToolRunsState {
    const s = this.reducer.state;
    const changed = s === this.lastIn ? [] : [...this.reducer.lastChanges];
    for (const id of this.newlyRestored) changed.push(id);
    this.newlyRestored.clear();
    const prevIn = this.lastIn;
    const prevOut = this.lastOut;
    this.lastIn = s;
    if (this.restored.size === 0 && (prevOut === undefined || prevOut === prevIn)) {
      this.lastOut = s;
      return s;
    }
    this.lastOut = prevIn && prevOut ? this.merge(s, prevOut, changed) : this.mergeAll(s);
    return this.lastOut;
  }

  /** The last published state with the changed runs merged again, and the groups holding them. */
  private merge(
    s: AgentToolRunsState,
    prevOut: AgentToolRunsState,
    changed: readonly string[],
  ): AgentToolRunsState {
    const byId = Object.assign(Object.create(null) as Record<string, AgentToolRunState>, prevOut.runsById);
    const groups = new Set<string>();
    let unbound = false;
    for (const id of changed) {
      const run = s.runsById[id];
      if (!run) {
        // Evicted: it leaves the index and its group.
        const gone = byId[id];
        if (!gone) continue;
        delete byId[id];
        if (gone.parentToolCallId === undefined) unbound = true;
        else groups.add(gone.parentToolCallId);
        continue;
      }
      const out = this.withSaved(run);
      if (out === byId[id]) continue;
      byId[id] = out;
      if (run.parentToolCallId === undefined) unbound = true;
      else groups.add(run.parentToolCallId);
    }
    if (!unbound && groups.size === 0) return prevOut;
    const byCall = Object.assign(
      Object.create(null) as Record<string, readonly AgentToolRunState[]>,
      prevOut.runsByToolCallId,
    );
    for (const g of groups) {
      const list = s.runsByToolCallId[g];
      if (list) byCall[g] = list.map(this.withSaved);
      else delete byCall[g];
    }
    return {
      runsById: byId,
      runsByToolCallId: byCall,
      unboundRuns: unbound ? s.unboundRuns.map(this.withSaved) : prevOut.unboundRuns,
    };
  }

  private mergeAll(s: AgentToolRunsState): AgentToolRunsState {
    // No prototype, as the reducer's own indexes: ids from the wire must not find `Object.prototype` members.
    const byId = Object.create(null) as Record<string, AgentToolRunState>;
    for (const [id, r] of Object.entries(s.runsById)) byId[id] = this.withSaved(r);
    const byCall = Object.create(null) as Record<string, readonly AgentToolRunState[]>;
    for (const [id, runs] of Object.entries(s.runsByToolCallId)) byCall[id] = runs.map(this.withSaved);
    return { runsById: byId, runsByToolCallId: byCall, unboundRuns: s.unboundRuns.map(this.withSaved) };
  }

  private publish() {
    if (this.disposed) return;
    this.snapshot = undefined;
    for (const fn of this.listeners) fn();
    // A run that ended is no longer cancelling: its cancel worked, or it ended on its own. Only runs that
    // changed can have ended since the last publish; their status is read without building the snapshot.
    const changed: AgentToolRunState[] = [];
    for (const id of this.touched) {
      const run = this.reducer.peekRun(id);
      if (run) changed.push(run);
    }
    this.touched.clear();
    this.actions.settle(changed);
  }

  private runOf(run: AgentToolRunState | string): AgentToolRunState | undefined {
    return typeof run === "string" ? this.getSnapshot().runsById[run] : run;
  }

  private actionHandlers(): RunActionHandlers {
    const { agent, cancelMethod, cancelReason, onCancelError, onRetry, onReconnect } = this.options;
    const { retryMethod, reconnectMethod, onRetryError } = this.options;
    return {
      agent: typeof agent.call === "function" ? (agent as CallableAgent) : undefined,
      cancelMethod,
      cancelReason,
      onError: onCancelError,
      onRetry,
      onReconnect,
      retryMethod,
      reconnectMethod,
      onRetryError,
    };
  }

  private readonly changed: () => void;
  private readonly clearCall = new ClearRunsCall();
}
