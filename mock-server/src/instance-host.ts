/**
 * The narrow views of an agent instance its helpers are given, so none of them imports the instance itself:
 * the hub's services, what built-in callables may do, and what child runs need from their parent and child.
 */
import type { LiveViewMode, LiveViewSession, MessageList, ServerFrame } from "@runboard/protocol";
import type { MockConnection } from "./connection.ts";
import type { DurableExecutions } from "./executions.ts";
import type { HostFlavour } from "./host-flavour.ts";
import type { ChildStep, Step } from "./script.ts";
import type { PlayResult } from "./turn-host.ts";
import type { ProgrammaticTurnOptions } from "./turn-queue.ts";

/** What `retryAgentTool` answers: the run's result, as agents 0.32's `runAgentTool` returns it. */
export interface RetryAnswer {
  runId: string;
  agentType: string;
  status: string;
  output?: unknown;
  summary?: string;
  error?: string;
}

/** Services the hub gives every instance. */
export interface InstanceServices {
  log(line: string): void;
  /** Multiplier applied to every scripted delay. */
  delayScale: number;
  /** Sends one frame to one socket (through the controller's faults). */
  deliver(conn: MockConnection, frame: ServerFrame): void;
  /** Sleeps `ms` scaled by the server's delay scale; resolves early when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Mints a Live View session on this server. */
  liveView(mode: LiveViewMode): LiveViewSession;
}

/** Queues a server-started turn; resolves when its stream has ended. */
export type RunProgrammatic = (
  steps: readonly (Step | ChildStep)[],
  opts?: ProgrammaticTurnOptions,
) => Promise<PlayResult>;

/** What a built-in callable may do on its instance. */
export interface CallableHost {
  readonly flavour: HostFlavour;
  /** The persisted transcript. */
  readonly transcript: MessageList;
  readonly state: unknown;
  /** Server-side setState: persisted, then broadcast to every socket. */
  setState(state: unknown): void;
  liveView(mode: LiveViewMode): LiveViewSession;
  /** The `liveView()` callable: a fresh session, or `null` once `closeBrowser()` closed it (until a turn opens one). */
  refreshLiveView(mode: LiveViewMode): LiveViewSession | null;
  /** The `closeBrowser()` callable: the agent's browser is gone, so `liveView()` answers `null`. */
  closeBrowser(): void;
  /** `cancelAgentTool`: false when there is no such run or it already ended. */
  cancelRun(runId: string, reason?: string): boolean;
  /** `retryAgentTool`: re-dispatches a run by its id (see `RunRegistry.retry`); throws for an unknown id. */
  retryRun(runId: string): Promise<RetryAnswer>;
  /** `clearHelperRuns`: deletes every child run and its child instance (see `RunRegistry.clear`). */
  clearRuns(): void;
  readonly executions: DurableExecutions;
  /** Rewrites a tool part's output and tells every socket. */
  updateToolOutput(toolCallId: string, output: unknown, options?: { dropAfter?: boolean }): void;
  runProgrammatic: RunProgrammatic;
}

/** A child run's own instance (a facet), as its parent's run registry drives it. */
export interface ChildHost {
  readonly transcript: MessageList;
  /** Where its chunk bodies go besides its own sockets. */
  forward?: (body: string, stored: boolean) => void;
  runProgrammatic: RunProgrammatic;
}

/** What a run registry needs from the parent instance. */
export interface RunHost {
  readonly flavour: HostFlavour;
  readonly transcript: MessageList;
  broadcast(frame: ServerFrame): void;
  runProgrammatic: RunProgrammatic;
  /** Creates the child instance a run plays in, reachable at `…/sub/<kebab agentType>/<runId>`. */
  spawnChild(agentType: string, runId: string): ChildHost;
}
