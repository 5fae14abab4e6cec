/**
 * The state one chat store shares between its sides: the transcript, the resume machine, the published
 * snapshot, and the bookkeeping the request, resume, transcript, tool and intake sides all read. Each side is
 * its own module holding this core, and reaches the others through `sides` (declared here by what they offer,
 * so no side imports another). Internal: `ChatSession` is the API and wires the sides together.
 */
import {
  type BranchEntry,
  MessageList,
  type ResumeCommand,
  ResumeMachine,
  type SessionStatus,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import { createStore, type StoreApi } from "zustand/vanilla";
import { AnswersInFlight } from "./answers-in-flight.ts";
import { ChatQueue } from "./chat-queue.ts";
import { snapshotOf } from "./chat-status.ts";
import type { ChatRequestOptions, ChatSessionOptions, ChatSnapshot } from "./chat-types.ts";
import { coalesce, type Notifier } from "./notify.ts";

/** A random id of `n` URL-safe characters. */
export const nanoid = (n = 8): string => {
  const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(n))) s += a[b & 63];
  return s;
};

/** What each side of the chat store offers the others. */
export interface ChatSides<M extends UIMessage> {
  /** Carries out resume-machine commands (`chat-resume.ts`). */
  resume: { run(commands: ResumeCommand[], notify?: boolean): void };
  /** Applies server transcripts and reads the transcript again (`chat-transcript.ts`). */
  transcript: { snapshot(messages: M[]): void; maybeResync(): void };
  /** Tool answers and client tool runs (`chat-tools.ts`). */
  tools: {
    runClientTools(): Promise<void>;
    patchToolPart(toolCallId: string, patch: Record<string, unknown>): void;
  };
  /** Requests this tab sends (`chat-turns.ts`). */
  turns: {
    request(
      trigger: "submit-message" | "regenerate-message",
      perCall?: ChatRequestOptions,
      messageId?: string,
    ): Promise<void>;
    autoSend(): Promise<void>;
    afterResponse(): Promise<void>;
  };
  /** Think's sibling answers (`chat-branches.ts`). */
  branches: {
    readonly entries: ReadonlyMap<string, BranchEntry<M>>;
    turnEnded(requestId: string): void;
    hydrate(): void;
    clear(): void;
  };
}

/** The shared state of one chat store. */
export class ChatCore<M extends UIMessage = UIMessage> {
  readonly list: MessageList;
  readonly rm: ResumeMachine;
  readonly store: StoreApi<ChatSnapshot<M>>;
  /** Publishes the new state, at most once per frame (or per `throttleMs`). */
  readonly changed: Notifier;
  options: ChatSessionOptions<M>;
  attached = false;
  disposed = false;
  /** This tab's own turn failed; `status` stays `"error"` until the next request or `clearError`. */
  failed = false;
  error: Error | undefined;
  recovering = false;
  /** A recovery the server gave up on: the error frame that ended it, until the next turn or recovery. */
  recoveryGaveUp: { requestId: string; reason: string } | undefined;
  /** Request ids `cf_agent_chat_recovering` named: their streams are the agent's own (bounded). */
  readonly recoveryIds = new Set<string>();
  /** The last `cf_agent_session` status (docs/protocol.md#compaction). */
  session: SessionStatus | undefined;
  /** Problems already reported through `onError` (malformed session frames and marks), once each. */
  readonly reported = new Set<string>();
  /** The request this tab is sending, until it ends. */
  localRequest: string | undefined;
  /**
   * Streams that delivered a content chunk here since this tab's last request: `status` is `"streaming"` for
   * this tab's own ones.
   */
  readonly started = new Set<string>();
  /** Streams the user stopped: not counted in `status` while the server winds them down. */
  readonly stopped = new Set<string>();
  /** Requests whose `onFinish` already came (a stop, an unmount): their later end does not call it again. */
  readonly finishedEarly = new Set<string>();
  /** Streams a probe of this tab was answered with. */
  readonly probed = new Set<string>();
  /**
   * Streams this tab showed as another's (another tab's, the server's) until a probe of its own was answered
   * with them (`resumeStream()`): `status` follows them from then on, and `isServerStreaming` stays on until
   * they end, as upstream's observer stays on (docs/protocol.md#resume-handshake).
   */
  readonly claimed = new Set<string>();
  /** Message id each live stream writes to, for snapshot protection. */
  readonly streamMessage = new Map<string, string>();
  /** Tool calls handed to `onToolCall` or `execute` (each once), and those whose callback has not returned. */
  readonly handedOut = new Set<string>();
  readonly toolCallsRunning = new Set<string>();
  /** Client tool calls this tab has answered, so a transcript read back never makes one run twice. */
  readonly answered = new Set<string>();
  /** Approval decisions and tool outputs sent and not yet seen applied, to send again if a drop lost them. */
  readonly inFlight = new AnswersInFlight();
  readonly queue = new ChatQueue<M>();
  /** The transcript must be read again once no stream is live here (see `TranscriptSync.maybeResync`). */
  resyncDue = false;
  /** The other sides, set by `ChatSession` right after it makes them. */
  sides!: ChatSides<M>;

  constructor(options: ChatSessionOptions<M>) {
    this.options = options;
    this.list = new MessageList(options.messages ?? []);
    this.rm = new ResumeMachine({ createId: () => nanoid(8), resume: options.resume !== false });
    this.store = createStore<ChatSnapshot<M>>(() => this.compute());
    const throttle =
      options.throttleMs ??
      (options.throttle === false ? 0 : (options.throttle ?? options.experimental_throttle));
    this.changed = coalesce(throttle, () => {
      if (!this.disposed) this.store.setState(this.compute(), true);
    });
  }

  compute(): ChatSnapshot<M> {
    return snapshotOf(this);
  }

  fail(error: Error, turnFailed = false): void {
    if (turnFailed) {
      this.error = error;
      this.failed = true;
    }
    this.options.onError?.(error);
  }

  /**
   * Runs one of the app's callbacks. What it throws is reported through `onError` and goes no further: it must
   * not reach the socket's handler and stop the stream.
   */
  callApp(name: string, fn: () => unknown): void {
    try {
      const r = fn();
      if (r && typeof (r as Promise<unknown>).then === "function")
        (r as Promise<unknown>).then(undefined, (e: unknown) => this.appFailed(name, e));
    } catch (e) {
      this.appFailed(name, e);
    }
  }

  /** Reports a problem of the wire once (by its text) through `onError`; the state stays as it was. */
  reportOnce(text: string): void {
    if (this.reported.has(text)) return;
    if (this.reported.size > 256) this.reported.clear();
    this.reported.add(text);
    this.fail(new Error(text));
  }

  appFailed(name: string, e: unknown): void {
    const error = e instanceof Error ? e : new Error(String(e));
    try {
      this.options.onError?.(new Error(`${name} threw: ${error.message}`, { cause: error }));
    } catch {
      // An onError that throws too has nowhere left to report to.
    }
  }

  /**
   * Calls the app's `onFinish` for the response of request `requestId`, as the AI SDK's:
   * with the message that stream wrote, or an empty assistant message when it wrote nothing. Its arguments only
   * for an app that listens: a copy of the transcript per turn is a cost that grows with the session.
   */
  finish(
    requestId: string,
    messageId: string | undefined,
    how: { isAbort?: boolean; isError?: boolean } = {},
  ): void {
    if (this.finishedEarly.delete(requestId)) return;
    const { onFinish } = this.options;
    if (!onFinish) return;
    const message = (messageId === undefined ? undefined : this.list.get(messageId)) as M | undefined;
    const finish = {
      message: message ?? ({ id: messageId ?? nanoid(16), role: "assistant", parts: [] } as unknown as M),
      messages: this.list.messages.slice() as M[],
      isAbort: how.isAbort === true,
      isDisconnect: false,
      isError: how.isError === true,
    };
    this.callApp("onFinish", () => onFinish(finish));
  }

  /**
   * The app ends what this tab reads as its own (`stop()`, an unmount): its request, a stream it resumed, a
   * continuation it awaited. `onFinish({ isAbort: true })` now, as the AI SDK's abort, and not again when the
   * server's end of it arrives. Another tab's stream was never this tab's response: no `onFinish`.
   */
  abortOwn(): void {
    // Upstream's transport reads one response at a time, the latest: this tab's last request, else the stream
    // it resumed or the continuation it awaited.
    const ids = new Set<string>();
    if (this.localRequest !== undefined) ids.add(this.localRequest);
    else
      for (const [id, origin] of this.rm.activeStreams)
        if (origin !== "observed" || this.claimed.has(id)) ids.add(id);
    // A tool continuation awaited before its stream started: upstream's request for it is aborted too.
    if (ids.size === 0 && this.rm.isToolContinuation) {
      this.finish("", undefined, { isAbort: true });
      return;
    }
    for (const id of ids) {
      if (this.finishedEarly.has(id)) continue;
      this.finish(id, this.streamMessage.get(id), { isAbort: true });
      if (this.finishedEarly.size > 64) this.finishedEarly.clear();
      this.finishedEarly.add(id);
    }
  }

  endLocal(id: string): void {
    if (this.localRequest === id) this.localRequest = undefined;
  }

  /** Sends one encoded frame on the agent's socket. */
  send(frame: string): void {
    this.options.agent.send(frame);
  }
}
