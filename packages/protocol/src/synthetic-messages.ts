/**
 * Recognises messages the server injected (docs/protocol.md#synthetic-messages) so a UI can show them as agent events rather than
 * as something the user typed or the model said.
 */
import type { UIMessage } from "ai";

/** What a server-injected message is. */
export type SyntheticMessage =
  /** A detached (background) run ended: `detached-finish:<runId>:<status>`. */
  | { kind: "detached-completion"; runId: string; status: string; source?: string; agentType?: string }
  /** A detached run reached a milestone: `detached-ms:<runId>:<name>`. */
  | { kind: "milestone"; runId: string; milestone: string; source?: string; agentType?: string }
  /** Think's `deliverNotice`: `metadata.deliveryKind`. */
  | { kind: "notice"; deliveryKind: string }
  /** Any other message the server marked with `metadata.source`. */
  | { kind: "injected"; source: string };

const FINISH = "detached-finish:";
const MILESTONE = "detached-ms:";

/** Splits `<runId>:<rest>`; the run id may itself contain `:` (`agent-tool:<toolCallId>`), the tail does not. */
function splitLast(s: string): [string, string] | undefined {
  const at = s.lastIndexOf(":");
  if (at <= 0 || at === s.length - 1) return undefined;
  return [s.slice(0, at), s.slice(at + 1)];
}

/**
 * Classifies a message as server-injected, or returns `undefined` for an ordinary user/assistant message.
 * Reads, in order: the deterministic id prefixes, `metadata.deliveryKind`, then `metadata.source`.
 * Think's user-role notify turns carry neither id nor metadata and cannot be told apart (docs/protocol.md#synthetic-messages-gap).
 */
export function classifySyntheticMessage(
  message: Pick<UIMessage, "id" | "metadata">,
): SyntheticMessage | undefined {
  const meta = (message.metadata ?? {}) as Record<string, unknown>;
  const source = typeof meta.source === "string" ? meta.source : undefined;
  const agentType = typeof meta.agentType === "string" ? meta.agentType : undefined;
  const extra = { ...(source ? { source } : {}), ...(agentType ? { agentType } : {}) };
  if (message.id.startsWith(FINISH)) {
    const parts = splitLast(message.id.slice(FINISH.length));
    if (parts) {
      const runId = typeof meta.runId === "string" ? meta.runId : parts[0];
      const status = typeof meta.status === "string" ? meta.status : parts[1];
      return { kind: "detached-completion", runId, status, ...extra };
    }
  }
  if (message.id.startsWith(MILESTONE)) {
    const rest = message.id.slice(MILESTONE.length);
    // Milestone names may contain ':'; prefer the run id from metadata when the server sent it.
    const runId = typeof meta.runId === "string" ? meta.runId : splitLast(rest)?.[0];
    if (runId && rest.startsWith(`${runId}:`)) {
      const milestone = typeof meta.milestone === "string" ? meta.milestone : rest.slice(runId.length + 1);
      return { kind: "milestone", runId, milestone, ...extra };
    }
  }
  if (typeof meta.deliveryKind === "string") return { kind: "notice", deliveryKind: meta.deliveryKind };
  if (source) return { kind: "injected", source };
  return undefined;
}

/** True when the message was injected by the server rather than typed or generated in a turn. */
export function isSyntheticMessage(message: Pick<UIMessage, "id" | "metadata">): boolean {
  return classifySyntheticMessage(message) !== undefined;
}
