/**
 * Exactly one decision per request, however it is asked for: a double click, Enter then a click, a card's
 * button and the queue's approve-all in the same tick. The guard is a synchronous claim taken before anything
 * is sent, so it holds before React has re-rendered any button. Pure: no React, no IO.
 */
import type { ApprovalDecision } from "./approval-request.ts";

/** Where a claimed decision is: being sent, answered by the server, or failed before it could land. */
export type LedgerPhase = "sending" | "settled" | "failed";

/** One claimed decision. */
export interface LedgerEntry {
  decision: ApprovalDecision;
  phase: LedgerPhase;
  error?: string;
}

/** The decisions this page made, by request id. */
export class DecisionLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  /** Takes the one decision for `id`. False when it already has one: the caller must send nothing. */
  claim(id: string, decision: ApprovalDecision): boolean {
    if (this.entries.has(id)) return false;
    this.entries.set(id, { decision: { ...decision }, phase: "sending" });
    return true;
  }

  /** The decision claimed for `id`, if any. */
  get(id: string): LedgerEntry | undefined {
    return this.entries.get(id);
  }

  /** True when `id` has a claimed decision. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Records the server's answer (or a failure) for a claimed decision. */
  mark(id: string, phase: LedgerPhase, error?: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.set(id, { ...e, phase, ...(error === undefined ? {} : { error }) });
  }

  /**
   * Forgets a claim, so the request can be answered again. Only for a decision known never to have reached
   * the server (the server still lists the request as pending after the failure).
   */
  release(id: string): void {
    this.entries.delete(id);
  }
}
