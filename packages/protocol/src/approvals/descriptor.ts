/**
 * Think's action descriptor: what an approval-gated action or a durable pause says about itself, on the tool
 * part (`approval.descriptor`, or `approvalDescriptor` on a paused part) and in `pendingApprovals()` entries.
 */
import { findExpiry } from "./expiry.ts";
import type { ApprovalRisk } from "./request.ts";

/**
 * The action descriptor as Think sends it. `kind` tells the two flows apart: `approval-gated` is answered
 * with `cf_agent_tool_approval`, `durable-pause` with the `approveExecution` / `rejectExecution` callables.
 */
export interface ThinkActionDescriptor {
  /** The action's name. */
  action: string;
  /** One line saying what approving does. */
  summary: string;
  /** The arguments the action runs with (a transcript may carry a cut preview). */
  input?: unknown;
  permissions?: string[];
  risk?: ApprovalRisk;
  kind?: "approval-gated" | "durable-pause" | (string & {});
  /** A durable pause's execution id. */
  requestId?: string;
  /** The tool call the action answers. */
  toolCallId?: string;
}

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

/**
 * Reads a descriptor (`ThinkActionDescriptor`, or the looser shapes other agents send); anything missing or
 * malformed is left out.
 */
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
