/**
 * Recognises messages the server injected (docs/protocol.md#synthetic-messages) so a UI can show them as agent events rather than
 * as something the user typed or the model said.
 */
import type { UIMessage } from "ai";

/** What a server-injected message is. */
export type SyntheticMessage =
  /** A detached (background) run ended: `detached-finish:<runId>:<status>`. */
  | {
      kind: "detached-completion";
      runId: string;
      status: string;
      source?: string;
      agentType?: string;
      /** Recognised by Think's default wording only (docs/protocol.md#synthetic-messages-gap). */
      fromText?: true;
    }
  /** A detached run reached a milestone: `detached-ms:<runId>:<name>` (or Think's react-mode wording). */
  | {
      kind: "milestone";
      runId: string;
      milestone: string;
      source?: string;
      agentType?: string;
      /** Recognised by Think's default wording only (docs/protocol.md#synthetic-messages-gap). */
      fromText?: true;
    }
  /** Think's `deliverNotice`: `metadata.deliveryKind`. */
  | { kind: "notice"; deliveryKind: string }
  /** Any other message the server marked with `metadata.source`. */
  | { kind: "injected"; source: string }
  /**
   * A compaction overlay (`compaction_<id>`): Think's summary standing in for the messages it compacted
   * (docs/protocol.md#compaction).
   */
  | { kind: "compaction"; compactionId: string };

const FINISH = "detached-finish:";
const MILESTONE = "detached-ms:";
const COMPACTION = "compaction_";

/** The message fields the classifier reads; `role` and `parts` only for Think's user-role injections. */
export type ClassifiableMessage = Pick<UIMessage, "id" | "metadata"> & {
  role?: string;
  parts?: readonly unknown[];
};

// Think's default wording (`formatDetachedCompletion` / `formatDetachedMilestone`, docs/protocol.md#synthetic-messages):
// `Background task "<agentType>" (run <runId>) finished:` … The run id has no spaces or ')'.
const THINK_TASK = /^Background task "([^"\n]+)" \(run ([^\s)]+)\) /;
const THINK_ENDINGS: Array<[RegExp, string]> = [
  [/^finished(?::|\s|\.|$)/, "completed"],
  [/^failed(?::|\.|$)/, "error"],
  [/^was cancelled\./, "aborted"],
  [/^ran out of time/, "interrupted"],
  [/^was interrupted/, "interrupted"],
];
const THINK_MILESTONE = /^reached milestone "([^"\n]+)"\./;
const THINK_ENDED = /^ended \(([^)\s]+)\)\./;

/**
 * Think's user-role notify and react-mode milestone turns carry neither a known id nor metadata: only the
 * default wording in their first text part tells them from a turn the user typed. An app that overrides
 * `formatDetachedCompletion` loses this (docs/protocol.md#synthetic-messages-gap).
 */
function fromThinkText(message: ClassifiableMessage): SyntheticMessage | undefined {
  if (message.role !== "user" || !Array.isArray(message.parts)) return undefined;
  const first = message.parts.find(
    (p): p is { type: "text"; text: string } =>
      typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text",
  );
  if (typeof first?.text !== "string") return undefined;
  const head = THINK_TASK.exec(first.text);
  if (!head) return undefined;
  const [, agentType, runId] = head as unknown as [string, string, string];
  const rest = first.text.slice(head[0].length);
  const milestone = THINK_MILESTONE.exec(rest)?.[1];
  if (milestone !== undefined) return { kind: "milestone", runId, milestone, agentType, fromText: true };
  const status = THINK_ENDINGS.find(([re]) => re.test(rest))?.[1] ?? THINK_ENDED.exec(rest)?.[1];
  if (status === undefined) return undefined;
  return { kind: "detached-completion", runId, status, agentType, fromText: true };
}

/** Splits `<runId>:<rest>`; the run id may itself contain `:` (`agent-tool:<toolCallId>`), the tail does not. */
function splitLast(s: string): [string, string] | undefined {
  const at = s.lastIndexOf(":");
  if (at <= 0 || at === s.length - 1) return undefined;
  return [s.slice(0, at), s.slice(at + 1)];
}

/**
 * Classifies a message as server-injected, or returns `undefined` for an ordinary user/assistant message.
 * Reads, in order: the deterministic id prefixes (`detached-finish:`, `detached-ms:`, `compaction_`),
 * `metadata.deliveryKind`, `metadata.source`, then, for a user message that has neither, Think's default
 * notify/milestone wording (`fromText: true`; docs/protocol.md#synthetic-messages-gap).
 */
export function classifySyntheticMessage(message: ClassifiableMessage): SyntheticMessage | undefined {
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
  if (message.id.startsWith(COMPACTION) && message.id.length > COMPACTION.length)
    return { kind: "compaction", compactionId: message.id.slice(COMPACTION.length) };
  if (typeof meta.deliveryKind === "string") return { kind: "notice", deliveryKind: meta.deliveryKind };
  if (source) return { kind: "injected", source };
  return fromThinkText(message);
}

/** True when the message was injected by the server rather than typed or generated in a turn. */
export function isSyntheticMessage(message: ClassifiableMessage): boolean {
  return classifySyntheticMessage(message) !== undefined;
}
