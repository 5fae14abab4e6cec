import type { UIMessage } from "ai";
import { AgentToolRunsReducer } from "../src/agent-tool-runs.ts";
import type { ClientFrame } from "../src/frames.ts";
import { MessageList } from "../src/message-list.ts";
import { ResumeMachine } from "../src/resume-machine.ts";
/** One line of a recorded transcript. */
export interface TranscriptLine {
  t: number;
  conn: string;
  dir: "in" | "out" | "event";
  raw?: string;
  event?: string;
  url?: string;
}
/** Reads a transcript from `test/fixtures/real-server/<host>/<name>.jsonl`. */
export declare function readTranscript(file: string): TranscriptLine[];
/** The client's view at the moment the server sent a transcript snapshot. */
export interface SnapshotCheck {
  conn: string;
  /** What the client held just before adopting the snapshot. */
  held: readonly UIMessage[];
  /** The server's persisted transcript. */
  server: readonly UIMessage[];
}
/** A simulated client: the protocol pieces plus what it sent and what went wrong. */
export declare class SimClient {
  readonly label: string;
  readonly list: MessageList;
  readonly runs: AgentToolRunsReducer;
  readonly machine: ResumeMachine;
  readonly sent: ClientFrame[];
  readonly errors: string[];
  readonly ignoredResponses: string[];
  state: unknown;
  identity:
    | {
        name: string;
        agent: string;
      }
    | undefined;
  rpcResults: Map<string, unknown>;
  clock: number;
  private probeCount;
  constructor(label: string);
  private run;
  open(reconnect: boolean): void;
  close(): void;
  /** What the recorded client sent: mirror its intent (its resume frames are the harness's, not ours). */
  out(raw: string): void;
  in(raw: string, onSnapshot: (held: readonly UIMessage[], server: readonly UIMessage[]) => void): void;
  private frame;
}
/** Which simulated client a recorded connection belongs to (a reconnect is the same app on a new socket). */
export type ClientOf = (conn: string) => string;
/** Replays a whole transcript; returns the clients and every snapshot comparison point. */
export declare function replayTranscript(
  lines: TranscriptLine[],
  clientOf?: ClientOf,
): {
  clients: Map<string, SimClient>;
  snapshots: SnapshotCheck[];
};
/** The parts of a message both sides must agree on; JSON round trip drops `undefined` fields. */
export declare function comparable(messages: readonly UIMessage[]): any[];
/** Text of all text parts of a list of parts. */
export declare function textOf(parts: readonly unknown[]): string;
//# sourceMappingURL=transcript-client.d.ts.map
