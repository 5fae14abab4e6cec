/**
 * Invariants the fuzz test checks after every batch of frames. Each check returns the violations it found (an
 * empty list when all hold), so a failure names every broken rule at once.
 */
import type { ChatSnapshot } from "@runboard/client";
import type { AgentToolRunState, AgentToolRunsState } from "@runboard/protocol";
import { compareRuns } from "@runboard/protocol/view";

const CHAT_STATUSES = new Set(["ready", "submitted", "streaming", "error"]);
const ROLES = new Set(["user", "assistant", "system"]);
const RUN_STATUSES = new Set(["running", "completed", "error", "aborted", "interrupted"]);
/** Once a run has one of these it keeps it (docs/protocol.md#agent-tool-dedupe; the reducer's first terminal wins). */
export const HARD_TERMINAL = new Set(["completed", "error", "aborted"]);

type Obj = Record<string, unknown>;

/** The chat snapshot is well-formed and its flags agree with each other. */
export function checkChat(s: ChatSnapshot): string[] {
  const bad: string[] = [];
  if (!CHAT_STATUSES.has(s.status)) bad.push(`status '${String(s.status)}' is not a known status`);
  // The official formula: a request still waiting for its first chunk (`submitted`) is not streaming yet.
  const streaming = s.status === "streaming" || s.isServerStreaming;
  if (s.isStreaming !== streaming)
    bad.push(`isStreaming ${s.isStreaming} but status ${s.status}, isServerStreaming ${s.isServerStreaming}`);
  if (s.status === "error" && !(s.error instanceof Error)) bad.push("status is 'error' without an Error");
  if (s.error !== undefined && !(s.error instanceof Error)) bad.push("error is not an Error");
  for (const flag of ["isStreaming", "isServerStreaming", "isToolContinuation", "isRecovering"] as const)
    if (typeof s[flag] !== "boolean") bad.push(`${flag} is not a boolean`);
  if (!Array.isArray(s.messages)) return [...bad, "messages is not an array"];
  const ids = new Set<string>();
  for (const [i, m] of s.messages.entries()) {
    const where = `messages[${i}]`;
    if (!m || typeof m !== "object") {
      bad.push(`${where} is not an object`);
      continue;
    }
    if (typeof m.id !== "string") bad.push(`${where}.id is not a string`);
    else if (ids.has(m.id)) bad.push(`message id '${m.id}' appears twice`);
    else ids.add(m.id);
    if (!ROLES.has(m.role)) bad.push(`${where}.role '${String(m.role)}' is not a known role`);
    if (!Array.isArray(m.parts)) bad.push(`${where}.parts is not an array`);
    else bad.push(...checkParts(m.parts as unknown[], where));
  }
  return bad;
}

/**
 * Parts have the shape their AI SDK type promises for what a UI reads: text of text and reasoning parts is a
 * string, a tool part has a string tool call id (once per message) and a string state.
 */
export function checkParts(parts: readonly unknown[], where: string): string[] {
  const bad: string[] = [];
  const toolCalls = new Set<string>();
  for (const [j, raw] of parts.entries()) {
    const at = `${where}.parts[${j}]`;
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
      bad.push(`${at} is not an object`);
      continue;
    }
    const p = raw as Obj;
    if (typeof p.type !== "string") {
      bad.push(`${at}.type is not a string`);
      continue;
    }
    if ((p.type === "text" || p.type === "reasoning") && typeof p.text !== "string")
      bad.push(`${at} (${p.type}) has a non-string text`);
    if (p.type.startsWith("tool-") || p.type === "dynamic-tool") {
      if (typeof p.toolCallId !== "string") bad.push(`${at} (${p.type}) has a non-string toolCallId`);
      else if (toolCalls.has(p.toolCallId)) bad.push(`${at}: tool call '${p.toolCallId}' appears twice`);
      else toolCalls.add(p.toolCallId);
      if (typeof p.state !== "string") bad.push(`${at} (${p.type}) has a non-string state`);
    }
  }
  return bad;
}

/**
 * The run state is consistent: every run has a known status and the indexes hold exactly the runs of
 * `runsById`, grouped by parent and in display order. `started` holds the run ids a well-formed `started`
 * frame was delivered for since the last reset: those runs, and only those, exist.
 */
export function checkRuns(s: AgentToolRunsState, started: ReadonlySet<string>): string[] {
  const bad: string[] = [];
  const runs = Object.entries(s.runsById);
  for (const [key, run] of runs) {
    if (!run || typeof run !== "object") {
      bad.push(`runsById['${key}'] is not a run`);
      continue;
    }
    if (run.runId !== key) bad.push(`runsById['${key}'] holds run '${run.runId}'`);
    if (!RUN_STATUSES.has(run.status)) bad.push(`run '${key}' has unknown status '${String(run.status)}'`);
    if (!Array.isArray(run.parts)) bad.push(`run '${key}' parts is not an array`);
    else bad.push(...checkParts(run.parts, `run '${key}'`));
    if (typeof run.order !== "number" || !Number.isFinite(run.order))
      bad.push(`run '${key}' order is not finite`);
    if (run.subAgent?.name !== run.runId || run.subAgent?.agent !== run.agentType)
      bad.push(`run '${key}' subAgent does not point at the run`);
    for (let i = 1; i < run.milestones.length; i++)
      if (!((run.milestones[i]?.sequence ?? 0) > (run.milestones[i - 1]?.sequence ?? 0)))
        bad.push(`run '${key}' milestones are not strictly ordered by sequence`);
    if (!started.has(key)) bad.push(`run '${key}' exists but no 'started' was delivered for it`);
  }
  for (const id of started)
    if (!Object.hasOwn(s.runsById, id)) bad.push(`run '${id}' was started but is not in runsById`);
  // The indexes: each run exactly once, in its own group, sorted.
  const grouped: AgentToolRunState[] = [];
  for (const [parent, group] of Object.entries(s.runsByToolCallId)) {
    if (!Array.isArray(group)) {
      bad.push(`runsByToolCallId['${parent}'] is not an array`);
      continue;
    }
    for (const r of group)
      if (r.parentToolCallId !== parent) bad.push(`run '${r.runId}' is grouped under '${parent}'`);
    bad.push(...sorted(group, `runsByToolCallId['${parent}']`));
    grouped.push(...group);
  }
  for (const r of s.unboundRuns)
    if (r.parentToolCallId !== undefined) bad.push(`unbound run '${r.runId}' has a parent`);
  bad.push(...sorted(s.unboundRuns, "unboundRuns"));
  grouped.push(...s.unboundRuns);
  if (grouped.length !== runs.length)
    bad.push(`the indexes hold ${grouped.length} runs, runsById ${runs.length}`);
  for (const r of grouped)
    if (s.runsById[r.runId] !== r) bad.push(`indexed run '${r.runId}' is not the object in runsById`);
  // Own keys only: a run id such as "constructor" must not find something on Object.prototype.
  for (const probe of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    if (!Object.hasOwn(s.runsById, probe) && s.runsById[probe] !== undefined)
      bad.push(`runsById['${probe}'] finds an inherited value`);
    if (!Object.hasOwn(s.runsByToolCallId, probe) && s.runsByToolCallId[probe] !== undefined)
      bad.push(`runsByToolCallId['${probe}'] finds an inherited value`);
  }
  return bad;
}

function sorted(group: readonly AgentToolRunState[], where: string): string[] {
  for (let i = 1; i < group.length; i++)
    if (compareRuns(group[i - 1] as AgentToolRunState, group[i] as AgentToolRunState) > 0)
      return [`${where} is not in display order`];
  return [];
}

// ───────────────────────────── snapshot immutability ─────────────────────────────

/** A record of an object graph's shape and values at one moment. */
export interface Print {
  root: unknown;
  tokens: unknown[];
}

/**
 * Records every key, leaf value and nested object reference reachable from `root`. Walks iteratively, so a
 * deeply nested value cannot overflow the stack; strings are compared by identity-or-value later, never copied.
 */
export function capture(root: unknown): Print {
  return { root, tokens: walk(root) };
}

/** True when nothing reachable from the captured root changed since `capture`. */
export function unchanged(print: Print): boolean {
  const now = walk(print.root);
  if (now.length !== print.tokens.length) return false;
  for (let i = 0; i < now.length; i++) if (!Object.is(now[i], print.tokens[i])) return false;
  return true;
}

function walk(root: unknown): unknown[] {
  const tokens: unknown[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    tokens.push(v);
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    const keys = Object.keys(v);
    tokens.push(keys.length);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      tokens.push(k);
      stack.push((v as Obj)[k]);
    }
  }
  return tokens;
}
