/**
 * Nested runs: a child that dispatches agent tools of its own sends their `agent-tool-event` frames on the
 * child's connection, never on its parent's (docs/protocol.md#agent-tool-event-frame, parent broadcasts skip
 * sub-agent sockets). To show a grandchild run, follow the child: connect to its sub-agent URL
 * (docs/protocol.md#drill-in) and keep an `AgentToolRuns` store there. The child replays its runs on connect,
 * so a run that ended before it was followed is shown too. Following is recursive (follow a followed child's
 * run) and bounded, since every level is one more open socket.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { AgentClient, type AgentClientOptions } from "./agent-client.ts";
import { AgentToolRuns, type AgentToolRunsOptions } from "./agent-tool-runs.ts";

/** Default `maxDepth` of `ChildFollower`: levels of children below the connection followed from. */
export const DEFAULT_FOLLOW_MAX_DEPTH = 4;
/** Default `maxOpen` of `ChildFollower`: child connections open at once. */
export const DEFAULT_FOLLOW_MAX_OPEN = 8;

/** Options of `ChildFollower`. */
export interface ChildFollowerOptions {
  /**
   * How many levels below the starting connection may be followed: 1 follows children only, 2 their children
   * too. Default `DEFAULT_FOLLOW_MAX_DEPTH` (4). A deeper run's `follow` returns null.
   */
  maxDepth?: number;
  /**
   * How many child connections may be open at once, over every level. Default `DEFAULT_FOLLOW_MAX_OPEN` (8).
   * Past it `follow` returns null until one is closed.
   */
  maxOpen?: number;
  /** Options of each child's run store (storage, throttle, onError, …); `agent` is the child's connection. */
  runs?: Omit<AgentToolRunsOptions, "agent">;
}

/** A child connection being followed: its address, its socket and the runs it dispatched. */
export interface FollowedChild {
  /** The child's address: the parent's plus one `sub` step. Pass the followed child to `follow` to go deeper. */
  readonly address: AgentClientOptions;
  /** Levels below the starting connection: 1 for a child, 2 for a grandchild, … */
  readonly depth: number;
  /** The connection to the child's sub-agent URL. */
  readonly client: AgentClient;
  /** The runs the child dispatched (the grandchild runs), grouped by the child's own tool calls. */
  readonly runs: AgentToolRuns;
  /** Connects, when made with `lazy`; once. */
  start(): void;
  /** Closes the connection and disposes the store; once. The follower's open count drops. */
  close(): void;
  /** True once closed. */
  readonly closed: boolean;
}

/**
 * Opens child connections for nested runs within bounds: at most `maxDepth` levels below the connection
 * followed from and at most `maxOpen` sockets at once. One follower per tree of runs shares the budget.
 *
 * @example
 * ```ts
 * const follower = new ChildFollower();
 * const child = follower.follow({ agent: "ChatAgent", name: "me", host }, run);
 * child?.runs.subscribe(() => console.log(child.runs.getSnapshot().runsById));
 * const grandchild = child && follower.follow(child, someRunOfTheChild);
 * child?.close();
 * ```
 */
export class ChildFollower {
  private readonly maxDepth: number;
  private readonly maxOpen: number;
  private readonly open = new Set<FollowedChild>();

  constructor(private readonly options: ChildFollowerOptions = {}) {
    this.maxDepth = options.maxDepth ?? DEFAULT_FOLLOW_MAX_DEPTH;
    this.maxOpen = options.maxOpen ?? DEFAULT_FOLLOW_MAX_OPEN;
  }

  /** Child connections open now. */
  get openCount(): number {
    return this.open.size;
  }

  /** Whether a run at `depth` levels below the start could be followed now (depth and open budget). */
  canFollow(depth: number): boolean {
    return depth >= 1 && depth <= this.maxDepth && this.open.size < this.maxOpen;
  }

  /**
   * Follows `run`'s child: `from` is the connection the run came from, either the starting connection's
   * address (the run is then a child, depth 1) or a followed child (depth + 1). Null past `maxDepth` or
   * `maxOpen`. With `lazy`, nothing connects until `start()` (hooks make it during render, start it in an
   * effect). Closing a followed child does not close the ones followed from it: each caller closes its own.
   */
  follow(
    from: AgentClientOptions | FollowedChild,
    run: Pick<AgentToolRunState, "subAgent">,
    { lazy = false }: { lazy?: boolean } = {},
  ): FollowedChild | null {
    const followed = isFollowed(from);
    const parent = followed ? from.address : from;
    const depth = followed ? from.depth + 1 : 1;
    if (!this.canFollow(depth)) return null;
    const address: AgentClientOptions = {
      ...parent,
      lazy: true,
      sub: [...(parent.sub ?? []), { agent: run.subAgent.agent, name: run.subAgent.name }],
    };
    const client = new AgentClient(address);
    const runs = new AgentToolRuns({ ...this.options.runs, agent: client }, false);
    let started = false;
    let closed = false;
    const child: FollowedChild = {
      address,
      depth,
      client,
      runs,
      start: () => {
        if (started || closed) return;
        started = true;
        runs.attach();
        client.connect();
      },
      close: () => {
        if (closed) return;
        closed = true;
        this.open.delete(child);
        runs.dispose();
        client.close();
      },
      get closed() {
        return closed;
      },
    };
    this.open.add(child);
    if (!lazy) child.start();
    return child;
  }

  /** Closes every child connection this follower opened. */
  closeAll(): void {
    for (const child of [...this.open]) child.close();
  }
}

function isFollowed(from: AgentClientOptions | FollowedChild): from is FollowedChild {
  return "client" in from && from.client instanceof AgentClient && "depth" in from;
}
