/**
 * Chat approvals (tool parts in `approval-requested`, decided over the chat socket), as pure functions: which
 * parts are approvals, what each part says was decided, which server frames confirm a decision, and the status
 * a request has given what this page sent. See docs/protocol.md#approvals.
 */
import type { UIMessage } from "ai";
import type { ChatResponseFrame, ServerFrame } from "../frames.ts";
import { type ChunkResult, parseChunkBody } from "../parse.ts";
import {
  approvalIdOf,
  getToolName,
  isToolUIPart,
  selectPendingInteractions,
  type ToolPartLike,
} from "../tool-parts.ts";
import { type DescriptorInfo, readDescriptor } from "./descriptor.ts";
import { findExpiry } from "./expiry.ts";
import type { ApprovalDecision, ApprovalOutcome, ApprovalStatus, ClaimedDecision } from "./request.ts";

/** A tool part that asks (or asked) for approval, with what the transcript says about it. */
export interface ChatApprovalEntry {
  approvalId: string;
  toolCallId: string;
  messageId: string;
  toolName: string;
  input: unknown;
  /** Think's action descriptor on the request, normalised (empty for plain `needsApproval` tools). */
  descriptor: DescriptorInfo;
  expiresAt?: number;
  /** The part is still waiting for a decision (`approval-requested`). */
  pending: boolean;
  /** The part's state, e.g. `approval-responded`, `output-denied`. */
  partState: string;
  /** What the part says was decided, once it is past `approval-requested`. */
  decided?: ApprovalDecision;
}

type ApprovalPart = ToolPartLike & {
  approvalDescriptor?: unknown;
  callProviderMetadata?: unknown;
  toolMetadata?: unknown;
  metadata?: unknown;
};

/**
 * The decision a tool part shows as settled, or undefined while it is still undecided (streaming, waiting for
 * its input or for a human). Deny-with-reason is an `output-error` whose text is the reason.
 */
export function approvalDecisionOf(part: ToolPartLike): ApprovalDecision | undefined {
  const approved = part.approval?.approved;
  switch (part.state) {
    case "approval-responded":
      return approved === false
        ? { approved: false, ...(part.approval?.reason ? { reason: part.approval.reason } : {}) }
        : { approved: true };
    case "output-denied":
      return { approved: false, ...(part.approval?.reason ? { reason: part.approval.reason } : {}) };
    case "output-available":
      return { approved: approved !== false };
    case "output-error":
      // Approved and then failed while running, or denied with a reason sent as the tool's error.
      return approved === true
        ? { approved: true }
        : { approved: false, ...(part.errorText ? { reason: part.errorText } : {}) };
    default:
      return undefined;
  }
}

/**
 * Every approval tool part in the transcript, oldest first: pending ones (parallel tool calls give several per
 * message) and decided ones, so a card can show the outcome. A part stored without an approval id is listed
 * under its tool call id, the id the server gives it. Which parts wait is `selectPendingInteractions`'s rule, the same
 * one the chat uses.
 */
export function chatApprovalEntries(messages: readonly UIMessage[]): ChatApprovalEntry[] {
  const waiting = new Set<ToolPartLike>();
  for (const i of selectPendingInteractions(messages)) if (i.kind === "approval") waiting.add(i.part);
  const out: ChatApprovalEntry[] = [];
  const ids = new Set<string>();
  for (const m of messages) {
    for (const p of m.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ApprovalPart;
      // A part stored without an approval id answers to its tool call id, as on the server (`approvalIdOf`).
      const approvalId = approvalIdOf(part);
      if (approvalId === undefined || approvalId === "") continue;
      // Nor can a part without a tool call id: the answer names the tool call (`cf_agent_tool_approval`), and the
      // chat store refuses an approval it cannot map to one (found by the fuzz test: a card whose Approve failed).
      if (typeof part.toolCallId !== "string" || part.toolCallId === "") continue;
      // One request per approval id, the first (as `decide` finds it): a repeated id in a malformed transcript
      // gave two requests with one id, i.e. duplicate React keys in `ApprovalQueue.List` (found by the fuzz test).
      if (ids.has(approvalId)) continue;
      const pending = waiting.has(part);
      const decided = pending ? undefined : approvalDecisionOf(part);
      if (!pending && !decided) continue;
      ids.add(approvalId);
      const descriptor = readDescriptor(part.approval?.descriptor ?? part.approvalDescriptor);
      const expiresAt =
        descriptor.expiresAt ??
        findExpiry(part.input, part.toolMetadata, part.callProviderMetadata, part.metadata);
      out.push({
        approvalId,
        toolCallId: part.toolCallId,
        messageId: m.id,
        toolName: getToolName(part),
        input: part.input,
        descriptor,
        ...(expiresAt === undefined ? {} : { expiresAt }),
        pending,
        partState: part.state ?? "",
        ...(decided ? { decided } : {}),
      });
    }
  }
  return out;
}

/**
 * Tool call ids a server frame shows settled: the server's word that a decision was applied
 * (`cf_agent_message_updated`, a transcript snapshot, or the continuation's tool output). Any other frame gives
 * none. `readBody` parses a chat response's chunk (the client passes its memoized reader).
 */
export function settledToolCallIds(
  frame: ServerFrame,
  readBody: (frame: ChatResponseFrame) => ChunkResult = (f) => parseChunkBody(f.body),
): string[] {
  const fromMessages = (messages: readonly UIMessage[]) => {
    const ids: string[] = [];
    for (const m of messages)
      for (const p of m.parts ?? [])
        if (isToolUIPart(p) && approvalDecisionOf(p as ToolPartLike))
          ids.push((p as ToolPartLike).toolCallId);
    return ids;
  };
  switch (frame.type) {
    case "cf_agent_message_updated":
      return fromMessages([frame.message]);
    case "cf_agent_chat_messages":
      return fromMessages(frame.messages);
    case "cf_agent_use_chat_response": {
      if (frame.error) return [];
      const c = readBody(frame);
      if (c.kind !== "chunk") return [];
      const chunk = c.chunk as { type: string; toolCallId?: unknown };
      return /^tool-output-(available|error|denied)$/.test(chunk.type) && typeof chunk.toolCallId === "string"
        ? [chunk.toolCallId]
        : [];
    }
    default:
      return [];
  }
}

/**
 * A chat request's status and outcome, from the part, the decision this tab claimed for it and whether this
 * page saw it pending before it was decided. A claim is confirmed once its phase is `settled`: the server has
 * shown the tool call settled since the decision was sent (or there is no connection to tell).
 */
export function chatStatus(
  entry: ChatApprovalEntry,
  local: ClaimedDecision | undefined,
  /** This page saw the part pending before it was decided. */
  seenPending: boolean,
): { status: ApprovalStatus; outcome?: ApprovalOutcome } {
  if (local) {
    const mine: ApprovalOutcome = { ...local.decision, by: "here" };
    // `output-denied` and `output-available` only ever come from the server; the local patch is neither.
    const serverSaid =
      !entry.pending &&
      (local.phase === "settled" ||
        entry.partState === "output-denied" ||
        entry.partState === "output-available");
    // Sent, the socket closed, and the transcript read back still asks: the server never applied it.
    if (entry.pending && (local.phase === "failed" || local.phase === "interrupted"))
      return { status: "interrupted", outcome: mine };
    if (!serverSaid || !entry.decided) return { status: "submitting", outcome: mine };
    if (entry.decided.approved !== local.decision.approved)
      return { status: "answered-elsewhere", outcome: { ...entry.decided, by: "elsewhere" } };
    return { status: local.decision.approved ? "approved" : "denied", outcome: mine };
  }
  if (entry.pending || !entry.decided) return { status: "requested" };
  if (seenPending) return { status: "answered-elsewhere", outcome: { ...entry.decided, by: "elsewhere" } };
  return {
    status: entry.decided.approved ? "approved" : "denied",
    outcome: { ...entry.decided, by: "unknown" },
  };
}
