/**
 * The store behind `useExecutionApprovals`: Think durable pauses listed by `pendingApprovals()` whenever the
 * connection opens (page load, reconnect) and found live in the transcript, each with its full arguments from
 * `pendingExecutions(id)`, decided with `approveExecution(id)` / `rejectExecution(id, reason)`. Approve stays
 * unavailable until the full arguments are in: the transcript only carries a cut preview, and a human must
 * approve what will actually run.
 */
import {
  type ApprovalDecision,
  type ApprovalRequest,
  classifyExecutionAnswer,
  type ExecutionRecord,
  executionStatus,
  fullArgumentsOf,
  type PausedExecution,
  readPendingApproval,
  transcriptExecutions,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import { type CallableConnection, isOpen, watchConnection } from "./connection.ts";
import { type DecisionLedger, INTERRUPTED_DECISION, ledgerFor } from "./decision-ledger.ts";
import { Cached, Deciders, Listeners } from "./store-kit.ts";

/** The callable names, for agents that expose them under other names. */
export interface ExecutionMethods {
  pendingApprovals: string;
  pendingExecutions: string;
  approveExecution: string;
  rejectExecution: string;
}

/** Think's names. */
export const THINK_EXECUTION_METHODS: ExecutionMethods = {
  pendingApprovals: "pendingApprovals",
  pendingExecutions: "pendingExecutions",
  approveExecution: "approveExecution",
  rejectExecution: "rejectExecution",
};

/** What an `ExecutionApprovals` store reads; `setOptions` replaces all but `agent`. */
export interface ExecutionApprovalsOptions {
  /** The Think agent's connection. Every store on it shares one decision per request. */
  agent: CallableConnection;
  /** Callable names, when the agent exposes Think's under other names. */
  methods?: Partial<ExecutionMethods>;
  /** Overrides the connection's status; `false` refuses every decision. */
  online?: boolean;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const requestId = (executionId: string) => `execution:${executionId}`;

/** Paused executions of one agent as approval requests, in the order this page first saw them. */
export class ExecutionApprovals {
  private options: ExecutionApprovalsOptions;
  private readonly agent: CallableConnection;
  private readonly ledger: DecisionLedger;
  private readonly records = new Map<string, ExecutionRecord & { seq: number }>();
  private readonly listeners = new Listeners();
  private readonly loading = new Set<string>();
  private readonly deciders = new Deciders<ApprovalDecision>((id, decision) => this.decide(id, decision));
  private readonly client = new Cached<ApprovalRequest[]>();
  private readonly server = new Cached<ApprovalRequest[]>();
  private version = 0;
  private seq = 0;
  private syncing: Promise<void> | undefined;
  private detach: (() => void) | undefined;
  private disposed = false;

  /**
   * Makes the store. With `attach` (the default) it lists the pauses at once; `false` makes it without any
   * call or listener until `attach()` (a view does that once mounted, so a server render calls nothing).
   */
  constructor(options: ExecutionApprovalsOptions, attach = true) {
    this.options = options;
    this.agent = options.agent;
    this.ledger = ledgerFor(options.agent);
    if (attach) this.attach();
  }

  /** Takes the app's latest methods and `online` (the connection stays the one the store was made with). */
  setOptions(next: Omit<ExecutionApprovalsOptions, "agent">): void {
    this.options = { ...next, agent: this.agent };
  }

  /** Calls `fn` whenever the requests may have changed. Returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => this.listeners.subscribe(fn);

  private get methods(): ExecutionMethods {
    return { ...THINK_EXECUTION_METHODS, ...this.options.methods };
  }

  private changed = () => {
    if (this.disposed) return;
    this.version++;
    this.listeners.emit();
  };

  /** Lists on every open (and now, when already open), and follows the shared decisions. */
  attach(): void {
    if (this.detach || this.disposed) return;
    const onOpen = () => void this.sync();
    this.agent.addEventListener("open", onOpen);
    const offs = [
      () => this.agent.removeEventListener("open", onOpen),
      watchConnection(this.agent, this.changed),
      this.ledger.subscribe(this.changed),
    ];
    this.detach = () => {
      for (const off of offs) off();
    };
    if (isOpen(this.agent)) void this.sync();
  }

  /** Stops listening for good; answers still on their way are dropped. */
  dispose(): void {
    this.disposed = true;
    this.detach?.();
  }

  /** Asks the server what is pending; one listing at a time. */
  sync(): Promise<void> {
    this.syncing ??= this.list().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async list() {
    // Only records known before the question can be judged by its answer.
    const asked = this.seq;
    let answer: unknown;
    try {
      answer = await this.agent.call(this.methods.pendingApprovals, []);
    } catch {
      return; // offline or not a Think agent: the next open lists again
    }
    if (!Array.isArray(answer) || this.disposed) return;
    const listed = answer.flatMap((e) => readPendingApproval(e) ?? []);
    const ids = new Set(listed.map((e) => e.executionId));
    for (const e of listed) {
      const r = this.upsert(e);
      const id = requestId(e.executionId);
      // A decision whose call failed with the connection did not land (the agent may have restarted): it is
      // shown as interrupted and may be answered once more; nothing is sent again by itself.
      if (this.ledger.get(id)?.phase === "failed" && !r.elsewhere) {
        this.ledger.mark(id, "interrupted", INTERRUPTED_DECISION);
        r.error = INTERRUPTED_DECISION;
      }
    }
    for (const [id, r] of this.records) if (r.pending && r.seq <= asked && !ids.has(id)) this.vanished(id, r);
    this.changed();
    for (const e of listed) void this.loadArguments(e.executionId);
  }

  /** Adds an execution (or fills in what a listing knows better); returns its record. */
  private upsert(e: PausedExecution): ExecutionRecord {
    const known = this.records.get(e.executionId);
    if (known) {
      known.execution = {
        ...known.execution,
        ...e,
        descriptor: { ...known.execution.descriptor, ...e.descriptor },
      };
      return known;
    }
    const r = { execution: e, argumentsState: "loading" as const, pending: true, seq: ++this.seq };
    this.records.set(e.executionId, r);
    return r;
  }

  /** It is no longer pending: a decision from this tab landed, or someone else decided. */
  private vanished(id: string, r: ExecutionRecord, decided?: { approved: boolean; reason?: string }) {
    r.pending = false;
    const local = this.ledger.get(requestId(id));
    if (local) {
      if (local.phase !== "settled" && local.phase !== "elsewhere")
        this.ledger.mark(requestId(id), "settled");
      delete r.error;
    } else r.elsewhere = decided ? { ...decided } : {};
  }

  /** The authoritative arguments; Approve stays off until they are here. */
  private async loadArguments(id: string) {
    const r = this.records.get(id);
    if (!r?.pending || r.argumentsState === "complete" || this.loading.has(id)) return;
    this.loading.add(id);
    r.argumentsState = "loading";
    this.changed();
    try {
      const found = fullArgumentsOf(await this.agent.call(this.methods.pendingExecutions, [id]), id);
      if (found.found) {
        r.full = found.input;
        r.argumentsState = "complete";
        if (found.createdAt !== undefined && r.execution.requestedAt === undefined)
          r.execution = { ...r.execution, requestedAt: found.createdAt };
      } else if (r.pending) this.vanished(id, r);
    } catch (e) {
      r.argumentsState = "error";
      r.error = `Could not load the arguments: ${message(e)}`;
    } finally {
      this.loading.delete(id);
      this.changed();
    }
  }

  /**
   * Follows the transcript (`ChatSession` or a chat hook's `messages`): new pauses appear at once; a pause
   * resolved by someone else reads as answered elsewhere. Loads arguments, so a view calls it once mounted.
   */
  observe(messages: readonly UIMessage[]): void {
    let touched = false;
    for (const t of transcriptExecutions(messages)) {
      const r = this.records.get(t.executionId);
      if (t.paused) {
        if (r) continue;
        this.upsert(t.execution);
        touched = true;
        void this.loadArguments(t.executionId);
      } else if (!r) {
        const earlier = { approved: t.approved !== false, ...(t.reason ? { reason: t.reason } : {}) };
        this.records.set(t.executionId, {
          execution: t.execution,
          full: t.execution.preview,
          argumentsState: "complete",
          pending: false,
          earlier,
          seq: ++this.seq,
        });
        touched = true;
      } else if (r.pending && !this.ledger.has(requestId(t.executionId))) {
        this.vanished(t.executionId, r, {
          approved: t.approved !== false,
          ...(t.reason ? { reason: t.reason } : {}),
        });
        touched = true;
      }
    }
    if (touched) this.changed();
  }

  /** The requests now; the same array until something changes. */
  getSnapshot = (): ApprovalRequest[] => {
    const online = this.options.online ?? isOpen(this.agent);
    return this.client.get([this.version, this.ledger.version, online], () => this.requests(online));
  };

  /** The requests as a server render (or the page hydrating it) shows them: the connection counts as down. */
  getServerSnapshot = (): ApprovalRequest[] => {
    const online = this.options.online ?? false;
    return this.server.get([this.version, this.ledger.version, online], () => this.requests(online));
  };

  private requests(online: boolean): ApprovalRequest[] {
    return [...this.records].map(([executionId, r]): ApprovalRequest => {
      const { status, outcome } = executionStatus(r, this.ledger.get(requestId(executionId)));
      const { descriptor: d, expiresAt, requestedAt, toolCallId } = r.execution;
      const complete = r.argumentsState === "complete";
      return {
        id: requestId(executionId),
        source: "execution",
        key: executionId,
        ...(toolCallId ? { toolCallId } : {}),
        name: d.name ?? "execution",
        ...(d.summary ? { summary: d.summary } : {}),
        ...(d.risk ? { risk: d.risk } : {}),
        ...(d.permissions ? { permissions: d.permissions } : {}),
        arguments: complete ? r.full : r.execution.preview,
        argumentsComplete: complete,
        ...(expiresAt === undefined ? {} : { expiresAt }),
        ...(requestedAt === undefined ? {} : { requestedAt }),
        status,
        ...(outcome ? { outcome } : {}),
        online,
        ...(r.error ? { error: r.error } : {}),
        decide: this.deciders.for(executionId),
      };
    });
  }

  /**
   * Sends the one decision for an execution. False, sending nothing, when any store on this connection already
   * decided it, or it cannot be answered now (offline, expired, decided elsewhere, Approve before the full
   * arguments are in).
   */
  decide(executionId: string, decision: ApprovalDecision, now = Date.now()): boolean {
    const r = this.records.get(executionId);
    if (this.options.online === false || !r?.pending || r.elsewhere || !isOpen(this.agent)) return false;
    if (r.execution.expiresAt !== undefined && now >= r.execution.expiresAt) return false;
    if (decision.approved && r.argumentsState !== "complete") return false;
    const id = requestId(executionId);
    if (this.ledger.get(id)?.phase === "interrupted") this.ledger.release(id);
    if (!this.ledger.claim(id, decision)) return false;
    delete r.error;
    this.changed();
    const { approveExecution, rejectExecution } = this.methods;
    const call = decision.approved
      ? this.agent.call(approveExecution, [executionId])
      : this.agent.call(rejectExecution, decision.reason ? [executionId, decision.reason] : [executionId]);
    call.then(
      (answer) => {
        r.pending = false;
        // Think answers a decision that came too late with an error object: someone else decided first.
        if (classifyExecutionAnswer(answer, executionId).kind === "elsewhere")
          this.ledger.mark(id, "elsewhere");
        else this.ledger.mark(id, "settled");
        this.changed();
      },
      (e) => {
        r.error = message(e);
        // Answered with an error while connected: the decision was refused, so it may be made again. Lost with
        // the connection: unknown until the next listing says whether it is still pending.
        if (isOpen(this.agent)) this.ledger.release(id);
        else this.ledger.mark(id, "failed", r.error);
        this.changed();
      },
    );
    return true;
  }
}
