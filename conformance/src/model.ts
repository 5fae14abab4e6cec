/**
 * A scripted AI SDK language model. It reads the prompt the way a real model would: the last user message
 * picks the script, and the number of model calls already answered since that message (assistant messages
 * after it) picks the step. A step past the end of the script that follows a tool result answers with
 * "Tool X returned <tool-result JSON>. Done.", the line the recorded transcripts show.
 *
 * Chunks are paced like the recording: one chunk every `delayMs` (30 ms by default), text split after each
 * space. Side effects (`run`) let a script report progress or touch agent state mid-stream.
 */
import { MockLanguageModelV4 } from "ai/test";

type StreamPart = {
  type: string;
  [key: string]: unknown;
};

/** What the model sees of the conversation. */
export interface Turn {
  /** Text of the last user message. */
  userText: string;
  /** Model calls already made since that message (0 = the first step of the turn). */
  step: number;
  /** The newest tool result after the last user message, as the AI SDK put it in the prompt. */
  lastTool?: { toolName: string; toolCallId: string; output: unknown };
}

type Lazy<T> = T | (() => T);

/** One thing the model does inside a step. */
export type Action =
  | { kind: "text"; text: Lazy<string>; id: string; delayMs?: number }
  | { kind: "tool"; name: string; short: string; input: Lazy<unknown> }
  | { kind: "wait"; ms: number }
  | { kind: "run"; fn: () => unknown }
  | { kind: "error"; message: string };

export type Step = Action[] | ((turn: Turn) => Action[] | undefined);

export interface Rule {
  match: RegExp | ((userText: string) => boolean);
  steps: Step[];
}

export const text = (t: Lazy<string>, id: string, delayMs?: number): Action => ({
  kind: "text",
  text: t,
  id,
  ...(delayMs === undefined ? {} : { delayMs }),
});
export const toolCall = (name: string, short: string, input: Lazy<unknown>): Action => ({
  kind: "tool",
  name,
  short,
  input,
});
export const wait = (ms: number): Action => ({ kind: "wait", ms });
export const run = (fn: () => unknown): Action => ({ kind: "run", fn });
export const fail = (message: string): Action => ({ kind: "error", message });

/** The follow-up line the recorded model wrote after a tool result. */
export const afterTool = (turn: Turn): Action[] =>
  turn.lastTool
    ? [
        text(
          `Tool ${turn.lastTool.toolName} returned ${JSON.stringify(turn.lastTool.output)}. Done.`,
          "txt-after-tool",
        ),
      ]
    : [];

let callCounter = 0;
/** Tool call ids look like the recorded ones: `call-<short>-<base36 time>-<counter>`. */
const newToolCallId = (short: string) => `call-${short}-${Date.now().toString(36)}-${callCounter++}`;

type PromptMessage = { role: string; content: unknown };
type PromptPart = { type: string; text?: string; toolName?: string; toolCallId?: string; output?: unknown };

function partsOf(m: PromptMessage): PromptPart[] {
  return Array.isArray(m.content) ? (m.content as PromptPart[]) : [];
}

/** Reduces an AI SDK prompt to what the scripts branch on. */
export function readTurn(prompt: readonly PromptMessage[]): Turn {
  let lastUser = -1;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === "user") {
      lastUser = i;
      break;
    }
  }
  const user = lastUser >= 0 ? prompt[lastUser] : undefined;
  const userText = user
    ? typeof user.content === "string"
      ? user.content
      : partsOf(user)
          .filter((p) => p.type === "text")
          .map((p) => p.text ?? "")
          .join("\n")
    : "";
  const after = prompt.slice(lastUser + 1);
  let lastTool: Turn["lastTool"];
  for (const m of after) {
    for (const p of partsOf(m)) {
      if (p.type === "tool-result") {
        lastTool = { toolName: p.toolName ?? "", toolCallId: p.toolCallId ?? "", output: p.output };
      }
    }
  }
  return {
    userText,
    step: after.filter((m) => m.role === "assistant").length,
    ...(lastTool ? { lastTool } : {}),
  };
}

/** The actions for this model call: the matching rule's step, else the generic follow-up. */
export function actionsFor(rules: readonly Rule[], fallback: Step[], turn: Turn): Action[] {
  const rule = rules.find((r) =>
    typeof r.match === "function" ? r.match(turn.userText) : r.match.test(turn.userText),
  );
  const steps = rule ? rule.steps : fallback;
  const step = steps[turn.step];
  const resolved = typeof step === "function" ? step(turn) : step;
  return resolved ?? afterTool(turn);
}

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

const resolve = <T>(v: Lazy<T>): T => (typeof v === "function" ? (v as () => T)() : v);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((ok, ko) => {
    if (signal?.aborted) return ko(signal.reason ?? new Error("aborted"));
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      ok();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      ko(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function* play(actions: Action[], delayMs: number, signal?: AbortSignal): AsyncGenerator<StreamPart> {
  yield { type: "stream-start", warnings: [] };
  let toolCalls = 0;
  for (const a of actions) {
    switch (a.kind) {
      case "text": {
        const d = a.delayMs ?? delayMs;
        const words = resolve(a.text).match(/\S+\s*|\s+/g) ?? [];
        await sleep(d, signal);
        yield { type: "text-start", id: a.id };
        for (const w of words) {
          await sleep(d, signal);
          yield { type: "text-delta", id: a.id, delta: w };
        }
        await sleep(d, signal);
        yield { type: "text-end", id: a.id };
        break;
      }
      case "tool": {
        const id = newToolCallId(a.short);
        const input = JSON.stringify(resolve(a.input));
        toolCalls++;
        yield { type: "tool-input-start", id, toolName: a.name };
        await sleep(delayMs, signal);
        yield { type: "tool-input-delta", id, delta: input };
        await sleep(delayMs, signal);
        yield { type: "tool-input-end", id };
        await sleep(delayMs, signal);
        yield { type: "tool-call", toolCallId: id, toolName: a.name, input };
        break;
      }
      case "wait":
        await sleep(a.ms, signal);
        break;
      case "run":
        await a.fn();
        break;
      case "error":
        yield { type: "error", error: new Error(a.message) };
        return;
    }
  }
  await sleep(delayMs, signal);
  const unified = toolCalls > 0 ? "tool-calls" : "stop";
  yield { type: "finish", finishReason: { unified, raw: unified }, usage };
}

export interface ScriptedModelOptions {
  rules: readonly Rule[];
  /** Steps when no rule matches. */
  fallback: Step[];
  /** Pause before each chunk; the recording used 30 ms (60 ms in the Researcher child). */
  delayMs?: number;
}

/** A `MockLanguageModelV4` that plays the scripts. One instance can serve any number of calls. */
export function createScriptedModel({ rules, fallback, delayMs = 30 }: ScriptedModelOptions) {
  return new MockLanguageModelV4({
    provider: "runboard-conformance",
    modelId: "scripted",
    doStream: async (options) => {
      const actions = actionsFor(rules, fallback, readTurn(options.prompt as PromptMessage[]));
      const it = play(actions, delayMs, options.abortSignal);
      const stream = new ReadableStream<StreamPart>({
        async pull(controller) {
          try {
            const next = await it.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          } catch (e) {
            controller.error(e);
          }
        },
        async cancel() {
          await it.return(undefined);
        },
      });
      // biome-ignore lint/suspicious/noExplicitAny: the stream parts above are LanguageModelV4StreamPart values
      return { stream: stream as any };
    },
  });
}
