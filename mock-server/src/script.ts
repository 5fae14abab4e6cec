/**
 * The scenario API: agents are scripts. A turn is chosen by matching the user's message, and is a list of
 * steps the server plays as a model would: text and reasoning deltas, tool calls, gates that wait for a
 * human or a client tool, child runs, faults. Steps after a gate play in the continuation stream once the
 * gate is answered, exactly where the real server would continue.
 */
import type { AgentToolDisplay, AgentToolInterruptReason, ThinkActionDescriptor } from "@runboard/protocol";
import type { UIMessage } from "ai";

/** What a step can read when it is played. */
export interface TurnContext {
  /** Text of the last user message. */
  userText: string;
  /** The request body's extra fields (`body` option of the chat hook). */
  body: Record<string, unknown>;
  /** Tool outputs of this turn so far, by tool name (latest wins). */
  outputs: Record<string, unknown>;
  /** Agent state when the turn started. */
  state: unknown;
  /** The persisted transcript when the turn started. */
  messages: readonly UIMessage[];
}

/** A value, or a function of the turn so far. */
export type Dynamic<T> = T | ((ctx: TurnContext) => T);

/**
 * Approval descriptor that Think actions attach to their approval requests (and durable pauses): the wire
 * shape declared once in the protocol package.
 */
export type ActionDescriptor = ThinkActionDescriptor;

/** How a child run ends. */
export type RunOutcome =
  | { kind: "finished"; summary?: string }
  | { kind: "error"; error: string }
  | { kind: "aborted"; reason?: string }
  | { kind: "interrupted"; error: string; reason?: AgentToolInterruptReason; childStillRunning?: boolean };

/** Steps a child (sub-agent) run plays in its own chat stream. */
export type ChildStep =
  | TextStep
  | ToolStep
  | DataStep
  | DelayStep
  | { kind: "progress"; fraction?: number; message?: string; phase?: string; data?: unknown }
  | {
      kind: "milestone";
      name: string;
      data?: unknown;
      fraction?: number;
      message?: string;
      phase?: string;
    }
  /** The child dispatches agent tools of its own: their events go on the child's connection (docs/protocol.md#drill-in). */
  | { kind: "agent-tool"; runs: ChildRunSpec[] };

/** One child run started by a parent tool call (`agentTool`) or detached (`runAgentTool`). */
export interface ChildRunSpec {
  /** The parent's tool name (the chat tool part is `tool-<tool>`). */
  tool: string;
  /** Child class name, e.g. `Researcher`. */
  agentType: string;
  input: unknown;
  display?: AgentToolDisplay;
  /** Display order among siblings. Default 0. */
  order?: number;
  steps: ChildStep[];
  /** Default `finished` with the child's text as summary. */
  outcome?: RunOutcome;
  /**
   * What the child plays when a `retryAgentTool` call re-attaches to it after an `interrupted` outcome, before
   * its real end (`finished`, with its text as summary). Default: nothing more.
   */
  resumeSteps?: ChildStep[];
}

/** Streams a text block. */
export interface TextStep {
  kind: "text";
  text: Dynamic<string>;
  /** Text block id on the wire. Default `txt-<n>`. */
  id?: string;
  /** Delay before each delta, in ms (scaled by the server's `delayScale`). Default: the agent's `chunkDelayMs`. */
  delayMs?: number;
  /** Continues a text part cut short (recovery): no `text-start` is sent. */
  resume?: boolean;
}

/** Streams a reasoning block. */
export interface ReasoningStep {
  kind: "reasoning";
  text: Dynamic<string>;
  id?: string;
  delayMs?: number;
  resume?: boolean;
}

/** A server tool call. */
export interface ToolStep {
  kind: "tool";
  name: string;
  input: Dynamic<unknown>;
  /** The server's execute() result. A function gets the input. */
  output?: unknown | ((input: unknown, ctx: TurnContext) => unknown);
  /** When set, the tool fails with this error text instead (`tool-output-error`). */
  error?: string;
  /** Time the tool takes to run. */
  durationMs?: number;
  /** Played while the tool runs, between its input and its output (a child's progress and milestones). */
  during?: ChildStep[];
}

/** A `data-*` part. */
export interface DataStep {
  kind: "data";
  /** `data-<name>`. */
  type: `data-${string}`;
  data: Dynamic<unknown>;
  id?: string;
  /** Transient parts reach `onData` only and are not stored or replayed. */
  transient?: boolean;
}

/** A pause. */
export interface DelayStep {
  kind: "delay";
  ms: number;
  /**
   * Wall-clock pacing: wait until `ms` after the turn started instead of `ms` from now, so a long stream keeps
   * its rate however long each burst took.
   */
  sinceTurnStart?: boolean;
}

/** Every step a chat turn can contain. */
export type Step =
  | TextStep
  | ReasoningStep
  | ToolStep
  | DataStep
  | DelayStep
  | {
      /** An approval-gated tool (`needsApproval`). The turn ends; the rest plays after approval. */
      kind: "approval";
      name: string;
      input: Dynamic<unknown>;
      output?: unknown | ((input: unknown, ctx: TurnContext) => unknown);
      /** Think actions: sent as `approvalDescriptor` on the request chunk. */
      descriptor?: ActionDescriptor;
      /** Played instead of the remaining steps when the human denies. Default: a one-line text. */
      onDeny?: Step[];
    }
  | {
      /** A tool with no `execute`: the client runs it and sends `cf_agent_tool_result`. */
      kind: "client-tool";
      name: string;
      input: Dynamic<unknown>;
    }
  | { kind: "agent-tool"; runs: ChildRunSpec[] }
  /** Server-side `setState` during the turn (broadcast to every socket). */
  | { kind: "state"; update: (state: unknown) => unknown }
  | {
      /** A background run that outlives the turn; the tool returns `{runId, agentType, status}` at once. */
      kind: "detached";
      run: ChildRunSpec;
      /** Inject `detached-finish:<runId>:<status>` and run a follow-up turn when it ends. Default true. */
      notify?: boolean;
      /** Narrate milestones as `detached-ms:<runId>:<name>` assistant messages. Default false. */
      narrateMilestones?: boolean;
      /** Steps of the follow-up turn after the notify message. */
      followUp?: Step[];
    }
  | {
      /** Think durable pause: the tool output is `{status:"paused", ...}`; resolved later through callables. */
      kind: "pause";
      name: string;
      input: Dynamic<unknown>;
      descriptor: ActionDescriptor;
      /** The action's result when approved. */
      output?: unknown | ((input: unknown) => unknown);
      message?: string;
    }
  | {
      /** A tool whose output is a Live View session minted by this server. */
      kind: "live-view";
      name: string;
      input: Dynamic<unknown>;
      mode?: "tab" | "devtools";
    }
  /** An in-band error chunk (`{error:true, done:false}` then `done`), or a thrown one (`{error:true, done:true}`). */
  | { kind: "error"; message: string; thrown?: boolean }
  /** Closes the originating socket abruptly (code 1006 as the client sees it) while the turn goes on. */
  | { kind: "close-socket" }
  /**
   * Evicts the instance here (as `controller.restart`): with `recover`, a recovery continuation plays the
   * steps after this one; with `"give-up"` the recovery fails with the host's terminal message
   * (docs/protocol.md#recovering).
   */
  | { kind: "evict"; recover?: boolean | "give-up" }
  /**
   * Compacts the conversation as Think's memory session does (docs/protocol.md#compaction): `cf_agent_session`
   * `compacting`, the messages before the last `keep` replaced by a `compaction_<id>` summary, tool outputs
   * longer than `toolOutputChars` shortened and listed in `metadata.compactedToolOutputs`, then `idle`.
   */
  | { kind: "compact"; summary: string; keep?: number; toolOutputChars?: number };

/** How a turn is chosen: a substring (case-insensitive), a regular expression, or a predicate. */
export type Matcher = string | RegExp | ((userText: string) => boolean);

/** A scripted turn: played when `match` accepts the user's message. */
export interface TurnRule {
  match: Matcher;
  steps: Dynamic<Step[]>;
}

/** A callable (`@callable()`) method. `this`-free: it gets the agent's API as first argument. */
export interface CallableSpec {
  streaming?: boolean;
  fn: (api: CallableApi, ...args: unknown[]) => unknown;
}

/** What a callable can do on its agent instance. */
export interface CallableApi {
  readonly name: string;
  readonly state: unknown;
  /** Persists and broadcasts to every connection, the caller included (source "server"). */
  setState(state: unknown): void;
  readonly messages: readonly UIMessage[];
  /** Streaming callables only: send a chunk (`done:false`). */
  send(chunk: unknown): void;
}

/** An agent class. */
export interface MockAgentDefinition {
  /** `ai-chat` imitates `AIChatAgent`, `think` imitates Think (connect frames, finish shape, broadcasts). */
  host: "ai-chat" | "think";
  /** State every new instance starts with; no state frame is sent while it is undefined. */
  initialState?: unknown;
  /** Scripted turns, first match wins. */
  turns?: TurnRule[];
  /** Played when no rule matches. Default: an empty reply with "No response was generated". */
  fallback?: Dynamic<Step[]>;
  /** `@callable()` methods by name. */
  callables?: Record<string, CallableSpec | CallableSpec["fn"]>;
  /** Methods that exist but are not callable (RPC answers "Method X is not callable"). */
  methods?: string[];
  /** Default delay before each text delta. Default 30 ms. */
  chunkDelayMs?: number;
}

// ───────────────────────────── builders ─────────────────────────────

/** A text block, streamed as one delta per word. */
export const text = (t: Dynamic<string>, opts: Omit<TextStep, "kind" | "text"> = {}): TextStep => ({
  kind: "text",
  text: t,
  ...opts,
});
/** A reasoning block, streamed like text. */
export const reasoning = (t: Dynamic<string>, opts: { id?: string; delayMs?: number } = {}): Step => ({
  kind: "reasoning",
  text: t,
  ...opts,
});
/** A server tool call: its input, then (after `durationMs`) its output. */
export const tool = (
  name: string,
  input: Dynamic<unknown>,
  output: ToolStep["output"],
  opts: { durationMs?: number; during?: ChildStep[] } = {},
): ToolStep => ({ kind: "tool", name, input, output, ...opts });
/** A server-side `setState` during the turn. */
export const setState = (update: (state: unknown) => unknown): Step => ({ kind: "state", update });
/** A server tool call that fails with `error` (`tool-output-error`). */
export const failingTool = (name: string, input: Dynamic<unknown>, error: string): ToolStep => ({
  kind: "tool",
  name,
  input,
  error,
});
/** A pause of `ms` (scaled by the server's `delayScale`). */
export const delay = (ms: number, opts: { sinceTurnStart?: boolean } = {}): DelayStep => ({
  kind: "delay",
  ms,
  ...opts,
});
/** A `data-*` part. */
export const data = (
  type: `data-${string}`,
  value: Dynamic<unknown>,
  opts: { id?: string; transient?: boolean } = {},
): DataStep => ({ kind: "data", type, data: value, ...opts });
/** A child run's progress report (broadcast, never stored). */
export const progress = (fraction: number, message?: string, phase?: string): ChildStep => ({
  kind: "progress",
  fraction,
  ...(message === undefined ? {} : { message }),
  ...(phase === undefined ? {} : { phase }),
});
/** A child run's milestone (broadcast, never stored). */
export const milestone = (
  name: string,
  opts: Omit<Extract<ChildStep, { kind: "milestone" }>, "kind" | "name"> = {},
) => ({ kind: "milestone", name, ...opts }) as ChildStep;

/** Splits text the way the recorded scripted model streams it: one delta per word with its trailing space. */
export function splitDeltas(t: string): string[] {
  return t.match(/\S+\s*|\s+/g) ?? [];
}

/** True when the rule's matcher accepts this user text. */
export function matches(m: Matcher, userText: string): boolean {
  if (typeof m === "string") return userText.toLowerCase().includes(m.toLowerCase());
  if (m instanceof RegExp) return m.test(userText);
  return m(userText);
}

/** The value of a `Dynamic`, read against the turn so far. */
export function resolve<T>(v: Dynamic<T>, ctx: TurnContext): T {
  return typeof v === "function" ? (v as (c: TurnContext) => T)(ctx) : v;
}
