/**
 * Makes two frame streams comparable: every id the server or client minted (message, request, tool call,
 * approval, run, probe, room ids, UUIDs) becomes a placeholder numbered by first appearance per kind, and
 * server timestamps become `<ts>`. Chunk bodies (JSON inside a string) are parsed so they compare as data.
 */
import { loadTranscript, type TranscriptLine } from "./transcripts.ts";

/** One line of a recorded transcript. */
export type Rec = TranscriptLine;

export { loadTranscript };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// Shapes that are ids wherever they appear, even inside text ("Tool … returned {runId: …}").
const PATTERNS: Array<[string, RegExp]> = [
  ["uuid", /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g],
  ["msg", /assistant_\d{13}_[a-z0-9]{9}/g],
  ["call", /call-[a-z]+-[a-z0-9]+-\d+/g],
  ["approval", /aitxt-[A-Za-z0-9]{24}/g],
];

// Fields whose string value is an id of a kind, wherever the frame came from.
const ID_FIELDS: Record<string, string> = {
  messageId: "msg",
  toolCallId: "call",
  parentToolCallId: "call",
  approvalId: "approval",
  probeId: "probe",
  runId: "run",
  executionId: "exec",
};
const TIME_FIELDS = new Set(["at", "createdAt", "requestedAt", "resolvedAt"]);

export class Normalizer {
  private readonly tokens = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private sorted: string[] = [];

  /** Maps a token to its placeholder, minting one on first sight. */
  token(value: string, kind: string): string {
    let p = this.tokens.get(value);
    if (!p) {
      const n = (this.counters.get(kind) ?? 0) + 1;
      this.counters.set(kind, n);
      p = `<${kind}${n}>`;
      this.assign(value, p);
    }
    return p;
  }

  /** Forces a token's placeholder (a recorded id the test sent verbatim). */
  assign(value: string, placeholder: string) {
    const [, kind = "", n = "0"] = /^<([a-z]+)(\d+)>$/.exec(placeholder) ?? [];
    this.counters.set(kind, Math.max(this.counters.get(kind) ?? 0, Number(n)));
    this.tokens.set(value, placeholder);
    this.sorted = [...this.tokens.keys()].sort((a, b) => b.length - a.length);
  }

  /** The token a placeholder stands for, if this side has seen one. */
  reverse(placeholder: string): string | undefined {
    for (const [k, v] of this.tokens) if (v === placeholder) return k;
    return undefined;
  }

  /** Records ids from a frame's known fields (call before `apply`, in stream order). */
  learn(v: unknown, key?: string): void {
    if (typeof v === "string") {
      if (key && ID_FIELDS[key] && !(key === "runId" && v.startsWith("agent-tool:")))
        this.token(v, ID_FIELDS[key]);
      else if (key === "id") this.learnId(v);
      for (const [kind, re] of PATTERNS) for (const m of v.matchAll(re)) this.token(m[0], kind);
      if ((key === "body" || key === "raw") && v.startsWith("{")) {
        try {
          this.learn(JSON.parse(v));
        } catch {}
      }
      return;
    }
    if (Array.isArray(v)) for (const x of v) this.learn(x, key === "messages" ? "message" : undefined);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (key === "message" && k === "id" && typeof x === "string") this.token(x, "msg");
        else this.learn(x, k);
      }
    }
  }

  private learnId(v: string) {
    if (v.startsWith("detached-") || /^(txt|r|rsn)-/.test(v)) {
      // Composite ids and text block ids: their parts are ids (or fixed script names).
      return;
    }
    this.token(v, "req");
  }

  /** A deep copy with every known token replaced and chunk bodies parsed. */
  apply(v: unknown, key?: string): Json {
    if (typeof v === "string") {
      if ((key === "body" || key === "raw") && v.startsWith("{")) {
        try {
          return this.apply(JSON.parse(v));
        } catch {}
      }
      return this.replace(v);
    }
    if (typeof v === "number" && key && TIME_FIELDS.has(key)) return "<ts>";
    if (Array.isArray(v)) return v.map((x) => this.apply(x));
    if (v && typeof v === "object") {
      const out: { [k: string]: Json } = {};
      for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = this.apply(x, k);
      return out;
    }
    return (v ?? null) as Json;
  }

  replace(s: string): string {
    let out = s;
    for (const t of this.sorted) if (out.includes(t)) out = out.split(t).join(this.tokens.get(t) as string);
    return out;
  }
}
