/**
 * Child runs of one parent instance (the `agent-tool-event` protocol, docs/protocol.md#agent-tool-events). Sequence numbers
 * follow the real server (agents 0.32), not the reference text: `started` is 0, each STORED child chunk
 * takes the next number, progress and milestone chunks reuse the number the next stored chunk will get
 * (research.jsonl shows sequence 10 four times), and the terminal takes stored + 1. Replay on connect sends
 * `started`, the stored chunks and the terminal with the same numbers.
 */
import type { AgentToolEvent, AgentToolEventFrame, AgentToolFailure, ServerFrame } from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { MockConnection } from "./connection.ts";
import * as ids from "./ids.ts";
import type { ChildHost, InstanceServices, RetryAnswer, RunHost } from "./instance-host.ts";
import type { ChildRunSpec, RunOutcome, Step } from "./script.ts";
import { text } from "./script.ts";
import type { PlayResult } from "./turn-host.ts";

interface RunRecord {
  runId: string;
  parentToolCallId?: string;
  started: Extract<AgentToolEvent, { kind: "started" }>;
  stored: string[];
  terminal?: AgentToolEvent;
  abort: AbortController;
  cancelReason?: string;
  /** The host was evicted mid-run (`stopAll`): the run ends with no terminal event and no notify. */
  stopped?: boolean;
  spec: ChildRunSpec;
  child?: ChildHost;
  /** A `retryAgentTool` re-attach in progress: callers of a second retry share it. */
  reattaching?: Promise<RetryAnswer>;
}

const STATUS_OF: Record<RunOutcome["kind"], string> = {
  finished: "completed",
  error: "error",
  aborted: "aborted",
  interrupted: "interrupted",
};

/** The child runs one parent instance started, live and ended, in start order. */
export class RunRegistry {
  private readonly records = new Map<string, RunRecord>();

  constructor(
    private readonly parent: RunHost,
    private readonly svc: Pick<InstanceServices, "deliver">,
  ) {}

  /** Whether a child run has not ended yet. */
  get running(): boolean {
    for (const r of this.records.values()) if (!r.terminal && !r.stopped) return true;
    return false;
  }

  private frame(r: RunRecord, sequence: number, event: AgentToolEvent, replay = false): AgentToolEventFrame {
    return {
      type: "agent-tool-event",
      ...(r.parentToolCallId ? { parentToolCallId: r.parentToolCallId } : {}),
      sequence,
      ...(replay ? { replay: true as const } : {}),
      event,
    };
  }

  /** Connect-time replay, to the connecting socket only, runs in start order (docs/protocol.md#agent-tool-event-timing). */
  replayTo(conn: MockConnection) {
    for (const r of this.records.values()) {
      const send = (f: ServerFrame) => this.svc.deliver(conn, f);
      send(this.frame(r, 0, r.started, true));
      r.stored.forEach((body, i) => {
        send(this.frame(r, i + 1, { kind: "chunk", runId: r.runId, body }, true));
      });
      if (r.terminal) send(this.frame(r, r.stored.length + 1, r.terminal, true));
    }
  }

  /** An `agentTool` call: the parent's turn waits for the child. */
  async runAwaited(spec: ChildRunSpec, toolCallId: string, signal: AbortSignal) {
    const runId = `agent-tool:${toolCallId}`;
    const onParentAbort = () => this.cancel(runId, "parent turn aborted");
    signal.addEventListener("abort", onParentAbort, { once: true });
    const res = await this.run(spec, runId, toolCallId, spec.display ?? { name: spec.agentType });
    signal.removeEventListener("abort", onParentAbort);
    // agentTool() returns a failure envelope, so the parent tool part ends `output-available`, not
    // `output-error` (docs/protocol.md#agent-tool-failure-envelope).
    return { output: res.outcome.kind === "finished" ? res.summary : failureEnvelope(res.outcome) };
  }

  /** A detached run: returns its id at once; its end is delivered as a notify message and a follow-up turn. */
  runDetached(step: Extract<Step, { kind: "detached" }>): string {
    const runId = ids.detachedRunId();
    void this.run(step.run, runId, undefined, step.run.display, step.narrateMilestones === true).then(
      (res) => {
        if (step.notify !== false && !res.stopped)
          this.deliverDetached(step, runId, res.outcome, res.summary);
      },
    );
    return runId;
  }

  private async run(
    spec: ChildRunSpec,
    runId: string,
    parentToolCallId: string | undefined,
    display: ChildRunSpec["display"],
    narrate = false,
  ): Promise<{ outcome: RunOutcome; summary: string; stopped?: boolean }> {
    const record: RunRecord = {
      runId,
      ...(parentToolCallId ? { parentToolCallId } : {}),
      started: {
        kind: "started",
        runId,
        agentType: spec.agentType,
        inputPreview: JSON.stringify(spec.input),
        order: spec.order ?? 0,
        ...(display ? { display } : {}),
      },
      stored: [],
      abort: new AbortController(),
      spec,
    };
    this.records.set(runId, record);
    this.parent.broadcast(this.frame(record, 0, record.started));

    // The child is a real agent instance (a facet): it keeps its own transcript and can be drilled into.
    const child = this.parent.spawnChild(spec.agentType, runId);
    record.child = child;
    child.transcript.upsert({
      id: ids.uuid(),
      role: "user",
      // The child's prompt is its input, pretty-printed (the recorded child tool inputs quote it).
      parts: [
        {
          type: "text",
          text: typeof spec.input === "string" ? spec.input : JSON.stringify(spec.input, null, 2),
        },
      ],
    });
    child.forward = (body, stored) => {
      if ((record.terminal && !record.reattaching) || record.stopped) return;
      if (stored) record.stored.push(body);
      this.parent.broadcast(
        this.frame(record, record.stored.length + (stored ? 0 : 1), { kind: "chunk", runId, body }),
      );
      if (narrate && body.includes('"data-agent-milestone"')) this.narrate(record, body);
    };
    const result: PlayResult = await child.runProgrammatic(spec.steps, { signal: record.abort.signal });
    const summary = textOf(child.transcript.messages.at(-1));
    // Evicted: nothing is sealed, broadcast or delivered; a reconnecting client sees the run as it was cut.
    if (record.stopped) return { outcome: { kind: "aborted" }, summary, stopped: true };
    let outcome: RunOutcome =
      result.kind === "aborted"
        ? { kind: "aborted", ...(record.cancelReason ? { reason: record.cancelReason } : {}) }
        : result.kind === "error"
          ? { kind: "error", error: result.message }
          : (spec.outcome ?? { kind: "finished" });
    if (outcome.kind === "finished") outcome = { kind: "finished", summary: outcome.summary ?? summary };
    this.seal(record, outcome);
    return { outcome, summary: outcome.kind === "finished" ? (outcome.summary ?? summary) : summary };
  }

  private seal(record: RunRecord, outcome: RunOutcome) {
    // `interrupted` is soft: a re-attach may replace it with the run's real end (as on agents 0.32).
    if (record.terminal && record.terminal.kind !== "interrupted") return;
    const { runId } = record;
    const event: AgentToolEvent =
      outcome.kind === "finished"
        ? { kind: "finished", runId, summary: outcome.summary ?? "" }
        : outcome.kind === "error"
          ? { kind: "error", runId, error: outcome.error }
          : outcome.kind === "aborted"
            ? { kind: "aborted", runId, ...(outcome.reason ? { reason: outcome.reason } : {}) }
            : {
                kind: "interrupted",
                runId,
                error: outcome.error,
                ...(outcome.reason ? { reason: outcome.reason } : {}),
                ...(outcome.childStillRunning === undefined
                  ? {}
                  : { childStillRunning: outcome.childStillRunning }),
              };
    record.terminal = event;
    this.parent.broadcast(this.frame(record, record.stored.length + 1, event));
  }

  /** `cancelAgentTool(runId, reason)`: the child stops and the run ends `aborted`. */
  cancel(runId: string, reason?: string): boolean {
    const r = this.records.get(runId);
    if (!r || (r.terminal && !r.reattaching) || r.stopped) return false;
    if (reason !== undefined) r.cancelReason = reason;
    r.abort.abort();
    return true;
  }

  /**
   * `retryAgentTool(runId)`: what agents 0.32's `runAgentTool(cls, { runId })` does for a run id it already
   * has. An `interrupted` run is re-attached: the child plays its `resumeSteps` (its chunks go out with the
   * next sequence numbers) and the run ends `finished`, with no new `started` (the real runtime sends none).
   * A run still going or already ended hard sends nothing and answers its status or stored result. An
   * unknown id throws.
   */
  retry(runId: string): Promise<RetryAnswer> {
    const r = this.records.get(runId);
    if (!r) return Promise.reject(new Error(`No agent-tool run ${runId}`));
    if (r.reattaching) return r.reattaching;
    const base = { runId, agentType: r.started.agentType };
    if (r.terminal?.kind !== "interrupted" || !r.child) return Promise.resolve(answerOf(base, r.terminal));
    const child = r.child;
    r.reattaching = (async () => {
      r.abort = new AbortController();
      const result = await child.runProgrammatic(r.spec.resumeSteps ?? [], { signal: r.abort.signal });
      const outcome: RunOutcome =
        result.kind === "aborted"
          ? { kind: "aborted", ...(r.cancelReason ? { reason: r.cancelReason } : {}) }
          : result.kind === "error"
            ? { kind: "error", error: result.message }
            : { kind: "finished", summary: textOf(child.transcript.messages.at(-1)) };
      this.seal(r, outcome);
      return answerOf(base, r.terminal);
    })().finally(() => {
      r.reattaching = undefined;
    });
    return r.reattaching;
  }

  /**
   * `clearHelperRuns()` (agents 0.32's `clearAgentToolRuns()`): live children are stopped, and every run
   * record goes, so a reconnect's replay sends none of them. Returns the ids cleared.
   */
  clear(): string[] {
    const ids = [...this.records.keys()];
    for (const r of this.records.values()) {
      if (r.terminal && !r.reattaching) continue;
      // Nothing more goes out for it: the run is gone, not ended.
      r.stopped = true;
      r.abort.abort();
    }
    this.records.clear();
    return ids;
  }

  /** Restart: live children stop without a terminal, as when the host is evicted mid-run. */
  stopAll() {
    for (const r of this.records.values()) {
      if (r.terminal) continue;
      r.stopped = true;
      r.abort.abort();
    }
  }

  /** AIChatAgent injects `detached-finish:<runId>:<status>`; Think a plain user message (docs/protocol.md#synthetic-messages). */
  private deliverDetached(
    step: Extract<Step, { kind: "detached" }>,
    runId: string,
    outcome: RunOutcome,
    summary: string,
  ) {
    const status = STATUS_OF[outcome.kind];
    const { agentType } = step.run;
    const head = `Background task "${agentType}" (run ${runId})`;
    const body =
      outcome.kind === "finished"
        ? `${head} finished:\n\n${outcome.summary ?? summary}`
        : outcome.kind === "aborted"
          ? `${head} was cancelled.`
          : outcome.kind === "interrupted"
            ? `${head} was interrupted: ${outcome.error}`
            : `${head} failed: ${outcome.error}`;
    const message = this.parent.flavour.detachedNotice({ runId, agentType, status, text: body });
    const follow = step.followUp ?? [
      text("Noted: the background research finished and I have read its summary.", { id: "txt-notify" }),
    ];
    void this.parent.runProgrammatic(follow, {
      id: `detached-delivery:${ids.uuid()}`,
      before: () => {
        this.parent.transcript.upsert(message);
        this.parent.broadcast({
          messages: [...this.parent.transcript.messages],
          type: "cf_agent_chat_messages",
        });
      },
    });
  }

  /** Milestone narration: an assistant message `detached-ms:<runId>:<name>`, no model turn (docs/protocol.md#synthetic-messages). */
  private narrate(record: RunRecord, body: string) {
    let data: { name?: unknown; data?: unknown };
    try {
      data = (JSON.parse(body) as { data: typeof data }).data;
    } catch {
      return;
    }
    if (typeof data?.name !== "string") return;
    const { agentType } = record.started;
    const extra = data.data === undefined ? "" : `\n\n${JSON.stringify(data.data)}`;
    this.parent.transcript.upsert({
      id: `detached-ms:${record.runId}:${data.name}`,
      role: "assistant",
      parts: [
        {
          type: "text",
          text: `Background task "${agentType}" (run ${record.runId}) reached milestone "${data.name}".${extra}`,
        },
      ],
      metadata: { source: "detached-agent-tool", runId: record.runId, agentType, milestone: data.name },
    });
    this.parent.broadcast({ messages: [...this.parent.transcript.messages], type: "cf_agent_chat_messages" });
  }
}

function textOf(m: UIMessage | undefined): string {
  if (m?.role !== "assistant") return "";
  return m.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}

function answerOf(
  base: { runId: string; agentType: string },
  terminal: AgentToolEvent | undefined,
): RetryAnswer {
  switch (terminal?.kind) {
    case undefined:
      return { ...base, status: "running" };
    case "finished":
      // agents 0.32 answers a completed run with its output and summary (the same text for a chat child).
      return { ...base, status: "completed", output: terminal.summary, summary: terminal.summary };
    case "error":
      return { ...base, status: "error", error: terminal.error };
    case "aborted":
      return { ...base, status: "aborted", ...(terminal.reason ? { error: terminal.reason } : {}) };
    case "interrupted":
      return { ...base, status: "interrupted", error: terminal.error };
    default:
      return { ...base, status: "running" };
  }
}

/** What agents 0.32's `agentTool()` returns for a child that did not complete: the same fields, the same defaults. */
export function failureEnvelope(o: Exclude<RunOutcome, { kind: "finished" }>): AgentToolFailure {
  switch (o.kind) {
    case "error":
      return { ok: false, status: "error", error: o.error || "agent tool run failed", retryable: false };
    case "aborted":
      return {
        ok: false,
        status: "aborted",
        // Real agents 0.32: a cancel's reason never reaches the envelope (its result has no error).
        error: "agent tool run was cancelled",
        retryable: false,
      };
    case "interrupted":
      return {
        ok: false,
        status: "interrupted",
        error: o.error,
        retryable: true,
        ...(o.reason === undefined ? {} : { reason: o.reason }),
        ...(o.childStillRunning === undefined ? {} : { childStillRunning: o.childStillRunning }),
      };
  }
}
