/**
 * Where the two chat hosts differ on the wire: AIChatAgent (`ai-chat`) and Think (`think`). An instance picks
 * its flavour once, from its definition's `host`, and asks it instead of testing the host name wherever the
 * behaviour forks. Each rule cites the recorded transcript or docs/protocol.md section it follows.
 */

import type { ChatMessagesFrame, ChatTurnOutcome, MessageList, ServerFrame } from "@runboard/protocol";
import type { UIMessage } from "ai";
import * as ids from "./ids.ts";
import type { MockAgentDefinition } from "./script.ts";
import { keepBranch } from "./think-session.ts";
import { reconcile, sameContent, truncateAfter } from "./transcript-edits.ts";

/** The host a mock agent imitates. */
export type HostName = MockAgentDefinition["host"];

/** How a turn ended, as the flavour needs to know it for the terminal frame. */
export type TurnEnd = "done" | "gated" | "aborted" | "error";

/** What a detached run's end looks like when it is delivered into the parent's chat. */
export interface DetachedNotice {
  runId: string;
  agentType: string;
  /** `completed`, `error`, `aborted` or `interrupted`. */
  status: string;
  /** The message text. */
  text: string;
}

/** The host-specific rules of one agent instance. */
export interface HostFlavour {
  readonly name: HostName;
  /** Request id of a server-started stream (continuations, recoveries, scripted turns). */
  serverRequestId(): string;
  /** Id the host stamps on a new assistant message. */
  assistantMessageId(): string;
  /** Chat frames a connecting socket gets before identity when no stream is live (docs/protocol.md#connect-frames). */
  connectFrames(messages: readonly UIMessage[], recovering: string | undefined): ServerFrame[];
  /** Whether a client's `cf_agent_chat_messages` replaces the transcript (Think owns its transcript). */
  readonly acceptsClientMessages: boolean;
  /**
   * Persists a chat request's messages into the transcript; returns the frames for the other sockets, in
   * order. `incoming` is the request's message list, `trigger` its `trigger` field.
   */
  persistRequest(transcript: MessageList, incoming: UIMessage[], trigger: unknown): ServerFrame[];
  /** The `start` chunk of a new stream: what goes on the wire, and what the persisted transcript applies. */
  startChunks(continuation: boolean): { wire: Record<string, unknown>; persisted: Record<string, unknown> };
  /** Whether a continuation's chunks append to the last assistant message (else they write a new one). */
  readonly continuationAppends: boolean;
  /** The `finish` chunk for a step's end reason. */
  finishChunk(reason: "stop" | "tool-calls"): Record<string, unknown>;
  /** `outcome` on a stream's terminal frame, when the host sends one. */
  terminalOutcome(end: TurnEnd): ChatTurnOutcome | undefined;
  /** The end-of-turn transcript snapshot, and whether the socket that sent the request is skipped. */
  endSnapshot(messages: readonly UIMessage[]): { frame: ChatMessagesFrame; skipOriginator: boolean };
  /** Whether an approved tool's executed output is applied to its original message before continuing. */
  readonly announcesApprovedOutput: boolean;
  /** Whether the durable-execution callables (`approveExecution`, …) exist (docs/protocol.md#host-differences). */
  readonly durableExecutions: boolean;
  /** The message injected into the parent's chat when a detached run ends (docs/protocol.md#synthetic-messages). */
  detachedNotice(n: DetachedNotice): UIMessage;
}

const recoveringFrame = (id: string): ServerFrame => ({
  type: "cf_agent_chat_recovering",
  recovering: true,
  id,
});

/** AIChatAgent. */
const aiChat: HostFlavour = {
  name: "ai-chat",
  serverRequestId: () => ids.nanoid(21),
  // `assistant_<ms>_<9 base-36 chars>`.
  assistantMessageId: () => `assistant_${Date.now()}_${ids.base36(9)}`,
  // The transcript is fetched over HTTP; only a recovery in progress is announced.
  connectFrames: (_messages, recovering) => (recovering ? [recoveringFrame(recovering)] : []),
  acceptsClientMessages: true,
  persistRequest(transcript, incoming) {
    // Re-broadcast to the others, persist (stale rows deleted, which is how regenerate truncates), and the
    // persist broadcasts the merged list again: the observer transcript shows the user message twice.
    const echo: ServerFrame = { messages: incoming, type: "cf_agent_chat_messages" };
    transcript.replaceAll(reconcile(transcript.messages, incoming));
    return [echo, { messages: [...transcript.messages], type: "cf_agent_chat_messages" }];
  },
  // Continuations: AIChatAgent strips `start.messageId` (#1235) and appends to the last assistant.
  startChunks(continuation) {
    const wire = continuation ? { type: "start" } : { type: "start", messageId: aiChat.assistantMessageId() };
    return { wire, persisted: wire };
  },
  continuationAppends: true,
  // AIChatAgent moves `finishReason` into `messageMetadata` (#677).
  finishChunk: (reason) => ({ type: "finish", messageMetadata: { finishReason: reason } }),
  terminalOutcome: (end) => (end === "aborted" ? "aborted" : undefined),
  // The originator has its own copy.
  endSnapshot: (messages) => ({
    frame: { messages: [...messages], type: "cf_agent_chat_messages" },
    skipOriginator: true,
  }),
  announcesApprovedOutput: false,
  durableExecutions: false,
  detachedNotice: ({ runId, agentType, status, text }) => ({
    id: `detached-finish:${runId}:${status}`,
    role: "user",
    parts: [{ type: "text", text }],
    metadata: { source: "detached-agent-tool", runId, agentType, status },
  }),
};

/** Think. */
const think: HostFlavour = {
  name: "think",
  serverRequestId: () => ids.uuid(),
  assistantMessageId: () => ids.uuid(),
  // Think pushes its transcript on connect, flagged `connect: true` (think/connect.jsonl).
  connectFrames: (messages, recovering) => [
    ...(recovering ? [recoveringFrame(recovering)] : []),
    { type: "cf_agent_chat_messages", messages: [...messages], connect: true },
  ],
  acceptsClientMessages: false,
  persistRequest(transcript, incoming, trigger) {
    // Think owns its transcript (docs/protocol.md#edits): it appends the new user messages, stamped with their
    // channel, and rewrites in place a known one whose content changed (an edit), keeping its channel and what
    // followed it.
    const known = new Map(transcript.messages.map((m) => [m.id, m]));
    for (const m of incoming) {
      if (m.role !== "user") continue;
      const prior = known.get(m.id);
      if (prior && sameContent(prior, m)) continue;
      const channel = prior ? (prior.metadata as { channel?: unknown } | undefined)?.channel : "web";
      transcript.upsert({ ...m, metadata: { ...(m.metadata as object), channel } });
    }
    // A regenerate branches from the request's last message: the answer after it stays as a sibling
    // (docs/protocol.md#branches) and the active path ends there, before the new answer.
    const parent = incoming.at(-1)?.id;
    if (trigger === "regenerate-message" && parent !== undefined) {
      keepBranch(transcript, parent);
      truncateAfter(transcript, parent);
    }
    return [{ type: "cf_agent_chat_messages", messages: [...transcript.messages] }];
  },
  // Think persists a continuation as a new assistant message, with an id the wire never shows (think/pay.jsonl).
  startChunks(continuation) {
    const started = { type: "start", messageId: think.assistantMessageId() };
    return { wire: continuation ? { type: "start" } : started, persisted: started };
  },
  continuationAppends: false,
  finishChunk: (reason) => ({ type: "finish", finishReason: reason }),
  terminalOutcome: (end) => (end === "aborted" ? "aborted" : end === "error" ? "error" : "completed"),
  // Sent to every socket, the originator included.
  endSnapshot: (messages) => ({
    frame: { type: "cf_agent_chat_messages", messages: [...messages] },
    skipOriginator: false,
  }),
  // Think applies the executed output to the original message and announces it (think/pay.jsonl).
  announcesApprovedOutput: true,
  durableExecutions: true,
  // A plain user message (docs/protocol.md#synthetic-messages).
  detachedNotice: ({ text }) => ({ id: ids.uuid(), role: "user", parts: [{ type: "text", text }] }),
};

/** The flavour for a host name. */
export function hostFlavour(host: HostName): HostFlavour {
  return host === "think" ? think : aiChat;
}
