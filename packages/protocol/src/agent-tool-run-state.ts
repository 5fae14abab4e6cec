/**
 * One child (sub-agent) run as a UI sees it, under the official name and shape (`AgentToolRunState` of
 * `agents/chat`), with its status, progress and milestones. The reducer that builds runs is `agent-tool-runs.ts`.
 */
import type { AgentToolFailure } from "./agent-tool-failure.ts";
import type { Part } from "./chunk-applier.ts";
import type { AgentToolDisplay, AgentToolInterruptReason } from "./frames.ts";

/** Lifecycle status of a child run. */
export type AgentToolRunStatus = "running" | "completed" | "error" | "aborted" | "interrupted";

/** The latest progress of a run. `at` is the client's receive time, or the server time of a milestone. */
export interface AgentToolRunProgress {
  fraction?: number;
  message?: string;
  phase?: string;
  data?: unknown;
  /** Set when the snapshot came from a milestone. */
  milestone?: string;
  at: number;
}

/** A milestone a run reached. `sequence` is the child's own milestone ordinal; `at` is server time. */
export interface AgentToolMilestone {
  name: string;
  sequence: number;
  at: number;
  fraction?: number;
  message?: string;
  phase?: string;
  data?: unknown;
}

/** What a run's parts must be, at least (the official `AgentToolRunPart`): any part with a `type`. */
export interface AgentToolRunPart {
  type: string;
}

/**
 * One child run as a UI sees it, under the official name and shape (`AgentToolRunState` of `agents/chat`), so a
 * run is handed to code typed with the official type. `P` types `parts`: the AI SDK's part union by default
 * (what the reducer builds), or what `useAgentToolEvents<P>()` was given.
 */
export interface AgentToolRunState<P extends AgentToolRunPart = Part> {
  runId: string;
  agentType: string;
  parentToolCallId?: string;
  inputPreview?: unknown;
  order: number;
  display?: AgentToolDisplay;
  status: AgentToolRunStatus;
  /** The child's own message parts, built with the chat chunk rules. Read them; the store owns them. */
  parts: P[];
  summary?: string;
  error?: string;
  reason?: AgentToolInterruptReason;
  childStillRunning?: boolean;
  /**
   * Why the run did not complete, once it did not: the parent tool part's failure envelope when it was seen
   * (`applyToolOutput`), else built from the terminal event. docs/protocol.md#agent-tool-failure-envelope.
   */
  failure?: AgentToolFailure;
  /** Whether running the same work again may help: set with `failure` (agents 0.32: only `interrupted`). */
  retryable?: boolean;
  progress?: AgentToolRunProgress;
  /** The milestones reached, by `sequence` (always present here; optional in the official type). */
  milestones: AgentToolMilestone[];
  /**
   * Milestones the run reached that `milestones` no longer holds: it keeps the newest `maxMilestones` (by
   * sequence), and this counts the earlier ones dropped. Absent until one was dropped.
   */
  omittedMilestones?: number;
  /** Where to connect to drill in: `sub: [{ agent, name }]` under the parent agent. */
  subAgent: { agent: string; name: string };
}

/**
 * The former name of `AgentToolRunState`.
 * @deprecated Use `AgentToolRunState` (the official name; `AgentToolRun` is the component in `@runboard/react`).
 */
export type AgentToolRun = AgentToolRunState;
