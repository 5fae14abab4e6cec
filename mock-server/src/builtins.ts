/**
 * Callables every mock agent has, besides the ones its definition declares: Live View, workflow approvals
 * (the human-in-the-loop docs' `approve` / `reject` over `state.pendingApprovals`), cancelling a child run,
 * and — Think only — the durable-execution callables (docs/protocol.md#host-differences).
 */

import type {
  ThinkPendingApproval,
  ThinkPendingExecution,
  WorkflowApprovalItem,
  WorkflowApprovalState,
} from "@runboard/protocol";
import { workflowItemId } from "@runboard/protocol";
import type { CallableHost } from "./instance-host.ts";
import type { CallableSpec } from "./script.ts";
import { text } from "./script.ts";
import { responseVersions } from "./think-session.ts";

function resolveWorkflow(inst: CallableHost, id: unknown, change: Record<string, unknown>) {
  const state = (inst.state ?? {}) as WorkflowApprovalState;
  const pending = state.pendingApprovals ?? [];
  // Keyed `id`, or `workflowId` as the human-in-the-loop docs keep them.
  const item = pending.find((a) => workflowItemId(a) === String(id));
  if (!item) throw new Error(`No pending approval ${String(id)}`);
  const resolved: WorkflowApprovalItem = { ...item, ...change, resolvedAt: Date.now() };
  inst.setState({
    ...state,
    pendingApprovals: pending.filter((a) => a !== item),
    resolvedApprovals: [...(state.resolvedApprovals ?? []), resolved],
  });
  return resolved;
}

type Fn = CallableSpec["fn"];

const common: Record<string, (inst: CallableHost) => Fn> = {
  liveView: (inst) => (_api, opts) => {
    const mode = (opts as { mode?: unknown } | undefined)?.mode === "devtools" ? "devtools" : "tab";
    return inst.refreshLiveView(mode);
  },
  // Ends the pretend browser session: `liveView()` then answers null until a turn opens a browser again.
  closeBrowser: (inst) => () => {
    inst.closeBrowser();
    return true;
  },
  approve: (inst) => (_api, id, by) =>
    resolveWorkflow(inst, id, { status: "approved", ...(typeof by === "string" ? { approvedBy: by } : {}) }),
  reject: (inst) => (_api, id, reason) =>
    resolveWorkflow(inst, id, { status: "rejected", ...(typeof reason === "string" ? { reason } : {}) }),
  cancelAgentTool: (inst) => (_api, runId, reason) =>
    inst.cancelRun(String(runId), typeof reason === "string" ? reason : undefined),
  // Re-dispatching the same run id, as the conformance Worker's callable does on agents 0.32.
  retryAgentTool: (inst) => (_api, runId) => inst.retryRun(String(runId)),
  // The agents helper example's name for a callable calling `clearAgentToolRuns()`; answers nothing.
  clearHelperRuns: (inst) => () => {
    inst.clearRuns();
  },
  // The conformance Worker's name for it, with its answer.
  cancelRun: (inst) => (_api, runId, reason) => {
    inst.cancelRun(String(runId), typeof reason === "string" ? reason : "Cancelled by the user");
    return { runId, cancelled: true };
  },
};

const think: Record<string, (inst: CallableHost) => Fn> = {
  pendingApprovals: (inst) => (_api, executionId) =>
    inst.executions.pending(executionId).map(
      (e): ThinkPendingApproval => ({
        executionId: e.executionId,
        source: "action",
        descriptor: { ...e.step.descriptor, toolCallId: e.toolCallId, input: e.input },
      }),
    ),
  pendingExecutions: (inst) => (_api, executionId) =>
    inst.executions.pending(executionId).map(
      (e): ThinkPendingExecution => ({
        executionId: e.executionId,
        toolCallId: e.toolCallId,
        action: e.step.descriptor.action,
        input: e.input,
        createdAt: e.createdAt,
      }),
    ),
  approveExecution: (inst) => (_api, executionId) => settle(inst, executionId, "completed"),
  // Not built into Think: upstream's assistant example wraps `session.getBranches` in this callable, and so
  // does the conformance Worker (docs/protocol.md#branches).
  getResponseVersions: (inst) => (_api, userMessageId) =>
    responseVersions(inst.transcript, String(userMessageId)),
  rejectExecution: (inst) => (_api, executionId, reason) =>
    settle(inst, executionId, "rejected", typeof reason === "string" ? reason : undefined),
};

/**
 * Runs (or refuses) a paused action exactly once, rewrites the paused tool output in the transcript, and
 * continues the turn. A second call, either way, returns the first outcome and does nothing else.
 */
function settle(inst: CallableHost, executionId: unknown, status: "completed" | "rejected", reason?: string) {
  const e = inst.executions.get(String(executionId));
  // Answered, not thrown, and the same for an unknown id (observed on the real Think runtime).
  if (e?.status !== "pending")
    return {
      status: "error",
      executionId: String(executionId),
      error: `Execution "${String(executionId)}" is no longer pending — it was approved or rejected elsewhere.`,
    };
  e.status = status;
  const { action, summary } = e.step.descriptor;
  if (status === "completed") {
    e.result = typeof e.step.output === "function" ? e.step.output(e.input) : (e.step.output ?? { ok: true });
  } else if (reason !== undefined) e.reason = reason;
  // Approved: Think replaces the paused output with the action's own result and drops what the model wrote
  // after the pause (seen on the real runtime). Rejected: no recording; the output says so with the reason.
  const output =
    status === "completed"
      ? e.result
      : { status: "rejected", executionId: e.executionId, action, reason: reason ?? "Rejected by user" };
  inst.updateToolOutput(e.toolCallId, output, { dropAfter: status === "completed" });
  const line =
    status === "completed"
      ? `Approved: ${summary} is done.`
      : `${summary} was rejected${reason ? `: ${reason}` : ""}, so I did not run it.`;
  void inst.runProgrammatic([text(line)], { continuation: true });
  // Think answers an approval with the action's own output (observed), a rejection with the rejected output.
  return output;
}

/** The built-in callable for `method` on this instance, if any. */
export function builtinCallable(inst: CallableHost, method: string): CallableSpec | undefined {
  const make = Object.hasOwn(common, method)
    ? common[method]
    : inst.flavour.durableExecutions && Object.hasOwn(think, method)
      ? think[method]
      : undefined;
  return make ? { fn: make(inst) } : undefined;
}
