/**
 * Finds failure envelopes (docs/protocol.md#agent-tool-failure-envelope) in chat frames: `agentTool()` returns
 * one as the parent tool part's output (state `output-available`) when its child did not complete. The run
 * store joins them to runs by tool call id.
 */
import {
  type AgentToolFailure,
  isToolPart,
  parseAgentToolFailure,
  type ServerFrame,
} from "@runboard/protocol";
import { readChunk } from "./frame-source.ts";

/** One envelope found: `problem` is set when it was malformed (then `failure` is the generic one). */
export interface FoundToolFailure {
  toolCallId: string;
  failure: AgentToolFailure;
  problem?: string;
}

const NONE: readonly FoundToolFailure[] = Object.freeze([]);

/** The envelopes a chat frame carries; none for any other frame. Never throws. */
export function toolFailuresOf(frame: ServerFrame): readonly FoundToolFailure[] {
  if (frame.type === "cf_agent_use_chat_response") {
    // Cheap test first: most chunks are text deltas.
    if (frame.error || !frame.body.includes('"tool-output-available"')) return NONE;
    const parsed = readChunk(frame);
    if (parsed.kind !== "chunk") return NONE;
    const c = parsed.chunk as { type: string; toolCallId?: unknown; output?: unknown };
    if (c.type !== "tool-output-available" || typeof c.toolCallId !== "string") return NONE;
    const found = one(c.toolCallId, c.output);
    return found ? [found] : NONE;
  }
  if (frame.type !== "cf_agent_chat_messages" || !Array.isArray(frame.messages)) return NONE;
  const out: FoundToolFailure[] = [];
  for (const m of frame.messages) {
    if (m?.role !== "assistant" || !Array.isArray(m.parts)) continue;
    for (const p of m.parts) {
      if (!isToolPart(p)) continue;
      const part = p as { state?: unknown; toolCallId?: unknown; output?: unknown };
      if (part.state !== "output-available" || typeof part.toolCallId !== "string") continue;
      const found = one(part.toolCallId, part.output);
      if (found) out.push(found);
    }
  }
  return out;
}

function one(toolCallId: string, output: unknown): FoundToolFailure | undefined {
  const r = parseAgentToolFailure(output);
  if (r.kind === "none") return undefined;
  return r.kind === "failure"
    ? { toolCallId, failure: r.failure }
    : { toolCallId, failure: r.failure, problem: r.problem };
}
