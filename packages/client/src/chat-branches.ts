/**
 * Think's response branches for one chat store (docs/protocol.md#branches): the sibling answers of each user
 * message, read through the app's `getBranches` (an RPC such as upstream's `getResponseVersions`), and which
 * one the user chose to see. The choice is a view of this client: Think has no frame or callable to make an
 * older answer the active path. Pure rules are `applyBranches` / `readBranchVersions` in `@runboard/protocol`.
 */
import { type BranchEntry, readBranchVersions } from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatCore } from "./chat-core.ts";

/** How many user messages a loaded transcript asks branches for (the newest ones): one RPC each. */
const HYDRATE_LIMIT = 20;

/** Branch data of one chat store. */
export class ChatBranches<M extends UIMessage = UIMessage> {
  /** Sibling answers per user message id; a new Map on each change, so the snapshot can tell. */
  entries: ReadonlyMap<string, BranchEntry<M>> = new Map();
  private readonly asked = new Set<string>();
  /** Regenerations of this tab: request id → the user message whose answers grew. */
  private readonly regenerating = new Map<string, string>();

  constructor(private readonly c: ChatCore<M>) {}

  /** Loads the siblings of `userMessageId` (again when `force`); a no-op without `getBranches`. */
  async load(userMessageId: string, force = false): Promise<void> {
    const { c } = this;
    const get = c.options.getBranches;
    if (!get || (!force && this.asked.has(userMessageId))) return;
    this.asked.add(userMessageId);
    let raw: unknown;
    try {
      raw = await get(userMessageId);
    } catch (e) {
      // A dropped connection or an agent without the callable: asked again on the next load.
      this.asked.delete(userMessageId);
      c.reportOnce(`getBranches(${userMessageId}) failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (c.disposed) return;
    const read = readBranchVersions<M>(raw);
    if ("problem" in read) return c.reportOnce(`getBranches(${userMessageId}): ${read.problem}`);
    const before = this.entries.get(userMessageId);
    if (read.versions.length < 2 && !before) return;
    const next = new Map(this.entries);
    // A fresh regeneration is the newest answer: show it. Otherwise keep the user's choice.
    const selectedIndex =
      before && !force ? Math.min(before.selectedIndex, read.versions.length - 1) : read.versions.length - 1;
    next.set(userMessageId, { versions: read.versions, selectedIndex });
    this.entries = next;
    c.changed();
  }

  /** After a transcript loads: the siblings of the newest user messages that have an answer. */
  hydrate(): void {
    if (!this.c.options.getBranches) return;
    const ms = this.c.list.messages;
    let n = 0;
    for (let i = ms.length - 2; i >= 0 && n < HYDRATE_LIMIT; i--) {
      const m = ms[i] as UIMessage;
      if (m.role !== "user" || ms[i + 1]?.role !== "assistant") continue;
      n++;
      void this.load(m.id);
    }
  }

  /** A regenerate of this tab was sent as `requestId` for the answers of `userMessageId`. */
  regenerated(requestId: string | undefined, userMessageId: string | undefined): void {
    if (requestId && userMessageId) this.regenerating.set(requestId, userMessageId);
  }

  /** A turn ended: after a regeneration the user message has one more answer. */
  turnEnded(requestId: string): void {
    const user = this.regenerating.get(requestId);
    if (user === undefined) return;
    this.regenerating.delete(requestId);
    void this.load(user, true);
  }

  /**
   * Shows answer `index` (0-based, oldest first) of the siblings of `userMessageId`. False when there is no
   * such answer.
   */
  select(userMessageId: string, index: number): boolean {
    const entry = this.entries.get(userMessageId);
    if (!entry || !Number.isInteger(index) || index < 0 || index >= entry.versions.length) return false;
    if (entry.selectedIndex === index) return true;
    const next = new Map(this.entries);
    next.set(userMessageId, { ...entry, selectedIndex: index });
    this.entries = next;
    this.c.changed();
    return true;
  }

  /** Forgets everything (a cleared chat). */
  clear(): void {
    if (this.entries.size === 0 && this.asked.size === 0) return;
    this.entries = new Map();
    this.asked.clear();
  }
}
