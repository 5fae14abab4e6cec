/**
 * The store behind `useAgentToolEvents`: the protocol's run reducer fed from a socket, published through a
 * zustand store. The real server replays runs on connect but never their progress (reference §5.6), so the
 * last progress and milestones of each run can be kept in a storage adapter (sessionStorage in browsers):
 * after a page refresh a background run still shows how far it got.
 */
import {
  type AgentToolRun,
  AgentToolRunsReducer,
  type AgentToolRunsState,
  parseServerFrame,
} from "@runboard/protocol";
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ChatAgentLike } from "./chat-session.ts";
import { coalesce } from "./notify.ts";

/** Where run progress survives a page refresh. `sessionStorage` fits. */
export interface ProgressStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface AgentToolRunsOptions {
  agent: Pick<ChatAgentLike, "addEventListener" | "removeEventListener"> & { getHttpUrl?: () => string };
  /** Default: `sessionStorage` when it exists. `null` keeps nothing. */
  storage?: ProgressStorage | null;
  /** Namespace for stored progress. Default: the agent's HTTP URL. */
  storageKey?: string;
  /** Frames the reducer rejected (bad bodies, milestones without a name). */
  onError?: (error: Error) => void;
  /** See `ChatSessionOptions.throttleMs`. */
  throttleMs?: number;
}

type Saved = Pick<AgentToolRun, "progress" | "milestones">;

function defaultStorage(): ProgressStorage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** Child runs of one agent, grouped by the tool call that spawned them. */
export class AgentToolRuns {
  private readonly reducer = new AgentToolRunsReducer();
  private readonly store: StoreApi<AgentToolRunsState>;
  private storage: ProgressStorage | null = null;
  private prefix = "";
  private listening: AgentToolRunsOptions["agent"] | undefined;
  private readonly restored = new Map<string, Saved>();
  private readonly merged = new WeakMap<AgentToolRun, AgentToolRun>();
  private disposed = false;
  private readonly onMessage = (e: Event) => this.receive((e as MessageEvent).data);

  /**
   * Makes the store. With `attach` (the default) it starts listening at once; `false` makes it without any
   * IO, storage access or listener until `attach()` (the hook does that in an effect, so a server render never
   * touches `sessionStorage`).
   */
  constructor(
    private options: AgentToolRunsOptions,
    attach = true,
  ) {
    this.store = createStore<AgentToolRunsState>(() => this.compute());
    this.changed = coalesce(options.throttleMs, () => this.publish());
    if (attach) this.attach();
  }

  /** Opens the progress storage and starts listening to the agent. */
  attach(): void {
    if (this.listening || this.disposed) return;
    const { options } = this;
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.prefix = `runboard:runs:${options.storageKey ?? options.agent.getHttpUrl?.() ?? "default"}:`;
    this.listening = options.agent;
    options.agent.addEventListener("message", this.onMessage);
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

  getSnapshot = (): AgentToolRunsState => this.store.getState();

  subscribe = (fn: () => void): (() => void) => this.store.subscribe(fn);

  /** Runs spawned by one chat tool call, in display order. */
  getRunsForToolCall(toolCallId: string): readonly AgentToolRun[] {
    return this.getSnapshot().runsByToolCallId[toolCallId] ?? [];
  }

  /** Forgets every run here (not on the server: the next reconnect replays them). */
  resetLocalState(): void {
    this.reducer.reset();
    this.restored.clear();
    this.publish();
  }

  dispose(): void {
    this.disposed = true;
    this.listening?.removeEventListener("message", this.onMessage);
    this.listening = undefined;
  }

  private receive(data: unknown) {
    // Cheap pre-filter so chat chunks are not parsed twice. A frame may spell its type with `\u` escapes (the
    // same JSON), so those always go through the parser; the quoted-name test alone dropped them.
    if (this.disposed || typeof data !== "string") return;
    if (!data.includes('"agent-tool-event"') && !data.includes("\\u")) return;
    const parsed = parseServerFrame(data);
    // Only malformed agent-tool events are ours to report; the connection reports every rejected frame. (The
    // pre-filter let through e.g. a truncated chat frame that mentions the name, which was reported twice.)
    if (parsed.kind === "error") {
      if (parsed.frameType === "agent-tool-event") this.options.onError?.(new Error(parsed.reason));
      return;
    }
    if (parsed.kind !== "frame" || parsed.frame.type !== "agent-tool-event") return;
    const result = this.reducer.apply(parsed.frame);
    if (result.kind === "error")
      this.options.onError?.(new Error(`agent-tool run ${result.runId}: ${result.reason}`));
    if (result.kind === "applied" || result.kind === "buffered") {
      this.remember(result.runId);
      this.changed();
    }
  }

  /** Saves what replay cannot bring back, and recalls it for a run seen again without it. */
  private remember(runId: string) {
    if (!this.storage) return;
    const run = this.reducer.state.runsById[runId];
    if (!run) return;
    const key = this.prefix + runId;
    try {
      if (run.progress || run.milestones.length) {
        this.storage.setItem(key, JSON.stringify({ progress: run.progress, milestones: run.milestones }));
      } else if (!this.restored.has(runId)) {
        const raw = this.storage.getItem(key);
        if (raw) this.restored.set(runId, JSON.parse(raw) as Saved);
      }
    } catch {
      // A full or broken storage only costs the restored progress.
    }
  }

  /** A run with the saved progress filled in when live frames have not brought any yet. */
  private withSaved = (run: AgentToolRun): AgentToolRun => {
    const saved = this.restored.get(run.runId);
    if (!saved || run.progress || run.milestones.length) return run;
    let out = this.merged.get(run);
    if (!out) {
      out = {
        ...run,
        ...(saved.progress ? { progress: saved.progress } : {}),
        milestones: saved.milestones ?? [],
      };
      this.merged.set(run, out);
    }
    return out;
  };

  private compute(): AgentToolRunsState {
    const s = this.reducer.state;
    if (this.restored.size === 0) return s;
    // No prototype, as the reducer's own indexes: ids from the wire must not find `Object.prototype` members.
    const byId = Object.create(null) as Record<string, AgentToolRun>;
    for (const [id, r] of Object.entries(s.runsById)) byId[id] = this.withSaved(r);
    const byCall = Object.create(null) as Record<string, readonly AgentToolRun[]>;
    for (const [id, runs] of Object.entries(s.runsByToolCallId)) byCall[id] = runs.map(this.withSaved);
    return { runsById: byId, runsByToolCallId: byCall, unboundRuns: s.unboundRuns.map(this.withSaved) };
  }

  private publish() {
    if (!this.disposed) this.store.setState(this.compute(), true);
  }

  private readonly changed: () => void;
}
