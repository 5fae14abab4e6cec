/**
 * Chat approvals (tool parts in `approval-requested`, decided over the chat socket), as pure functions: which
 * parts are approvals, what each part says was decided, which server frames confirm a decision, and the status
 * a request has given what this page sent. Reference §4.4.
 */
import {
  getToolName,
  isToolUIPart,
  parseChunkBody,
  parseServerFrame,
  type ToolPartLike,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import {
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalStatus,
  type DescriptorInfo,
  findExpiry,
  readDescriptor,
} from "./approval-request.ts";
import { DecisionLedger, type LedgerEntry } from "./decision-ledger.ts";

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
  /** The part is still `approval-requested`. */
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

/** The decision a settled approval part shows. Deny-with-reason is an `output-error` whose text is the reason. */
function decidedBy(part: ApprovalPart): ApprovalDecision | undefined {
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
 * message) and decided ones, so a card can show the outcome. Parts without an approval id cannot be answered
 * (the wire is keyed by it) and are left out.
 */
export function chatApprovalEntries(messages: readonly UIMessage[]): ChatApprovalEntry[] {
  const out: ChatApprovalEntry[] = [];
  for (const m of messages) {
    for (const p of m.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ApprovalPart;
      const approvalId = part.approval?.id;
      if (typeof approvalId !== "string" || approvalId === "") continue;
      // One request per approval id, the first (as `decide` finds it): a repeated id in a malformed transcript
      // gave two requests with one id, i.e. duplicate React keys in `ApprovalQueue.List` (found by the fuzz test).
      if (out.some((e) => e.approvalId === approvalId)) continue;
      const pending = part.state === "approval-requested";
      const decided = pending ? undefined : decidedBy(part);
      if (!pending && !decided) continue;
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

const UNDECIDED = new Set(["input-streaming", "input-available", "approval-requested"]);

/**
 * Tool call ids a server frame shows past `approval-requested`: the server's word that a decision was applied
 * (`cf_agent_message_updated`, a transcript snapshot, or the continuation's tool output). Anything else,
 * including malformed frames, gives none.
 */
export function settledToolCallIds(data: unknown): string[] {
  const parsed = parseServerFrame(data);
  if (parsed.kind !== "frame") return [];
  const f = parsed.frame;
  const fromMessages = (messages: readonly UIMessage[]) => {
    const ids: string[] = [];
    for (const m of messages)
      for (const p of m.parts ?? [])
        if (isToolUIPart(p) && !UNDECIDED.has((p as ToolPartLike).state ?? ""))
          ids.push((p as ToolPartLike).toolCallId);
    return ids;
  };
  switch (f.type) {
    case "cf_agent_message_updated":
      return fromMessages([f.message]);
    case "cf_agent_chat_messages":
      return fromMessages(f.messages);
    case "cf_agent_use_chat_response": {
      if (f.error) return [];
      const c = parseChunkBody(f.body);
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

/** A chat request's status and outcome, from the part, this page's claimed decision and what it has observed. */
export function chatStatus(
  entry: ChatApprovalEntry,
  local: LedgerEntry | undefined,
  /** The server has shown this tool call settled since the decision was sent (or there is no way to know). */
  confirmed: boolean,
  /** This page saw the part pending before it was decided. */
  seenPending: boolean,
): { status: ApprovalStatus; outcome?: ApprovalOutcome } {
  if (local) {
    const mine: ApprovalOutcome = { ...local.decision, by: "here" };
    // `output-denied` and `output-available` only ever come from the server; the local patch is neither.
    const serverSaid =
      !entry.pending &&
      (confirmed || entry.partState === "output-denied" || entry.partState === "output-available");
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

/**
 * What one `useChatApprovals` remembers between renders: its decisions (the exactly-once guard), which of them
 * the server has confirmed, and which approvals it saw pending. No IO; frames are handed to `onFrame`.
 */
export class ChatApprovalTracker {
  readonly ledger = new DecisionLedger();
  private readonly sent = new Set<string>();
  private readonly confirmedIds = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getVersion = (): number => this.version;

  private changed() {
    this.version++;
    for (const fn of [...this.listeners]) fn();
  }

  /** Takes the one decision for a request; false when it already has one. */
  claim(requestId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    if (!this.ledger.claim(requestId, decision)) return false;
    this.sent.add(toolCallId);
    this.changed();
    return true;
  }

  /** A server frame: confirms decisions it shows applied. */
  onFrame(data: unknown): void {
    if (this.sent.size === 0) return;
    let hit = false;
    for (const id of settledToolCallIds(data))
      if (this.sent.has(id) && !this.confirmedIds.has(id)) {
        this.confirmedIds.add(id);
        hit = true;
      }
    if (hit) this.changed();
  }

  /** The server has shown this tool call settled since this page decided it. */
  confirmed(toolCallId: string): boolean {
    return this.confirmedIds.has(toolCallId);
  }

  /** Remembers the approvals a render showed pending. */
  markSeen(entries: readonly ChatApprovalEntry[]): void {
    for (const e of entries) if (e.pending) this.seen.add(e.approvalId);
  }

  /** This page showed the approval pending before. */
  seenPending(approvalId: string): boolean {
    return this.seen.has(approvalId);
  }
}
