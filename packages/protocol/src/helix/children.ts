/**
 * helix persistent children (docs/helix.md#persistent-children): an agent with `persistentAgents` tracks each
 * child as a `SubSessionRef` and gets six companion tools. These pure rules keep a list of children from
 * `SubSessionRef` lists and from those tools' results, and turn a child into a run record RunTray lists.
 *
 * The tools' result shapes are unspecified by helix, so every result is read tolerantly: a result that looks
 * like a `SubSessionRef` (or a list of them, bare or as `{ children }`) is taken as one; otherwise only the
 * tool's input (`name`, `agent`) and the documented meaning of the tool are used. A result
 * `{ success: false, error }` changes nothing (the call failed).
 */
import type { AgentToolRunState, AgentToolRunStatus } from "../agent-tool-runs.ts";
import { valueText } from "../run-display.ts";
import { helixFailureOf } from "./chunks.ts";

/** A child session as helix tracks it. */
export interface SubSessionRef {
  subSessionId: string;
  agentType: string;
  parentToolCallId: string;
  status: "running" | "completed" | "failed" | "terminated";
  startedAt: number;
  completedAt?: number;
  mode: "ephemeral" | "persistent";
  name?: string;
}

/** A child as the tray shows it: its ref, plus what the companion tools told about it. */
export interface HelixChild extends SubSessionRef {
  /** The child's result (`companion__waitForResult`, `companion__getChildStatus`). */
  result?: unknown;
  /** Why it failed, when a result said so. */
  error?: string;
  /** The last follow-up message sent to it (`companion__sendMessage`). */
  lastMessage?: string;
}

/** The companion tool names helix gives a parent with persistent agents. */
export const HELIX_COMPANION_TOOLS = [
  "companion__spawnAgent",
  "companion__sendMessage",
  "companion__listChildren",
  "companion__getChildStatus",
  "companion__waitForResult",
  "companion__terminateChild",
] as const;

const STATUSES = new Set(["running", "completed", "failed", "terminated"]);
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** A `SubSessionRef` read from the wire (tolerant: `mode` defaults to persistent, times to `now`); or undefined. */
export function readSubSessionRef(value: unknown, now = 0): SubSessionRef | undefined {
  if (!isRecord(value)) return undefined;
  const subSessionId = str(value.subSessionId);
  const agentType = str(value.agentType);
  if (subSessionId === undefined || agentType === undefined) return undefined;
  const ref: SubSessionRef = {
    subSessionId,
    agentType,
    parentToolCallId: str(value.parentToolCallId) ?? "",
    status: STATUSES.has(value.status as string) ? (value.status as SubSessionRef["status"]) : "running",
    startedAt: typeof value.startedAt === "number" ? value.startedAt : now,
    mode: value.mode === "ephemeral" ? "ephemeral" : "persistent",
  };
  if (typeof value.completedAt === "number") ref.completedAt = value.completedAt;
  const name = str(value.name);
  if (name !== undefined) ref.name = name;
  return ref;
}

/** How a child is found again: its name (persistent children are named), else its session id. */
export const helixChildKey = (c: Pick<SubSessionRef, "name" | "subSessionId">) => c.name ?? c.subSessionId;

/** Puts refs into the list: a known child (same key) is updated, keeping what the tools told; a new one is added. */
export function mergeSubSessionRefs(
  children: readonly HelixChild[],
  refs: readonly SubSessionRef[],
): readonly HelixChild[] {
  const out = children.slice();
  for (const ref of refs) {
    const i = out.findIndex((c) => helixChildKey(c) === helixChildKey(ref));
    const prev = out[i];
    // Re-spawning a finished name starts a fresh session: what the old one said does not carry over.
    const fresh = prev === undefined || prev.subSessionId !== ref.subSessionId;
    const next: HelixChild = fresh ? { ...ref } : { ...prev, ...ref };
    if (i < 0) out.push(next);
    else out[i] = next;
  }
  return out;
}

const refsOf = (v: unknown, now: number): SubSessionRef[] => {
  const list = Array.isArray(v) ? v : isRecord(v) && Array.isArray(v.children) ? v.children : [v];
  return list.flatMap((x) => readSubSessionRef(x, now) ?? []);
};

/**
 * Applies one companion tool's result (`toolName` with or without the `companion__` prefix). Returns the same
 * list when the result says nothing about a child.
 */
export function applyCompanionResult(
  children: readonly HelixChild[],
  call: { toolName: string; input?: unknown; output?: unknown },
  now = 0,
): readonly HelixChild[] {
  const tool = call.toolName.replace(/^(tool-)?companion__/, "");
  const input = isRecord(call.input) ? call.input : {};
  const output = call.output;
  if (helixFailureOf(output) !== undefined) return children;
  const refs = refsOf(output, now);
  if (refs.length > 0 && tool !== "waitForResult") return mergeSubSessionRefs(children, refs);
  const name = str(input.name) ?? (isRecord(output) ? str(output.name) : undefined);
  const i = name === undefined ? -1 : children.findIndex((c) => helixChildKey(c) === name);
  const update = (patch: Partial<HelixChild>) => {
    const out = children.slice();
    out[i] = { ...(children[i] as HelixChild), ...patch };
    return out;
  };
  switch (tool) {
    case "spawnAgent": {
      const agentType = str(input.agent);
      if (agentType === undefined || name === undefined) return children;
      const sessionId = isRecord(output) ? str(output.subSessionId) : undefined;
      return mergeSubSessionRefs(children, [
        {
          subSessionId: sessionId ?? `${name}@${now}`,
          agentType,
          parentToolCallId: "",
          status: "running",
          startedAt: now,
          mode: "persistent",
          name,
        },
      ]);
    }
    case "sendMessage":
      return i < 0 || typeof input.message !== "string" ? children : update({ lastMessage: input.message });
    case "terminateChild":
      return i < 0 ? children : update({ status: "terminated", completedAt: now });
    case "waitForResult":
    case "getChildStatus": {
      if (i < 0) return children;
      const o = isRecord(output) ? output : { result: output };
      const status = STATUSES.has(o.status as string) ? (o.status as SubSessionRef["status"]) : undefined;
      const patch: Partial<HelixChild> = {};
      if (tool === "waitForResult") patch.status = status ?? "completed";
      else if (status) patch.status = status;
      if ("result" in o) patch.result = o.result;
      else if (tool === "waitForResult") patch.result = output;
      if (typeof o.error === "string") patch.error = o.error;
      if (patch.status && patch.status !== "running") patch.completedAt ??= now;
      return update(patch);
    }
  }
  return children;
}

const RUN_STATUS: Readonly<Record<SubSessionRef["status"], AgentToolRunStatus>> = {
  running: "running",
  completed: "completed",
  failed: "error",
  terminated: "aborted",
};

/**
 * A child as a run record for RunTray: `runId` its session id, `display.name` its name, status `failed` →
 * `error` and `terminated` → `aborted`, `summary` its result as text, `order` its start time.
 */
export function helixChildToRun(child: HelixChild): AgentToolRunState {
  const run: AgentToolRunState = {
    runId: child.subSessionId,
    agentType: child.agentType,
    order: child.startedAt,
    status: RUN_STATUS[child.status],
    parts: [],
    milestones: [],
    subAgent: { agent: child.agentType, name: child.subSessionId },
  };
  if (child.name !== undefined) run.display = { name: child.name };
  const summary = valueText(child.result);
  if (summary !== "") run.summary = summary;
  if (child.error !== undefined) run.error = child.error;
  else if (child.status === "failed") run.error = "The child failed.";
  if (child.lastMessage !== undefined) run.inputPreview = { message: child.lastMessage };
  return run;
}
