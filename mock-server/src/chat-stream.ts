/**
 * One resumable chat stream (a request id): the stored chunk bodies a late or reconnecting client gets as
 * replay, and how it ended. Progress/milestone bodies of agent-tool children are never stored (docs/protocol.md#agent-tool-replay).
 */
import type { MockConnection } from "./connection.ts";

/** How a stream stands: `orphaned` is one cut by an eviction, still offered until a socket ACKs it. */
export type StreamStatus = "live" | "completed" | "errored" | "aborted" | "orphaned";

/** A stream's stored chunks and how it ended. */
export class ChatStream {
  readonly chunks: string[] = [];
  status: StreamStatus = "live";
  errorText?: string;

  constructor(
    readonly id: string,
    readonly continuation: boolean,
    /** The connection that sent the request; absent for server-started streams (continuations, delivery). */
    readonly originator: MockConnection | undefined,
    /** Trailing user message ids of the originating request, for terminal frames. */
    readonly messageIds: string[] | undefined,
  ) {}

  /** Stores a chunk body and returns its index, which is the frame's `seq`. */
  store(body: string): number {
    this.chunks.push(body);
    return this.chunks.length - 1;
  }
}
