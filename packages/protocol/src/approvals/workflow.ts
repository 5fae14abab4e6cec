/**
 * Workflow approvals kept in agent state (the human-in-the-loop docs' `state.pendingApprovals`, decided with
 * the `approve` / `reject` callables), as pure functions over the state.
 */
import { findExpiry, parseExpiry } from "./expiry.ts";
import type { ApprovalOutcome, ApprovalRisk, ApprovalStatus, ClaimedDecision } from "./request.ts";

/**
 * One workflow approval as the agent keeps it in its state. Only its key is required: `id`, or `workflowId`
 * (the human-in-the-loop docs' items, keyed by the waiting workflow). The item's other fields are the agent's
 * own (an expense's `amount`, …) and are shown as the arguments. `approve(id, approvedBy?)` moves it to
 * `resolvedApprovals` with `status: "approved"` (and `approvedBy`), `reject(id, reason?)` with
 * `status: "rejected"` and `reason`; both add `resolvedAt`. (The docs' agent drops decided items instead.)
 */
export interface WorkflowApprovalItem {
  id?: string;
  /** The key of the docs' shape, used when `id` is absent. */
  workflowId?: string;
  status?: "pending" | "approved" | "rejected" | (string & {});
  title?: string;
  /** Epoch ms. */
  requestedAt?: number;
  /** Epoch ms, on a resolved item. */
  resolvedAt?: number;
  approvedBy?: string;
  reason?: string;
  [field: string]: unknown;
}

/** The part of an agent's state that holds its workflow approvals; the rest of the state is the agent's. */
export interface WorkflowApprovalState {
  pendingApprovals?: WorkflowApprovalItem[];
  resolvedApprovals?: WorkflowApprovalItem[];
  [key: string]: unknown;
}

/** Where the pending and resolved items live in the agent's state (what a `select` option returns). */
export interface WorkflowStateShape {
  pending: readonly unknown[];
  resolved: readonly unknown[];
}

/** The default: `state.pendingApprovals` and `state.resolvedApprovals`. */
export function defaultWorkflowSelect(state: unknown): WorkflowStateShape {
  const s = (typeof state === "object" && state !== null ? state : {}) as Record<string, unknown>;
  return {
    pending: Array.isArray(s.pendingApprovals) ? s.pendingApprovals : [],
    resolved: Array.isArray(s.resolvedApprovals) ? s.resolvedApprovals : [],
  };
}

/** One workflow item, normalised from a `WorkflowApprovalItem` (or a looser shape another agent keeps). */
export interface WorkflowItem {
  id: string;
  name: string;
  title?: string;
  summary?: string;
  risk?: ApprovalRisk;
  permissions?: string[];
  arguments: unknown;
  requestedAt?: number;
  expiresAt?: number;
  /** For a resolved item: what was decided. */
  resolved?: { approved: boolean; reason?: string };
}

// Item fields that describe the request rather than being what is approved.
const META = new Set([
  "id",
  "workflowId",
  "status",
  "action",
  "name",
  "type",
  "title",
  "summary",
  "description",
  "risk",
  "permissions",
  "requestedAt",
  "createdAt",
  "resolvedAt",
  "approvedBy",
  "reason",
  "expiresAt",
  "expires_at",
  "expiry",
  "expires",
  "deadline",
  "validUntil",
  "valid_until",
]);

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

const key = (v: unknown): string | undefined => (typeof v === "number" ? String(v) : str(v));

/**
 * A workflow item's key: its `id`, else its `workflowId` (the shape the human-in-the-loop docs keep, decided
 * with `approve(workflowId, approvedBy)`); undefined when it has neither as a string or number.
 */
export function workflowItemId(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const item = raw as Record<string, unknown>;
  return key(item.id) ?? key(item.workflowId);
}

/** Reads a workflow item; undefined without a string or number `id` (or `workflowId`). */
export function readWorkflowItem(raw: unknown, resolved = false): WorkflowItem | undefined {
  const id = workflowItemId(raw);
  if (!id) return undefined;
  const item = raw as Record<string, unknown>;
  const title = str(item.title);
  const name = str(item.action) ?? str(item.name) ?? str(item.type) ?? title ?? "approval";
  const summary = str(item.summary) ?? str(item.description) ?? (title !== name ? title : undefined);
  const explicit = item.input ?? item.arguments ?? item.args;
  const args =
    explicit !== undefined
      ? explicit
      : Object.fromEntries(Object.entries(item).filter(([k]) => !META.has(k)));
  const permissions = Array.isArray(item.permissions)
    ? item.permissions.filter((p): p is string => typeof p === "string")
    : [];
  const risk = str(item.risk)?.toLowerCase();
  const requestedAt = parseExpiry(item.requestedAt ?? item.createdAt);
  const expiresAt = findExpiry(item, explicit);
  const status = str(item.status)?.toLowerCase();
  return {
    id,
    name,
    ...(title ? { title } : {}),
    ...(summary ? { summary } : {}),
    ...(risk ? { risk } : {}),
    ...(permissions.length ? { permissions } : {}),
    arguments: args,
    ...(requestedAt === undefined ? {} : { requestedAt }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(resolved
      ? {
          resolved: {
            approved: status === "approved" || status === "approve",
            ...(str(item.reason) ? { reason: item.reason as string } : {}),
          },
        }
      : {}),
  };
}

/** Pending and resolved items of a state; an id both pending and resolved counts as pending. */
export function workflowItems(
  state: unknown,
  select: (state: unknown) => WorkflowStateShape = defaultWorkflowSelect,
): { pending: WorkflowItem[]; resolved: WorkflowItem[] } {
  let shape: WorkflowStateShape;
  try {
    shape = select(state);
  } catch {
    shape = { pending: [], resolved: [] };
  }
  const pending = (shape.pending ?? []).flatMap((x) => readWorkflowItem(x) ?? []);
  const ids = new Set(pending.map((p) => p.id));
  const resolved = (shape.resolved ?? [])
    .flatMap((x) => readWorkflowItem(x, true) ?? [])
    .filter((r) => !ids.has(r.id));
  return { pending, resolved };
}

/** True when a thrown callable error means the item was already decided (the mock's and the docs' wording). */
export function isAlreadyDecidedError(message: string): boolean {
  return /no pending approval|not pending|no longer pending|already (approved|rejected|resolved|decided)|not found/i.test(
    message,
  );
}

/** What `workflowStatus` weighs for one item. */
export interface WorkflowStatusInput {
  /** The item is still in the pending list. */
  pending: boolean;
  /** What the resolved list says was decided; undefined for an item gone from both lists. */
  decided?: { approved: boolean; reason?: string };
  /** The decision this tab claimed for it. */
  local: ClaimedDecision | undefined;
  /** This page saw the item pending before. */
  seenPending: boolean;
}

/**
 * A workflow request's status and outcome. A pending item is submitting while this tab's decision travels and
 * decided once the callable answered (the state broadcast may still be on its way). A resolved one is this
 * tab's decision, someone else's if this page saw it pending (or the server refused this tab's as already
 * decided), else history.
 */
export function workflowStatus({ pending, decided, local, seenPending }: WorkflowStatusInput): {
  status: ApprovalStatus;
  outcome?: ApprovalOutcome;
} {
  const refused = local?.phase === "elsewhere";
  if (pending) {
    if (refused) return { status: "answered-elsewhere" };
    if (!local) return { status: "requested" };
    const outcome: ApprovalOutcome = { ...local.decision, by: "here" };
    if (local.phase === "settled")
      return { status: local.decision.approved ? "approved" : "denied", outcome };
    return { status: "submitting", outcome };
  }
  if (local && !refused) {
    if (decided && decided.approved !== local.decision.approved)
      return { status: "answered-elsewhere", outcome: { ...decided, by: "elsewhere" } };
    return {
      status: local.decision.approved ? "approved" : "denied",
      outcome: { ...local.decision, by: "here" },
    };
  }
  if (seenPending || refused)
    return { status: "answered-elsewhere", ...(decided ? { outcome: { ...decided, by: "elsewhere" } } : {}) };
  return {
    status: decided?.approved ? "approved" : "denied",
    ...(decided ? { outcome: { ...decided, by: "unknown" } } : {}),
  };
}
