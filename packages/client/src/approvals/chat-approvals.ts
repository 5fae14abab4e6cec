/**
 * The store behind `useChatApprovals`: chat tool parts that ask for approval, as approval requests. Approve
 * and plain Deny go out with `addToolApprovalResponse`; Deny with a reason as an `output-error` tool output
 * with the reason as its text (the approval frame cannot carry a reason, docs/protocol.md#approvals). A decision is
 * `submitting` until a frame on the connection shows its tool call settled.
 */
import {
  type ApprovalDecision,
  type ApprovalRequest,
  type ChatApprovalEntry,
  chatApprovalEntries,
  chatStatus,
  findToolCallIdForApproval,
  settledToolCallIds,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import { readChunk, readFrame } from "../frame-source.ts";
import { type ApprovalConnection, isOpen, watchConnection } from "./connection.ts";
import { DecisionLedger, INTERRUPTED_DECISION, ledgerFor } from "./decision-ledger.ts";
import { Cached, Deciders, Listeners } from "./store-kit.ts";

/** How a decision on a chat approval is sent: what `useAgentChat`, the official hook and `ChatSession` offer. */
export interface ChatApprovalActions {
  addToolApprovalResponse(response: { id: string; approved: boolean; reason?: string }): void;
  addToolOutput(output: {
    toolCallId: string;
    tool?: string;
    toolName?: string;
    state?: "output-available" | "output-error";
    output?: unknown;
    errorText?: string;
  }): void;
}

/** A chat hook's result (ours or the official one): the transcript as a value. Pass it fresh on each render. */
export interface ChatApprovalsTarget extends ChatApprovalActions {
  messages: readonly UIMessage[];
  /** The store behind it, when it has one (`useAgentChat`'s result does): decisions check its live transcript. */
  [CHAT_SESSION]?: ChatApprovalsSession;
}

/**
 * The key under which `useAgentChat`'s result carries its `ChatSession`. A result's `messages` are the last
 * render's, and the session notifies at most once an animation frame, so a click can land after the transcript
 * moved on (a snapshot replaced it, a clear emptied it); a decision checked against the render would then ask the
 * session for an approval it no longer holds. Checked against the live transcript it sends nothing instead.
 */
export const CHAT_SESSION: unique symbol = Symbol("runboard.chatSession");

/** A chat store (`ChatSession`): the transcript followed through `subscribe`. */
export interface ChatApprovalsSession extends ChatApprovalActions {
  getSnapshot(): { messages: readonly UIMessage[] };
  subscribe(fn: () => void): () => void;
}

/** What a `ChatApprovals` store reads; `setOptions` replaces all but `agent`. */
export interface ChatApprovalsOptions {
  /** The chat whose tool parts ask for approval. */
  chat: ChatApprovalsTarget | ChatApprovalsSession;
  /**
   * The connection the chat runs on. Decisions are refused while it is down, its frames tell when the server
   * has applied a decision, and every store on it shares one decision per request. Without it a decision
   * counts as applied at once.
   */
  agent?: ApprovalConnection;
  /** Overrides the connection's status (e.g. an app-level offline flag). */
  online?: boolean;
}

const isSession = (chat: ChatApprovalsOptions["chat"]): chat is ChatApprovalsSession =>
  typeof (chat as Partial<ChatApprovalsSession>).getSnapshot === "function";
/** The store whose changes the requests follow: the session, or the one behind a hook's result. */
const sessionOf = (chat: ChatApprovalsOptions["chat"]): ChatApprovalsSession | undefined =>
  isSession(chat) ? chat : chat[CHAT_SESSION];
const messagesOf = (chat: ChatApprovalsOptions["chat"]): readonly UIMessage[] =>
  isSession(chat)
    ? chat.getSnapshot().messages
    : (chat[CHAT_SESSION]?.getSnapshot().messages ?? chat.messages);
const requestId = (approvalId: string) => `chat:${approvalId}`;
/** Approval requests for a chat's tool parts, pending and decided, oldest first. */
export class ChatApprovals {
  private options: ChatApprovalsOptions;
  private readonly agent: ApprovalConnection | undefined;
  private readonly ledger: DecisionLedger;
  private readonly listeners = new Listeners();
  private readonly seen = new Set<string>();
  private readonly deciders = new Deciders<ApprovalDecision>((id, decision) => this.decide(id, decision));
  private readonly entries = new Cached<ChatApprovalEntry[]>();
  private readonly client = new Cached<ApprovalRequest[]>();
  private readonly server = new Cached<ApprovalRequest[]>();
  private detach: (() => void) | undefined;
  /** The chat store followed, and how to stop following it. */
  private followed: { session: ChatApprovalsSession; off: () => void } | undefined;
  private disposed = false;

  /**
   * Makes the store. With `attach` (the default) it starts listening at once; `false` makes it without any
   * listener until `attach()` (a view does that once mounted, so a server render leaves nothing behind).
   */
  constructor(options: ChatApprovalsOptions, attach = true) {
    this.options = options;
    this.agent = options.agent;
    this.ledger = options.agent ? ledgerFor(options.agent) : new DecisionLedger();
    if (attach) this.attach();
  }

  /** Takes the app's latest chat and `online` (the connection stays the one the store was made with). */
  setOptions(next: Omit<ChatApprovalsOptions, "agent">): void {
    this.options = { ...next, ...(this.agent ? { agent: this.agent } : {}) };
    if (this.detach && !this.disposed) this.follow();
  }

  /**
   * Follows the chat's store, so the requests change when its transcript does. A hook's result carries its
   * session: the component holding `useAgentChat` re-renders only for the fields it reads (issue 16), so a new
   * result on each transcript change cannot be relied on.
   */
  private follow(): void {
    const session = sessionOf(this.options.chat);
    if (session === this.followed?.session) return;
    this.followed?.off();
    this.followed = session ? { session, off: session.subscribe(this.changed) } : undefined;
  }

  /** Calls `fn` whenever the requests may have changed. Returns the unsubscribe. */
  subscribe = (fn: () => void): (() => void) => this.listeners.subscribe(fn);

  private changed = () => {
    if (!this.disposed) this.listeners.emit();
  };

  /** Starts listening: the connection's frames and status, the shared decisions, a chat session's changes. */
  attach(): void {
    if (this.detach || this.disposed) return;
    const offs = [this.ledger.subscribe(this.changed), watchConnection(this.agent, this.changed)];
    this.follow();
    offs.push(() => {
      this.followed?.off();
      this.followed = undefined;
    });
    const agent = this.agent;
    if (agent) {
      agent.addEventListener("message", this.onMessage);
      agent.addEventListener("close", this.onClose);
      offs.push(() => {
        agent.removeEventListener("message", this.onMessage);
        agent.removeEventListener("close", this.onClose);
      });
    }
    this.detach = () => {
      for (const off of offs) off();
    };
  }

  /** Stops listening for good. */
  dispose(): void {
    this.disposed = true;
    this.detach?.();
  }

  /**
   * The socket that carried the unconfirmed decisions closed (a network drop, or the agent restarting): each may
   * never have arrived. The transcript read back after the reconnect tells: still asking means lost.
   */
  private onClose = () => {
    for (const id of this.ledger.sending("chat:")) this.ledger.mark(id, "failed");
  };

  private onMessage = (e: Event) => {
    const sending = this.ledger.unconfirmed("chat:");
    if (sending.length === 0) return;
    const parsed = readFrame(e as MessageEvent);
    if (parsed.kind !== "frame") return;
    const settled = new Set(settledToolCallIds(parsed.frame, readChunk));
    if (settled.size === 0) return;
    // Confirms any store's decision on this connection: the claim is shared, and so is the server's answer.
    const waiting = new Set(sending);
    for (const entry of this.currentEntries())
      if (settled.has(entry.toolCallId) && waiting.has(requestId(entry.approvalId)))
        this.ledger.mark(requestId(entry.approvalId), "settled");
  };

  private currentEntries(): ChatApprovalEntry[] {
    const messages = messagesOf(this.options.chat);
    return this.entries.get([messages], () => chatApprovalEntries(messages));
  }

  /** The requests now; the same array until something changes. */
  getSnapshot = (): ApprovalRequest[] => {
    const { online, agent } = this.options;
    const isOnline = online ?? isOpen(agent);
    const entries = this.currentEntries();
    return this.client.get([entries, this.ledger.version, isOnline], () => {
      const requests = entries.map((e) => this.request(e, isOnline));
      // What a view showed pending: decided later without this tab, it reads as answered elsewhere.
      for (const e of entries) if (e.pending) this.seen.add(e.approvalId);
      return requests;
    });
  };

  /**
   * The requests as a server render (or the page hydrating it) shows them: a server has no connection, so one
   * counts as down until the page has mounted.
   */
  getServerSnapshot = (): ApprovalRequest[] => {
    const { online, agent } = this.options;
    const isOnline = online ?? agent === undefined;
    const entries = this.currentEntries();
    return this.server.get([entries, this.ledger.version, isOnline], () =>
      entries.map((e) => this.request(e, isOnline)),
    );
  };

  private request(e: ChatApprovalEntry, online: boolean): ApprovalRequest {
    const id = requestId(e.approvalId);
    const { status, outcome } = chatStatus(e, this.ledger.get(id), this.seen.has(e.approvalId));
    const d = e.descriptor;
    const error = status === "interrupted" ? INTERRUPTED_DECISION : this.ledger.get(id)?.error;
    return {
      id,
      source: "chat",
      key: e.approvalId,
      toolCallId: e.toolCallId,
      name: d.name ?? e.toolName,
      ...(d.summary ? { summary: d.summary } : {}),
      ...(d.risk ? { risk: d.risk } : {}),
      ...(d.permissions ? { permissions: d.permissions } : {}),
      arguments: e.input,
      argumentsComplete: true,
      ...(e.expiresAt === undefined ? {} : { expiresAt: e.expiresAt }),
      status,
      ...(outcome ? { outcome } : {}),
      online,
      ...(error ? { error } : {}),
      decide: this.deciders.for(e.approvalId),
    };
  }

  /**
   * Sends the one decision for an approval. False, sending nothing, when any store on this connection already
   * decided it, or it cannot be answered now (offline, expired, no longer pending in the transcript).
   */
  decide(approvalId: string, decision: ApprovalDecision, now = Date.now()): boolean {
    const { chat, online } = this.options;
    if (!(online ?? isOpen(this.agent))) return false;
    // The transcript as it is now; a decision already claimed is caught by the ledger below.
    const messages = messagesOf(chat);
    const entry = chatApprovalEntries(messages).find((x) => x.approvalId === approvalId);
    if (!entry?.pending) return false;
    // The chat store answers the latest part with this approval id; in a malformed transcript (the id repeated)
    // that part may have no tool call id, and the store would refuse the answer with an error.
    if (!findToolCallIdForApproval(messages, approvalId)) return false;
    if (entry.expiresAt !== undefined && now >= entry.expiresAt) return false;
    const id = requestId(approvalId);
    // Lost with a closed socket and asked again (the transcript above still shows it pending): one more answer.
    const lost = this.ledger.get(id);
    if (lost && (lost.phase === "failed" || lost.phase === "interrupted")) this.ledger.release(id);
    if (!this.ledger.claim(id, decision)) return false;
    // Without a connection nothing will confirm it: it counts as applied.
    if (!this.agent) this.ledger.mark(id, "settled");
    const reason = decision.reason?.trim();
    if (decision.approved || !reason)
      chat.addToolApprovalResponse({ id: approvalId, approved: decision.approved });
    else
      chat.addToolOutput({
        toolCallId: entry.toolCallId,
        tool: entry.toolName,
        toolName: entry.toolName,
        state: "output-error",
        errorText: reason,
      });
    return true;
  }
}
