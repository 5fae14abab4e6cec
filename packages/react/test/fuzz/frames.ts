/**
 * Seeded frame generators for the client fuzz test. Everything is drawn from one PRNG per session, plus pools
 * of random JSON values and strings sampled once per session with fast-check, so a run is reproduced by its
 * seed alone (`RUNBOARD_FUZZ_SEED`).
 *
 * Kinds of frames (see `FrameKind`):
 * - `scenario`: well-formed frames, in order or deliberately out of order: chat streams (done twice, chunks
 *   after done, error without done, a terminal before its start, replays nobody asked for), agent-tool runs
 *   (events for unknown runs, a terminal before `started`, duplicated and shuffled sequences, a second
 *   terminal, `started` after the end), resume handshakes (stale and current probe ids), transcript snapshots
 *   and updates (existing and unknown ids), clears, generic agent frames, frame types from the future;
 * - `real` / `mutated`: frames recorded from the real server, as sent or with a field deleted, retyped or
 *   renamed, the nested chunk body corrupted, sequence numbers shuffled, flags flipped, ids swapped;
 * - `wrong-type`: well-formed frames with one or two fields (top level or nested) given a value of another type;
 * - `random-json`, `random-text`, `binary`, `truncated`: not a frame at all, or cut off mid-way;
 * - `reencoded`: a well-formed frame re-serialised with `\uXXXX` escapes (the same JSON value);
 * - `oversized`: multi-megabyte text deltas, very deep nesting, huge snapshots and ids.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

// ───────────────────────────── PRNG ─────────────────────────────

/** mulberry32: small, fast, and good enough to pick fuzz cases; deterministic per seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(table: ReadonlyArray<readonly [number, T]>): T {
    let total = 0;
    for (const [w] of table) total += w;
    let x = this.next() * total;
    for (const [w, v] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return (table.at(-1) as readonly [number, T])[1];
  }
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [xs[i], xs[j]] = [xs[j] as T, xs[i] as T];
    }
    return xs;
  }
}

// ───────────────────────────── context ─────────────────────────────

/**
 * What the client has done so far, so generated frames can hit the paths that matter: offers and terminals for
 * the request ids it really sent, `resume_none` for the probe it is really waiting on, updates for messages
 * and tool calls it really holds.
 */
export interface FuzzContext {
  localRequestIds: readonly string[];
  probeIds: readonly string[];
  messageIds: readonly string[];
  toolCallIds: readonly string[];
  approvalIds: readonly string[];
  runIds: readonly string[];
}

/** Ids that are keys of `Object.prototype` or otherwise awkward as object keys and React keys. */
export const AWKWARD_IDS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "",
  " ",
  "🙂",
  "a\u0000b",
  "id with spaces",
  "0",
  // Valid JSON strings that are not well-formed UTF-16 or hold odd code points (issue 26 §3): lone surrogates
  // make encodeURIComponent throw, so every id derived from wire text must be total.
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "\u0000",
  "\u007f\u0085",
  "\ufeff\ufffe\uffff",
  "\u202e\u2066",
  "\u2028\u2029",
  "\u{e0041}\u{e007f}",
  "%",
  "%E0%A4%A",
  "_25",
  "#x y",
];

/** Ids of messages the server injects (docs/protocol.md#synthetic-messages): detached completions and milestones, odd ones too. */
const SYNTHETIC_IDS = [
  "detached-finish:run-a:completed",
  "detached-finish:agent-tool:c1:error",
  "detached-finish:run-b:constructor",
  "detached-finish:run-b:",
  "detached-ms:run-a:drafted",
  "detached-ms:agent-tool:c2:sources-gathered",
  "detached-ms:x",
];

/** One generated frame. `data` is what the socket delivers: a string, or binary data. */
export interface GeneratedFrame {
  kind: FrameKind;
  data: string | ArrayBuffer;
}

export type FrameKind =
  | "scenario"
  | "real"
  | "mutated"
  | "wrong-type"
  | "random-json"
  | "random-text"
  | "binary"
  | "truncated"
  | "reencoded"
  | "oversized";

type Obj = Record<string, unknown>;

// ───────────────────────────── real frames ─────────────────────────────

/** Every server → client frame recorded from the real server (ai-chat and think), one array per transcript. */
export function loadRealTranscripts(): string[][] {
  // From the repository root (vitest's root): under jsdom, import.meta.url of a helper is not a file URL.
  const root = join(process.cwd(), "test-support/fixtures/real-server");
  const out: string[][] = [];
  for (const host of ["ai-chat", "think"]) {
    const dir = join(root, host);
    for (const file of readdirSync(dir).sort()) {
      const frames: string[] = [];
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        if (!line.trim()) continue;
        const l = JSON.parse(line) as { dir?: string; raw?: string };
        if (l.dir === "in" && typeof l.raw === "string") frames.push(l.raw);
      }
      out.push(frames);
    }
  }
  return out;
}

// ───────────────────────────── generator ─────────────────────────────

const TOOL_NAMES = ["getWeather", "pay", "research", "", "tool with space", "constructor"];
const BLOCK_IDS = ["t1", "t2", "r1", "0", "__proto__"];
const TOOL_STATES = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
];
const KNOWN_TYPES = [
  "cf_agent_identity",
  "cf_agent_state",
  "cf_agent_state_error",
  "cf_agent_mcp_servers",
  "rpc",
  "cf_agent_session",
  "cf_agent_session_error",
  "cf_agent_use_chat_response",
  "cf_agent_chat_messages",
  "cf_agent_chat_clear",
  "cf_agent_message_updated",
  "cf_agent_chat_recovering",
  "cf_agent_stream_resuming",
  "cf_agent_stream_resume_none",
  "cf_agent_stream_pending",
  "agent-tool-event",
];

/** Knobs for one session. */
export interface GeneratorOptions {
  seed: number;
  /** Probability that a frame is oversized (multi-MB delta, deep nesting, huge snapshot). */
  oversizedRate?: number;
  /** Upper bound of a multi-MB text delta, in characters. */
  maxDeltaChars?: number;
}

/** Generates batches of frames for one session. */
export class FrameGenerator {
  readonly rng: Rng;
  private readonly json: unknown[];
  private readonly strings: string[];
  private readonly real: string[][];
  private readonly realFlat: string[];
  private readonly oversizedRate: number;
  private readonly maxDeltaChars: number;
  private fresh = 0;
  /** Scenarios still delivering frames, interleaved across batches. */
  private readonly open: string[][] = [];

  constructor(options: GeneratorOptions, real: string[][]) {
    this.rng = new Rng(options.seed);
    this.oversizedRate = options.oversizedRate ?? 0.002;
    this.maxDeltaChars = options.maxDeltaChars ?? 4_000_000;
    this.json = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed: options.seed, numRuns: 600 });
    this.strings = fc.sample(
      fc.oneof(
        fc.string(),
        fc.string({ unit: "binary" }),
        fc.string({ unit: "grapheme" }),
        fc.string({ unit: "binary-ascii" }),
        fc.constantFrom("\ud800", "x\udfff", "\u0000", "\r\n", "\u2028\u2029", "<script>", "{", "[", '"'),
      ),
      { seed: options.seed + 1, numRuns: 600 },
    );
    this.real = real;
    this.realFlat = real.flat();
  }

  /** The next batch of about `size` frames. */
  batch(ctx: FuzzContext, size: number): GeneratedFrame[] {
    const r = this.rng;
    const out: GeneratedFrame[] = [];
    while (out.length < size) {
      // Frames of open scenarios are spread over the batch, so streams and runs interleave.
      if (this.open.length > 0 && r.chance(0.55)) {
        const i = r.int(0, this.open.length - 1);
        const s = this.open[i] as string[];
        out.push({ kind: "scenario", data: s.shift() as string });
        if (s.length === 0) this.open.splice(i, 1);
        continue;
      }
      if (r.chance(this.oversizedRate)) {
        out.push({ kind: "oversized", data: this.oversized(ctx) });
        continue;
      }
      const kind = r.weighted<FrameKind>([
        [30, "scenario"],
        [6, "real"],
        [14, "mutated"],
        [10, "wrong-type"],
        [7, "random-json"],
        [5, "random-text"],
        [2, "binary"],
        [7, "truncated"],
        [3, "reencoded"],
      ]);
      switch (kind) {
        case "scenario":
          if (this.open.length < 6) {
            // Not an empty one: its first shift() would deliver `undefined` as a frame.
            const frames = this.scenario(ctx);
            if (frames.length) this.open.push(frames);
          }
          break;
        case "real":
          out.push({ kind, data: this.realSlice() });
          break;
        case "mutated":
          out.push({ kind, data: this.mutateReal(ctx) });
          break;
        case "wrong-type":
          out.push({ kind, data: JSON.stringify(this.wrongType(this.wellFormed(ctx))) });
          break;
        case "random-json":
          out.push({ kind, data: JSON.stringify(this.randomJson()) ?? "undefined" });
          break;
        case "random-text":
          out.push({ kind, data: r.pick(this.strings) });
          break;
        case "binary": {
          const bytes = new Uint8Array(r.int(0, 64));
          for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(0, 255);
          out.push({ kind, data: bytes.buffer });
          break;
        }
        case "truncated": {
          const s = r.chance(0.5) ? r.pick(this.realFlat) : JSON.stringify(this.wellFormed(ctx));
          out.push({ kind, data: s.slice(0, r.int(0, Math.max(0, s.length - 1))) });
          break;
        }
        case "reencoded":
          out.push({ kind, data: this.escaped(this.wellFormed(ctx)) });
          break;
        default:
          break;
      }
    }
    return out;
  }

  // ───────────── ids ─────────────

  private freshId(prefix: string): string {
    return `${prefix}-${++this.fresh}`;
  }

  private streamId(ctx: FuzzContext): string {
    const r = this.rng;
    return r.weighted<() => string>([
      [4, () => r.pick(["s1", "s2", "s3"])],
      [3, () => (ctx.localRequestIds.length ? r.pick(ctx.localRequestIds.slice(-3)) : "s1")],
      [2, () => this.freshId("stream")],
      [1, () => r.pick(AWKWARD_IDS)],
    ])();
  }

  private runId(ctx: FuzzContext): string {
    const r = this.rng;
    return r.weighted<() => string>([
      [4, () => r.pick(["run-a", "run-b", "agent-tool:c1", "agent-tool:c2"])],
      [2, () => (ctx.runIds.length ? r.pick(ctx.runIds) : "run-a")],
      [2, () => this.freshId("run")],
      [1, () => r.pick(AWKWARD_IDS)],
    ])();
  }

  private toolCallId(ctx: FuzzContext): string {
    const r = this.rng;
    return r.weighted<() => string>([
      [4, () => r.pick(["c1", "c2", "c3"])],
      [3, () => (ctx.toolCallIds.length ? r.pick(ctx.toolCallIds) : "c1")],
      [1, () => this.freshId("call")],
      [1, () => r.pick(AWKWARD_IDS)],
    ])();
  }

  private messageId(ctx: FuzzContext): string {
    const r = this.rng;
    return r.weighted<() => string>([
      [3, () => r.pick(["m1", "m2", "assistant_1", "assistant_2"])],
      [3, () => (ctx.messageIds.length ? r.pick(ctx.messageIds) : "m1")],
      [2, () => this.freshId("msg")],
      [1, () => r.pick(AWKWARD_IDS)],
      [1, () => r.pick(SYNTHETIC_IDS)],
    ])();
  }

  /** Metadata as servers attach it to injected messages (docs/protocol.md#synthetic-messages), or none. */
  private messageMetadata(): Obj {
    const r = this.rng;
    return r.weighted<() => Obj>([
      [14, () => ({})],
      [2, () => ({ metadata: { source: "detached-agent-tool", runId: "run-a" } })],
      [
        1,
        () => ({
          metadata: {
            source: "detached-agent-tool",
            runId: r.pick(["run-a", "agent-tool:c1"]),
            status: r.pick(["completed", "error", "aborted", "interrupted", "toString", "paused"]),
            agentType: r.pick(["Researcher", "constructor"]),
          },
        }),
      ],
      [1, () => ({ metadata: { deliveryKind: r.pick(["notice", "digest", "__proto__"]) } })],
      [1, () => ({ metadata: { milestone: "drafted", runId: "run-a", source: "detached-agent-tool" } })],
    ])();
  }

  private approvalId(ctx: FuzzContext): string {
    const r = this.rng;
    return ctx.approvalIds.length && r.chance(0.5) ? r.pick(ctx.approvalIds) : r.pick(["a1", "a2", "c1"]);
  }

  // ───────────── values ─────────────

  private randomJson(): unknown {
    return structuredClone(this.rng.pick(this.json));
  }

  private text(): string {
    const r = this.rng;
    return r.chance(0.7)
      ? r.pick(["Hello", " world", "", "\n", "**bold**", "🙂", "<b>x</b>"])
      : r.pick(this.strings);
  }

  /** A value of a different JSON type than `v` (or an odd one of the same). */
  private otherType(v: unknown): unknown {
    const r = this.rng;
    const candidates: unknown[] = [null, 0, -1, 1.5, 1e308, true, false, "", "x", [], [1, "a"], {}, { a: 1 }];
    let out: unknown = v;
    for (let i = 0; i < 8 && typeof out === typeof v && Array.isArray(out) === Array.isArray(v); i++)
      out = structuredClone(r.pick(candidates));
    return out;
  }

  // ───────────── chunks ─────────────

  /** One `UIMessageChunk`, mostly well-formed, for chat streams and child runs alike. */
  private chunk(ctx: FuzzContext, toolCalls: string[]): Obj {
    const r = this.rng;
    const tc = () => (toolCalls.length && r.chance(0.7) ? r.pick(toolCalls) : this.toolCallId(ctx));
    return r.weighted<() => Obj>([
      [2, () => ({ type: "text-start", id: r.pick(BLOCK_IDS) })],
      [10, () => ({ type: "text-delta", id: r.pick(BLOCK_IDS), delta: this.text() })],
      [2, () => ({ type: "text-end", id: r.pick(BLOCK_IDS) })],
      [1, () => ({ type: "reasoning-start", id: r.pick(BLOCK_IDS) })],
      [
        2,
        () => ({
          type: "reasoning-delta",
          id: r.pick(BLOCK_IDS),
          delta: this.text(),
          ...(r.chance(0.3) ? { providerMetadata: { anthropic: { signature: "sig" } } } : {}),
        }),
      ],
      [1, () => ({ type: "reasoning-end", id: r.pick(BLOCK_IDS) })],
      [1, () => ({ type: r.pick(["start-step", "finish-step"]) })],
      [
        1,
        () => ({
          type: "finish",
          ...(r.chance(0.5) ? { finishReason: "stop" } : { messageMetadata: { finishReason: "stop" } }),
        }),
      ],
      [1, () => ({ type: "message-metadata", messageMetadata: this.randomJson() })],
      [
        2,
        () => {
          const id = this.freshId("call");
          toolCalls.push(id);
          return {
            type: "tool-input-start",
            toolCallId: id,
            toolName: r.pick(TOOL_NAMES),
            dynamic: r.chance(0.2),
          };
        },
      ],
      [
        1,
        () => ({
          type: "tool-input-delta",
          toolCallId: tc(),
          inputTextDelta: r.pick(['{"ci', 'ty":"Li', "sbon", '"}']),
        }),
      ],
      [
        2,
        () => ({
          type: "tool-input-available",
          toolCallId: tc(),
          toolName: r.pick(TOOL_NAMES),
          input: r.chance(0.8) ? { city: "Lisbon" } : this.randomJson(),
          ...(r.chance(0.2) ? { title: "A tool" } : {}),
        }),
      ],
      [
        1,
        () => ({
          type: "tool-input-error",
          toolCallId: tc(),
          toolName: "pay",
          input: {},
          errorText: this.text(),
        }),
      ],
      [
        1,
        () => ({
          type: "tool-approval-request",
          approvalId: this.approvalId(ctx),
          toolCallId: tc(),
          ...(r.chance(0.3) ? { approvalDescriptor: { summary: "Pay 10 EUR", risk: "high" } } : {}),
        }),
      ],
      [
        1,
        () => ({ type: "tool-approval-response", approvalId: this.approvalId(ctx), approved: r.chance(0.5) }),
      ],
      [
        2,
        () => ({
          type: "tool-output-available",
          toolCallId: tc(),
          output: this.randomJson(),
          ...(r.chance(0.2) ? { preliminary: r.chance(0.5) } : {}),
        }),
      ],
      [1, () => ({ type: "tool-output-error", toolCallId: tc(), errorText: this.text() })],
      [1, () => ({ type: "tool-output-denied", toolCallId: tc() })],
      [1, () => ({ type: "source-url", sourceId: "src1", url: "https://example.com", title: "Example" })],
      [
        1,
        () => ({
          type: "source-document",
          sourceId: "doc1",
          mediaType: "application/pdf",
          title: "Doc",
          filename: "d.pdf",
        }),
      ],
      [
        1,
        () => ({
          type: r.pick(["file", "reasoning-file"]),
          url: "data:text/plain,hi",
          mediaType: "text/plain",
        }),
      ],
      [
        2,
        () => ({
          type: r.pick(["data-weather", "data-x", "data-constructor"]),
          ...(r.chance(0.5) ? { id: r.pick(["d1", "d2", "__proto__"]) } : {}),
          data: this.randomJson(),
          ...(r.chance(0.3) ? { transient: true } : {}),
        }),
      ],
      [1, () => ({ type: "custom", kind: "app.thing" })],
      [1, () => ({ type: "abort", reason: "user" })],
      [1, () => ({ type: "error", errorText: this.text() })],
      [1, () => ({ type: `future-${r.int(0, 3)}`, payload: this.randomJson() })],
    ])();
  }

  private progressChunk(): Obj {
    const r = this.rng;
    return {
      type: "data-agent-progress",
      transient: true,
      ...(r.chance(0.5) ? { id: this.freshId("p") } : {}),
      data: r.chance(0.9)
        ? {
            fraction: r.pick([0, 0.25, 0.5, 1, -1, 2]),
            message: this.text(),
            phase: r.pick(["search", "read"]),
          }
        : this.randomJson(),
    };
  }

  private milestoneChunk(): Obj {
    const r = this.rng;
    return {
      type: "data-agent-milestone",
      data: r.chance(0.9)
        ? {
            name: r.pick(["sources-gathered", "drafted", "constructor", ""]),
            sequence: r.int(-1, 5),
            at: r.int(0, 2_000_000_000_000),
            ...(r.chance(0.5) ? { fraction: r.pick([0.3, 0.6, 1]) } : {}),
          }
        : this.randomJson(),
    };
  }

  // ───────────── scenarios ─────────────

  private scenario(ctx: FuzzContext): string[] {
    const r = this.rng;
    const frames = r.weighted<() => Obj[]>([
      [6, () => this.chatStream(ctx)],
      [5, () => this.agentRun(ctx)],
      [3, () => this.resume(ctx)],
      [2, () => [this.snapshot(ctx)]],
      [2, () => [this.messageUpdated(ctx)]],
      [1, () => [this.control(ctx)]],
      [3, () => [this.generic()]],
    ])();
    return frames.map((f) => JSON.stringify(f));
  }

  /** A chat stream, with the terminal variants servers and broken proxies produce. */
  private chatStream(ctx: FuzzContext): Obj[] {
    const r = this.rng;
    const id = this.streamId(ctx);
    const flags: Obj = {};
    if (r.chance(0.2)) flags.continuation = true;
    if (r.chance(0.15)) flags.replay = true;
    const frame = (body: string, done = false, extra: Obj = {}): Obj => ({
      type: "cf_agent_use_chat_response",
      id,
      body,
      done,
      ...flags,
      ...(r.chance(0.3) ? { seq: r.int(0, 50) } : {}),
      ...extra,
    });
    const toolCalls: string[] = [];
    const out: Obj[] = [];
    if (r.chance(0.8))
      out.push(
        frame(
          JSON.stringify({ type: "start", ...(r.chance(0.8) ? { messageId: this.messageId(ctx) } : {}) }),
        ),
      );
    const n = r.int(0, 12);
    for (let i = 0; i < n; i++) out.push(frame(JSON.stringify(this.chunk(ctx, toolCalls))));
    if (flags.replay && r.chance(0.5)) out.push(frame("", false, { replayComplete: true }));
    const terminal = r.weighted<string>([
      [6, "done"],
      [2, "done-twice"],
      [2, "error-then-done"],
      [1, "error-only"],
      [1, "error-done"],
      [2, "none"],
      [1, "outcome"],
      [1, "chunks-after-done"],
    ]);
    switch (terminal) {
      case "done":
        out.push(frame("", true));
        break;
      case "done-twice":
        out.push(frame("", true), frame("", true));
        break;
      case "error-then-done":
        out.push(frame(this.text(), false, { error: true }), frame("", true));
        break;
      case "error-only":
        out.push(frame(this.text(), false, { error: true }));
        break;
      case "error-done":
        out.push(frame(r.pick(["boom", "", "No response was generated."]), true, { error: true }));
        break;
      case "outcome":
        out.push(
          frame("", true, {
            outcome: r.pick(["completed", "aborted", "skipped", "error"]),
            messageIds: ["m1"],
          }),
        );
        break;
      case "chunks-after-done":
        out.push(frame("", true), frame(JSON.stringify(this.chunk(ctx, toolCalls))));
        break;
      default:
        break;
    }
    return this.disorder(out);
  }

  /** A child run: `started`, numbered chunks with progress and milestones sharing numbers, a terminal. */
  private agentRun(ctx: FuzzContext): Obj[] {
    const r = this.rng;
    const runId = this.runId(ctx);
    const parent = r.chance(0.7) ? { parentToolCallId: this.toolCallId(ctx) } : {};
    const ev = (sequence: number, event: Obj, extra: Obj = {}): Obj => ({
      type: "agent-tool-event",
      ...parent,
      sequence,
      event: { runId, ...event },
      ...extra,
    });
    const out: Obj[] = [];
    if (r.chance(0.85))
      out.push(
        ev(0, {
          kind: "started",
          agentType: r.pick(["Researcher", "Writer", "constructor"]),
          order: r.int(-1, 3),
          ...(r.chance(0.5) ? { inputPreview: this.randomJson() } : {}),
          ...(r.chance(0.3) ? { display: { name: "Research helper", icon: "🔎" } } : {}),
        }),
      );
    const toolCalls: string[] = [];
    const n = r.int(0, 10);
    let seq = 1;
    for (let i = 0; i < n; i++) {
      const body = r.weighted<() => Obj>([
        [6, () => this.chunk(ctx, toolCalls)],
        [2, () => this.progressChunk()],
        [1, () => this.milestoneChunk()],
      ])();
      const stored = body.type !== "data-agent-progress" && body.type !== "data-agent-milestone";
      const unstored = stored && r.chance(0.05) ? { unstoredId: this.freshId("u") } : {};
      out.push(ev(seq, { kind: "chunk", body: JSON.stringify(body), ...unstored }));
      if (stored && !("unstoredId" in unstored)) seq++;
    }
    const terminal = r.weighted<() => Obj | undefined>([
      [3, () => ({ kind: "finished", summary: this.text() })],
      [1, () => ({ kind: "error", error: this.text() })],
      [1, () => ({ kind: "aborted", ...(r.chance(0.5) ? { reason: "cancelled" } : {}) })],
      [
        1,
        () => ({
          kind: "interrupted",
          error: "stalled",
          reason: r.pick(["no-progress", "window-exceeded", "budget-exceeded"]),
          childStillRunning: r.chance(0.5),
        }),
      ],
      [1, () => ({ kind: r.pick(["paused", "future-kind"]), note: "from a newer server" })],
      [2, () => undefined],
    ])();
    // Detached terminals carry a wall-clock time as their sequence.
    if (terminal) out.push(ev(r.chance(0.2) ? 1_790_000_000_000 + r.int(0, 1e9) : seq, terminal));
    // Connect-time replay of what was already seen (or a second terminal / a late `started`).
    if (r.chance(0.2)) for (const f of out.slice()) if (r.chance(0.6)) out.push({ ...f, replay: true });
    if (r.chance(0.1)) out.push(ev(seq + 1, { kind: "finished", summary: "second terminal" }));
    if (r.chance(0.1)) out.push(ev(0, { kind: "started", agentType: "Researcher", order: 0 }));
    if (r.chance(0.15)) for (const f of out) if (r.chance(0.3)) f.sequence = r.int(-2, 12);
    return this.disorder(out);
  }

  private resume(ctx: FuzzContext): Obj[] {
    const r = this.rng;
    const probe = () =>
      r.weighted<() => Obj>([
        [3, () => (ctx.probeIds.length ? { probeId: ctx.probeIds.at(-1) } : {})],
        [2, () => ({})],
        [1, () => ({ probeId: ctx.probeIds.length ? r.pick(ctx.probeIds) : "stale" })],
        [1, () => ({ probeId: "stale-probe" })],
      ])();
    const id = this.streamId(ctx);
    return this.disorder(
      r.weighted<() => Obj[]>([
        [3, () => [{ type: "cf_agent_stream_resuming", id, ...probe() }]],
        [
          3,
          () => [
            {
              type: "cf_agent_stream_resume_none",
              ...probe(),
              ...(r.chance(0.7) ? { reason: r.pick(["idle", "continuation-owned"]) } : {}),
            },
          ],
        ],
        [1, () => [{ type: "cf_agent_stream_pending", ...(r.chance(0.5) ? { id } : {}), ...probe() }]],
        [
          2,
          () => [
            { type: "cf_agent_stream_resuming", id, ...probe() },
            { type: "cf_agent_stream_resuming", id, ...probe() },
            ...this.chatStream(ctx).map((f) => ({ ...f, id, replay: true })),
          ],
        ],
      ])(),
    );
  }

  /** A message part as a server persists it. */
  private part(ctx: FuzzContext): Obj {
    const r = this.rng;
    return r.weighted<() => Obj>([
      [4, () => ({ type: "text", text: this.text(), ...(r.chance(0.3) ? { state: "done" } : {}) })],
      [1, () => ({ type: "reasoning", text: this.text() })],
      [1, () => ({ type: "step-start" })],
      [
        3,
        () => {
          const state = r.pick(TOOL_STATES);
          const toolCallId = this.toolCallId(ctx);
          return {
            type: r.chance(0.9) ? `tool-${r.pick(TOOL_NAMES)}` : "dynamic-tool",
            toolName: "getWeather",
            toolCallId,
            state,
            input: { city: "Lisbon" },
            ...(state === "output-available" ? { output: this.randomJson() } : {}),
            ...(state === "output-error" ? { errorText: this.text() } : {}),
            ...(state.startsWith("approval") || state === "output-denied"
              ? {
                  approval: {
                    id: this.approvalId(ctx),
                    ...(state === "approval-requested" ? {} : { approved: r.chance(0.5) }),
                  },
                }
              : {}),
          };
        },
      ],
      [1, () => ({ type: "data-weather", id: "d1", data: this.randomJson() })],
      [1, () => ({ type: "source-url", sourceId: "s", url: "https://example.com" })],
      [1, () => ({ type: "file", mediaType: "text/plain", url: "data:," })],
    ])();
  }

  private message(ctx: FuzzContext, id = this.messageId(ctx)): Obj {
    const r = this.rng;
    const parts: Obj[] = [];
    const n = r.int(0, 4);
    for (let i = 0; i < n; i++) parts.push(this.part(ctx));
    // Parts with one tool call twice are a shape error; keep them rare so most snapshots apply.
    if (!r.chance(0.05)) {
      const seen = new Set<unknown>();
      for (let i = parts.length - 1; i >= 0; i--) {
        const p = parts[i] as Obj;
        if (p.toolCallId === undefined) continue;
        if (seen.has(p.toolCallId)) parts.splice(i, 1);
        seen.add(p.toolCallId);
      }
    }
    return {
      id,
      role: r.weighted([
        [4, "assistant"],
        [3, "user"],
        [1, "system"],
      ]),
      parts,
      ...this.messageMetadata(),
    };
  }

  private snapshot(ctx: FuzzContext): Obj {
    const r = this.rng;
    const n = r.int(0, 6);
    const ids = new Set<string>();
    const messages: Obj[] = [];
    for (let i = 0; i < n; i++) {
      let id = this.messageId(ctx);
      // A snapshot with one id twice is rejected; keep that a deliberate minority.
      if (ids.has(id) && !r.chance(0.1)) id = this.freshId("msg");
      ids.add(id);
      messages.push(this.message(ctx, id));
    }
    return { type: "cf_agent_chat_messages", messages, ...(r.chance(0.3) ? { connect: true } : {}) };
  }

  private messageUpdated(ctx: FuzzContext): Obj {
    return { type: "cf_agent_message_updated", message: this.message(ctx) };
  }

  private control(ctx: FuzzContext): Obj {
    const r = this.rng;
    return r.weighted<() => Obj>([
      [1, () => ({ type: "cf_agent_chat_clear" })],
      [
        2,
        () => ({
          type: "cf_agent_chat_recovering",
          recovering: r.chance(0.5),
          ...(r.chance(0.5) ? { id: this.streamId(ctx) } : {}),
        }),
      ],
    ])();
  }

  /** Generic agent frames and frame types this client does not know. */
  private generic(): Obj {
    const r = this.rng;
    return r.weighted<() => Obj>([
      [
        2,
        () => ({
          type: "cf_agent_identity",
          name: r.pick(["fuzz", "other", ""]),
          agent: "fuzz-agent",
          stateFollows: true,
        }),
      ],
      [2, () => ({ type: "cf_agent_state", state: this.randomJson() })],
      [1, () => ({ type: "cf_agent_state_error", error: "State update rejected" })],
      [
        1,
        () => ({
          type: "cf_agent_mcp_servers",
          mcp: {
            servers: { s1: { name: "x", server_url: "https://x", auth_url: null, state: "ready" } },
            tools: [],
            prompts: [],
            resources: [],
          },
        }),
      ],
      [
        1,
        () => ({
          type: "rpc",
          id: this.freshId("rpc"),
          success: r.chance(0.5),
          result: 1,
          error: "nope",
          done: r.chance(0.5),
        }),
      ],
      [1, () => ({ type: "cf_agent_session", phase: "idle", tokenEstimate: 10, tokenThreshold: null })],
      [1, () => ({ type: "cf_agent_session_error", error: "compaction failed" })],
      [
        2,
        () => ({
          type: r.pick(["cf_agent_future_frame", "app-broadcast", "toString", "__proto__"]),
          payload: this.randomJson(),
        }),
      ],
    ])();
  }

  /** Shuffles a scenario now and then: chunks for a stream that has not started, terminals first. */
  private disorder(frames: Obj[]): Obj[] {
    const r = this.rng;
    const how = r.weighted<string>([
      [8, "keep"],
      [1, "shuffle"],
      [1, "terminal-first"],
      [1, "duplicate"],
    ]);
    if (how === "shuffle") return r.shuffle(frames);
    if (how === "terminal-first" && frames.length > 1) return [frames.at(-1) as Obj, ...frames.slice(0, -1)];
    if (how === "duplicate" && frames.length > 0) {
      const i = r.int(0, frames.length - 1);
      frames.splice(r.int(i, frames.length), 0, frames[i] as Obj);
    }
    return frames;
  }

  /** A well-formed frame of any known kind, as an object (for mutation). */
  private wellFormed(ctx: FuzzContext): Obj {
    const r = this.rng;
    if (r.chance(0.3)) return JSON.parse(r.pick(this.realFlat)) as Obj;
    // A scenario may have no frames at all (a stream with no start, no chunks and no terminal).
    for (let i = 0; i < 8; i++) {
      const s = this.scenario(ctx);
      if (s.length) return JSON.parse(r.pick(s)) as Obj;
    }
    return JSON.parse(r.pick(this.realFlat)) as Obj;
  }

  // ───────────── bad input ─────────────

  /** A run of consecutive recorded frames, or one of them. */
  private realSlice(): string {
    const r = this.rng;
    if (r.chance(0.3)) {
      // A whole short stretch of a real transcript, queued like a scenario.
      const t = r.pick(this.real);
      const start = r.int(0, Math.max(0, t.length - 1));
      const stretch = t.slice(start, start + r.int(2, 30));
      if (stretch.length > 1) this.open.push(stretch.slice(1));
      return stretch[0] ?? r.pick(this.realFlat);
    }
    return r.pick(this.realFlat);
  }

  /** A recorded frame with one thing wrong with it. */
  private mutateReal(ctx: FuzzContext): string {
    const r = this.rng;
    const o = JSON.parse(r.pick(this.realFlat)) as Obj;
    const target = this.pickObject(o);
    const keys = Object.keys(target);
    const k = keys.length ? r.pick(keys) : "type";
    const how = r.weighted<string>([
      [3, "delete"],
      [3, "retype"],
      [2, "rename"],
      [4, "body"],
      [2, "sequence"],
      [2, "flags"],
      [2, "ids"],
    ]);
    switch (how) {
      case "delete":
        delete target[k];
        break;
      case "retype":
        target[k] = this.otherType(target[k]);
        break;
      case "rename":
        if (k in target) {
          target[r.pick([`${k}_`, k.toUpperCase(), `${k} `, k.replace(/[a-z]/, "")])] = target[k];
          delete target[k];
        }
        break;
      case "body": {
        const holder = typeof o.body === "string" ? o : (o.event as Obj | undefined);
        if (holder && typeof holder.body === "string") holder.body = this.corruptBody(holder.body);
        else target[k] = this.otherType(target[k]);
        break;
      }
      case "sequence":
        if (typeof o.sequence === "number")
          o.sequence = r.pick([0, 1, o.sequence + 1, o.sequence - 1, -5, 1.5, 2 ** 53, 1e308]);
        else o.seq = r.int(-3, 100);
        break;
      case "flags":
        for (const f of ["done", "replay", "continuation", "error", "replayComplete"])
          if (r.chance(0.3)) o[f] = r.chance(0.7) ? !o[f] : this.otherType(o[f]);
        break;
      case "ids":
        if (typeof o.id === "string") o.id = this.streamId(ctx);
        if (o.event && typeof o.event === "object") (o.event as Obj).runId = this.runId(ctx);
        if (typeof o.parentToolCallId === "string") o.parentToolCallId = this.toolCallId(ctx);
        if (typeof o.probeId === "string") o.probeId = ctx.probeIds.at(-1) ?? "stale";
        break;
      default:
        break;
    }
    return JSON.stringify(o);
  }

  /** Somewhere in a frame to mutate: the frame itself or one of its nested objects. */
  private pickObject(o: Obj): Obj {
    const r = this.rng;
    const candidates: Obj[] = [o];
    const stack: unknown[] = [o];
    while (stack.length && candidates.length < 50) {
      const v = stack.pop();
      if (!v || typeof v !== "object") continue;
      for (const c of Object.values(v as Obj))
        if (c && typeof c === "object") {
          if (!Array.isArray(c)) candidates.push(c as Obj);
          stack.push(c);
        }
    }
    return r.pick(candidates);
  }

  /** A chunk body (JSON text of a chunk) made wrong: cut, retyped inside, typeless, or not an object. */
  private corruptBody(body: string): string {
    const r = this.rng;
    let chunk: Obj | undefined;
    try {
      const v = JSON.parse(body) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) chunk = v as Obj;
    } catch {
      // not JSON to begin with (an error body); cut it below
    }
    const how = r.weighted<string>([
      [3, "truncate"],
      [3, "retype-field"],
      [1, "no-type"],
      [1, "not-object"],
      [1, "empty"],
    ]);
    if (how === "retype-field" && chunk) {
      const k = r.pick(Object.keys(chunk));
      chunk[k] = this.otherType(chunk[k]);
      return JSON.stringify(chunk);
    }
    if (how === "no-type" && chunk) {
      delete chunk.type;
      return JSON.stringify(chunk);
    }
    if (how === "not-object") return JSON.stringify(r.pick([null, 1, "text-delta", [chunk], true]));
    if (how === "empty") return "";
    return body.slice(0, r.int(0, Math.max(0, body.length - 1)));
  }

  /** One or two fields of a well-formed frame, at any depth, given a value of another type. */
  private wrongType(o: Obj): Obj {
    const r = this.rng;
    const n = r.int(1, 2);
    for (let i = 0; i < n; i++) {
      const target = r.chance(0.5) ? o : this.pickObject(o);
      const keys = Object.keys(target);
      if (!keys.length) continue;
      const k = r.chance(0.9) ? r.pick(keys) : "type";
      target[k] = k === "type" && r.chance(0.5) ? r.pick(KNOWN_TYPES) : this.otherType(target[k]);
    }
    return o;
  }

  /** The same JSON value, with some characters of its strings and keys written as `\uXXXX`. */
  private escaped(value: unknown): string {
    const r = this.rng;
    const str = (s: string) => {
      let out = '"';
      for (const ch of JSON.stringify(s).slice(1, -1)) {
        if (/[a-z_-]/i.test(ch) && r.chance(0.3))
          out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
        else out += ch;
      }
      return `${out}"`;
    };
    const enc = (v: unknown): string => {
      if (typeof v === "string") return str(v);
      if (Array.isArray(v)) return `[${v.map(enc).join(",")}]`;
      if (v && typeof v === "object")
        return `{${Object.entries(v as Obj)
          .filter(([, x]) => x !== undefined)
          .map(([k, x]) => `${str(k)}:${enc(x)}`)
          .join(",")}}`;
      return JSON.stringify(v) ?? "null";
    };
    return enc(value);
  }

  /** Megabytes of text, very deep nesting, huge transcripts and ids. */
  private oversized(ctx: FuzzContext): string {
    const r = this.rng;
    const deep = (depth: number, leaf = "1") => `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
    const id = this.streamId(ctx);
    return r.weighted<() => string>([
      [
        4,
        () => {
          const chars = r.int(1_000_000, this.maxDeltaChars);
          const delta = r.chance(0.7) ? "x".repeat(chars) : 'é🙂 \n"\\'.repeat(Math.ceil(chars / 7));
          const body = JSON.stringify({ type: "text-delta", id: "t1", delta });
          return JSON.stringify({ type: "cf_agent_use_chat_response", id, body, done: false });
        },
      ],
      [2, () => `{"type":"cf_agent_state","state":${deep(r.int(2_000, 100_000))}}`],
      [
        2,
        () =>
          `{"type":"cf_agent_chat_messages","messages":[{"id":"deep","role":"assistant","parts":[{"type":"data-x","data":${deep(r.int(2_000, 50_000))}}]}]}`,
      ],
      [
        2,
        () =>
          JSON.stringify({
            type: "cf_agent_use_chat_response",
            id,
            body: `{"type":"tool-output-available","toolCallId":"c1","output":${deep(r.int(2_000, 50_000))}}`,
            done: false,
          }),
      ],
      [
        1,
        () =>
          JSON.stringify({
            type: "agent-tool-event",
            sequence: 0,
            event: {
              kind: "started",
              runId: this.runId(ctx),
              agentType: "Researcher",
              order: 0,
              inputPreview: "p",
            },
          }).replace('"p"', deep(r.int(2_000, 50_000))),
      ],
      [
        1,
        () => {
          const n = r.int(500, 2_000);
          const messages = Array.from({ length: n }, (_, i) => ({
            id: `bulk-${i}`,
            role: i % 2 ? "assistant" : "user",
            parts: [{ type: "text", text: `message ${i}` }],
          }));
          return JSON.stringify({ type: "cf_agent_chat_messages", messages });
        },
      ],
      [
        1,
        () => JSON.stringify({ type: "cf_agent_stream_resuming", id: "i".repeat(r.int(100_000, 1_000_000)) }),
      ],
      [
        1,
        () => JSON.stringify({ type: "cf_agent_state", state: Array.from({ length: 200_000 }, (_, i) => i) }),
      ],
      [1, () => `{"type":"cf_agent_state","state":${"[".repeat(r.int(2_000, 100_000))}`],
    ])();
  }
}
