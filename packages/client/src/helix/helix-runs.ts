/**
 * `HelixRuns`: helix-agents sub-agent runs as a store with the `AgentToolRuns` snapshot shape (docs/helix.md),
 * fed chunk by chunk (`apply`), from any async iterable (`consume`), from a `fetch` response carrying SSE or
 * NDJSON (`fromResponse`), or from an `EventSource` (`fromEventSource`). The rules are the protocol's
 * `HelixRunsReducer`; this class adds the IO, the notifications and the error reports.
 */
import {
  createHelixStreamDecoder,
  type HelixApplyResult,
  type HelixRun,
  HelixRunsReducer,
  type HelixRunsState,
  helixStreamFormat,
} from "@runboard/protocol/helix";
import { coalesce } from "../notify.ts";
import { RunActions } from "../run-actions.ts";

/** The part of `EventSource` `fromEventSource` uses. */
export interface EventSourceLike {
  addEventListener(type: "message" | "error", fn: (e: { data?: unknown }) => void): void;
  close(): void;
}

/** Options of `HelixRuns`. */
export interface HelixRunsOptions {
  /** The root agent's type. Default: the `agentType` of the first chunk. */
  rootAgentType?: string;
  /**
   * Rejected chunks (malformed, from a sub-agent not running, a `tool_end` without its start), each unknown
   * chunk type once, and failed reads. The state stays as it was; nothing is thrown.
   */
  onError?: (error: Error) => void;
  /** See `ChatSessionOptions.throttleMs`: at most one notification per animation frame by default. */
  throttleMs?: number;
  /** The `EventSource` constructor for `fromEventSource`. Default: the global one. */
  EventSource?: new (
    url: string,
    init?: { withCredentials?: boolean },
  ) => EventSourceLike;
}

/** helix sub-agent runs, grouped by the tool call that spawned them, as `AgentToolRuns` groups its runs. */
export class HelixRuns {
  private readonly reducer: HelixRunsReducer;
  private snapshot: HelixRunsState = HelixRunsReducer.EMPTY;
  private readonly listeners = new Set<() => void>();
  private readonly notify: ReturnType<typeof coalesce>;
  private readonly reportedTypes = new Set<string>();
  private readonly stops = new Set<() => void>();
  private disposed = false;

  /** Times seen per run (AgentToolRun / RunTray read them through a store's `actions`); no IO. */
  readonly actions: RunActions = new RunActions();

  constructor(private readonly options: HelixRunsOptions = {}) {
    this.reducer = new HelixRunsReducer({ rootAgentType: options.rootAgentType });
    this.notify = coalesce(options.throttleMs, () => this.publish());
  }

  /** The runs now: by id, by the tool call that spawned them, none unbound, and the root agent. */
  getSnapshot = (): HelixRunsState => this.snapshot;

  /** Calls `fn` after each published change; returns the unsubscribe function. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };

  /** Runs one tool call part spawned (a `tool-subagent__<type>` part of an agent's transcript). */
  getRunsForToolCall(toolCallId: string): readonly HelixRun[] {
    return this.snapshot.runsByToolCallId[toolCallId] ?? [];
  }

  /** Applies one chunk (an object, or its JSON text). Rejections go to `onError`; never throws. */
  apply(chunk: unknown): HelixApplyResult {
    if (this.disposed) return { kind: "error", reason: "store disposed" };
    const result = this.reducer.apply(chunk);
    this.report(chunk, result);
    // A rejected chunk may still have changed something (a kept tool_end); publish skips an unchanged state.
    this.notify();
    return result;
  }

  /** The stream ended: open runs become `interrupted` (reason `stream-ended`), the root completes. */
  end(): void {
    if (this.disposed) return;
    this.reducer.endStream();
    this.notify();
    this.notify.flush();
  }

  /** Forgets every run (a new stream on the same store). */
  reset(): void {
    this.reducer.reset();
    this.reportedTypes.clear();
    this.notify();
    this.notify.flush();
  }

  /**
   * Applies every chunk of `source` (objects or JSON texts), then `end()`. A source that throws is reported and
   * ends the stream the same way. Resolves when the stream ended, `signal` aborted (the runs are left as they
   * are, not ended: a new stream may follow on the same store) or the store was disposed.
   */
  async consume(source: AsyncIterable<unknown>, options: { signal?: AbortSignal } = {}): Promise<void> {
    const it = source[Symbol.asyncIterator]();
    let stopped = false;
    const stop = () => {
      stopped = true;
      void it.return?.()?.catch(() => {});
    };
    if (options.signal?.aborted) return;
    options.signal?.addEventListener("abort", stop, { once: true });
    this.stops.add(stop);
    try {
      for (;;) {
        const step = await it.next();
        if (stopped || this.disposed || step.done) break;
        this.apply(step.value);
      }
    } catch (e) {
      if (!stopped) this.fail(e);
    } finally {
      this.stops.delete(stop);
      options.signal?.removeEventListener("abort", stop);
      if (!stopped) this.end();
    }
  }

  /**
   * Reads a `fetch` response: SSE when its `content-type` is `text/event-stream`, else NDJSON. A non-2xx status
   * or a missing body is reported and ends the stream.
   */
  fromResponse(response: Response): Promise<void> {
    if (!response.ok || !response.body) {
      this.fail(new Error(`helix stream: HTTP ${response.status}${response.body ? "" : ", no body"}`));
      this.end();
      return Promise.resolve();
    }
    const reader = response.body.getReader();
    // Cancelling the reader ends a read that is waiting, so `dispose` stops the request at once.
    const cancel = () => void reader.cancel().catch(() => {});
    this.stops.add(cancel);
    const format = helixStreamFormat(response.headers.get("content-type"));
    return this.consume(decode(reader, format)).finally(() => this.stops.delete(cancel));
  }

  /**
   * Follows an SSE URL with `EventSource`. helix events carry no ids, so a reconnect would replay the stream
   * as new chunks: the first `error` (the server closing the stream included) closes it and ends the stream.
   * Returns a function that closes it early (the runs stay as they are).
   */
  fromEventSource(url: string, init?: { withCredentials?: boolean }): () => void {
    const Ctor =
      this.options.EventSource ??
      (globalThis as { EventSource?: HelixRunsOptions["EventSource"] }).EventSource;
    if (!Ctor) {
      this.fail(new Error("helix stream: no EventSource here; pass the EventSource option"));
      return () => {};
    }
    const source = new Ctor(url, init);
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      source.close();
      this.stops.delete(close);
    };
    this.stops.add(close);
    source.addEventListener("message", (e) => {
      if (open) this.apply(e.data);
    });
    source.addEventListener("error", () => {
      if (!open) return;
      close();
      this.end();
    });
    return close;
  }

  /** Stops reading every stream and notifying; the last snapshot stays readable. */
  dispose(): void {
    for (const stop of [...this.stops]) stop();
    this.disposed = true;
    this.listeners.clear();
  }

  private fail(e: unknown) {
    this.options.onError?.(
      new Error(`helix stream read failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private report(chunk: unknown, result: HelixApplyResult) {
    const onError = this.options.onError;
    if (!onError) return;
    if (result.kind === "error") onError(new Error(`helix chunk ${typeOf(chunk)}: ${result.reason}`));
    else if (result.kind === "unknown" && !this.reportedTypes.has(result.type)) {
      this.reportedTypes.add(result.type);
      onError(
        new Error(`helix chunk type '${result.type}' is unknown: kept as a data-helix-${result.type} part`),
      );
    }
  }

  private publish() {
    if (this.disposed) return;
    const next = this.reducer.state;
    if (next === this.snapshot) return;
    this.snapshot = next;
    this.actions.settle(Object.values(this.snapshot.runsById));
    for (const fn of this.listeners) fn();
  }
}

const typeOf = (chunk: unknown): string => {
  let c = chunk;
  if (typeof c === "string") {
    try {
      c = JSON.parse(c);
    } catch {
      return "(not JSON)";
    }
  }
  const t = (c as { type?: unknown } | null)?.type;
  return typeof t === "string" ? `'${t.slice(0, 64)}'` : "(no type)";
};

/** The chunk texts of a byte stream, decoded as UTF-8 and split by `format`. */
async function* decode(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  format: "sse" | "ndjson",
): AsyncGenerator<string> {
  const text = new TextDecoder();
  const decoder = createHelixStreamDecoder(format);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* decoder.push(text.decode(value, { stream: true }));
    }
    yield* decoder.push(text.decode());
    yield* decoder.end();
  } finally {
    // Returning early (dispose) cancels the request.
    await reader.cancel().catch(() => {});
  }
}
