/**
 * The contract between a playing turn and its agent instance: what a script can reach (`TurnTools`), the
 * per-turn view the player gets (`TurnHost`), the gates a turn stops at, and how a turn ends.
 */
import type { LiveViewMode, LiveViewSession, ThinkActionDescriptor } from "@runboard/protocol";
import type { MockConnection } from "./connection.ts";
import type { ChildRunSpec, Step, TurnContext } from "./script.ts";

/** What a turn's script reaches on its instance besides its own stream (runs, gates, state, sockets). */
export interface TurnTools {
  /** Starts a child run awaited by a turn; resolves with the parent tool's result. */
  runChild(
    spec: ChildRunSpec,
    toolCallId: string,
    signal: AbortSignal,
  ): Promise<{ output?: unknown; error?: string }>;
  /** Starts a detached child run and returns its run id at once. */
  runDetached(step: Extract<Step, { kind: "detached" }>): string;
  /** Registers a gate; the rest of the script plays when it is answered. */
  gate(g: Gate): void;
  /** Think durable pause: records the execution and returns its id. */
  pause(step: Extract<Step, { kind: "pause" }>, toolCallId: string, input: unknown): string;
  /** Puts an action descriptor on a tool part of the persisted transcript. */
  describe(toolCallId: string, descriptor: ThinkActionDescriptor): void;
  /** Mints a Live View session. */
  liveView(mode: LiveViewMode): LiveViewSession;
  /** Server-side setState. */
  setState(update: (state: unknown) => unknown): void;
  /** Drops a socket without a close handshake. */
  dropConnection(conn: MockConnection): void;
  /** Evicts the instance once the current step returns (the playing turn is cut there). */
  evict(recover: boolean | "give-up"): void;
  /** Compacts the transcript (the `compact` step); resolves when it is done. */
  compact(step: Extract<Step, { kind: "compact" }>): Promise<void>;
}

/** What the player needs from its agent instance, bound to one turn. */
export interface TurnHost extends Omit<TurnTools, "runChild" | "dropConnection" | "evict"> {
  /** Evicts the instance at this step; resolves when the turn is cut. */
  evict(recover: boolean | "give-up"): Promise<void>;
  /** The `finish` chunk in the host's shape. */
  finishChunk(reason: "stop" | "tool-calls"): Record<string, unknown>;
  readonly chunkDelayMs: number;
  /** The server's delay multiplier (`sleep` applies it; wall-clock pacing needs it too). */
  readonly delayScale: number;
  /** Emits a chunk into the stream (stored, broadcast, applied to the transcript). */
  emit(chunk: Record<string, unknown>): void;
  /** Emits a chunk that is broadcast but never stored (agent-tool progress and milestones). */
  emitTransient(chunk: Record<string, unknown>): void;
  /** Sleeps `ms` scaled by the server's delay scale; resolves early when the turn is aborted. */
  sleep(ms: number): Promise<void>;
  /** Aborted when the turn is cancelled, cleared or evicted. */
  readonly signal: AbortSignal;
  /** Starts a child run awaited by this turn; resolves with the parent tool's result. */
  runChild(spec: ChildRunSpec, toolCallId: string): Promise<{ output?: unknown; error?: string }>;
  /** Drops the socket that sent the request. */
  closeOriginator(): void;
}

/** Parallel gates of one model step, answered one by one; the continuation starts when all are. */
export interface GateBatch {
  gates: Gate[];
  answers: Map<string, GateAnswer>;
  /** Some answer asked for a continuation (`autoContinue`). */
  autoContinue: boolean;
}

/** A human's decision on an approval, or a client tool's result. */
export type GateAnswer = { approved: boolean } | { toolResult: true };

/** A turn that stopped at a human or a client tool. */
export interface Gate {
  kind: "approval" | "client-tool";
  toolCallId: string;
  toolName: string;
  approvalId?: string;
  input: unknown;
  step: Extract<Step, { kind: "approval" | "client-tool" }>;
  rest: Step[];
  ctx: TurnContext;
  batch?: GateBatch;
}

/** How playing a turn ended. */
export type PlayResult =
  | { kind: "done" }
  | { kind: "gated" }
  | { kind: "aborted" }
  | { kind: "error"; message: string; thrown: boolean };
