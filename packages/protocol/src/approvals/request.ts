/**
 * The source-neutral approval request: what an agent asks a human, whether it came from a chat tool part, a
 * Think durable pause or a workflow approval kept in agent state. The client's approval stores build these;
 * a card or a queue only reads them and calls `decide`. Pure: no IO, no clock of its own.
 */

/** Where a request comes from, which decides how the decision travels. */
export type ApprovalSource = "chat" | "execution" | "workflow";

/** How risky the action is, as the agent's descriptor says. Other strings pass through unchanged. */
export type ApprovalRisk = "low" | "medium" | "high" | (string & {});

/**
 * Where a request stands:
 * - `requested`: waiting for a human;
 * - `submitting`: a decision was sent from here and the server has not confirmed it yet;
 * - `approved` / `denied`: decided (from here, or before this page saw it);
 * - `answered-elsewhere`: someone else (another tab, another person) decided while this page watched;
 * - `interrupted`: a decision sent from here was lost (the connection dropped or the agent restarted before
 *   applying it) and the agent asks again; it can be decided once more, and nothing was sent again by itself.
 */
export type ApprovalStatus =
  | "requested"
  | "submitting"
  | "approved"
  | "denied"
  | "answered-elsewhere"
  | "interrupted";

/** What a card shows: the status, plus `expired` and `offline` for a request that cannot be answered now. */
export type ApprovalState = ApprovalStatus | "expired" | "offline";

/** A human's answer. `reason` goes with a denial. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/**
 * Where a decision this tab claimed is: being sent, applied by the server, lost with the connection (unknown
 * until the server lists the request again), known lost (`interrupted`: after a reconnect the server still asks,
 * so it never applied it), or refused because someone else had decided first.
 */
export type ClaimPhase = "sending" | "settled" | "failed" | "interrupted" | "elsewhere";

/** A decision this tab claimed for a request (the one decision it may send), and where it is. */
export interface ClaimedDecision {
  decision: ApprovalDecision;
  phase: ClaimPhase;
  error?: string;
}

/** The decision a request carries once known, and who made it. */
export interface ApprovalOutcome extends ApprovalDecision {
  /** `here`: this page sent it; `elsewhere`: it arrived from another tab or person; `unknown`: decided before. */
  by: "here" | "elsewhere" | "unknown";
}

/** One thing an agent waits for a human to approve or deny. */
export interface ApprovalRequest {
  /** Unique across sources: `<source>:<key>`. */
  id: string;
  source: ApprovalSource;
  /** The source's own id: the approval id (chat), the execution id (Think), the workflow item id. */
  key: string;
  /** The tool call behind it, when there is one. */
  toolCallId?: string;
  /** Tool or action name. */
  name: string;
  /** A workflow item's own title, when it has one. */
  title?: string;
  /** The descriptor's one-line summary of what approving does. */
  summary?: string;
  risk?: ApprovalRisk;
  /** Permissions the action needs, when the descriptor lists them. */
  permissions?: readonly string[];
  /** The exact arguments the action runs with (a preview while `argumentsComplete` is false). */
  arguments: unknown;
  /** False while the authoritative arguments are still loading (Think: the transcript has a cut preview). */
  argumentsComplete: boolean;
  /** Epoch ms after which the request can no longer be answered. */
  expiresAt?: number;
  /** Epoch ms when it was asked, when known. */
  requestedAt?: number;
  status: ApprovalStatus;
  /** The decision: the one being sent while `submitting`, the final one once decided. */
  outcome?: ApprovalOutcome;
  /** False while the connection that carries the decision is down. */
  online: boolean;
  /** The last error sending or loading, for display; the request stays answerable unless its status says not. */
  error?: string;
  /**
   * Sends the decision. Returns false, sending nothing, when this request already has a decision (from any
   * button, any card, approve-all) or cannot be answered now (offline, expired, arguments loading).
   */
  decide(decision: ApprovalDecision): boolean;
}

/**
 * The state a card shows at `now` (epoch ms). `null` means the time is not known yet (a server render, or the
 * page hydrating it): an expiry is then not judged, so the server and the browser agree.
 */
export function approvalState(request: ApprovalRequest, now: number | null = Date.now()): ApprovalState {
  // An interrupted request is asked again: it expires and goes offline like a fresh one.
  if (request.status !== "requested" && request.status !== "interrupted") return request.status;
  if (request.expiresAt !== undefined && now !== null && now >= request.expiresAt) return "expired";
  if (!request.online) return "offline";
  return request.status;
}

/** True when a decision can be sent now (asked, or asked again after a lost one); Approve also needs the arguments. */
export function canDeny(request: ApprovalRequest, now: number | null = Date.now()): boolean {
  const state = approvalState(request, now);
  return state === "requested" || state === "interrupted";
}

/** True when Approve can be sent now: answerable and showing the exact arguments it approves. */
export function canApprove(request: ApprovalRequest, now: number | null = Date.now()): boolean {
  return canDeny(request, now) && request.argumentsComplete;
}

/** Whether approving asks for confirmation: `confirm` when given, else for high (or critical) risk. */
export function needsConfirmation(request: Pick<ApprovalRequest, "risk">, confirm?: boolean): boolean {
  if (confirm !== undefined) return confirm;
  const risk = typeof request.risk === "string" ? request.risk.toLowerCase() : undefined;
  return risk === "high" || risk === "critical";
}
