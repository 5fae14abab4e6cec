/**
 * Replays a recorded real-server transcript through the protocol pieces a client is made of (parser, resume
 * machine, message list, run reducer), one simulated client per connection, and records what each client
 * held whenever the server sent its own view of the transcript. Test helper only.
 */
import type { UIMessage } from "ai";
import type { TranscriptLine } from "../../../test-support/transcripts.ts";
import { AgentToolRunsReducer } from "../src/agent-tool-runs.ts";
import type { ChatRequestBody, ClientFrame, ServerFrame } from "../src/frames.ts";
import { MessageList } from "../src/message-list.ts";
import { parseChunkBody, parseClientFrame, parseServerFrame } from "../src/parse.ts";
import { type ResumeCommand, ResumeMachine } from "../src/resume-machine.ts";

export { readTranscript, type TranscriptLine } from "../../../test-support/transcripts.ts";

/** The client's view at the moment the server sent a transcript snapshot. */
export interface SnapshotCheck {
  conn: string;
  /** What the client held just before adopting the snapshot. */
  held: readonly UIMessage[];
  /** The server's persisted transcript. */
  server: readonly UIMessage[];
}

/** A simulated client: the protocol pieces plus what it sent and what went wrong. */
export class SimClient {
  readonly list = new MessageList();
  readonly runs = new AgentToolRunsReducer({ now: () => this.clock });
  readonly machine: ResumeMachine;
  readonly sent: ClientFrame[] = [];
  readonly errors: string[] = [];
  readonly ignoredResponses: string[] = [];
  state: unknown;
  identity: { name: string; agent: string } | undefined;
  rpcResults = new Map<string, unknown>();
  clock = 0;
  private probeCount = 0;

  constructor(readonly label: string) {
    this.machine = new ResumeMachine({ createId: () => `probe-${label}-${++this.probeCount}` });
  }

  private run(commands: ResumeCommand[]) {
    for (const c of commands) if (c.type === "send") this.sent.push(c.frame);
  }

  open(reconnect: boolean) {
    this.run(this.machine.handle({ type: "socket-open" }));
    // A freshly mounted client probes once; a reconnect is detected by the machine itself.
    if (!reconnect) this.run(this.machine.handle({ type: "resume" }));
  }

  close() {
    this.run(this.machine.handle({ type: "socket-close" }));
  }

  /** What the recorded client sent: mirror its intent (its resume frames are the harness's, not ours). */
  out(raw: string) {
    const r = parseClientFrame(raw);
    if (r.kind !== "frame") throw new Error(`client frame did not parse: ${raw}`);
    const f = r.frame;
    switch (f.type) {
      case "cf_agent_use_chat_request": {
        const body = JSON.parse(f.init.body) as ChatRequestBody;
        const last = body.messages.at(-1);
        if (last) this.list.upsert(last);
        this.run(this.machine.handle({ type: "local-request", id: f.id }));
        break;
      }
      case "cf_agent_tool_approval":
      case "cf_agent_tool_result":
        if (f.autoContinue) this.run(this.machine.handle({ type: "expect-continuation" }));
        break;
      case "cf_agent_chat_clear":
        this.list.replaceAll([]);
        this.list.endAllStreams();
        this.run(this.machine.handle({ type: "clear" }));
        break;
      case "cf_agent_state":
        // Optimistic, as the official client does.
        this.state = f.state;
        break;
      default:
        break;
    }
  }

  in(raw: string, onSnapshot: (held: readonly UIMessage[], server: readonly UIMessage[]) => void) {
    const r = parseServerFrame(raw);
    if (r.kind !== "frame") {
      this.errors.push(r.kind === "error" ? r.reason : `unknown frame ${r.type}`);
      return;
    }
    this.frame(r.frame, onSnapshot);
  }

  private frame(
    f: ServerFrame,
    onSnapshot: (held: readonly UIMessage[], server: readonly UIMessage[]) => void,
  ) {
    switch (f.type) {
      case "cf_agent_identity":
        this.identity = { name: f.name, agent: f.agent };
        return;
      case "cf_agent_state":
        this.state = f.state;
        return;
      case "rpc":
        this.rpcResults.set(f.id, f.success ? f.result : new Error(f.error));
        return;
      case "cf_agent_use_chat_response": {
        const route = this.machine.route(f);
        if (!route.accept) {
          this.ignoredResponses.push(`${f.id}: ${route.reason}`);
          return;
        }
        if (f.error) this.list.endStream(f.id);
        else {
          const body = parseChunkBody(f.body);
          if (body.kind === "error") this.errors.push(body.reason);
          if (body.kind === "chunk") {
            const flags = {
              ...(f.continuation ? { continuation: true } : {}),
              ...(f.replay ? { replay: true } : {}),
            };
            this.list.applyChunk(f.id, body.chunk, flags);
          }
          if (f.done) this.list.endStream(f.id);
        }
        this.run(route.commands);
        return;
      }
      case "cf_agent_chat_messages":
        onSnapshot(this.list.messages, f.messages);
        this.list.replaceAll(f.messages);
        return;
      case "cf_agent_message_updated":
        this.list.applyMessageUpdated(f.message);
        return;
      case "cf_agent_chat_clear":
        this.list.replaceAll([]);
        this.list.endAllStreams();
        this.run(this.machine.handle({ type: "clear" }));
        return;
      case "cf_agent_stream_resuming":
      case "cf_agent_stream_resume_none":
      case "cf_agent_stream_pending":
        this.run(this.machine.handle({ type: "frame", frame: f }));
        return;
      case "agent-tool-event": {
        const res = this.runs.apply(f);
        if (res.kind === "error") this.errors.push(res.reason);
        return;
      }
      default:
        return;
    }
  }
}

/** Which simulated client a recorded connection belongs to (a reconnect is the same app on a new socket). */
export type ClientOf = (conn: string) => string;

/** Replays a whole transcript; returns the clients and every snapshot comparison point. */
export function replayTranscript(lines: TranscriptLine[], clientOf: ClientOf = (c) => c) {
  const clients = new Map<string, SimClient>();
  const opened = new Set<string>();
  const snapshots: SnapshotCheck[] = [];
  const get = (conn: string) => {
    const key = clientOf(conn);
    let c = clients.get(key);
    if (!c) {
      c = new SimClient(key);
      clients.set(key, c);
    }
    return c;
  };
  for (const line of lines) {
    if (line.conn === "-") continue;
    const client = get(line.conn);
    client.clock = line.t;
    if (line.dir === "event") {
      if (line.event === "open") {
        const key = clientOf(line.conn);
        client.open(opened.has(key));
        opened.add(key);
      } else if (line.event === "close") client.close();
    } else if (line.dir === "out" && line.raw) client.out(line.raw);
    else if (line.dir === "in" && line.raw) {
      client.in(line.raw, (held, server) => snapshots.push({ conn: line.conn, held, server }));
    }
  }
  return { clients, snapshots };
}

/** The parts of a message both sides must agree on; JSON round trip drops `undefined` fields. */
export function comparable(messages: readonly UIMessage[]) {
  return messages.map((m) => JSON.parse(JSON.stringify({ id: m.id, role: m.role, parts: m.parts })));
}

/** Text of all text parts of a list of parts. */
export function textOf(parts: readonly unknown[]): string {
  return (parts as Array<{ type: string; text?: string }>)
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
}
