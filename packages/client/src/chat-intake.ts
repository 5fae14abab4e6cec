/**
 * The incoming side of the chat store: the chat frames of the agent's socket (read through the shared parse),
 * applied to the transcript and the resume machine; stream chunks checked against the app's schemas; the
 * app's `onData`, `onFinish` and `onTurnEnd` called as a response ends.
 */
import { type ChatResponseFrame, FrameType, readSessionStatus, type ServerFrame } from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatCore } from "./chat-core.ts";
import { schemaViolation } from "./chat-schemas.ts";
import { readChunk, readFrame } from "./frame-source.ts";

/** The frame types this store handles, so the ones it reports when malformed. */
const CHAT_FRAME_TYPES = new Set<string>([
  FrameType.chatResponse,
  FrameType.chatMessages,
  FrameType.messageUpdated,
  FrameType.chatClear,
  FrameType.chatRecovering,
  FrameType.streamResuming,
  FrameType.streamResumeNone,
  FrameType.streamPending,
]);

/** A socket event as the store hears it. */
export type ChatEvent = { type: "message" | "open" | "close"; data?: unknown };

/** Applies the chat frames one chat store hears. */
export class ChatIntake<M extends UIMessage = UIMessage> {
  /** Errors of streams ended by an error frame without `done`, until their `done` comes (bounded). */
  private readonly turnErrors = new Map<string, string>();
  /** Turns already reported through `onTurnEnd` (bounded): a replayed terminal does not report one twice. */
  private readonly endedTurns = new Set<string>();

  constructor(private readonly c: ChatCore<M>) {}

  /** The listener for the agent's `message` events. */
  readonly onMessage = (e: Event): void => this.receive(e as unknown as ChatEvent);

  private receive(e: ChatEvent) {
    if (this.c.disposed || typeof e.data !== "string") return;
    // Parsed once per event, whoever asks first (the connection, this store, the run store).
    const parsed = readFrame(e);
    if (parsed.kind === "error") {
      // Only chat frames are ours to report; the connection reports the rest. (Matching the `cf_agent_` prefix
      // also took identity, state, MCP and session frames, so an app with one error handler heard those twice.)
      if (parsed.frameType !== undefined && CHAT_FRAME_TYPES.has(parsed.frameType))
        this.c.fail(new Error(parsed.reason));
      return;
    }
    if (parsed.kind !== "frame") return;
    this.frame(parsed.frame);
  }

  private frame(f: ServerFrame) {
    const { c } = this;
    switch (f.type) {
      case "cf_agent_use_chat_response":
        return this.response(f);
      case "cf_agent_chat_messages":
        c.inFlight.seen(f.messages);
        c.sides.transcript.snapshot(f.messages as M[]);
        return c.changed();
      case "cf_agent_message_updated":
        c.inFlight.seen([f.message]);
        c.list.applyMessageUpdated(f.message);
        return c.changed();
      case "cf_agent_chat_clear":
        c.inFlight.clear();
        c.list.replaceAll([]);
        c.sides.branches.clear();
        c.recoveryGaveUp = undefined;
        c.sides.resume.run(c.rm.handle({ type: "clear" }));
        return c.changed();
      case "cf_agent_stream_resume_none": {
        // An authoritative idle that clears a continuation this tab was waiting for: it ran unseen.
        const waited = c.rm.isToolContinuation;
        const commands = c.rm.handle({ type: "frame", frame: f });
        if (waited && !c.rm.isToolContinuation) c.resyncDue = true;
        return c.sides.resume.run(commands);
      }
      case "cf_agent_stream_resuming":
      case "cf_agent_stream_pending":
        return c.sides.resume.run(c.rm.handle({ type: "frame", frame: f }));
      case "cf_agent_chat_recovering":
        c.recovering = f.recovering;
        // A new recovery starts over: an earlier give-up is no longer the news.
        if (f.recovering) c.recoveryGaveUp = undefined;
        if (f.recovering && f.id !== undefined) {
          if (c.recoveryIds.size > 64) c.recoveryIds.clear();
          c.recoveryIds.add(f.id);
        }
        return c.changed();
      case "cf_agent_session": {
        // The shared parse already rejected a malformed one (the connection reports it, docs/protocol.md#compaction).
        const read = readSessionStatus(f);
        if ("problem" in read) return c.reportOnce(read.problem);
        c.session = read.status;
        return c.changed();
      }
    }
  }

  private response(f: ChatResponseFrame) {
    const { c } = this;
    // A recovery that gives up ends with an error frame for everyone (Think's and AIChatAgent's
    // `terminalMessage`) while `recovering` is still set; `recovering:false` follows (docs/protocol.md#recovering).
    if (f.error && c.recovering) {
      c.recoveryGaveUp = { requestId: f.id, reason: f.body || "The recovery gave up." };
      c.changed();
    }
    const route = c.rm.route(f);
    if (!route.accept) {
      // A turn ends for the app even when this tab never showed its stream (one that failed before its first
      // chunk, one offered to this socket and never ACKed): as upstream, `onTurnEnd` comes with its terminal.
      // An error without `done` is followed by a bare `done`, which reports it.
      if (f.error && !f.done) this.rememberTurnError(f.id, f.body);
      else if (f.done)
        this.turnEnded(f, f.outcome === "aborted" || f.outcome === "skipped" ? f.outcome : "completed");
      // The end of a turn a probe was told is pending, never offered here: the probe (and a continuation
      // awaited with it) is over.
      if (route.commands) {
        c.sides.resume.run(route.commands);
        void c.sides.tools.runClientTools().then(() => c.sides.turns.afterResponse());
      }
      return;
    }
    // Read before the route's commands run: a terminal frame's `stream-ended` forgets the stream's message
    // and whether a probe of this tab claimed it.
    const streamMessageId = c.streamMessage.get(f.id);
    const claimed = c.claimed.has(f.id);
    c.sides.resume.run(route.commands, false);
    const own = f.id === c.localRequest;
    if (f.error) {
      if (own) c.queue.pause();
      c.list.endStream(f.id);
      c.streamMessage.delete(f.id);
      c.endLocal(f.id);
      // A turn this tab asked for (its own, a resumed one, a continuation) fails visibly, as upstream's
      // transport errors the stream; another tab's or the server's own turn fails there, not here.
      if (route.origin !== "observed" || claimed) {
        c.fail(new Error(f.body || "Stream error"), !c.stopped.has(f.id));
        // As the AI SDK's: a failed response ends with `onFinish({ isError: true })` too.
        c.finish(f.id, streamMessageId, { isError: true });
      }
      // An error without `done` is followed by a bare `done` carrying the turn's message ids: the turn is
      // reported ended then, with this error.
      if (f.done) this.turnEnded(f, "error");
      else this.rememberTurnError(f.id, f.body);
      c.changed();
      return c.changed.flush();
    }
    if (f.body) this.chunk(f);
    if (f.done) {
      const messageId = c.streamMessage.get(f.id) ?? streamMessageId;
      c.list.endStream(f.id, { continuation: f.continuation === true && f.replay !== true });
      c.streamMessage.delete(f.id);
      c.endLocal(f.id);
      const ended = () =>
        this.turnEnded(f, f.outcome === "aborted" || f.outcome === "skipped" ? f.outcome : "completed");
      if (f.outcome !== "aborted") {
        // As upstream: `onFinish` first, then `onTurnEnd`. Only for a response this tab asked for (its turn, a
        // stream it resumed, a continuation it awaited), as upstream's, which reads those through its
        // transport: another tab's or the server's turn ends with `onTurnEnd` alone.
        if (route.origin !== "observed" || claimed) c.finish(f.id, messageId);
        ended();
        void c.sides.tools.runClientTools().then(() => c.sides.turns.afterResponse());
      } else {
        c.finishedEarly.delete(f.id);
        ended();
        if (own) c.queue.pause();
      }
    }
    c.changed();
    // The end of a stream is shown at once, not on the next frame: nothing else is coming. (Leaving another
    // tab's end to the next frame's publish made a turn from another tab cost 4× more at 26,000 turns in
    // `bench:chat-scale`, not less.)
    if (f.done) c.changed.flush();
  }

  /** Applies the chunk a response frame carries, unless it is malformed or fails the app's schemas. */
  private chunk(f: ChatResponseFrame) {
    const { c } = this;
    const parsed = readChunk(f);
    const violation =
      (c.options.dataPartSchemas || c.options.messageMetadataSchema) && parsed.kind === "chunk"
        ? schemaViolation(parsed.chunk, c.options)
        : undefined;
    if (parsed.kind === "error") c.fail(new Error(`chat stream ${f.id}: ${parsed.reason}`));
    else if (violation) c.fail(new Error(`chat stream ${f.id}: ${violation}`));
    else if (parsed.kind === "chunk") {
      // Upstream's status turns `streaming` at the first chunk with content, not at `start`/`start-step`.
      if (parsed.chunk.type !== "start" && parsed.chunk.type !== "start-step") {
        c.started.add(f.id);
        // This tab's latest request streams (the server ran it after an earlier turn of this tab failed): as
        // upstream's, `status` follows it, and the earlier turn's error is no longer shown.
        if (c.failed && f.id === c.localRequest) {
          c.failed = false;
          c.error = undefined;
        }
      }
      const out = c.list.applyChunk(f.id, parsed.chunk, {
        continuation: f.continuation === true,
        replay: f.replay === true,
      });
      if (out.messageId) c.streamMessage.set(f.id, out.messageId);
      if (out.effect.kind === "data") {
        // A `data-*` part as the message type declares it (its schema, if any, was checked on the way in).
        const part = { ...out.effect.part, transient: out.effect.transient } as Parameters<
          NonNullable<typeof c.options.onData>
        >[0];
        c.callApp("onData", () => c.options.onData?.(part));
      }
    }
  }

  private rememberTurnError(id: string, body: string) {
    this.turnErrors.set(id, body);
    if (this.turnErrors.size > 256) this.turnErrors.delete(this.turnErrors.keys().next().value as string);
  }

  private turnEnded(f: ChatResponseFrame, outcome: "completed" | "error" | "aborted" | "skipped") {
    const earlier = this.turnErrors.get(f.id);
    this.turnErrors.delete(f.id);
    // Once per turn, and not for a turn a durable recovery goes on with (upstream's rules).
    if (this.endedTurns.has(f.id) || f.outcome === "recovering") return;
    this.endedTurns.add(f.id);
    if (this.endedTurns.size > 256) this.endedTurns.delete(this.endedTurns.values().next().value as string);
    const error = f.error ? f.body : earlier;
    const event = {
      requestId: f.id,
      ...(f.messageIds ? { messageIds: f.messageIds } : {}),
      outcome: error !== undefined ? ("error" as const) : outcome,
      ...(error !== undefined ? { error } : {}),
      replay: f.replay === true,
    };
    this.c.callApp("onTurnEnd", () => this.c.options.onTurnEnd?.(event));
    this.c.sides.branches.turnEnded(f.id);
  }
}
