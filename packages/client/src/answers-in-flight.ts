import { approvalIdOf, type ToolPartLike } from "@runboard/protocol";
import type { UIMessage } from "ai";

/** A tool answer this tab sent: an approval decision or a client tool's output. */
export interface SentAnswer {
  /** The frame as sent, to send again unchanged. */
  frame: string;
  /** The part's state while the server still waits for this answer. */
  waiting: "approval-requested" | "input-available";
  /** For a decision: the approval it answers (a new request on the same call is not this one). */
  approvalId?: string;
  /** What the answer changed on the part locally, to show it again over a transcript read back. */
  patch: Record<string, unknown>;
  /** The socket it went out on has closed since: it may never have arrived. */
  maybeLost: boolean;
}

type PartLike = { toolCallId?: unknown; state?: unknown; approval?: { id?: unknown } };

/**
 * Answers sent and not yet seen applied by the server. A frame sent in the instant a link dies (the socket
 * still looks open here, the server has already dropped it) is lost without a trace: the tab shows the
 * decision made, the server still asks, and nobody is asked again. After a reconnect the transcript read back
 * tells which answers never arrived; those are sent again, once per lost socket. An answer is resent only
 * when its socket closed, so one still on its way on a live socket is never doubled. (Found by the stream
 * fault suite: a drop armed for a replay fired between an approval phase's frames under CPU load.)
 */
export class AnswersInFlight {
  private readonly sent = new Map<string, SentAnswer>();

  /** Remembers an answer just sent on a live socket. */
  add(toolCallId: string, answer: Omit<SentAnswer, "maybeLost">): void {
    this.sent.set(toolCallId, { ...answer, maybeLost: false });
  }

  /** The socket closed: every answer sent so far may be lost. */
  socketClosed(): void {
    for (const a of this.sent.values()) a.maybeLost = true;
  }

  /** Forgets every answer (the history was cleared). */
  clear(): void {
    this.sent.clear();
  }

  /** Forgets the answers the server shows applied in `messages` (a message update or a full transcript). */
  seen(messages: readonly UIMessage[]): void {
    if (this.sent.size === 0) return;
    for (const m of messages)
      for (const p of m.parts as PartLike[]) {
        if (typeof p.toolCallId !== "string") continue;
        const a = this.sent.get(p.toolCallId);
        if (a && !this.stillWaiting(a, p)) this.sent.delete(p.toolCallId);
      }
  }

  /**
   * Given the server's whole transcript: the answers lost with a socket that it still waits for, marked as
   * sent again. Answers whose call is gone from the transcript (cleared, regenerated) are forgotten.
   */
  lost(messages: readonly UIMessage[]): Array<[toolCallId: string, answer: SentAnswer]> {
    if (this.sent.size === 0) return [];
    const parts = new Map<string, PartLike>();
    for (const m of messages)
      for (const p of m.parts as PartLike[]) if (typeof p.toolCallId === "string") parts.set(p.toolCallId, p);
    const out: Array<[string, SentAnswer]> = [];
    for (const [id, a] of this.sent) {
      const p = parts.get(id);
      if (!p || !this.stillWaiting(a, p)) this.sent.delete(id);
      else if (a.maybeLost) {
        a.maybeLost = false;
        out.push([id, a]);
      }
    }
    return out;
  }

  private stillWaiting(a: SentAnswer, p: PartLike): boolean {
    if (p.state !== a.waiting) return false;
    // A part stored without an approval id answers to its tool call id (`approvalIdOf`).
    return a.approvalId === undefined || approvalIdOf(p as ToolPartLike) === a.approvalId;
  }
}
