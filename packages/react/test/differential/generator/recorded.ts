/**
 * The turns the generated server plays, taken from the transcripts recorded on the real server
 * (test-support/fixtures/real-server/ai-chat): the chunks of each turn's stream as the server sent them, and
 * the chunks of the tool continuation that follows an answered approval or client tool (the part replayed
 * after the ACK, and the live part). Recorded ids are replaced by ids numbered per turn, so one run can play
 * the same kind of turn several times. Also the server's copy of a streamed message: what AIChatAgent stores
 * and later sends in `cf_agent_chat_messages` (checked against the recordings in recorded.test.ts).
 */
import type { UIMessage } from "ai";
import { loadTranscript } from "../../../../../test-support/transcripts.ts";

/** A chunk body (`UIMessageChunk`) as the server put it in a frame. */
export type Chunk = Record<string, unknown> & { type: string };

/** The kinds of turn the generated server plays; the user's words pick one, as on the mock's demo agent. */
export const KINDS = ["hello", "weather", "pay", "locate", "slow", "plain"] as const;
export type Kind = (typeof KINDS)[number];

/** What a user types to get each kind of turn. */
export const PROMPTS: Record<Kind, string> = {
  hello: "hello",
  weather: "what's the weather in Lisbon?",
  pay: "please pay ACME 250",
  locate: "locate me please",
  slow: "slow stream please",
  plain: "a plain answer please",
};

/** The kind of turn a user message asks for (the first keyword found; `hello` otherwise). */
export function kindOf(text: string): Kind {
  if (/weather/.test(text)) return "weather";
  if (/pay/.test(text)) return "pay";
  if (/locate/.test(text)) return "locate";
  if (/slow/.test(text)) return "slow";
  if (/plain/.test(text)) return "plain";
  return "hello";
}

/** A tool call the turn stops at: a human's decision or a client tool's result lets it go on. */
export interface Gate {
  kind: "approval" | "client";
  toolCallId: string;
  toolName: string;
  approvalId?: string;
}

/** One turn of a kind, with ids numbered `n`. */
export interface Turn {
  kind: Kind;
  /** The assistant message id the stream's `start` names (and the server stores), or the stored id. */
  messageId: string;
  /** The chunks of the turn's stream, in order. */
  chunks: Chunk[];
  gate?: Gate;
  /** The continuation after the gate is answered: chunks replayed after the ACK, then live ones. */
  continuation?: (answer: { approved?: boolean; output?: unknown; error?: boolean }) => {
    replayed: Chunk[];
    live: Chunk[];
  };
}

interface Recorded {
  chunks: Chunk[];
  contReplayed: Chunk[];
  contLive: Chunk[];
}

const cache = new Map<string, Recorded>();

/** The chunk bodies of the first request's stream and of the continuation stream on connection `conn`. */
function recorded(file: string, conn = "main"): Recorded {
  const hit = cache.get(file);
  if (hit) return hit;
  const lines = loadTranscript("ai-chat", file);
  const frames = lines
    .filter((l) => l.dir === "in" && l.conn === conn && l.raw)
    .map((l) => JSON.parse(l.raw as string) as Record<string, unknown>)
    .filter((f) => f.type === "cf_agent_use_chat_response" && typeof f.body === "string" && f.body !== "");
  const out: Recorded = { chunks: [], contReplayed: [], contLive: [] };
  for (const f of frames) {
    const body = JSON.parse(f.body as string) as Chunk;
    if (f.continuation === true) (f.replay === true ? out.contReplayed : out.contLive).push(body);
    else out.chunks.push(body);
  }
  cache.set(file, out);
  return out;
}

/** Replaces every recorded id in `v` by the numbered one. */
function renumber<T>(v: T, ids: Record<string, string>): T {
  let s = JSON.stringify(v);
  for (const [from, to] of Object.entries(ids)) s = s.split(from).join(to);
  return JSON.parse(s) as T;
}

/** The recorded ids of a file's first turn: message, tool call and approval ids. */
function recordedIds(r: Recorded): { messageId?: string; toolCallId?: string; approvalId?: string } {
  const start = r.chunks.find((c) => c.type === "start");
  const tool = r.chunks.find((c) => c.type === "tool-input-start");
  const approval = r.chunks.find((c) => c.type === "tool-approval-request");
  return {
    messageId: start?.messageId as string | undefined,
    toolCallId: tool?.toolCallId as string | undefined,
    approvalId: approval?.approvalId as string | undefined,
  };
}

const FILES: Record<Exclude<Kind, "plain">, { file: string; conn?: string }> = {
  hello: { file: "hello" },
  weather: { file: "weather" },
  pay: { file: "pay" },
  locate: { file: "locate" },
  // The reconnect recording's first connection streamed the start of the 40-word answer; the second, after its
  // ACK, the whole of it (replayed, then live). The continuation flag is never set there.
  slow: { file: "reconnect", conn: "conn2" },
};

/** Words of the `slow` answer kept (the recording has 40; a run does not need them all). */
const SLOW_WORDS = 12;

/** Turn `n` of `kind`, its ids numbered `n` (a `plain` reply is stored under `assistant_plain_<n>`). */
export function turn(kind: Kind, n: number, requestId: string): Turn {
  if (kind === "plain") {
    // A plain-text reply (not SSE): the server wraps it in text chunks with the request id as block id and
    // sends no `start`, so the stored copy gets an id the stream never named (docs/protocol.md#chunk-bodies).
    return {
      kind,
      messageId: `assistant_plain_${n}`,
      chunks: [
        { type: "text-start", id: requestId },
        { type: "text-delta", id: requestId, delta: "Plain " },
        { type: "text-delta", id: requestId, delta: "answer." },
        { type: "text-end", id: requestId },
      ],
    };
  }
  const { file, conn } = FILES[kind];
  const r = recorded(file, conn);
  const rec = recordedIds(r);
  const ids: Record<string, string> = {};
  if (rec.messageId) ids[rec.messageId] = `assistant_${n}`;
  if (rec.toolCallId) ids[rec.toolCallId] = `call-${kind}-${n}`;
  if (rec.approvalId) ids[rec.approvalId] = `approval-${n}`;
  let chunks = renumber(r.chunks, ids).map((c) => {
    const { replay: _r, ...rest } = c as Chunk & { replay?: unknown };
    return rest as Chunk;
  });
  if (kind === "slow") {
    let words = 0;
    chunks = chunks.filter((c) => c.type !== "text-delta" || ++words <= SLOW_WORDS);
  }
  const t: Turn = { kind, messageId: `assistant_${n}`, chunks };
  const toolName = r.chunks.find((c) => c.type === "tool-input-start")?.toolName as string | undefined;
  if (kind === "pay" && rec.toolCallId && toolName) {
    t.gate = {
      kind: "approval",
      toolCallId: `call-${kind}-${n}`,
      toolName,
      approvalId: `approval-${n}`,
    };
    t.continuation = ({ approved }) =>
      approved === false
        ? // A denial: the part is settled as `output-denied` when the decision is applied, so the replay holds
          // only the stored `start`; the model answers the refusal.
          {
            replayed: [{ type: "start" }],
            live: words(renumber(r.contLive, ids), ["The ", "payment ", "was ", "not ", "made."]),
          }
        : { replayed: renumber(r.contReplayed, ids), live: renumber(r.contLive, ids) };
  }
  if (kind === "locate" && rec.toolCallId && toolName) {
    t.gate = { kind: "client", toolCallId: `call-${kind}-${n}`, toolName };
    t.continuation = ({ output, error }) => ({
      replayed: renumber(r.contReplayed, ids),
      live: words(
        renumber(r.contLive, ids),
        error
          ? ["The ", "tool ", "failed."]
          : ["Tool ", "getLocation ", "returned ", `${JSON.stringify(output ?? null)}. `, "Done."],
      ),
    });
  }
  return t;
}

/** A recorded continuation's live chunks with other words in its text. */
function words(live: Chunk[], text: string[]): Chunk[] {
  const first = live.findIndex((c) => c.type === "text-delta");
  const last = findLastIndex(live, (c) => c.type === "text-delta");
  if (first < 0) return live;
  const id = live[first]?.id;
  return [
    ...live.slice(0, first),
    ...text.map((delta) => ({ type: "text-delta", id, delta })),
    ...live.slice(last + 1),
  ];
}

/** A server-started turn (a detached run's delivery, ai-chat/background.jsonl): its chunks, ids numbered. */
export function serverTurn(n: number): { messageId: string; chunks: Chunk[] } {
  const lines = loadTranscript("ai-chat", "background");
  const chunks = lines
    .filter((l) => l.dir === "in" && l.conn === "main" && l.raw?.includes("detached-delivery:"))
    .map((l) => JSON.parse(l.raw as string) as Record<string, unknown>)
    .filter((f) => typeof f.body === "string" && f.body !== "")
    .map((f) => JSON.parse(f.body as string) as Chunk);
  const id = chunks.find((c) => c.type === "start")?.messageId as string;
  return { messageId: `assistant_srv_${n}`, chunks: renumber(chunks, { [id]: `assistant_srv_${n}` }) };
}

/** The last item matching `pred` (Array.prototype.findLast is newer than the libraries this repo targets). */
export function findLast<T>(items: readonly T[], pred: (x: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i] as T)) return items[i];
  return undefined;
}

/** The index of the last item matching `pred`, or -1. */
export function findLastIndex<T>(items: readonly T[], pred: (x: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i] as T)) return i;
  return -1;
}

// ───────────────────────────── the server's copy ─────────────────────────────

type Part = Record<string, unknown> & { type: string };

/**
 * Builds the server's stored copy of a streamed assistant message, chunk by chunk, as AIChatAgent persists it
 * (recordings: `step-start` parts, text parts `done` at their end, tool parts with `toolName` and without the
 * streamed input text, no message metadata).
 */
export class StoredMessage {
  readonly parts: Part[];
  private readonly open = new Map<string, Part>();

  constructor(
    public id: string,
    parts: Part[] = [],
  ) {
    this.parts = parts.map((p) => ({ ...p }));
  }

  apply(c: Chunk): void {
    switch (c.type) {
      case "start-step":
        this.parts.push({ type: "step-start" });
        return;
      case "text-start": {
        const p: Part = { type: "text", text: "", state: "streaming" };
        this.parts.push(p);
        this.open.set(String(c.id), p);
        return;
      }
      case "text-delta": {
        const p = this.open.get(String(c.id)) ?? findLast(this.parts, (x) => x.type === "text");
        if (p) p.text = `${p.text as string}${c.delta as string}`;
        else this.parts.push({ type: "text", text: c.delta, state: "streaming" });
        return;
      }
      case "text-end": {
        const p = this.open.get(String(c.id));
        if (p) p.state = "done";
        this.open.delete(String(c.id));
        return;
      }
      case "tool-input-start":
        this.parts.push({
          type: c.dynamic ? "dynamic-tool" : `tool-${c.toolName as string}`,
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          state: "input-streaming",
        });
        return;
      case "tool-input-available": {
        const p = this.tool(c.toolCallId);
        if (p) Object.assign(p, { state: "input-available", input: c.input });
        return;
      }
      case "tool-approval-request": {
        const p = this.tool(c.toolCallId);
        if (p) Object.assign(p, { state: "approval-requested", approval: { id: c.approvalId } });
        return;
      }
      case "tool-output-available": {
        const p = this.tool(c.toolCallId);
        if (p) Object.assign(p, { state: "output-available", output: c.output });
        return;
      }
      default:
        return;
    }
  }

  private tool(id: unknown): Part | undefined {
    return this.parts.find((p) => p.toolCallId === id);
  }

  /** The message as the server sends it (text still streaming is stored as it stands). */
  message(): UIMessage {
    return JSON.parse(JSON.stringify({ id: this.id, role: "assistant", parts: this.parts })) as UIMessage;
  }
}
