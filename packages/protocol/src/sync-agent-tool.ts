/**
 * Synchronous sub-agent tools (caliban's `AgentTool`, docs/helix.md#synchronous-agenttool-caliban): the parent's
 * turn blocks while a child runs to completion, and the transcript holds only a tool call
 * `{ prompt, tool_allowlist?, model? }` and ONE text result, the child's final text cut to about 5,000
 * characters. No agent-tool events exist, so the run is read from the tool part alone.
 */
import type { AgentToolRunState, AgentToolRunStatus } from "./agent-tool-runs.ts";

/** The tool's name in caliban. */
export const SYNC_AGENT_TOOL_NAME = "AgentTool";
/** About how many characters of the child's final text the agent keeps. */
export const SYNC_AGENT_TOOL_LIMIT = 5000;
/**
 * A result at least this long is taken as cut by the agent: "about 5,000" leaves the exact cut unknown (it may
 * fall on a word or line), and a child's final text that long and whole is rare enough to mark.
 */
export const SYNC_AGENT_TOOL_CUT_AT = 4900;

/** What a synchronous sub-agent call shows. */
export interface SyncAgentToolCall {
  toolCallId: string;
  prompt: string;
  /** The tools the child may use; `all-but-agent-tool` when the allowlist was omitted. */
  allowedTools: readonly string[] | "all-but-agent-tool";
  model?: string;
  /** `running` while the part has no result: the parent's turn is blocked on it. */
  state: "running" | "completed" | "error";
  /** The child's final text (as the agent kept it). */
  result?: string;
  /** The result reached the agent's limit: the child's text was longer and the rest never reached the parent. */
  cutByAgent: boolean;
  error?: string;
}

/** A run record for AgentToolRun, carrying the call it was read from. */
export interface SyncAgentToolRun extends AgentToolRunState {
  sync: SyncAgentToolCall;
}

type PartLike = { type: string; toolCallId?: unknown; state?: unknown; input?: unknown; output?: unknown };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The tool name of a tool part (`tool-<name>`, or a `dynamic-tool`'s `toolName`). */
const toolNameOf = (part: PartLike & { toolName?: unknown }) =>
  part.type === "dynamic-tool" ? String(part.toolName ?? "") : part.type.replace(/^tool-/, "");

/** Whether a tool part is a synchronous sub-agent call (`names`: tool names to treat so, default `AgentTool`). */
export function isSyncAgentToolPart(
  part: PartLike,
  names: readonly string[] = [SYNC_AGENT_TOOL_NAME],
): boolean {
  return (part.type.startsWith("tool-") || part.type === "dynamic-tool") && names.includes(toolNameOf(part));
}

/**
 * The text of a tool result: a string, a text block `{ type: "text", text }`, a list of blocks (or
 * `{ content: [...] }`), or an AI SDK `{ type: "text", value }` output; anything else as JSON.
 */
export function resultText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map(resultText).join("");
  if (isRecord(output)) {
    if (typeof output.text === "string") return output.text;
    if (output.type === "text" && typeof output.value === "string") return output.value;
    if (Array.isArray(output.content)) return resultText(output.content);
  }
  if (output === undefined || output === null) return "";
  try {
    return JSON.stringify(output);
  } catch {
    return String(output);
  }
}

/** Whether a result text reached the agent's cut (`cutAt` characters, default `SYNC_AGENT_TOOL_CUT_AT`). */
export const isCutByAgent = (text: string, cutAt = SYNC_AGENT_TOOL_CUT_AT) => text.length >= cutAt;

/** Reads a synchronous sub-agent call from its tool part; undefined for other parts. Never throws. */
export function parseSyncAgentTool(
  part: PartLike,
  options: { names?: readonly string[]; cutAt?: number } = {},
): SyncAgentToolCall | undefined {
  if (!isSyncAgentToolPart(part, options.names)) return undefined;
  const input = isRecord(part.input) ? part.input : {};
  const list = Array.isArray(input.tool_allowlist)
    ? input.tool_allowlist.filter((t): t is string => typeof t === "string" && t !== SYNC_AGENT_TOOL_NAME)
    : undefined;
  const call: SyncAgentToolCall = {
    toolCallId: typeof part.toolCallId === "string" ? part.toolCallId : "",
    prompt: typeof input.prompt === "string" ? input.prompt : "",
    // The child never gets AgentTool itself; an omitted list means every parent tool but it.
    allowedTools: list ?? "all-but-agent-tool",
    state: "running",
    cutByAgent: false,
  };
  if (typeof input.model === "string" && input.model !== "") call.model = input.model;
  if (part.state === "output-available") {
    call.state = "completed";
    call.result = resultText(part.output);
    call.cutByAgent = isCutByAgent(call.result, options.cutAt);
  } else if (part.state === "output-error" || part.state === "output-denied") {
    call.state = "error";
    const errorText = (part as { errorText?: unknown }).errorText;
    call.error = typeof errorText === "string" && errorText !== "" ? errorText : "The sub-agent call failed.";
  }
  return call;
}

const STATUS: Readonly<Record<SyncAgentToolCall["state"], AgentToolRunStatus>> = {
  running: "running",
  completed: "completed",
  error: "error",
};

/**
 * The run record AgentToolRun renders for a synchronous call: `runId` `sync:<toolCallId>`, bound to its tool
 * call, `inputPreview` the tool's input, `summary` the result text, `sync` the parsed call. Undefined for other parts.
 */
export function syncAgentToolRun(
  part: PartLike,
  options: { names?: readonly string[]; cutAt?: number; agentType?: string } = {},
): SyncAgentToolRun | undefined {
  const sync = parseSyncAgentTool(part, options);
  if (!sync) return undefined;
  const run: SyncAgentToolRun = {
    runId: `sync:${sync.toolCallId}`,
    agentType: options.agentType ?? SYNC_AGENT_TOOL_NAME,
    parentToolCallId: sync.toolCallId,
    order: 0,
    status: STATUS[sync.state],
    parts: [],
    milestones: [],
    subAgent: { agent: options.agentType ?? SYNC_AGENT_TOOL_NAME, name: sync.toolCallId },
    sync,
  };
  if (part.input !== undefined) run.inputPreview = part.input;
  if (sync.result !== undefined && sync.result !== "") run.summary = sync.result;
  if (sync.error !== undefined) run.error = sync.error;
  return run;
}
