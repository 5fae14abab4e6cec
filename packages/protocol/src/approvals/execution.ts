/**
 * Think durable pauses and paused codemode runs, as pure functions: reading `pendingApprovals()` and
 * `pendingExecutions()` answers, finding paused tool outputs in the transcript, and classifying the answer to
 * `approveExecution` / `rejectExecution` (docs/protocol.md#durable-pauses).
 */
import type { UIMessage } from "ai";
import { isToolUIPart, type ToolPartLike } from "../tool-parts.ts";
import { type DescriptorInfo, readDescriptor, type ThinkActionDescriptor } from "./descriptor.ts";
import { findExpiry, parseExpiry } from "./expiry.ts";
import type { ApprovalOutcome, ApprovalStatus, ClaimedDecision } from "./request.ts";

/** One entry of Think's `pendingApprovals()` answer. */
export interface ThinkPendingApproval {
  executionId: string;
  /** What paused: `action` (a durable-pause action) or `codemode`. */
  source: string;
  descriptor?: ThinkActionDescriptor;
}

/** One entry of Think's `pendingExecutions(executionId?)` answer: the authoritative arguments. */
export interface ThinkPendingExecution {
  executionId: string;
  toolCallId?: string;
  action?: string;
  input: unknown;
  /** Epoch ms. */
  createdAt?: number;
}

/** A paused execution as this page knows it from a listing or the transcript. */
export interface PausedExecution {
  executionId: string;
  toolCallId?: string;
  descriptor: DescriptorInfo;
  /** The arguments as listed or previewed; not authoritative until `pendingExecutions` answers. */
  preview: unknown;
  requestedAt?: number;
  expiresAt?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads one `pendingApprovals()` entry (`{executionId, source, descriptor}`); undefined when malformed. */
export function readPendingApproval(entry: unknown): PausedExecution | undefined {
  if (!isObj(entry) || typeof entry.executionId !== "string" || entry.executionId === "") return undefined;
  const descriptor = readDescriptor(entry.descriptor);
  const d = isObj(entry.descriptor) ? entry.descriptor : {};
  if (!descriptor.name) {
    const name = [entry.action, entry.toolName, entry.source].find((v) => typeof v === "string" && v !== "");
    if (typeof name === "string") descriptor.name = name;
  }
  const expiresAt = descriptor.expiresAt ?? findExpiry(entry, descriptor.input);
  const requestedAt = parseExpiry(entry.createdAt ?? d.createdAt);
  return {
    executionId: entry.executionId,
    ...(typeof d.toolCallId === "string" ? { toolCallId: d.toolCallId } : {}),
    descriptor,
    preview: descriptor.input ?? entry.input,
    ...(requestedAt === undefined ? {} : { requestedAt }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

/** The authoritative full arguments for `executionId` in a `pendingExecutions()` answer, if it lists it. */
export function fullArgumentsOf(
  answer: unknown,
  executionId: string,
): { found: true; input: unknown; createdAt?: number } | { found: false } {
  if (!Array.isArray(answer)) return { found: false };
  const e = answer.find((x) => isObj(x) && x.executionId === executionId) as
    | Record<string, unknown>
    | undefined;
  if (!e) return { found: false };
  const createdAt = parseExpiry(e.createdAt);
  return { found: true, input: e.input, ...(createdAt === undefined ? {} : { createdAt }) };
}

/** A tool part's paused-or-resolved view: Think replaces the `{status:"paused"}` output once decided. */
export interface TranscriptExecution {
  executionId: string;
  paused: boolean;
  /** For a resolved one: whether the output says it was approved (ran) or rejected. */
  approved?: boolean;
  reason?: string;
  execution: PausedExecution;
}

/**
 * Durable pauses in the transcript: tool parts whose output is `{status:"paused", executionId}` or that carry a
 * `durable-pause` descriptor (kept after the output is replaced, so a decision made elsewhere shows up).
 */
export function transcriptExecutions(messages: readonly UIMessage[]): TranscriptExecution[] {
  const out: TranscriptExecution[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ToolPartLike & { approvalDescriptor?: unknown };
      const output = isObj(part.output) ? part.output : undefined;
      const d = isObj(part.approvalDescriptor) ? part.approvalDescriptor : undefined;
      const paused = part.state === "output-available" && output?.status === "paused";
      const executionId =
        (paused && typeof output?.executionId === "string" ? output.executionId : undefined) ??
        (d?.kind === "durable-pause" && typeof d.requestId === "string" ? d.requestId : undefined);
      if (!executionId) continue;
      const descriptor = readDescriptor(d);
      if (!descriptor.name) descriptor.name = typeof output?.action === "string" ? output.action : part.type;
      const expiresAt = descriptor.expiresAt ?? findExpiry(part.input, output);
      const execution: PausedExecution = {
        executionId,
        toolCallId: part.toolCallId,
        descriptor,
        preview: descriptor.input ?? part.input,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      };
      if (paused) out.push({ executionId, paused: true, execution });
      else if (part.state === "output-available" || part.state === "output-error") {
        const rejected = output?.status === "rejected";
        out.push({
          executionId,
          paused: false,
          approved: !rejected,
          ...(rejected && typeof output?.reason === "string" ? { reason: output.reason } : {}),
          execution,
        });
      }
    }
  }
  return out;
}

/** What an `approveExecution` / `rejectExecution` answer means for the request. */
export type ExecutionAnswer = { kind: "settled" } | { kind: "elsewhere"; error: string };

/**
 * Think answers a decision on an execution that is no longer pending (a second decision, or an unknown id) with
 * `{status:"error", error:"… is no longer pending …"}`, not a thrown error; anything else means it was applied.
 */
export function classifyExecutionAnswer(answer: unknown, executionId: string): ExecutionAnswer {
  if (isObj(answer) && answer.status === "error") {
    const error = typeof answer.error === "string" ? answer.error : "The execution is no longer pending.";
    if (answer.executionId === executionId || /no longer pending|not pending|not found|unknown/i.test(error))
      return { kind: "elsewhere", error };
  }
  return { kind: "settled" };
}

/** What this page knows about one execution. */
export interface ExecutionRecord {
  execution: PausedExecution;
  /** The authoritative arguments from `pendingExecutions`, once loaded. */
  full?: unknown;
  argumentsState: "loading" | "complete" | "error";
  /** The server lists it (or the transcript shows it) as still waiting. */
  pending: boolean;
  /** Decided by someone else while this page watched (the decision, when the transcript tells). */
  elsewhere?: { approved?: boolean; reason?: string };
  /** Decided before this page saw it (from the transcript). */
  earlier?: { approved: boolean; reason?: string };
  error?: string;
}

/**
 * An execution request's status and outcome from its record and the decision this tab claimed for it (a claim
 * the server refused as already decided reads as answered elsewhere).
 */
export function executionStatus(
  r: ExecutionRecord,
  local: ClaimedDecision | undefined,
): { status: ApprovalStatus; outcome?: ApprovalOutcome } {
  if (r.elsewhere) {
    const { approved, reason } = r.elsewhere;
    return approved === undefined
      ? { status: "answered-elsewhere" }
      : {
          status: "answered-elsewhere",
          outcome: { approved, ...(reason ? { reason } : {}), by: "elsewhere" },
        };
  }
  if (local?.phase === "elsewhere") return { status: "answered-elsewhere" };
  if (local) {
    const outcome: ApprovalOutcome = { ...local.decision, by: "here" };
    if (local.phase === "settled")
      return { status: local.decision.approved ? "approved" : "denied", outcome };
    if (local.phase === "interrupted") return { status: "interrupted", outcome };
    return { status: "submitting", outcome };
  }
  if (r.earlier)
    return { status: r.earlier.approved ? "approved" : "denied", outcome: { ...r.earlier, by: "unknown" } };
  return { status: "requested" };
}
