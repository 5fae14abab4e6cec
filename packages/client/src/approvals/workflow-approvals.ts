/**
 * The store behind `useWorkflowApprovals`: approvals a workflow keeps in agent state (`state.pendingApprovals`,
 * items keyed `id` or, as the human-in-the-loop docs keep them, `workflowId`), the one decision per item sent
 * with the agent's `approve(id, approvedBy?)` / `reject(id, reason)` callables, and what this page has seen, so
 * an item resolved by someone else reads as answered elsewhere.
 */
import {
  type ApprovalDecision,
  type ApprovalRequest,
  defaultWorkflowSelect,
  isAlreadyDecidedError,
  type WorkflowItem,
  type WorkflowStateShape,
  workflowItems,
  workflowStatus,
} from "@runboard/protocol";
import { AgentStateStore } from "./agent-state.ts";
import { type CallableConnection, isOpen, watchConnection } from "./connection.ts";
import { type DecisionLedger, INTERRUPTED_DECISION, ledgerFor } from "./decision-ledger.ts";
import { Cached, Deciders, Listeners } from "./store-kit.ts";

/** The callable names (the human-in-the-loop docs' `approve(id, approvedBy)` / `reject(id, reason)` by default). */
export interface WorkflowMethods {
  approve: string;
  reject: string;
}

/** What a `WorkflowApprovals` store reads; `setOptions` replaces all but `agent`. */
export interface WorkflowApprovalsOptions {
  /** The agent's connection. Every store on it shares one decision per request. */
  agent: CallableConnection;
  /**
   * The agent's state, when the connection object does not keep it (the official `useAgent` reports it through
   * `onStateUpdate`). Default: the object's `state`, else the last state frame seen.
   */
  state?: unknown;
  /** Where the items live in the state. Default `state.pendingApprovals` and `state.resolvedApprovals`. */
  select?: (state: unknown) => WorkflowStateShape;
  /** Callable names. Default `approve` and `reject`. */
  methods?: Partial<WorkflowMethods>;
  /**
   * Who approves (a user id or name), sent as `approve`'s second argument, as the docs' callable
   * `approve(workflowId, approvedBy)` expects. Without it `approve` gets the id alone.
   */
  approvedBy?: string;
  /** Overrides the connection's status; `false` refuses every decision. */
  online?: boolean;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const requestId = (itemId: string) => `workflow:${itemId}`;

/**
 * The workflow items of an agent's state as approval requests: resolved ones, pending ones, and ones this page
 * saw pending that are gone (kept, so a card does not vanish the moment its decision lands).
 */
export class WorkflowApprovals {
  private options: WorkflowApprovalsOptions;
  private readonly agent: CallableConnection;
  private readonly ledger: DecisionLedger;
  private readonly agentState: AgentStateStore;
  private readonly listeners = new Listeners();
  private readonly seen = new Map<string, WorkflowItem>();
  private readonly errors = new Map<string, string>();
  private readonly deciders = new Deciders<ApprovalDecision>((id, decision) => this.decide(id, decision));
  private readonly client = new Cached<ApprovalRequest[]>();
  private readonly server = new Cached<ApprovalRequest[]>();
  private version = 0;
  private detach: (() => void) | undefined;
  private disposed = false;

  /**
   * Makes the store. With `attach` (the default) it follows the connection at once; `false` makes it without
   * any listener until `attach()` (a view does that once mounted).
   */
  constructor(options: WorkflowApprovalsOptions, attach = true) {
    this.options = options;
    this.agent = options.agent;
    this.ledger = ledgerFor(options.agent);
    this.agentState = new AgentStateStore(options.agent);
    if (attach) this.attach();
  }

  /** Takes the app's latest state, select, methods and `online` (the connection stays the same). */
  setOptions(next: Omit<WorkflowApprovalsOptions, "agent">): void {
    this.options = { ...next, agent: this.agent };
  }

  /** Calls `fn` whenever the requests may have changed. Returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => this.listeners.subscribe(fn);

  private changed = () => {
    if (this.disposed) return;
    this.version++;
    this.listeners.emit();
  };

  /** Follows the agent's state, the connection's status and the shared decisions. */
  attach(): void {
    if (this.detach || this.disposed) return;
    const offs = [
      this.agentState.subscribe(this.changed),
      watchConnection(this.agent, this.changed),
      this.ledger.subscribe(this.changed),
    ];
    this.detach = () => {
      for (const off of offs) off();
    };
  }

  /** Stops listening for good. */
  dispose(): void {
    this.disposed = true;
    this.detach?.();
  }

  private state(server: boolean): unknown {
    const explicit = this.options.state;
    // A server has no connection, so the state it has is only the one the app passed.
    return explicit !== undefined || server ? explicit : this.agentState.getSnapshot();
  }

  /** The requests now; the same array until something changes. */
  getSnapshot = (): ApprovalRequest[] => {
    const online = this.options.online ?? isOpen(this.agent);
    const state = this.state(false);
    // `select` is read when computing, not compared: an inline function is a new one on every render.
    return this.client.get([state, this.version, this.ledger.version, online], () => {
      const { requests, pending } = this.requests(state, online, true);
      // What a view showed pending: gone later, it stays listed, decided here or elsewhere.
      for (const item of pending) this.seen.set(item.id, item);
      return requests;
    });
  };

  /** The requests as a server render (or the page hydrating it) shows them: only the state passed counts. */
  getServerSnapshot = (): ApprovalRequest[] => {
    const online = this.options.online ?? false;
    const state = this.state(true);
    return this.server.get(
      [state, this.version, this.ledger.version, online],
      () => this.requests(state, online, false).requests,
    );
  };

  private items(state: unknown) {
    return workflowItems(state, this.options.select ?? defaultWorkflowSelect);
  }

  /** The requests for `state`; `browser` adds what this page remembers (a server remembers nothing). */
  private requests(state: unknown, online: boolean, browser: boolean) {
    const { pending, resolved } = this.items(state);
    const out: ApprovalRequest[] = [];
    const listed = new Set<string>();
    const add = (item: WorkflowItem, isPending: boolean, decided?: WorkflowItem["resolved"]) => {
      listed.add(item.id);
      const local = this.ledger.get(requestId(item.id));
      // A decision lost with an earlier connection (a drop, or the agent restarting), its item still pending now
      // that this one is up: it never landed. Interrupted: it may be answered once more (`decide` frees the
      // claim); nothing is sent again by itself.
      if (isPending && local?.phase === "failed" && isOpen(this.agent)) {
        const outcome = { ...local.decision, by: "here" as const };
        out.push(this.request(item, "interrupted", outcome, online, INTERRUPTED_DECISION));
        return;
      }
      const { status, outcome } = workflowStatus({
        pending: isPending,
        ...(decided ? { decided } : {}),
        local,
        seenPending: browser && this.seen.has(item.id),
      });
      out.push(this.request(item, status, outcome, online));
    };
    for (const item of resolved) add(item, false, item.resolved ?? { approved: false });
    for (const item of pending) add(item, true);
    if (browser) for (const [id, item] of this.seen) if (!listed.has(id)) add(item, false);
    return { requests: out, pending };
  }

  private request(
    item: WorkflowItem,
    status: ApprovalRequest["status"],
    outcome: ApprovalRequest["outcome"],
    online: boolean,
    error = this.errors.get(item.id),
  ): ApprovalRequest {
    return {
      id: requestId(item.id),
      source: "workflow",
      key: item.id,
      name: item.name,
      ...(item.title ? { title: item.title } : {}),
      ...(item.summary ? { summary: item.summary } : {}),
      ...(item.risk ? { risk: item.risk } : {}),
      ...(item.permissions ? { permissions: item.permissions } : {}),
      arguments: item.arguments,
      argumentsComplete: true,
      ...(item.expiresAt === undefined ? {} : { expiresAt: item.expiresAt }),
      ...(item.requestedAt === undefined ? {} : { requestedAt: item.requestedAt }),
      status,
      ...(outcome ? { outcome } : {}),
      online,
      ...(error ? { error } : {}),
      decide: this.deciders.for(item.id),
    };
  }

  /**
   * Sends the one decision for item `itemId`. False, sending nothing, when any store on this connection
   * already decided it, or it cannot be answered now (offline, expired, not pending in the state).
   */
  decide(itemId: string, decision: ApprovalDecision, now = Date.now()): boolean {
    const item = this.items(this.state(false)).pending.find((p) => p.id === itemId);
    if (this.options.online === false || !item || !isOpen(this.agent)) return false;
    if (item.expiresAt !== undefined && now >= item.expiresAt) return false;
    const id = requestId(itemId);
    if (this.ledger.get(id)?.phase === "failed") this.ledger.release(id);
    if (!this.ledger.claim(id, decision)) return false;
    this.errors.delete(itemId);
    const { approve, reject } = { approve: "approve", reject: "reject", ...this.options.methods };
    const by = this.options.approvedBy;
    const call = decision.approved
      ? this.agent.call(approve, by === undefined ? [itemId] : [itemId, by])
      : this.agent.call(reject, decision.reason ? [itemId, decision.reason] : [itemId]);
    call.then(
      () => this.ledger.mark(id, "settled"),
      (e) => {
        const text = message(e);
        if (isAlreadyDecidedError(text)) this.ledger.mark(id, "elsewhere");
        else {
          this.errors.set(itemId, text);
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
