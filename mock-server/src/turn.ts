/**
 * Plays a script's steps into one chat stream the way the AI SDK's multi-step loop does on the real server:
 * `start-step` opens when the model produces something, a server tool's output closes the step, and a gate
 * (approval, client tool) ends the turn with `finishReason: "tool-calls"`.
 */
import type { ThinkActionDescriptor } from "@runboard/protocol";
import * as ids from "./ids.ts";
import {
  type ChildRunSpec,
  type ChildStep,
  resolve,
  type Step,
  splitDeltas,
  type TurnContext,
} from "./script.ts";
import type { Gate, GateAnswer, GateBatch, PlayResult, TurnHost } from "./turn-host.ts";

type GateStep = Extract<Step, { kind: "approval" | "client-tool" }>;
const isGateStep = (s: Step): s is GateStep => s.kind === "approval" || s.kind === "client-tool";

const AGENT_PROGRESS = "data-agent-progress";
const AGENT_MILESTONE = "data-agent-milestone";

/** One stream's step bookkeeping. */
export class Player {
  private stepOpen = false;
  private textN = 0;
  /** The current text step has sent its start (or is a resumed one): `remaining` must not replay it whole. */
  private textBegan = false;
  private cursor: { steps: readonly (Step | ChildStep)[]; index: number } = { steps: [], index: 0 };
  /** The text block being streamed and how far it got; the rest is joined only if a recovery needs it. */
  private inText?: {
    kind: "text" | "reasoning";
    id: string;
    deltas: string[];
    next: number;
    delayMs?: number;
  };
  private milestones = 0;
  private readonly startedAt = performance.now();

  constructor(
    private readonly h: TurnHost,
    private readonly ctx: TurnContext,
  ) {}

  // Step boundaries are paced like any model chunk: on the real server `start-step` comes 30–70 ms after the
  // previous frame and `finish-step` 30–40 ms after `text-end`. A burst here changes what the official client
  // ends with (its last write races the end snapshot), so the pacing is part of the fidelity.
  private async openStep() {
    if (this.stepOpen) return;
    this.stepOpen = true;
    await this.h.sleep(this.h.chunkDelayMs);
    this.h.emit({ type: "start-step" });
  }

  private async closeStep() {
    if (!this.stepOpen) return;
    this.stepOpen = false;
    await this.h.sleep(this.h.chunkDelayMs);
    this.h.emit({ type: "finish-step" });
  }

  /** The finish chunk, in the host's shape. */
  async finish(reason: "stop" | "tool-calls") {
    await this.closeStep();
    this.h.emit(this.h.finishChunk(reason));
  }

  private async toolInput(name: string, input: unknown): Promise<string> {
    const toolCallId = ids.toolCallId(name);
    await this.openStep();
    this.h.emit({ type: "tool-input-start", toolCallId, toolName: name });
    await this.h.sleep(this.h.chunkDelayMs);
    this.h.emit({ type: "tool-input-delta", toolCallId, inputTextDelta: JSON.stringify(input) });
    await this.h.sleep(this.h.chunkDelayMs);
    this.h.emit({ type: "tool-input-available", toolCallId, toolName: name, input });
    return toolCallId;
  }

  private async textBlock(
    kind: "text" | "reasoning",
    t: string,
    id: string | undefined,
    delayMs?: number,
    resume = false,
  ) {
    const blockId = id ?? `${kind === "text" ? "txt" : "rsn"}-${this.textN++}`;
    // Resuming a text part that was cut mid-way: the real server sends no `text-start` (docs/protocol.md#chunk-bodies).
    if (!resume) {
      await this.openStep();
      this.textBegan = true;
      this.h.emit({ type: `${kind}-start`, id: blockId });
    } else {
      this.stepOpen = true;
      this.textBegan = true;
    }
    const deltas = splitDeltas(t);
    const progress = { kind, id: blockId, deltas, next: 0, ...(delayMs === undefined ? {} : { delayMs }) };
    this.inText = progress;
    for (let k = 0; k < deltas.length; k++) {
      progress.next = k;
      // An explicit 0 ms delay is a burst: every delta in one go, as a fast model over a fast link.
      if (delayMs !== 0) await this.h.sleep(delayMs ?? this.h.chunkDelayMs);
      if (this.h.signal.aborted) return;
      this.h.emit({ type: `${kind}-delta`, id: blockId, delta: deltas[k] });
    }
    this.inText = undefined;
    if (delayMs !== 0) await this.h.sleep(this.h.chunkDelayMs);
    this.h.emit({ type: `${kind}-end`, id: blockId });
  }

  /**
   * What is left to play if the turn stopped now: the unsent rest of the text being streamed (resumed without
   * `text-start`) and the steps after the current one. A recovery continuation plays this.
   */
  remaining(): Step[] {
    const { steps, index } = this.cursor;
    const after = steps.slice(index + 1) as Step[];
    // Cut before the current text step sent its start (e.g. during `start-step`): all of it is still to come
    // (found by the fault suites: a restart that early recovered an empty answer).
    const current = steps[index];
    if (!this.inText && !this.textBegan && (current?.kind === "text" || current?.kind === "reasoning"))
      return [current as Step, ...after];
    if (!this.inText) return after;
    const { kind, id, deltas, next, delayMs } = this.inText;
    const rest = deltas.slice(next).join("");
    return [{ kind, text: rest, id, resume: true, ...(delayMs === undefined ? {} : { delayMs }) }, ...after];
  }

  /** Plays steps until the end, a gate, an error or an abort. */
  async play(steps: readonly (Step | ChildStep)[], finish = true): Promise<PlayResult> {
    const { ctx, h } = this;
    for (let i = 0; i < steps.length; i++) {
      if (h.signal.aborted) return { kind: "aborted" };
      if (finish) {
        this.cursor = { steps, index: i };
        this.textBegan = false;
      }
      const s = steps[i] as Step | ChildStep;
      switch (s.kind) {
        case "text":
        case "reasoning":
          await this.textBlock(
            s.kind,
            resolve(s.text, ctx),
            s.id,
            s.delayMs,
            "resume" in s && s.resume === true,
          );
          break;
        case "delay": {
          if (!s.sinceTurnStart) {
            await h.sleep(s.ms);
            break;
          }
          const left = s.ms * h.delayScale - (performance.now() - this.startedAt);
          if (left > 0 && h.delayScale > 0) await h.sleep(left / h.delayScale);
          break;
        }
        case "data": {
          await this.openStep();
          const chunk = {
            type: s.type,
            ...(s.id === undefined ? {} : { id: s.id }),
            data: resolve(s.data, ctx),
            ...(s.transient ? { transient: true } : {}),
          };
          // Every chunk of the model's stream is stored for replay, transient ones too (the AIChatAgent
          // stream loop stores each body before broadcasting it); only agent-tool progress and milestones
          // bypass the store. A tab offered the stream while this chunk went out gets it in the replay.
          h.emit(chunk);
          break;
        }
        case "progress": {
          const { kind: _, ...data } = s;
          h.emitTransient({ type: AGENT_PROGRESS, id: ids.uuid(), transient: true, data });
          break;
        }
        case "milestone": {
          // `sequence` is the run's own milestone ordinal from 0; `at` is server time (docs/protocol.md#progress-and-milestones).
          const { kind: _, name, ...rest } = s;
          const data = { name, sequence: this.milestones++, at: Date.now(), ...rest };
          h.emitTransient({ type: AGENT_MILESTONE, data });
          break;
        }
        case "tool": {
          const input = resolve(s.input, ctx);
          const toolCallId = await this.toolInput(s.name, input);
          if (s.during) {
            const r = await this.playInner(s.during);
            if (r) return r;
          }
          await h.sleep(s.durationMs ?? h.chunkDelayMs * 4);
          if (h.signal.aborted) return { kind: "aborted" };
          if (s.error !== undefined) {
            h.emit({ type: "tool-output-error", toolCallId, errorText: s.error });
          } else {
            const output = typeof s.output === "function" ? s.output(input, ctx) : s.output;
            ctx.outputs[s.name] = output;
            h.emit({ type: "tool-output-available", toolCallId, output });
          }
          await this.closeStep();
          break;
        }
        case "approval":
        case "client-tool": {
          // Gates in a row are parallel tool calls of one model step: all of them are asked at once, and the
          // continuation waits until every one is answered (the server's batch barrier, docs/protocol.md#parallel-tool-calls).
          let end = i;
          while (end + 1 < steps.length && isGateStep(steps[end + 1] as Step)) end++;
          const batch: GateBatch = { gates: [], answers: new Map(), autoContinue: false };
          for (let k = i; k <= end; k++) batch.gates.push(await this.askGate(steps[k] as GateStep));
          const rest = steps.slice(end + 1) as Step[];
          for (const g of batch.gates) {
            g.rest = rest;
            g.batch = batch;
            h.gate(g);
          }
          await this.finish("tool-calls");
          return { kind: "gated" };
        }
        case "agent-tool": {
          // Parallel calls: every input first, then the children run side by side.
          const calls: Array<[ChildRunSpec, string]> = [];
          for (const run of s.runs) calls.push([run, await this.toolInput(run.tool, run.input)]);
          const results = await Promise.all(calls.map(([run, id]) => h.runChild(run, id)));
          if (h.signal.aborted) return { kind: "aborted" };
          calls.forEach(([run, toolCallId], k) => {
            const r = results[k] ?? {};
            if (r.error !== undefined) h.emit({ type: "tool-output-error", toolCallId, errorText: r.error });
            else {
              ctx.outputs[run.tool] = r.output;
              h.emit({ type: "tool-output-available", toolCallId, output: r.output });
            }
          });
          await this.closeStep();
          break;
        }
        case "detached": {
          const toolCallId = await this.toolInput(s.run.tool, s.run.input);
          const runId = h.runDetached(s);
          await h.sleep(h.chunkDelayMs * 2);
          const output = { runId, agentType: s.run.agentType, status: "running" };
          ctx.outputs[s.run.tool] = output;
          h.emit({ type: "tool-output-available", toolCallId, output });
          await this.closeStep();
          break;
        }
        case "pause": {
          const input = resolve(s.input, ctx);
          const toolCallId = await this.toolInput(s.name, input);
          const executionId = h.pause(s, toolCallId, input);
          // As Think 0.23 sends it (checked on the real runtime): the descriptor travels beside the output.
          const action = s.descriptor.action ?? s.name;
          const output = {
            status: "paused",
            executionId,
            action,
            message: s.message ?? `${s.descriptor.summary} is waiting for approval.`,
          };
          const approvalDescriptor: ThinkActionDescriptor = {
            requestId: executionId,
            ...s.descriptor,
            action,
            kind: "durable-pause",
            toolCallId,
            input: previewInput(input),
          };
          ctx.outputs[s.name] = output;
          h.emit({
            type: "tool-output-available",
            toolCallId,
            output,
            approvalDescriptor,
            toolMetadata: { cfThinkAction: true },
          });
          h.describe(toolCallId, approvalDescriptor);
          await this.closeStep();
          break;
        }
        case "live-view": {
          const input = resolve(s.input, ctx);
          const toolCallId = await this.toolInput(s.name, input);
          const output = h.liveView(s.mode ?? "tab");
          ctx.outputs[s.name] = output;
          h.emit({ type: "tool-output-available", toolCallId, output });
          await this.closeStep();
          break;
        }
        case "state":
          h.setState(s.update);
          break;
        case "error":
          return { kind: "error", message: s.message, thrown: s.thrown === true };
        case "close-socket":
          h.closeOriginator();
          break;
        case "evict":
          await h.evict(s.recover ?? false);
          return { kind: "aborted" };
        case "compact":
          await h.compact(s);
          break;
      }
    }
    if (h.signal.aborted) return { kind: "aborted" };
    if (finish) await this.finish("stop");
    return { kind: "done" };
  }

  /** Plays nested steps (a tool's `during`) without ending the turn; returns a result only to stop early. */
  private async playInner(steps: readonly ChildStep[]): Promise<PlayResult | undefined> {
    for (const s of steps) {
      if (this.h.signal.aborted) return { kind: "aborted" };
      if (s.kind === "tool") continue; // no nested tool calls inside a tool
      const r = await this.play([s], false);
      if (r.kind !== "done") return r;
    }
    return undefined;
  }

  /** Emits one gated tool call (its input, and for an approval the request) and returns its gate. */
  private async askGate(s: GateStep): Promise<Gate> {
    const { ctx, h } = this;
    const input = resolve(s.input, ctx);
    const toolCallId = await this.toolInput(s.name, input);
    let approvalId: string | undefined;
    if (s.kind === "approval") {
      approvalId = ids.approvalId();
      h.emit({
        type: "tool-approval-request",
        approvalId,
        toolCallId,
        ...(s.descriptor
          ? {
              approvalDescriptor: {
                requestId: `act_${ids.nanoid(12)}`,
                ...s.descriptor,
                kind: s.descriptor.kind ?? "approval-gated",
                toolCallId,
                input,
              },
            }
          : {}),
      });
    }
    return {
      kind: s.kind,
      toolCallId,
      toolName: s.name,
      ...(approvalId ? { approvalId } : {}),
      input,
      step: s,
      rest: [],
      ctx,
    };
  }

  /**
   * Emits a whole batch's resolution at the head of its continuation stream: an approved call's output in
   * call order, then the rest of the script. A lone gate keeps its own denial reply (`onDeny`).
   */
  resolveBatch(batch: GateBatch): Step[] {
    const [only] = batch.gates;
    if (batch.gates.length === 1 && only)
      return this.resolveGate(only, batch.answers.get(only.toolCallId) ?? { toolResult: true });
    const denials: Step[] = [];
    for (const g of batch.gates) {
      const answer = batch.answers.get(g.toolCallId);
      if (answer && "approved" in answer && !answer.approved) {
        denials.push(...((g.step as Extract<Step, { kind: "approval" }>).onDeny ?? []));
        continue;
      }
      this.resolveGate(g, answer ?? { toolResult: true });
    }
    return [...denials, ...(only?.rest ?? [])];
  }

  /** Emits the gate's resolution at the head of a continuation stream. */
  resolveGate(g: Gate, answer: GateAnswer): Step[] {
    if ("toolResult" in answer) return g.rest;
    if (!answer.approved) {
      // The part is already `output-denied` on the server; a `tool-output-denied` chunk for a settled part
      // is a provider replay the real server filters out (docs/protocol.md#chunk-bodies), so the stream goes straight on.
      const s = g.step as Extract<Step, { kind: "approval" }>;
      return s.onDeny ?? [{ kind: "text", text: `Understood, I did not run ${g.toolName}.` }];
    }
    const s = g.step as Extract<Step, { kind: "approval" }>;
    const output = typeof s.output === "function" ? s.output(g.input, g.ctx) : (s.output ?? { ok: true });
    g.ctx.outputs[g.toolName] = output;
    this.h.emit({ type: "tool-output-available", toolCallId: g.toolCallId, output });
    return g.rest;
  }
}

/** The transcript carries a preview of an action's input: long strings are cut (full input via pendingExecutions). */
export function previewInput(input: unknown, max = 120): unknown {
  if (typeof input === "string") return input.length > max ? `${input.slice(0, max)}…` : input;
  if (Array.isArray(input)) return input.map((v) => previewInput(v, max));
  if (input && typeof input === "object")
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, previewInput(v, max)]));
  return input;
}
