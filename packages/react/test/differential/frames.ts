/**
 * Server frames as the real servers put them on the wire (field order and flags as in the recorded
 * transcripts under test-support/fixtures/real-server), so both hooks parse exactly what a
 * deployed agent sends.
 */
import type { UIMessage } from "ai";

type Chunk = Record<string, unknown> & { type: string };

/** One chat stream (`cf_agent_use_chat_response` frames for one request id), numbering its chunks. */
export class ServerStream {
  private seq = 0;
  constructor(
    readonly id: string,
    private readonly flags: { continuation?: boolean } = {},
  ) {}

  private tail(extra: Record<string, unknown> = {}) {
    return this.flags.continuation ? { ...extra, continuation: true } : extra;
  }

  /** A live chunk. */
  chunk(c: Chunk): string {
    return JSON.stringify({
      body: JSON.stringify(c),
      done: false,
      id: this.id,
      type: "cf_agent_use_chat_response",
      seq: this.seq++,
      ...this.tail(),
    });
  }

  /** A chunk re-sent from the server's store after an ACK. */
  replay(c: Chunk): string {
    return JSON.stringify({
      body: JSON.stringify(c),
      done: false,
      id: this.id,
      type: "cf_agent_use_chat_response",
      replay: true,
      seq: this.seq++,
      ...this.tail(),
    });
  }

  /** The stored backlog is replayed; live frames follow. */
  replayComplete(): string {
    return JSON.stringify({
      body: "",
      done: false,
      id: this.id,
      type: "cf_agent_use_chat_response",
      replay: true,
      replayComplete: true,
      ...this.tail(),
    });
  }

  /** The terminal frame (`messageIds`: the user messages the request carried). */
  done(extra: { messageIds?: string[]; outcome?: string } = {}): string {
    return JSON.stringify({
      body: "",
      done: true,
      id: this.id,
      type: "cf_agent_use_chat_response",
      ...this.tail(extra),
    });
  }

  /** An in-band error: the server sends it with `done: false`, then a bare `done`. */
  error(text: string, done = false): string {
    return JSON.stringify({
      error: true,
      body: text,
      done,
      id: this.id,
      type: "cf_agent_use_chat_response",
      ...this.tail(),
    });
  }

  /** A short text answer as a list of chunks (start with the server-stamped id, one text block, finish). */
  textTurn(messageId: string, words: string[], finishReason = "stop"): string[] {
    return [
      this.chunk({ type: "start", messageId }),
      this.chunk({ type: "start-step" }),
      this.chunk({ type: "text-start", id: "txt-1" }),
      ...words.map((w) => this.chunk({ type: "text-delta", id: "txt-1", delta: w })),
      this.chunk({ type: "text-end", id: "txt-1" }),
      this.chunk({ type: "finish-step" }),
      this.chunk({ type: "finish", messageMetadata: { finishReason } }),
    ];
  }
}

export const resumeNone = (probeId?: string, reason: "idle" | "continuation-owned" | undefined = "idle") =>
  JSON.stringify({
    type: "cf_agent_stream_resume_none",
    ...(reason ? { reason } : {}),
    ...(probeId ? { probeId } : {}),
  });

export const resuming = (id: string, probeId?: string) =>
  JSON.stringify({ type: "cf_agent_stream_resuming", id, ...(probeId ? { probeId } : {}) });

export const pending = (id: string, probeId?: string) =>
  JSON.stringify({ type: "cf_agent_stream_pending", id, ...(probeId ? { probeId } : {}) });

export const chatMessages = (messages: UIMessage[]) =>
  JSON.stringify({ messages, type: "cf_agent_chat_messages" });

export const messageUpdated = (message: UIMessage) =>
  JSON.stringify({ type: "cf_agent_message_updated", message });

export const chatClear = () => JSON.stringify({ type: "cf_agent_chat_clear" });

// ───────────────────────────── transcripts ─────────────────────────────

export const userMessage = (id: string, text: string): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

export const assistantText = (id: string, text: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "step-start" }, { type: "text", text, state: "done" }],
  metadata: { finishReason: "stop" },
});

/** An assistant message whose client tool call still waits for its result. */
export const assistantWaitingTool = (
  id: string,
  toolCallId: string,
  toolName: string,
  input: unknown,
): UIMessage =>
  ({
    id,
    role: "assistant",
    parts: [
      { type: "step-start" },
      { type: `tool-${toolName}`, toolCallId, toolName, state: "input-available", input },
    ],
    metadata: { finishReason: "tool-calls" },
  }) as UIMessage;

/** The chunks a model emits for one tool call whose input is complete. */
export function toolCallChunks(
  s: ServerStream,
  toolCallId: string,
  toolName: string,
  input: Record<string, unknown>,
  dynamic = false,
): string[] {
  const d = dynamic ? { dynamic: true } : {};
  return [
    s.chunk({ type: "tool-input-start", toolCallId, toolName, ...d }),
    s.chunk({ type: "tool-input-delta", toolCallId, inputTextDelta: JSON.stringify(input) }),
    s.chunk({ type: "tool-input-available", toolCallId, toolName, input, ...d }),
  ];
}
