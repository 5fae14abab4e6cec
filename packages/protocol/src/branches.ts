/**
 * Think's response branches (docs/protocol.md#branches): a regeneration keeps the earlier answers as
 * siblings under the same user message. The transcript the server sends is the newest path only; the
 * siblings are read through an RPC of the app (`session.getBranches(userMessageId)`, as upstream's
 * assistant example exposes it). Choosing one is a view of this client: Think has no frame or callable that
 * makes an older answer the active path, and the next turn continues from the newest one.
 */
import type { UIMessage } from "ai";

/** The answers known for one user message, and which one is shown. */
export interface BranchEntry<M extends UIMessage = UIMessage> {
  /** The sibling answers, oldest first (the RPC's order). */
  versions: readonly M[];
  /** The one shown; `versions.length - 1` (the newest) unless the user chose another. */
  selectedIndex: number;
}

/** Branch navigation data for one shown answer. */
export interface MessageBranch {
  /** The user message the answers reply to. */
  userMessageId: string;
  /** Position of the shown answer among its siblings (0-based). */
  index: number;
  /** How many answers there are. */
  count: number;
  /** The siblings' ids, oldest first. */
  ids: readonly string[];
}

/**
 * Reads an RPC result as sibling answers: an array of messages with string ids and a `parts` array. Anything
 * else is a `problem` (reported once by the caller, never thrown).
 */
export function readBranchVersions<M extends UIMessage = UIMessage>(
  raw: unknown,
): { versions: M[] } | { problem: string } {
  if (!Array.isArray(raw)) return { problem: "branch versions must be a list of messages" };
  for (const [i, m] of raw.entries()) {
    if (typeof m !== "object" || m === null) return { problem: `branch version ${i} is not a message` };
    const { id, role, parts } = m as Record<string, unknown>;
    if (typeof id !== "string" || id === "") return { problem: `branch version ${i} has no id` };
    if (typeof role !== "string") return { problem: `branch version ${i} has no role` };
    if (!Array.isArray(parts)) return { problem: `branch version ${i} has no parts list` };
  }
  return { versions: raw as M[] };
}

/**
 * The transcript as the user chose to see it, and the branch data for each answer that has siblings. For
 * each user message with two or more known answers, the answer after it shows the selected version; when
 * that is not the newest, the messages after it are left out, since they continue the newest answer, not
 * the chosen one. An answer in the transcript that the versions do not list yet (a regeneration just
 * streamed) keeps the transcript as it is.
 */
export function applyBranches<M extends UIMessage>(
  messages: readonly M[],
  branches: ReadonlyMap<string, BranchEntry<M>>,
): { messages: readonly M[]; byMessageId: ReadonlyMap<string, MessageBranch> } {
  const byMessageId = new Map<string, MessageBranch>();
  if (branches.size === 0) return { messages, byMessageId };
  let out: M[] | undefined;
  for (let i = 0; i < messages.length - 1; i++) {
    const user = messages[i] as M;
    const entry = user.role === "user" ? branches.get(user.id) : undefined;
    if (!entry || entry.versions.length < 2) continue;
    const answer = messages[i + 1] as M;
    const ids = entry.versions.map((v) => v.id);
    const current = ids.indexOf(answer.id);
    if (current < 0 || answer.role !== "assistant") continue;
    const index = Math.min(Math.max(0, entry.selectedIndex), ids.length - 1);
    const shown = entry.versions[index] as M;
    byMessageId.set(shown.id, { userMessageId: user.id, index, count: ids.length, ids });
    if (index === current) continue;
    out = [...messages.slice(0, i + 1), shown];
    break;
  }
  return { messages: out ?? messages, byMessageId };
}
