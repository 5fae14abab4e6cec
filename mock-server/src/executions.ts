/**
 * Think's durable executions: a `pause` step records one, and the durable-execution callables list, approve
 * or reject it later (docs/protocol.md#host-differences).
 */
import * as ids from "./ids.ts";
import type { Step } from "./script.ts";

/** A Think durable pause waiting for `approveExecution` / `rejectExecution`. */
export interface Execution {
  executionId: string;
  toolCallId: string;
  step: Extract<Step, { kind: "pause" }>;
  input: unknown;
  createdAt: number;
  status: "pending" | "completed" | "rejected";
  result?: unknown;
  reason?: string;
}

/** The durable executions of one instance, by id. */
export class DurableExecutions {
  private readonly byId = new Map<string, Execution>();

  /** Records a pause and returns its execution id. */
  pause(step: Extract<Step, { kind: "pause" }>, toolCallId: string, input: unknown): string {
    const executionId = `actpause_${ids.uuid()}`;
    this.byId.set(executionId, {
      executionId,
      toolCallId,
      step,
      input,
      createdAt: Date.now(),
      status: "pending",
    });
    return executionId;
  }

  /** The execution with this id, if any. */
  get(executionId: string): Execution | undefined {
    return this.byId.get(executionId);
  }

  /** Pending executions, or only `executionId` when one is given (both listing callables take it, as on Think). */
  pending(executionId: unknown): Execution[] {
    return [...this.byId.values()].filter(
      (e) => e.status === "pending" && (typeof executionId !== "string" || e.executionId === executionId),
    );
  }
}
