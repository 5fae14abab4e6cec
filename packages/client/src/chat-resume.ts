/**
 * The resume side of the chat store: carries out the resume machine's commands (frames to send, probe
 * timers, streams that started or ended), answers `resumeStream()` callers when their probe settles, and
 * feeds the machine the socket's opens and closes. The rules themselves are the protocol's `ResumeMachine`.
 */
import { encodeClientFrame, MAX_OTHER_LIVE_STREAMS, type ResumeCommand } from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatCore } from "./chat-core.ts";

/** Runs the resume machine's commands for one chat store. */
export class ResumeDriver<M extends UIMessage = UIMessage> {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly probeWaiters = new Map<string, Array<(streamId: string | undefined) => void>>();
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

  /** Asks the server for a stream to resume; resolves with its id, or undefined when there is none. */
  resumeStream(): Promise<string | undefined> {
    const { c } = this;
    const commands = c.rm.handle({ type: "resume" });
    this.run(commands);
    // Answered at once while this socket receives a stream it ACKed: asking the server would stop it here
    // (docs/protocol.md#probe-after-ack).
    const settled = commands.find((cmd) => cmd.type === "probe-settled");
    if (settled) return Promise.resolve(settled.outcome === "stream" ? settled.streamId : undefined);
    const probe = c.rm.probeId;
    if (!probe) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.probeWaiters.set(probe, [...(this.probeWaiters.get(probe) ?? []), resolve]);
    });
  }

  /** Executes resume-machine commands. */
  run(commands: ResumeCommand[], notify = true): void {
    const { c } = this;
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
          if (cmd.outcome === "stream" && cmd.streamId !== undefined) c.probed.add(cmd.streamId);
          const waiters = this.probeWaiters.get(cmd.probeId) ?? [];
          this.probeWaiters.delete(cmd.probeId);
          for (const w of waiters) w(cmd.outcome === "stream" ? cmd.streamId : undefined);
          break;
        }
        case "stream-started":
          if (cmd.origin !== "local") c.recovering = false;
          break;
        case "stream-ended":
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

  /** Stops every probe timer (the store is disposed). */
  clearTimers(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private clearTimer(probeId: string) {
    const t = this.timers.get(probeId);
    if (t) clearTimeout(t);
    this.timers.delete(probeId);
  }
}
