/**
 * What a detached dispatch's tool returns at once (agents 0.32's `runAgentTool(cls, { detached })`):
 * `{ runId, agentType, status: "running" | "error", error? }` — `error` when the dispatch itself was refused,
 * e.g. by `maxConcurrentAgentTools` (docs/protocol.md#concurrency-limit). The run itself then lives in the tray.
 */

/** A detached dispatch's answer, as read from a tool output. */
export interface DetachedDispatch {
  runId: string;
  status: "running" | "error";
  agentType?: string;
  error?: string;
}

/** The dispatch answer in a tool output, or null when the output is something else. */
export function detachedDispatchOf(output: unknown): DetachedDispatch | null {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return null;
  const o = output as Record<string, unknown>;
  if (typeof o.runId !== "string" || o.runId === "") return null;
  if (o.status !== "running" && o.status !== "error") return null;
  const out: DetachedDispatch = { runId: o.runId, status: o.status };
  if (typeof o.agentType === "string") out.agentType = o.agentType;
  if (typeof o.error === "string") out.error = o.error;
  return out;
}
