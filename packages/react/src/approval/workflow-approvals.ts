/**
 * Workflow approvals kept in agent state (the human-in-the-loop docs' `state.pendingApprovals`, decided with
 * the `approve` / `reject` callables), as pure functions over the state.
 */
import { type ApprovalRisk, findExpiry, parseExpiry } from "./approval-request.ts";

/** Where the pending and resolved items live in the agent's state. */
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

/** One workflow item, normalised. */
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

/** Reads a workflow item; undefined without a string or number id. */
export function readWorkflowItem(raw: unknown, resolved = false): WorkflowItem | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const item = raw as Record<string, unknown>;
  const id = typeof item.id === "number" ? String(item.id) : str(item.id);
  if (!id) return undefined;
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
