/**
 * helix-agents stream chunks (docs/helix.md#chunks): parent and sub-agent chunks on one stream, in order, each
 * with `type` and `agentType` (the agent that produced it). Only the fields the helix docs name are typed;
 * everything else on a chunk (ids, timestamps) is unspecified there, so it is read tolerantly: `idOf` takes the
 * first string among the id fields a runtime might send, and extra fields are kept, never required.
 */

/** Fields every helix chunk has. */
export interface HelixChunkBase {
  type: string;
  /** The agent that produced the chunk (for `subagent_*`: the caller). */
  agentType: string;
  /** Any field the helix docs leave unspecified (ids, timestamps). */
  [extra: string]: unknown;
}

/** Text from the parent or any sub-agent. */
export interface HelixTextDelta extends HelixChunkBase {
  type: "text_delta";
  delta: string;
}

/** A tool call begins inside an agent (sub-agents too). `toolCallId` / `input` are read when present. */
export interface HelixToolStart extends HelixChunkBase {
  type: "tool_start";
  toolName: string;
}

/** A tool call ended. `toolCallId`, `output` (or `result`) and `error` are read when present. */
export interface HelixToolEnd extends HelixChunkBase {
  type: "tool_end";
  toolName: string;
}

/** A sub-agent begins; `agentType` is the caller. `input` is read when present. */
export interface HelixSubagentStart extends HelixChunkBase {
  type: "subagent_start";
  subAgentType: string;
}

/** A sub-agent completed; `agentType` is the caller. A failed child's result is `{ success: false, error }`. */
export interface HelixSubagentEnd extends HelixChunkBase {
  type: "subagent_end";
  subAgentType: string;
  result?: unknown;
}

/** An agent's final structured output. */
export interface HelixOutput extends HelixChunkBase {
  type: "output";
  output: unknown;
}

/** An error chunk: its shape is unspecified by helix; `error` or `message` is read as its text. */
export interface HelixError extends HelixChunkBase {
  type: "error";
}

/** One helix stream chunk as read from the wire. Unknown types are `HelixChunkBase` with their own `type`. */
export type HelixChunk =
  | HelixTextDelta
  | HelixToolStart
  | HelixToolEnd
  | HelixSubagentStart
  | HelixSubagentEnd
  | HelixOutput
  | HelixError
  | HelixChunkBase;

/** The chunk types the helix docs name (others are unknown, see `docs/helix.md#unknown-chunks`). */
export const HELIX_CHUNK_TYPES: ReadonlySet<string> = new Set([
  "text_delta",
  "tool_start",
  "tool_end",
  "subagent_start",
  "subagent_end",
  "output",
  "error",
]);

/** What reading one wire value gave. */
export type HelixChunkRead = { kind: "chunk"; chunk: HelixChunk } | { kind: "error"; reason: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Which string fields a known chunk type must carry, besides `type` and `agentType`. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  text_delta: ["delta"],
  tool_start: ["toolName"],
  tool_end: ["toolName"],
  subagent_start: ["subAgentType"],
  subagent_end: ["subAgentType"],
};

/**
 * Checks one chunk: an object (or a JSON text of one, as an SSE `data:` or an NDJSON line carries) with a string
 * `type` and `agentType`, and the fields its type needs. Never throws; says what is wrong instead.
 */
export function readHelixChunk(value: unknown): HelixChunkRead {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return { kind: "error", reason: "not JSON" };
    }
  }
  if (!isRecord(v)) return { kind: "error", reason: "a chunk must be an object" };
  if (typeof v.type !== "string" || v.type === "") return { kind: "error", reason: "chunk without a 'type'" };
  if (typeof v.agentType !== "string" || v.agentType === "")
    return { kind: "error", reason: `${v.type} chunk without an 'agentType'` };
  for (const field of REQUIRED[v.type] ?? [])
    if (typeof v[field] !== "string")
      return { kind: "error", reason: `${v.type} chunk without a string '${field}'` };
  if (v.type === "output" && !("output" in v))
    return { kind: "error", reason: "output chunk without 'output'" };
  return { kind: "chunk", chunk: v as HelixChunk };
}

/**
 * The first non-empty string among `fields` on a chunk: helix leaves call, run and sub-session ids unspecified,
 * so a runtime that sends any of them gets exact pairing (docs/helix.md#pairing).
 */
export function idOf(chunk: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const v = chunk[f];
    if (typeof v === "string" && v !== "") return v;
  }
  return undefined;
}

/**
 * A failed child's tool result, `{ success: false, error: "<message>" }` (helix's shape); the error text, or
 * undefined when the result is not a failure. A failure without a string error still fails.
 */
export function helixFailureOf(result: unknown): string | undefined {
  if (!isRecord(result) || result.success !== false) return undefined;
  return typeof result.error === "string" && result.error !== "" ? result.error : "The sub-agent failed.";
}
