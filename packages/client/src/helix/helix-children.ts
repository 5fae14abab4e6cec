/**
 * `HelixChildren`: helix persistent children (docs/helix.md#persistent-children) as a store a tray renders. It
 * is fed `SubSessionRef` lists (`setRefs`) and the companion tools' results (`applyToolResult`, or
 * `applyToolParts` with a chat's tool parts); Send message and Terminate are the app's callbacks (the parent
 * agent sends or terminates; helix has no client protocol for it). One call per child at a time.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import {
  applyCompanionResult,
  type HelixChild,
  helixChildKey,
  helixChildToRun,
  mergeSubSessionRefs,
  readSubSessionRef,
  type SubSessionRef,
} from "@runboard/protocol/helix";

/** Options of `HelixChildren`. */
export interface HelixChildrenOptions {
  /** Sends a follow-up message to a child (e.g. asks the parent to call `companion__sendMessage`). Enables Send message. */
  onSendMessage?: (child: HelixChild, message: string) => unknown;
  /** Terminates a child (e.g. asks the parent to call `companion__terminateChild`). Enables Terminate. */
  onTerminate?: (child: HelixChild) => unknown;
  /** A callback failed (the child stays as it was; the action works again), or a ref list was malformed. */
  onError?: (error: unknown, child?: HelixChild) => void;
  /** Clock for times the tools' results do not carry. Default `Date.now`. */
  now?: () => number;
}

/** What `HelixChildren` publishes. */
export interface HelixChildrenState {
  children: readonly HelixChild[];
  /** The children as run records, for `RunTray.Root runs` (`runId` is the child's session id). */
  runs: readonly AgentToolRunState[];
  /** Keys (name, else session id) of the children whose send or terminate is on its way. */
  pending: ReadonlySet<string>;
}

const EMPTY: HelixChildrenState = Object.freeze({ children: [], runs: [], pending: new Set<string>() });

/** A chat tool part as far as this store reads it. */
interface ToolPartLike {
  type: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  toolCallId?: string;
}

/** helix persistent children, with Send message and Terminate through the app's callbacks. */
export class HelixChildren {
  private state: HelixChildrenState = EMPTY;
  private readonly listeners = new Set<() => void>();
  private readonly seenParts = new Set<string>();
  private readonly runOf = new WeakMap<HelixChild, AgentToolRunState>();

  constructor(private options: HelixChildrenOptions = {}) {}

  /** Takes the app's latest callbacks (a hook calls this on each render). */
  setOptions(options: HelixChildrenOptions): void {
    this.options = options;
  }

  /** The children now. */
  getSnapshot = (): HelixChildrenState => this.state;

  /** Calls `fn` after each change; returns the unsubscribe function. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };

  /** Merges a `SubSessionRef` list (helix's tracking of the parent's children); malformed entries are reported. */
  setRefs(refs: readonly unknown[]): void {
    const now = (this.options.now ?? Date.now)();
    const read: SubSessionRef[] = [];
    for (const r of refs) {
      const ref = readSubSessionRef(r, now);
      if (ref) read.push(ref);
      else
        this.options.onError?.(new Error("helix children: a SubSessionRef without subSessionId/agentType"));
    }
    this.set(mergeSubSessionRefs(this.state.children, read));
  }

  /** Applies one companion tool's result (`companion__spawnAgent`, `…listChildren`, …). */
  applyToolResult(call: { toolName: string; input?: unknown; output?: unknown }): void {
    this.set(applyCompanionResult(this.state.children, call, (this.options.now ?? Date.now)()));
  }

  /**
   * Applies the companion tool parts of a chat's messages that have their output, each once (by `toolCallId`),
   * so it can be called with every message on every change.
   */
  applyToolParts(parts: readonly ToolPartLike[]): void {
    for (const p of parts) {
      if (!p.type.startsWith("tool-companion__") || p.state !== "output-available") continue;
      const key = p.toolCallId ?? "";
      if (key !== "" && this.seenParts.has(key)) continue;
      if (key !== "") this.seenParts.add(key);
      this.applyToolResult({ toolName: p.type.slice(5), input: p.input, output: p.output });
    }
  }

  /** Whether Send message can be used for the child now: a callback, the child running, nothing on its way. */
  canSendMessage(key: string): boolean {
    const c = this.find(key);
    return !!c && !!this.options.onSendMessage && c.status === "running" && !this.state.pending.has(key);
  }

  /** Whether Terminate can be used for the child now (as `canSendMessage`). */
  canTerminate(key: string): boolean {
    const c = this.find(key);
    return !!c && !!this.options.onTerminate && c.status === "running" && !this.state.pending.has(key);
  }

  /** Sends a message through `onSendMessage`; false when not possible now or when the callback failed. */
  sendMessage(key: string, message: string): Promise<boolean> {
    const child = this.find(key);
    const fn = this.options.onSendMessage;
    if (!child || !fn || !this.canSendMessage(key) || message.trim() === "") return Promise.resolve(false);
    return this.call(child, () => fn(child, message), { lastMessage: message });
  }

  /** Terminates through `onTerminate`: the child reads `terminated` once the callback resolves. */
  terminate(key: string): Promise<boolean> {
    const child = this.find(key);
    const fn = this.options.onTerminate;
    if (!child || !fn || !this.canTerminate(key)) return Promise.resolve(false);
    return this.call(child, () => fn(child), { status: "terminated" });
  }

  /** The key (for `sendMessage` / `terminate`) of the child a tray run stands for (`runId` = session id). */
  keyOfRun(runId: string): string | undefined {
    const c = this.state.children.find((x) => x.subSessionId === runId);
    return c && helixChildKey(c);
  }

  /** Forgets every child. */
  reset(): void {
    this.seenParts.clear();
    this.set([]);
  }

  private find(key: string): HelixChild | undefined {
    return this.state.children.find((c) => helixChildKey(c) === key);
  }

  private async call(child: HelixChild, fn: () => unknown, done: Partial<HelixChild>): Promise<boolean> {
    const key = helixChildKey(child);
    this.setPending(key, true);
    try {
      await fn();
    } catch (e) {
      this.setPending(key, false);
      this.options.onError?.(e, child);
      return false;
    }
    const now = (this.options.now ?? Date.now)();
    const patch = done.status === "terminated" ? { ...done, completedAt: now } : done;
    this.set(this.state.children.map((c) => (helixChildKey(c) === key ? { ...c, ...patch } : c)));
    this.setPending(key, false);
    return true;
  }

  private setPending(key: string, on: boolean) {
    const pending = new Set(this.state.pending);
    if (on) pending.add(key);
    else pending.delete(key);
    this.state = { ...this.state, pending };
    this.emit();
  }

  private set(children: readonly HelixChild[]) {
    if (children === this.state.children) return;
    const runs = children.map((c) => {
      let run = this.runOf.get(c);
      if (!run) {
        run = helixChildToRun(c);
        this.runOf.set(c, run);
      }
      return run;
    });
    this.state = { children, runs, pending: this.state.pending };
    this.emit();
  }

  private emit() {
    for (const fn of this.listeners) fn();
  }
}
