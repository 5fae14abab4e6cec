/**
 * Continuations of one instance: a turn that stopped at gates (approvals, client tools) goes on in a new,
 * server-started stream once every gate of its batch is answered (docs/protocol.md#parallel-tool-calls), and a turn cut by an
 * eviction is finished by a recovery continuation (docs/protocol.md#recovering).
 */
import type { MessageList, ServerFrame, ToolApprovalFrame, ToolResultFrame } from "@runboard/protocol";
import type { MockConnection } from "./connection.ts";
import type { HostFlavour } from "./host-flavour.ts";
import type { Step, TurnContext } from "./script.ts";
import { awaitsToolResult, updateToolPart } from "./transcript-edits.ts";
import type { Gate, GateAnswer, GateBatch } from "./turn-host.ts";
import type { QueuedTurn } from "./turn-queue.ts";

/** A 50 ms coalesce window batches sibling results before the continuation starts (docs/protocol.md#tool-continuations). */
const COALESCE_MS = 50;
/** How long after an eviction the recovery continuation starts (scaled like every scripted delay). */
const RECOVERY_DELAY_MS = 500;
/** The hosts' default `chatRecovery.terminalMessage` (agents 0.32). */
export const RECOVERY_GAVE_UP = "The assistant was interrupted and could not recover. Please try again.";

/** What continuations need from their instance. */
export interface ContinuationContext {
  readonly flavour: HostFlavour;
  readonly transcript: MessageList;
  isConnected(conn: MockConnection): boolean;
  broadcast(frame: ServerFrame): void;
  enqueue(turn: QueuedTurn): void;
  sleep(ms: number): Promise<void>;
  /** Resolves once a socket is connected (at once when one is). */
  connected(): Promise<void>;
  /** Logs a line about this instance. */
  log(line: string): void;
}

/** Open gates, the continuation they lead to, and a recovery in progress. */
export class Continuations {
  private readonly gates = new Map<string, Gate>();
  /** A continuation inside its coalesce window, not yet queued. */
  private pending?: { id: string; owner: MockConnection };
  /** Request id of a recovery continuation that is scheduled or running. */
  private recoveringId?: string;

  constructor(private readonly c: ContinuationContext) {}

  /** Request id of a recovery continuation that is scheduled or running. */
  get recovering(): string | undefined {
    return this.recoveringId;
  }

  /** A gate the playing turn stopped at. */
  gate(g: Gate) {
    this.gates.set(g.toolCallId, g);
  }

  /** The continuation a probe from `conn` waits for: its own, or one whose socket left (rule B). */
  pendingFor(conn: MockConnection): string | undefined {
    const pc = this.pending;
    return pc && (pc.owner === conn || !this.c.isConnected(pc.owner)) ? pc.id : undefined;
  }

  /** `cf_agent_tool_approval`. */
  approval(conn: MockConnection, f: ToolApprovalFrame) {
    const g = this.gates.get(f.toolCallId);
    if (g?.kind !== "approval") {
      this.c.log("approval for unknown tool call; ignored");
      return;
    }
    this.gates.delete(f.toolCallId);
    const { approved } = f;
    // A denial settles the part at once (`output-denied`), so the model gets a tool result (docs/protocol.md#approvals).
    this.announce(f.toolCallId, (p) => {
      p.state = approved ? "approval-responded" : "output-denied";
      p.approval = { ...(p.approval as object), approved };
    });
    this.answered(conn, g, { approved }, f.autoContinue !== false);
  }

  /** `cf_agent_tool_result`. */
  toolResult(conn: MockConnection, f: ToolResultFrame) {
    const g = this.gates.get(f.toolCallId);
    // Only a part still waiting takes a result; one for a settled part is a silent no-op (docs/protocol.md#client-tools).
    if (!awaitsToolResult(this.c.transcript.messages, f.toolCallId)) {
      this.c.log("tool result for a tool call that is not waiting; ignored");
      return;
    }
    const updated = this.announce(f.toolCallId, (p) => {
      if (f.state === "output-error") {
        p.state = "output-error";
        p.errorText = f.errorText ?? "Tool failed";
      } else {
        p.state = "output-available";
        p.output = f.output;
        p.preliminary = false;
      }
    });
    if (!updated) {
      this.c.log("tool result for unknown tool call; ignored");
      return;
    }
    if (!g) return;
    this.gates.delete(f.toolCallId);
    g.ctx.outputs[g.toolName] = f.output;
    this.answered(conn, g, { toolResult: true }, f.autoContinue !== false);
  }

  /**
   * Eviction: the turn that stopped at the gates is gone, but its tool parts are persisted, still asking. The
   * real runtime applies an answer that reaches it after a restart to the stored part and continues the turn
   * (docs/protocol.md#duplicate-decisions, "A decision lost with a restart"), so a gate whose part still waits
   * stays open, with the rest of its script; the others are forgotten.
   */
  keepStoredGates() {
    const waiting = new Set<string>();
    for (const m of this.c.transcript.messages)
      for (const p of m.parts) {
        const t = p as { toolCallId?: unknown; state?: unknown };
        if (typeof t.toolCallId !== "string") continue;
        if (t.state === "approval-requested" || t.state === "input-available") waiting.add(t.toolCallId);
      }
    for (const id of [...this.gates.keys()]) if (!waiting.has(id)) this.gates.delete(id);
  }

  /** The history was cleared: no gate and no continuation of it goes on. */
  reset() {
    this.gates.clear();
    this.pending = undefined;
  }

  /**
   * Durable recovery after an eviction: `chat_recovering` announces a recovery continuation, which finishes
   * what the cut turn had left, then `recovering:false`.
   */
  recover(cut: { rest: Step[]; ctx?: TurnContext }) {
    const id = this.c.flavour.serverRequestId();
    this.recoveringId = id;
    void this.afterReconnect(RECOVERY_DELAY_MS).then(() =>
      this.c.enqueue({
        id,
        continuation: true,
        ...(cut.ctx ? { ctx: cut.ctx } : {}),
        run: (player) => player.play(cut.rest),
        onEnd: () => {
          this.recoveringId = undefined;
          this.c.broadcast({ type: "cf_agent_chat_recovering", recovering: false, id });
        },
      }),
    );
  }

  /**
   * A woken Durable Object recovers when a request wakes it, usually the client reconnecting: that socket
   * hears `recovering:true` on connect, then the recovery runs. Without any socket it runs after a while.
   */
  private afterReconnect(ms: number): Promise<void> {
    return Promise.race([this.c.connected(), this.c.sleep(RECOVERY_DELAY_MS * 10)]).then(() =>
      this.c.sleep(ms),
    );
  }

  /**
   * A recovery that gives up (its attempts spent): announced like a recovery, then ended for everyone with the
   * hosts' default terminal message as an error frame, then `recovering:false` (docs/protocol.md#recovering).
   */
  giveUp() {
    const id = this.c.flavour.serverRequestId();
    this.recoveringId = id;
    void this.afterReconnect(RECOVERY_DELAY_MS).then(() => {
      if (this.recoveringId !== id) return;
      this.recoveringId = undefined;
      this.c.broadcast({
        type: "cf_agent_use_chat_response",
        id,
        body: RECOVERY_GAVE_UP,
        done: true,
        error: true,
      });
      this.c.broadcast({ type: "cf_agent_chat_recovering", recovering: false, id });
    });
  }

  /** Rewrites a tool part in the transcript and tells every socket. */
  private announce(toolCallId: string, change: (part: Record<string, unknown>) => void) {
    const updated = updateToolPart(this.c.transcript, toolCallId, change);
    if (updated) this.c.broadcast({ type: "cf_agent_message_updated", message: updated });
    return updated;
  }

  /** Records an answer; the batch continues once every parallel call in it is answered (docs/protocol.md#parallel-tool-calls). */
  private answered(conn: MockConnection, g: Gate, answer: GateAnswer, autoContinue: boolean) {
    const batch = g.batch ?? { gates: [g], answers: new Map(), autoContinue: false };
    batch.answers.set(g.toolCallId, answer);
    batch.autoContinue ||= autoContinue;
    if (batch.answers.size < batch.gates.length || !batch.autoContinue) return;
    this.continueAfter(conn, batch);
  }

  private continueAfter(owner: MockConnection, batch: GateBatch) {
    const g = batch.gates[0] as Gate;
    const id = this.c.flavour.serverRequestId();
    this.pending = { id, owner };
    void this.c.sleep(COALESCE_MS).then(() =>
      this.c.enqueue({
        id,
        continuation: true,
        owner,
        ctx: g.ctx,
        before: () => {
          if (this.pending?.id === id) this.pending = undefined;
        },
        run: async (player) => {
          const rest = player.resolveBatch(batch);
          if (this.c.flavour.announcesApprovedOutput) {
            for (const gate of batch.gates) {
              const answer = batch.answers.get(gate.toolCallId);
              if (!answer || !("approved" in answer) || !answer.approved) continue;
              this.announce(gate.toolCallId, (p) => {
                p.state = "output-available";
                p.output = gate.ctx.outputs[gate.toolName];
                p.preliminary = false;
              });
            }
          }
          return player.play(rest);
        },
      }),
    );
  }
}
