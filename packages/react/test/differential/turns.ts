/**
 * Script fragments the scenarios share: a user turn answered by text, by a client tool call or by an
 * approval request, and the server's tool continuation that follows a result or a decision.
 */
import type { UIMessage } from "ai";
import {
  chatMessages,
  messageUpdated,
  resuming,
  ServerStream,
  toolCallChunks,
  userMessage,
} from "./frames.ts";
import type { Driver } from "./harness.ts";

/** A user message answered with text; returns the request the hook sent. */
export async function textTurn(d: Driver, text: string, messageId: string, words: string[]) {
  await d.act("sendMessage", (c) => c.sendMessage({ text }));
  const r = d.lastRequest();
  const s = new ServerStream(r.id);
  await d.push(...s.textTurn(messageId, words));
  await d.push(s.done({ messageIds: r.userIds }));
  return r;
}

/** A user message whose answer calls a tool the client must run (the stream ends with the call waiting). */
export async function toolCallTurn(
  d: Driver,
  o: {
    text: string;
    messageId: string;
    toolCallId: string;
    toolName: string;
    input: Record<string, unknown>;
    dynamic?: boolean;
  },
) {
  await d.act("sendMessage", (c) => c.sendMessage({ text: o.text }));
  const r = d.lastRequest();
  const s = new ServerStream(r.id);
  await d.push(
    s.chunk({ type: "start", messageId: o.messageId }),
    s.chunk({ type: "start-step" }),
    ...toolCallChunks(s, o.toolCallId, o.toolName, o.input, o.dynamic),
    s.chunk({ type: "finish-step" }),
    s.chunk({ type: "finish", messageMetadata: { finishReason: "tool-calls" } }),
  );
  await d.push(s.done({ messageIds: r.userIds }));
  return { r, userText: o.text };
}

/** A user message whose answer asks a human to approve a tool call. */
export async function approvalTurn(
  d: Driver,
  o: {
    text: string;
    messageId: string;
    toolCallId: string;
    toolName: string;
    input: Record<string, unknown>;
    approvalId: string;
  },
) {
  await d.act("sendMessage", (c) => c.sendMessage({ text: o.text }));
  const r = d.lastRequest();
  const s = new ServerStream(r.id);
  await d.push(
    s.chunk({ type: "start", messageId: o.messageId }),
    s.chunk({ type: "start-step" }),
    ...toolCallChunks(s, o.toolCallId, o.toolName, o.input),
    s.chunk({ type: "tool-approval-request", approvalId: o.approvalId, toolCallId: o.toolCallId }),
    s.chunk({ type: "finish-step" }),
    s.chunk({ type: "finish", messageMetadata: { finishReason: "tool-calls" } }),
  );
  await d.push(s.done({ messageIds: r.userIds }));
  return r;
}

/**
 * The server starts the continuation it owes: it announces it (`stream_resuming` without a probe id, as to a
 * parked connection), and streams it only to a socket that ACKed: the stored `start` replayed, then live
 * chunks with `words`, the persisted transcript, and the terminal frame. A socket that never ACKed gets only
 * the bare terminal frame (the real server excludes it from the broadcast until it ACKs).
 * `upTo` stops after the live text starts (for a `stop()` in the middle); call `finishContinuation` later.
 */
export async function continuation(
  d: Driver,
  o: {
    words: string[];
    /** The persisted transcript the server broadcasts before the terminal frame. */
    final?: UIMessage[];
    /** Chunks the server replays before `replayComplete` (after the stored `start`). */
    replayed?: Record<string, unknown>[];
    upTo?: "text";
  },
) {
  const c = d.continuation;
  if (!c) {
    // No continuation is owed: nothing to stream. Keep the steps aligned with a run that has one.
    await d.pushAll("continuation announced", []);
    await d.pushAll("continuation replay", []);
    await d.pushAll("continuation text", []);
    if (!o.upTo) await d.pushAll("continuation ends", []);
    return undefined;
  }
  c.streaming = true;
  await d.pushAll("continuation announced", [resuming(c.id)]);
  const s = new ServerStream(c.id, { continuation: true });
  const acked = () => d.acked(c.id);
  await d.pushAll(
    "continuation replay",
    acked()
      ? [
          s.replay({ type: "start" }),
          ...(o.replayed ?? []).map((x) => s.replay(x as { type: string })),
          s.replayComplete(),
        ]
      : [],
  );
  await d.pushAll(
    "continuation text",
    acked()
      ? [
          s.chunk({ type: "start-step" }),
          s.chunk({ type: "text-start", id: "txt-after-tool" }),
          ...o.words.map((w) => s.chunk({ type: "text-delta", id: "txt-after-tool", delta: w })),
        ]
      : [],
  );
  if (o.upTo) return s;
  await finishContinuation(d, s, o.final);
  return s;
}

/** The rest of a continuation started by `continuation(…, { upTo })`: text end, transcript, terminal. */
export async function finishContinuation(d: Driver, s: ServerStream | undefined, final?: UIMessage[]) {
  if (!s) {
    await d.pushAll("continuation ends", []);
    return;
  }
  const acked = d.acked(s.id);
  await d.pushAll("continuation ends", [
    ...(acked
      ? [
          s.chunk({ type: "text-end", id: "txt-after-tool" }),
          s.chunk({ type: "finish-step" }),
          s.chunk({ type: "finish", messageMetadata: { finishReason: "stop" } }),
        ]
      : []),
    ...(final ? [chatMessages(final)] : []),
    s.done(),
  ]);
  d.continuation = undefined;
}

/** The server applied a tool result or decision and tells every tab (`cf_agent_message_updated`). */
export async function toolApplied(d: Driver, message: UIMessage) {
  await d.push(messageUpdated(message));
}

export { userMessage };
