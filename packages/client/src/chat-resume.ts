/**
 * The resume side of the chat store: carries out the resume machine's commands (frames to send, probe
 * timers, streams that started or ended), answers `resumeStream()` callers when the resume is over, and
 * feeds the machine the socket's opens and closes. The rules themselves are the protocol's `ResumeMachine`.
 */
import { encodeClientFrame, MAX_OTHER_LIVE_STREAMS, type ResumeCommand } from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatCore } from "./chat-core.ts";

/**
 * One `resumeStream()` operation, as upstream's: its probe, then the stream the probe found, until it ends.
 * Every call while it runs gets the same promise (docs/protocol.md#resume-handshake).
 */
interface ResumeOperation {
  probeId: string;
  /** The stream the probe was answered with, while it is live. */
  streamId?: string;
  promise: Promise<string | undefined>;
  resolve: (streamId: string | undefined) => void;
}

/** Runs the resume machine's commands for one chat store. */
export class ResumeDriver<M extends UIMessage = UIMessage> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private op: ResumeOperation | undefined;
  private closedSinceOpen = false;

  constructor(private readonly c: ChatCore<M>) {}

  /** The socket opened (or was open when the store attached). */
  readonly onOpen = (): void => {
    const { c } = this;
    // After a reconnect the transcript may have moved on unseen: turns that ended while the socket was down.
    if (this.closedSinceOpen) c.resyncDue = true;
    this.closedSinceOpen = false;
    this.run(c.rm.handle({ type: "socket-open" }));
  };

  /** The socket closed: answers sent on it may be lost, and the streams it carried are cut. */
  readonly onClose = (): void => {
    const { c } = this;
    this.closedSinceOpen = true;
    c.inFlight.socketClosed();
    this.run(c.rm.handle({ type: "socket-close" }));
  };

  /**
   * Asks the server for a stream to resume (or joins the probe already in flight). Resolves once the resume is
   * over, as upstream's: with undefined when nothing was found, or with the stream's id once that stream has
   * ended. A call while one runs returns the same promise and sends nothing.
   */
  resumeStream(): Promise<string | undefined> {
    const { c } = this;
    if (this.op) return this.op.promise;
    const commands = c.rm.handle({ type: "resume" });
    // Answered at once while this socket receives a stream it ACKed: asking the server would stop it here
    // (docs/protocol.md#probe-after-ack). The operation then follows that stream until it ends.
    const settled = commands.find(
      (cmd): cmd is Extract<ResumeCommand, { type: "probe-settled" }> => cmd.type === "probe-settled",
    );
    const probeId = settled?.probeId ?? c.rm.probeId;
    if (!probeId) {
      this.run(commands);
      return Promise.resolve(undefined);
    }
    let resolve!: (streamId: string | undefined) => void;
    const promise = new Promise<string | undefined>((r) => {
      resolve = r;
    });
    this.op = { probeId, promise, resolve };
    this.run(commands);
    return promise;
  }

  private endOp(streamId: string | undefined) {
    const op = this.op;
    this.op = undefined;
    op?.resolve(streamId);
  }

  /** Executes resume-machine commands. */
  run(commands: ResumeCommand[], notify = true): void {
    const { c } = this;
    // Streams that start in this batch were never shown as another's: a probe settling with one claims nothing.
    let fresh: Set<string> | undefined;
    for (const cmd of commands) {
      switch (cmd.type) {
        case "send":
          c.send(encodeClientFrame(cmd.frame));
          break;
        case "arm-timer":
          this.clearTimer(cmd.probeId);
          this.timers.set(
            cmd.probeId,
            setTimeout(() => this.run(c.rm.handle({ type: "timeout", probeId: cmd.probeId })), cmd.ms),
          );
          break;
        case "cancel-timer":
          this.clearTimer(cmd.probeId);
          break;
        case "probe-settled": {
          const id = cmd.outcome === "stream" ? cmd.streamId : undefined;
          if (id !== undefined) this.claim(id, fresh?.has(id) === true);
          if (this.op?.probeId === cmd.probeId) {
            if (id !== undefined && c.rm.activeStreams.has(id)) this.op.streamId = id;
            else this.endOp(id);
          }
          break;
        }
        case "stream-started":
          if (cmd.origin !== "local") c.recovering = false;
          fresh ??= new Set();
          fresh.add(cmd.streamId);
          break;
        case "stream-ended":
          if (this.op?.streamId === cmd.streamId) this.endOp(cmd.streamId);
          c.claimed.delete(cmd.streamId);
          c.list.endStream(cmd.streamId);
          c.streamMessage.delete(cmd.streamId);
          c.started.delete(cmd.streamId);
          c.stopped.delete(cmd.streamId);
          c.probed.delete(cmd.streamId);
          c.endLocal(cmd.streamId);
          if (cmd.reason === "idle") c.resyncDue = true;
          // Once per stream: the machine drops a stream once, and ignores its later frames.
          if (cmd.reason === "dropped")
            c.fail(
              new Error(
                `chat stream ${cmd.streamId} dropped: more than ${MAX_OTHER_LIVE_STREAMS} streams this tab did not request were live at once (their done never came), and it was heard of least recently; its message stays as it is and its later chunks are ignored`,
              ),
            );
          break;
      }
    }
    c.sides.transcript.maybeResync();
    if (notify) c.changed();
  }

  /**
   * A probe of this tab was answered with stream `id`. One it was showing as another's (observed, or offered
   * and not asked for) is this tab's resume now: `status` is "submitted" until its next chunk, and
   * `isServerStreaming` stays on until it ends, as upstream's (the AI SDK's resume starts "submitted"; its
   * observer stays on until `done`).
   */
  private claim(id: string, fresh: boolean) {
    const { c } = this;
    const origin = c.rm.activeStreams.get(id);
    const wasAnother =
      !fresh &&
      origin !== undefined &&
      origin !== "local" &&
      !c.probed.has(id) &&
      c.rm.continuationStream !== id &&
      !c.stopped.has(id);
    if (wasAnother) {
      c.claimed.add(id);
      c.started.delete(id);
    }
    c.probed.add(id);
  }

  /** Stops every probe timer and ends a resume in flight (the store is disposed). */
  clearTimers(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.endOp(undefined);
  }

  private clearTimer(probeId: string) {
    const t = this.timers.get(probeId);
    if (t) clearTimeout(t);
    this.timers.delete(probeId);
  }
}
