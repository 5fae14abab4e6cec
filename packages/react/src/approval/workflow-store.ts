/**
 * The store behind `useWorkflowApprovals`: items of the agent's state, the one decision per item sent with the
 * `approve` / `reject` callables, and what this page has seen, so an item resolved by someone else reads as
 * answered elsewhere. No React.
 */
import type { ApprovalDecision, ApprovalOutcome, ApprovalStatus } from "./approval-request.ts";
import { type CallableConnection, isOpen } from "./connection.ts";
import { DecisionLedger } from "./decision-ledger.ts";
import {
  defaultWorkflowSelect,
  isAlreadyDecidedError,
  type WorkflowItem,
  type WorkflowStateShape,
  workflowItems,
} from "./workflow-approvals.ts";

/** The callable names (the human-in-the-loop docs' `approve(id)` / `reject(id, reason)` by default). */
export interface WorkflowMethods {
  approve: string;
  reject: string;
}

/** One item with the status this page gives it. */
export interface WorkflowView {
  item: WorkflowItem;
  status: ApprovalStatus;
  outcome?: ApprovalOutcome;
  error?: string;
  /** Still pending in the agent's state. */
  pending: boolean;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Ledger, errors and memory of what was seen pending, with change notification. */
export class WorkflowApprovalStore {
  readonly ledger = new DecisionLedger();
  private readonly seen = new Map<string, WorkflowItem>();
  private readonly errors = new Map<string, string>();
  private readonly elsewhere = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private current: { pending: WorkflowItem[]; resolved: WorkflowItem[] } = { pending: [], resolved: [] };

  constructor(
    private readonly agent: CallableConnection,
    public methods: WorkflowMethods = { approve: "approve", reject: "reject" },
  ) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getVersion = (): number => this.version;

  private changed() {
    this.version++;
    for (const fn of [...this.listeners]) fn();
  }

  /**
   * Reads the current state into views. Items seen pending earlier and now gone are kept (answered here or
   * elsewhere), so a card does not vanish the moment its decision lands.
   */
  views(
    state: unknown,
    select: (state: unknown) => WorkflowStateShape = defaultWorkflowSelect,
  ): WorkflowView[] {
    const { pending, resolved } = workflowItems(state, select);
    this.current = { pending, resolved };
    const out: WorkflowView[] = [];
    const listed = new Set<string>();
    for (const item of resolved) {
      listed.add(item.id);
      out.push(this.resolvedView(item, item.resolved ?? { approved: false }));
    }
    for (const item of pending) {
      listed.add(item.id);
      out.push(this.pendingView(item));
    }
    for (const [id, item] of this.seen) if (!listed.has(id)) out.push(this.resolvedView(item, undefined));
    return out;
  }

  /**
   * After a render showed a new state: remembers what is pending (an item never seen pending is history), and,
   * while connected, frees decisions lost with an earlier connection whose item is still pending: they never
   * landed, so the item may be answered again.
   */
  committed(): void {
    for (const item of this.current.pending) this.seen.set(item.id, item);
    if (!isOpen(this.agent)) return;
    let freed = false;
    for (const item of this.current.pending)
      if (this.ledger.get(item.id)?.phase === "failed") {
        this.ledger.release(item.id);
        freed = true;
      }
    if (freed) this.changed();
  }

  private pendingView(item: WorkflowItem): WorkflowView {
    const local = this.ledger.get(item.id);
    const error = this.errors.get(item.id);
    const base = { item, pending: true, ...(error ? { error } : {}) };
    if (this.elsewhere.has(item.id)) return { ...base, status: "answered-elsewhere" };
    if (!local) return { ...base, status: "requested" };
    const outcome: ApprovalOutcome = { ...local.decision, by: "here" };
    // The callable answered, but the state broadcast has not arrived yet.
    if (local.phase === "settled")
      return { ...base, status: local.decision.approved ? "approved" : "denied", outcome };
    return { ...base, status: "submitting", outcome };
  }

  private resolvedView(item: WorkflowItem, decided: { approved: boolean; reason?: string } | undefined) {
    const local = this.ledger.get(item.id);
    const error = this.errors.get(item.id);
    const base = { item, pending: false, ...(error ? { error } : {}) };
    const theirs = decided ? { ...decided } : undefined;
    if (local && !this.elsewhere.has(item.id)) {
      if (theirs && theirs.approved !== local.decision.approved)
        return {
          ...base,
          status: "answered-elsewhere" as const,
          outcome: { ...theirs, by: "elsewhere" as const },
        };
      return {
        ...base,
        status: local.decision.approved ? ("approved" as const) : ("denied" as const),
        outcome: { ...local.decision, by: "here" as const },
      };
    }
    if (this.seen.has(item.id) || this.elsewhere.has(item.id))
      return {
        ...base,
        status: "answered-elsewhere" as const,
        ...(theirs ? { outcome: { ...theirs, by: "elsewhere" as const } } : {}),
      };
    return {
      ...base,
      status: theirs?.approved ? ("approved" as const) : ("denied" as const),
      ...(theirs ? { outcome: { ...theirs, by: "unknown" as const } } : {}),
    };
  }

  /** Sends the one decision for item `id`; false (nothing sent) when it has one or cannot be answered now. */
  decide(id: string, decision: ApprovalDecision, now = Date.now()): boolean {
    const item = this.current.pending.find((p) => p.id === id);
    if (!item || this.elsewhere.has(id) || !isOpen(this.agent)) return false;
    if (item.expiresAt !== undefined && now >= item.expiresAt) return false;
    if (!this.ledger.claim(id, decision)) return false;
    this.errors.delete(id);
    this.changed();
    const call = decision.approved
      ? this.agent.call(this.methods.approve, [id])
      : this.agent.call(this.methods.reject, decision.reason ? [id, decision.reason] : [id]);
    call.then(
      () => {
        this.ledger.mark(id, "settled");
        this.changed();
      },
      (e) => {
        const text = message(e);
        if (isAlreadyDecidedError(text)) {
          this.ledger.release(id);
          this.elsewhere.add(id);
        } else {
          this.errors.set(id, text);
          // Refused while connected: it did not land. Lost with the connection: the state will tell.
          if (isOpen(this.agent)) this.ledger.release(id);
          else this.ledger.mark(id, "failed", text);
        }
        this.changed();
      },
    );
    return true;
  }
}
