/**
 * Tool-part helpers with the classification of the official `getToolPartState` (docs/protocol.md#tool-part-classification), plus a
 * selector for what is waiting on a human or on the client.
 */
import type { UIMessage } from "ai";
import { isToolPart, type Part } from "./chunk-applier.ts";
import { truncateText } from "./run-display.ts";

/** A tool part as it appears in `message.parts` (`tool-<name>` or `dynamic-tool`). */
export interface ToolPartLike {
  type: string;
  toolCallId: string;
  toolName?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: ToolApproval;
  preliminary?: boolean;
  providerExecuted?: boolean;
}

/** The approval record on a tool part. `descriptor` is Think's action descriptor, when it sends one. */
export interface ToolApproval {
  id: string;
  approved?: boolean;
  reason?: string;
  descriptor?: unknown;
}

/**
 * The approval id of a tool part that asks (or asked) for approval: its `approval.id`, else its tool call id,
 * as the servers derive it for a part stored without one (an older or hand-seeded transcript,
 * docs/protocol.md#approvals). Undefined for a part that never asked.
 */
export function approvalIdOf(part: ToolPartLike): string | undefined {
  const id = (part.approval as { id?: unknown } | undefined)?.id;
  if (typeof id === "string") return id;
  const asked =
    part.approval !== undefined || part.state === "approval-requested" || part.state === "approval-responded";
  return asked && typeof part.toolCallId === "string" && part.toolCallId !== "" ? part.toolCallId : undefined;
}

/** UI-level state of a tool part, as the official helper names it. */
export type ToolPartState =
  | "streaming"
  | "waiting-approval"
  | "approved"
  | "complete"
  | "error"
  | "denied"
  | "loading";

/** True when a message part is a tool part. */
export function isToolUIPart(part: Part | { type: string }): part is Part & ToolPartLike {
  return isToolPart(part) && typeof (part as { toolCallId?: unknown }).toolCallId === "string";
}

/** The tool name of a tool part: `toolName`, else the part type without `tool-`. */
export function getToolName(part: ToolPartLike): string {
  if (typeof part.toolName === "string" && part.toolName) return part.toolName;
  return part.type.startsWith("tool-") ? part.type.slice(5) : "";
}

/**
 * Classifies a tool part. `approval-responded` is `approved` even when the local record says denied, because
 * the server turns a denial into `output-denied` (docs/protocol.md#approvals).
 */
export function getToolPartState(part: ToolPartLike): ToolPartState {
  switch (part.state) {
    case "input-streaming":
      return "streaming";
    case "approval-requested":
      return "waiting-approval";
    case "approval-responded":
      return "approved";
    case "output-available":
      return "complete";
    case "output-error":
      return "error";
    case "output-denied":
      return "denied";
    default:
      return "loading";
  }
}

/** The tool call id of a tool part. */
export const getToolCallId = (part: ToolPartLike): string => part.toolCallId;
/** The input of a tool part (partial while streaming). */
export const getToolInput = (part: ToolPartLike): unknown => part.input;
/** The output of a tool part, once available. */
export const getToolOutput = (part: ToolPartLike): unknown => part.output;
/**
 * A tool part's `input` or `output` as display text, whatever its shape: the parser checks a part's string
 * fields but not these, so `null`, a string, an array, a number or megabytes arrive as they are. Empty (`""`)
 * when there is nothing to show: no value, `null`, `""`, `{}` or `[]`. A string is shown as it is, anything
 * else as compact JSON; the text is cut to `maxLength` characters (default 2,000) with an ellipsis. Render it as
 * text, never as HTML.
 */
export function toolValueText(value: unknown, maxLength = 2_000): string {
  if (value === undefined || value === null || value === "") return "";
  if (typeof value === "object" && Object.keys(value).length === 0) return "";
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "";
    } catch {
      // A cycle (an output the app added itself): still say what it is. `String()` would throw without a prototype.
      text = Object.prototype.toString.call(value);
    }
  }
  return truncateText(text, maxLength).text;
}

/** The approval record of a tool part, if any. */
export const getToolApproval = (part: ToolPartLike): ToolApproval | undefined => part.approval;

/** Something a human or the client must answer before the agent can go on. */
export type PendingInteraction =
  | {
      kind: "approval";
      messageId: string;
      toolCallId: string;
      approvalId: string;
      toolName: string;
      part: ToolPartLike;
    }
  | { kind: "client-tool"; messageId: string; toolCallId: string; toolName: string; part: ToolPartLike };

/** Options of `selectPendingInteractions`. */
export interface PendingInteractionOptions {
  /**
   * Names of tools the client executes. A tool in `input-available` is only a client tool when its name is
   * listed: server tools pass through that state too while they run (#1614).
   */
  clientToolNames?: Iterable<string>;
}

/**
 * Everything waiting for an answer, oldest first: approval requests anywhere in the transcript (parallel tool
 * calls give several), and client tool calls of the last assistant message.
 */
export function selectPendingInteractions(
  messages: readonly UIMessage[],
  options: PendingInteractionOptions = {},
): PendingInteraction[] {
  const clientTools = new Set(options.clientToolNames ?? []);
  const out: PendingInteraction[] = [];
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "assistant") {
      lastAssistant = i;
      break;
    }
  }
  messages.forEach((m, i) => {
    for (const p of m.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ToolPartLike;
      const approvalId = part.state === "approval-requested" ? approvalIdOf(part) : undefined;
      if (approvalId) {
        out.push({
          kind: "approval",
          messageId: m.id,
          toolCallId: part.toolCallId,
          approvalId,
          toolName: getToolName(part),
          part,
        });
      } else if (
        i === lastAssistant &&
        part.state === "input-available" &&
        clientTools.has(getToolName(part))
      ) {
        out.push({
          kind: "client-tool",
          messageId: m.id,
          toolCallId: part.toolCallId,
          toolName: getToolName(part),
          part,
        });
      }
    }
  });
  return out;
}

/**
 * Finds the tool call id behind an approval id: the wire is keyed by tool call id (docs/protocol.md#approvals).
 * A part stored without an approval id answers to its tool call id, as on the server (`approvalIdOf`).
 */
export function findToolCallIdForApproval(
  messages: readonly UIMessage[],
  approvalId: string,
): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    for (const p of (messages[i] as UIMessage).parts) {
      if (isToolUIPart(p) && approvalIdOf(p as ToolPartLike) === approvalId)
        return (p as ToolPartLike).toolCallId;
    }
  }
  return undefined;
}
