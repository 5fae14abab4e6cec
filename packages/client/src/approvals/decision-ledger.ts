/**
 * Exactly one decision per request in the whole tab, however it is asked for: a double click, Enter then a
 * click, a card's button and the queue's approve-all in the same tick, two stores (or two hooks, or two cards)
 * showing the same request on one connection. The guard is a synchronous claim taken before anything is sent,
 * so it holds before any view has re-rendered; the ledger is one per connection, so every store on it sees the
 * same claims.
 */
import type { ApprovalDecision, ClaimedDecision, ClaimPhase } from "@runboard/protocol";

/** The decisions this tab claimed on one connection, keyed by request id (`<source>:<key>`). */
export class DecisionLedger {
  private readonly entries = new Map<string, ClaimedDecision>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;

  /** Grows with every change: a snapshot computed from the ledger is current while it is the same. */
  get version(): number {
    return this.changes;
  }

  /** Calls `fn` after every claim, phase change and release. Returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  private changed() {
    this.changes++;
    for (const fn of [...this.listeners]) fn();
  }

  /** Takes the one decision for `id`. False when it already has one: the caller must send nothing. */
  claim(id: string, decision: ApprovalDecision): boolean {
    if (this.entries.has(id)) return false;
    this.entries.set(id, { decision: { ...decision }, phase: "sending" });
    this.changed();
    return true;
  }

  /** The decision claimed for `id`, if any. */
  get(id: string): ClaimedDecision | undefined {
    return this.entries.get(id);
  }

  /** True when `id` has a claimed decision. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Ids whose claim is still `sending`, among those starting with `prefix`. */
  sending(prefix = ""): string[] {
    const out: string[] = [];
    for (const [id, e] of this.entries) if (e.phase === "sending" && id.startsWith(prefix)) out.push(id);
    return out;
  }

  /** Ids whose claim is not confirmed yet (`sending`, or `failed`: lost with a socket or not), among `prefix`. */
  unconfirmed(prefix = ""): string[] {
    const out: string[] = [];
    for (const [id, e] of this.entries)
      if ((e.phase === "sending" || e.phase === "failed") && id.startsWith(prefix)) out.push(id);
    return out;
  }

  /** Records where a claimed decision is (the server's answer, a failure, a refusal). */
  mark(id: string, phase: ClaimPhase, error?: string): void {
    const e = this.entries.get(id);
    if (!e || (e.phase === phase && e.error === error)) return;
    const { error: _old, ...rest } = e;
    this.entries.set(id, { ...rest, phase, ...(error === undefined ? {} : { error }) });
    this.changed();
  }

  /**
   * Forgets a claim, so the request can be answered again. Only for a decision known never to have reached
   * the server (refused while connected, or still listed as pending after the connection that carried it
   * dropped).
   */
  release(id: string): void {
    if (this.entries.delete(id)) this.changed();
  }
}

/**
 * The error an `interrupted` request carries: a decision sent from here was lost with its connection (a drop, or
 * the agent restarting) and the agent asks again.
 */
export const INTERRUPTED_DECISION =
  "The agent restarted or the connection dropped before it applied the decision; decide again.";

const ledgers = new WeakMap<object, DecisionLedger>();

/** The one ledger of a connection (made on first use; it lives as long as the connection object). */
export function ledgerFor(connection: object): DecisionLedger {
  let ledger = ledgers.get(connection);
  if (!ledger) {
    ledger = new DecisionLedger();
    ledgers.set(connection, ledger);
  }
  return ledger;
}
