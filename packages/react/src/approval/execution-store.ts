/**
 * The store behind `useExecutionApprovals`: Think durable pauses listed by `pendingApprovals()` whenever the
 * connection opens (page load, reconnect) and found live in the transcript, each with its full arguments from
 * `pendingExecutions(id)`, decided with `approveExecution(id)` / `rejectExecution(id, reason)`. No React.
 */
import type { UIMessage } from "ai";
import type { ApprovalDecision } from "./approval-request.ts";
import { type CallableConnection, isOpen } from "./connection.ts";
import { DecisionLedger } from "./decision-ledger.ts";
import {
  classifyExecutionAnswer,
  type ExecutionRecord,
  fullArgumentsOf,
  type PausedExecution,
  readPendingApproval,
  transcriptExecutions,
} from "./execution-approvals.ts";

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

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Executions by id, with change notification for `useSyncExternalStore`. */
export class ExecutionApprovalStore {
  readonly ledger = new DecisionLedger();
  private readonly records = new Map<string, ExecutionRecord & { seq: number }>();
  private readonly listeners = new Set<() => void>();
  private readonly loading = new Set<string>();
  private version = 0;
  private seq = 0;
  private syncing: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly agent: CallableConnection,
    private readonly methods: ExecutionMethods = THINK_EXECUTION_METHODS,
  ) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getVersion = (): number => this.version;

  /** Records in the order this page first saw them. */
  entries(): Array<[string, ExecutionRecord]> {
    return [...this.records.entries()];
  }

  private changed() {
    if (this.disposed) return;
    this.version++;
    for (const fn of [...this.listeners]) fn();
  }

  /** Lists on every open (and now, when already open). Returns the cleanup. */
  start(): () => void {
    this.disposed = false;
    const onOpen = () => void this.sync();
    const onClose = () => this.changed();
    this.agent.addEventListener("open", onOpen);
    this.agent.addEventListener("close", onClose);
    if (isOpen(this.agent)) void this.sync();
    return () => {
      this.disposed = true;
      this.agent.removeEventListener("open", onOpen);
      this.agent.removeEventListener("close", onClose);
    };
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
    if (!Array.isArray(answer)) return;
    const listed = answer.flatMap((e) => readPendingApproval(e) ?? []);
    const ids = new Set(listed.map((e) => e.executionId));
    for (const e of listed) {
      const r = this.upsert(e);
      const local = this.ledger.get(e.executionId);
      // A decision whose call failed with the connection did not land: it may be answered again.
      if (local?.phase === "failed" && !r.elsewhere) {
        this.ledger.release(e.executionId);
        delete r.error;
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

  /** It is no longer pending: our own decision landed, or someone else decided. */
  private vanished(id: string, r: ExecutionRecord, decided?: { approved: boolean; reason?: string }) {
    r.pending = false;
    const local = this.ledger.get(id);
    if (local) {
      if (local.phase !== "settled") this.ledger.mark(id, "settled");
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

  /** Follows the transcript: new pauses appear at once; a pause resolved by someone else is answered elsewhere. */
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
      } else if (r.pending && !this.ledger.has(t.executionId)) {
        this.vanished(t.executionId, r, {
          approved: t.approved !== false,
          ...(t.reason ? { reason: t.reason } : {}),
        });
        touched = true;
      }
    }
    if (touched) this.changed();
  }

  /** Sends the one decision for `id`; false (nothing sent) when it has one or cannot be answered now. */
  decide(id: string, decision: ApprovalDecision, now = Date.now()): boolean {
    const r = this.records.get(id);
    if (!r?.pending || r.elsewhere || !isOpen(this.agent)) return false;
    if (r.execution.expiresAt !== undefined && now >= r.execution.expiresAt) return false;
    if (decision.approved && r.argumentsState !== "complete") return false;
    if (!this.ledger.claim(id, decision)) return false;
    delete r.error;
    this.changed();
    const call = decision.approved
      ? this.agent.call(this.methods.approveExecution, [id])
      : this.agent.call(this.methods.rejectExecution, decision.reason ? [id, decision.reason] : [id]);
    call.then(
      (answer) => {
        const a = classifyExecutionAnswer(answer, id);
        r.pending = false;
        if (a.kind === "elsewhere") {
          this.ledger.release(id);
          r.elsewhere = {};
        } else this.ledger.mark(id, "settled");
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
