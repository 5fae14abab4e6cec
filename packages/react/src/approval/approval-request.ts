/**
 * The source-neutral approval request: what an agent asks a human, whether it came from a chat tool part, a
 * Think durable pause or a workflow approval kept in agent state. The adapters build these; the card and the
 * queue only read them and call `decide`. Pure: no React, no IO.
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
 * - `answered-elsewhere`: someone else (another tab, another person) decided while this page watched.
 */
export type ApprovalStatus = "requested" | "submitting" | "approved" | "denied" | "answered-elsewhere";

/** What a card shows: the status, plus `expired` and `offline` for a request that cannot be answered now. */
export type ApprovalState = ApprovalStatus | "expired" | "offline";

/** A human's answer. `reason` goes with a denial. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
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
  if (request.status !== "requested") return request.status;
  if (request.expiresAt !== undefined && now !== null && now >= request.expiresAt) return "expired";
  if (!request.online) return "offline";
  return "requested";
}

/** True when a decision can be sent now; Approve additionally needs the complete arguments. */
export function canDeny(request: ApprovalRequest, now: number | null = Date.now()): boolean {
  return approvalState(request, now) === "requested";
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

// ───────────────────────────── descriptors ─────────────────────────────

/** What a Think action descriptor (or a workflow item) says about the action, normalised. */
export interface DescriptorInfo {
  name?: string;
  summary?: string;
  risk?: ApprovalRisk;
  permissions?: string[];
  input?: unknown;
  expiresAt?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/** Reads a descriptor (`{action, summary, risk, permissions, input}`); anything missing or malformed is left out. */
export function readDescriptor(descriptor: unknown): DescriptorInfo {
  if (!isObj(descriptor)) return {};
  const out: DescriptorInfo = {};
  const name = str(descriptor.action) ?? str(descriptor.toolName) ?? str(descriptor.name);
  if (name) out.name = name;
  const summary = str(descriptor.summary) ?? str(descriptor.description);
  if (summary) out.summary = summary;
  const risk = str(descriptor.risk);
  if (risk) out.risk = risk.toLowerCase();
  if (Array.isArray(descriptor.permissions)) {
    const permissions = descriptor.permissions.filter((p): p is string => typeof p === "string");
    if (permissions.length) out.permissions = permissions;
  }
  if ("input" in descriptor) out.input = descriptor.input;
  const expiresAt = findExpiry(descriptor);
  if (expiresAt !== undefined) out.expiresAt = expiresAt;
  return out;
}

// ───────────────────────────── expiry ─────────────────────────────

/** Field names an expiry travels under, in tool inputs, descriptors, metadata and workflow items. */
export const EXPIRY_KEYS = [
  "expiresAt",
  "expires_at",
  "expiry",
  "expires",
  "deadline",
  "validUntil",
  "valid_until",
] as const;

// Below this a number is seconds since the epoch (1e11 s is the year 5138; 1e11 ms is 1973).
const SECONDS_LIMIT = 1e11;

/** An expiry as epoch ms: epoch ms, epoch seconds, a numeric string, an ISO date string or a Date. */
export function parseExpiry(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < SECONDS_LIMIT ? value * 1000 : value;
  }
  if (typeof value === "string" && value.trim() !== "") {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return parseExpiry(Number(value));
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** The first parseable expiry among the sources' expiry fields (a source that is not an object is skipped). */
export function findExpiry(...sources: unknown[]): number | undefined {
  for (const source of sources) {
    if (!isObj(source)) continue;
    for (const key of EXPIRY_KEYS) {
      const t = parseExpiry(source[key]);
      if (t !== undefined) return t;
    }
  }
  return undefined;
}

// ───────────────────────────── text ─────────────────────────────

/**
 * Arguments as text for a `<pre>`: indented JSON; strings as they are. Never throws (cycles, BigInt), and never
 * produces markup: the caller renders it as text.
 */
export function formatArguments(args: unknown): string {
  if (args === undefined) return "";
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) ?? String(args);
  } catch {
    return String(args);
  }
}
