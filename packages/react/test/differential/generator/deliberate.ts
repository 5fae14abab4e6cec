/**
 * The differences between the official hooks and ours that the generator accepts, each by name. Every other
 * difference fails the generator's run. Three groups:
 *
 * - `deliberate`: the README's "Where the kit deliberately differs from the official client" list
 *   (packages/react/README.md); each entry names the README bullet it stands for (checked by
 *   generator.dom.test.ts).
 * - `pending-issue-30-§1`: differences issue 30 §1 lists, being fixed on other branches. Temporary: delete
 *   this group once those fixes are merged, and the generator checks them.
 * - `pending-new`: differences the generator found that nobody had listed, not fixed yet (each says what the
 *   official hook does and what ours does).
 *
 * An entry explains a difference in one of two ways. `normalise` rewrites one step's observations on both
 * sides so the difference disappears (a local difference: the step after it compares again); `diverges`
 * recognises the first difference of a run after which the two hooks hold different states, so the rest of
 * that run is not compared (a difference that carries on, such as a message shown twice).
 */
import type { Driver } from "../harness.ts";
import type { Config, Step } from "./steps.ts";

/** What an app sees after one step, in comparable form. */
export interface Observation {
  label: string;
  messages: unknown;
  status: unknown;
  error: unknown;
  isStreaming: unknown;
  isServerStreaming: unknown;
  isToolContinuation: unknown;
  isRecovering: unknown;
  suspended: unknown;
  /** Callback calls (`{name, args}` as JSON), sorted. */
  calls: string[];
  sent: unknown[];
  fetches: unknown[];
  errors: unknown[];
}

/** Both sides' observations of one step. */
export interface Pair {
  official: Observation;
  ours: Observation;
}

/** Where a step sits in its run. */
export interface Context {
  cfg: Config;
  /** Index of the recorded step (0 is the mount; step `i` is `steps[i - 1]`). */
  step: number;
  steps: Step[];
  label: string;
  official: Driver;
  ours: Driver;
}

/** A field that differs at a step, with both sides' values. */
export interface FieldDiff {
  field: string;
  official: unknown;
  ours: unknown;
}

/** A difference between the hooks that the generator accepts, by name. */
export interface Difference {
  /** A stable name, printed when it matches. */
  name: string;
  group: "deliberate" | "pending-issue-30-§1" | "pending-new";
  /** Why a user would accept it (deliberate), or setup → official → ours (pending). */
  reason: string;
  /** For a deliberate entry: the bold lead of its README bullet. */
  readme?: string;
  /** Rewrites a step's observations so the difference this entry explains disappears; undefined: not this. */
  normalise?: (pair: Pair, ctx: Context) => Pair | undefined;
  /** Recognises the first remaining difference of a run as this entry's (the rest of the run is skipped). */
  diverges?: (d: { pair: Pair; diffs: FieldDiff[] }, ctx: Context) => boolean;
}

type Part = Record<string, unknown> & { type: string };
type Message = { id: string; role: string; parts: Part[] } & Record<string, unknown>;

const isMessage = (v: unknown): v is Message =>
  !!v && typeof v === "object" && typeof (v as Message).role === "string" && Array.isArray((v as Message).parts);

/** `f` applied to every message anywhere in `v` (a transcript, a request body, a callback's arguments). */
function walkMessages(v: unknown, f: (m: Message) => Message): unknown {
  if (Array.isArray(v)) return v.map((x) => walkMessages(x, f));
  if (!v || typeof v !== "object") return v;
  const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walkMessages(x, f)]));
  return isMessage(o) ? f(o) : o;
}

/** `f` applied to every message an observation holds: shown, sent, and handed to callbacks. */
function everyMessage(pair: Pair, f: (m: Message) => Message): Pair {
  const map = (o: Observation): Observation => ({
    ...o,
    messages: walkMessages(o.messages, f),
    sent: walkMessages(o.sent, f) as unknown[],
    calls: o.calls.map((c) => JSON.stringify(walkMessages(JSON.parse(c), f))).sort(),
  });
  return { official: map(pair.official), ours: map(pair.ours) };
}

type Call = { name: string; args: Record<string, unknown> };
const parse = (c: string) => JSON.parse(c) as Call;
/** Both sides' calls with `keep` deciding per call (and side) which stay. */
function filterCalls(pair: Pair, keep: (c: Call, side: "official" | "ours") => boolean): Pair {
  return {
    official: { ...pair.official, calls: pair.official.calls.filter((c) => keep(parse(c), "official")) },
    ours: { ...pair.ours, calls: pair.ours.calls.filter((c) => keep(parse(c), "ours")) },
  };
}
const callsNamed = (o: Observation, name: string) => o.calls.map(parse).filter((c) => c.name === name);
/** A request id this tab minted (the canonical names `r1`, `r2`, …), not another tab's or the server's. */
const ownRequest = (id: unknown) => typeof id === "string" && /^r\d+$/.test(id);
const frames = (o: Observation, type: string) =>
  o.sent.filter((f) => (f as { type?: string }).type === type) as Record<string, unknown>[];
/** Steps before `ctx.step` that did `what`. */
const earlier = (ctx: Context, what: Step["do"]) => ctx.steps.slice(0, ctx.step - 1).some((s) => s.do === what);

const isStaticTool = (p: Part) => p.type.startsWith("tool-");
const isProbe = (f: unknown) => (f as { type?: string }).type === "cf_agent_stream_resume_request";

/** Every difference the generator accepts. */
export const DIFFERENCES: Difference[] = [
  // ───────────── deliberate (the README's list) ─────────────
  {
    name: "static-tool-parts-carry-toolName",
    group: "deliberate",
    readme: "Static tool parts carry `toolName`",
    reason:
      "ours keeps `toolName` on streamed `tool-<name>` parts, as the server stores them, so a transcript read back compares equal to what streamed; the AI SDK leaves it out",
    normalise: (pair) =>
      everyMessage(pair, (m) => ({
        ...m,
        parts: m.parts.map((p) => {
          if (!isStaticTool(p)) return p;
          const { toolName: _t, ...rest } = p;
          return rest as Part;
        }),
      })),
  },
  {
    name: "strict-mode-one-probe",
    group: "deliberate",
    readme: "Under StrictMode one resume probe goes out",
    reason:
      "StrictMode runs the official hook's mount effect twice and each sends a resume probe; ours sends one (a development-only artefact)",
    normalise: (pair, ctx) => {
      if (!ctx.cfg.strict) return undefined;
      const a = pair.official.sent.filter(isProbe).length;
      const b = pair.ours.sent.filter(isProbe).length;
      if (a <= b) return undefined;
      let extra = a - b;
      const sent = pair.official.sent.filter((f) => !(isProbe(f) && extra-- > 0));
      return { official: { ...pair.official, sent }, ours: pair.ours };
    },
  },

  {
    name: "reconnect-rereads-transcript",
    group: "deliberate",
    readme: "Resume handshake",
    reason:
      "after a reconnect ours reads the transcript again (`get-messages`, or the app's getInitialMessages) once no stream is live, since turns may have ended while the socket was down; the official hook does not",
    normalise: (pair, ctx) => {
      if (!earlier(ctx, "drop") && ctx.label !== "socket reconnects") return undefined;
      const extra = (f: unknown) => String(f).endsWith("/get-messages") && !pair.official.fetches.includes(f);
      const loads = (o: Observation) => callsNamed(o, "getInitialMessages").length;
      const extraLoad = loads(pair.ours) > loads(pair.official);
      if (!pair.ours.fetches.some(extra) && !extraLoad) return undefined;
      return {
        official: pair.official,
        ours: {
          ...pair.ours,
          fetches: pair.ours.fetches.filter((f) => !extra(f)),
          calls: extraLoad ? pair.ours.calls.filter((c) => parse(c).name !== "getInitialMessages") : pair.ours.calls,
        },
      };
    },
  },
  {
    name: "reconnect-probes-while-own-turn-runs",
    group: "deliberate",
    readme: "Resume handshake",
    reason:
      "on a reconnect ours sends a resume probe whenever resuming is on (docs/protocol.md#resume-handshake); the official hook probes only once no turn or resume of its own is running",
    normalise: (pair, ctx) => {
      if (ctx.label !== "socket reconnects" || frames(pair.official, "cf_agent_stream_resume_request").length > 0)
        return undefined;
      return { official: pair.official, ours: { ...pair.ours, sent: pair.ours.sent.filter((f) => !isProbe(f)) } };
    },
  },
  {
    name: "one-ack-per-offer-pair",
    group: "deliberate",
    readme: "Resume handshake",
    reason:
      "the server offers a live stream twice (on connect and in answer to the probe sent before the ACK); the official hook may ACK both and get the stream replayed twice, ours ACKs once (docs/protocol.md#resume-handshake)",
    normalise: (pair, ctx) => {
      const ackedBefore = new Set(
        ctx.ours.steps
          .slice(0, ctx.step)
          .flatMap((s) => s.sent as Record<string, unknown>[])
          .filter((f) => f.type === "cf_agent_stream_resume_ack")
          .map((f) => JSON.stringify([f.socket, f.id])),
      );
      const ours = new Set(frames(pair.ours, "cf_agent_stream_resume_ack").map((f) => JSON.stringify([f.socket, f.id])));
      let changed = false;
      const sent = pair.official.sent.filter((f) => {
        const x = f as Record<string, unknown>;
        const key = JSON.stringify([x.socket, x.id]);
        const drop = x.type === "cf_agent_stream_resume_ack" && !ours.has(key) && ackedBefore.has(key);
        if (drop) changed = true;
        return !drop;
      });
      return changed ? { official: { ...pair.official, sent }, ours: pair.ours } : undefined;
    },
  },
  {
    name: "stop-stops-any-live-stream",
    group: "deliberate",
    readme: "`stop()` stops any live stream",
    reason:
      "stop() cancels the live stream whoever started it (another tab, the server, a resume); the official stop() only aborts this tab's own request",
    diverges: ({ pair }, ctx) =>
      ctx.label === "stop" &&
      frames(pair.ours, "cf_agent_chat_request_cancel").some(
        (f) => !frames(pair.official, "cf_agent_chat_request_cancel").some((g) => g.id === f.id),
      ),
  },
  {
    name: "server-transcript-replaces-local",
    group: "deliberate",
    readme: "A server transcript replaces the local one",
    reason:
      "a transcript from the server replaces the local copy of a message that is no longer streaming here; the official hook keeps its own streamed copy in some end-of-turn races (here: the `finishReason` metadata the stream carried, which the server does not store), and sends that copy back with the next request",
    normalise: (pair) => {
      const versions = (o: Observation) => {
        const out = new Map<string, Message>();
        everyMessage({ official: o, ours: o }, (m) => {
          if (m.role === "assistant") out.set(m.id, m);
          return m;
        });
        return out;
      };
      const strip = (m: Message) => {
        const { metadata: _m, ...rest } = m;
        return rest as Message;
      };
      const a = versions(pair.official);
      const b = versions(pair.ours);
      const ids = new Set<string>();
      for (const [id, m] of a) {
        const o = b.get(id);
        if (!o || (m.metadata === undefined) === (o.metadata === undefined)) continue;
        if (JSON.stringify(strip(m)) === JSON.stringify(strip(o))) ids.add(id);
      }
      if (ids.size === 0) return undefined;
      return everyMessage(pair, (m) => (m.role === "assistant" && ids.has(m.id) ? strip(m) : m));
    },
  },

  // ───────────── pending: issue 30 §1, being fixed on other branches (delete this group after the merge) ─────────────
  {
    name: "§1-sendMessage-metadata-dropped",
    group: "pending-issue-30-§1",
    reason:
      "sendMessage({ text, metadata }): official stores and sends the user message with its metadata; ours drops it (issue 30 §1, `sendMessage` / `regenerate` options are dropped)",
    normalise: (pair) =>
      everyMessage(pair, (m) => {
        if (m.role !== "user" || JSON.stringify(m.metadata) !== JSON.stringify({ from: "generator" })) return m;
        const { metadata: _m, ...rest } = m;
        return rest as Message;
      }),
  },
  {
    name: "§1-sendMessage-files-dropped",
    group: "pending-issue-30-§1",
    reason:
      "sendMessage({ text, files }): official adds a file part to the user message; ours drops it (issue 30 §1, `sendMessage` / `regenerate` options are dropped)",
    normalise: (pair) =>
      everyMessage(pair, (m) =>
        m.role !== "user"
          ? m
          : { ...m, parts: m.parts.filter((p) => !(p.type === "file" && p.filename === "note.txt")) },
      ),
  },
  {
    name: "§1-waiting-client-tools-run-late",
    group: "pending-issue-30-§1",
    reason:
      "a transcript loaded on mount ends with an `input-available` client tool: official runs the tool and sends its result at once (before its resume probe); ours waits for the probe's answer (issue 30 §1, waiting client tools run late)",
    normalise: (pair) => {
      const a = pair.official.sent;
      const b = pair.ours.sent;
      if (!frames(pair.official, "cf_agent_tool_result").length || !frames(pair.ours, "cf_agent_stream_resume_request").length)
        return undefined;
      const key = (l: unknown[]) => l.map((f) => JSON.stringify(f)).sort();
      if (JSON.stringify(key(a)) !== JSON.stringify(key(b))) return undefined;
      return { official: pair.official, ours: { ...pair.ours, sent: a } };
    },
  },
  {
    name: "§1-resume-of-another-stream-flags",
    group: "pending-issue-30-§1",
    reason:
      "a resume (a probe after a reconnect, or resumeStream()) finds a stream this tab did not start: official keeps isServerStreaming true and, when its transport resumed it, shows status submitted then streaming until it ends; ours counts a stream its own probe found as its own (isServerStreaming false) or, after an unprompted offer, stays ready (issue 30 §1, resumeStream() while showing another tab's stream)",
    normalise: (pair, ctx) => {
      const a = pair.official;
      const b = pair.ours;
      if (!(earlier(ctx, "drop") || earlier(ctx, "resumeStream") || ctx.label === "resumeStream")) return undefined;
      if (a.isServerStreaming !== true && b.isServerStreaming !== true) return undefined;
      if (a.status === b.status && a.isServerStreaming === b.isServerStreaming && a.isStreaming === b.isStreaming)
        return undefined;
      return {
        official: { ...a, status: b.status, isStreaming: b.isStreaming, isServerStreaming: b.isServerStreaming },
        ours: b,
      };
    },
  },
  {
    name: "§1-resumeStream-probes-during-own-turn",
    group: "pending-issue-30-§1",
    reason:
      "resumeStream() while this tab's own turn (or a stream it resumed) is running: official sends nothing (it returns the resume in flight); ours sends another probe and ACKs the server's offer of the running stream in answer (issue 30 §1, resumeStream(): two calls while one resume is in flight share one)",
    normalise: (pair, ctx) => {
      if (ctx.label !== "resumeStream" || frames(pair.official, "cf_agent_stream_resume_request").length > 0) return undefined;
      // Ours' probe is answered with an offer of the stream running, which it ACKs (again, when it had).
      const sent = pair.ours.sent.filter((f) => {
        const x = f as Record<string, unknown>;
        return !(isProbe(x) || x.type === "cf_agent_stream_resume_ack");
      });
      return { official: pair.official, ours: { ...pair.ours, sent } };
    },
  },
  {
    name: "§1-resume-of-another-stream-error",
    group: "pending-issue-30-§1",
    reason:
      "a stream this tab picked up by a resume (after a reconnect, or resumeStream()) that it did not start ends with an error: official shows it (status \"error\", onError) as for its own turn; ours treats it as another tab's stream (no error shown) (issue 30 §1, resumeStream() while showing another tab's stream)",
    diverges: ({ pair }, ctx) =>
      (earlier(ctx, "drop") || earlier(ctx, "resumeStream")) &&
      typeof pair.official.error === "string" &&
      pair.ours.error === undefined,
  },
  {
    name: "§1-edit-appends",
    group: "pending-issue-30-§1",
    reason:
      "sendMessage({ text, messageId }) (edit and resend): official replaces that user message and drops what follows it; ours appends a new message (issue 30 §1, `sendMessage` / `regenerate` options are dropped)",
    diverges: (_d, ctx) => ctx.label.startsWith("edit last user message"),
  },
  {
    name: "§1-regenerate-messageId-ignored",
    group: "pending-issue-30-§1",
    reason:
      "regenerate({ messageId }) for an earlier answer: official regenerates that answer (dropping what follows); ours regenerates the last one (issue 30 §1, `sendMessage` / `regenerate` options are dropped)",
    diverges: (_d, ctx) => ctx.label === "regenerate an earlier answer",
  },

  // ───────────── pending: new differences the generator found (not in issue 30 §1) ─────────────
  {
    name: "new-onFinish-on-stop-error-unmount",
    group: "pending-new",
    reason:
      "this tab's own turn is stopped (stop()), fails (an error frame, the socket closing under it) or the component unmounts mid-turn: official calls onFinish({ isAbort: true }) or onFinish({ isError: true }) with the message written so far (an empty assistant message with a client-made id if none was); ours calls onFinish only when a response completes",
    normalise: (pair) => {
      if (callsNamed(pair.ours, "onFinish").length > 0) return undefined;
      return filterCalls(
        pair,
        (c, side) => !(side === "official" && c.name === "onFinish" && (c.args.isAbort === true || c.args.isError === true)),
      );
    },
  },
  {
    name: "new-onFinish-for-streams-of-others",
    group: "pending-new",
    reason:
      "a stream this tab did not request (another tab's turn, a server-started turn, a continuation another tab asked for) completes: ours calls onFinish; official calls it only for streams it reads through its own transport (its requests and resumes)",
    normalise: (pair) => {
      if (callsNamed(pair.official, "onFinish").length > 0 || callsNamed(pair.ours, "onFinish").length === 0) return undefined;
      const ends = [...callsNamed(pair.official, "onTurnEnd"), ...callsNamed(pair.ours, "onTurnEnd")];
      if (!ends.some((c) => !ownRequest(c.args.requestId))) return undefined;
      return filterCalls(pair, (c, side) => !(side === "ours" && c.name === "onFinish"));
    },
  },
  {
    name: "new-onFinish-message-of-unnamed-stream",
    group: "pending-new",
    reason:
      "a reply whose stream names no message id (a plain-text reply: no `start` chunk) completes: official's onFinish gets the message it made for it (under a client-made id); ours passes `message: undefined`",
    normalise: (pair) => {
      const a = callsNamed(pair.official, "onFinish");
      const b = callsNamed(pair.ours, "onFinish");
      if (a.length !== 1 || b.length !== 1 || b[0]?.args.message !== undefined || a[0]?.args.message === undefined)
        return undefined;
      const drop = (c: Call) => (c.name === "onFinish" ? { ...c, args: { ...c.args, message: undefined } } : c);
      const map = (o: Observation) => ({ ...o, calls: o.calls.map((c) => JSON.stringify(drop(parse(c)))).sort() });
      return { official: map(pair.official), ours: map(pair.ours) };
    },
  },
  {
    name: "new-socket-close-fails-own-stream",
    group: "pending-new",
    reason:
      "the socket closes while this tab reads a stream through its transport (its own turn, or a stream it resumed): official fails it (status \"error\", error \"WebSocket closed mid-stream\", onError, onFinish({ isError: true })) and leaves the server turn running; ours keeps the turn live and picks it up again after the reconnect",
    diverges: ({ pair }, ctx) => ctx.label === "socket drops" && pair.official.error === "WebSocket closed mid-stream",
  },
  {
    name: "new-observed-tool-input-shown-while-streaming",
    group: "pending-new",
    reason:
      "another tab's (or the server's) stream calls a tool: while its input streams, ours shows the partial input (`input`, `rawInput`) on the `input-streaming` part; official's observer path shows neither until the input is complete (its own requests show both, as ours)",
    normalise: (pair) => {
      const a = pair.official.messages;
      const b = pair.ours.messages;
      if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
      const theirs = new Map<string, Part>();
      for (const m of a as Message[]) for (const p of m.parts) if (typeof p.toolCallId === "string") theirs.set(p.toolCallId, p);
      let changed = false;
      const messages = (b as Message[]).map((m) => ({
        ...m,
        parts: m.parts.map((p) => {
          const o = typeof p.toolCallId === "string" ? theirs.get(p.toolCallId) : undefined;
          if (p.state !== "input-streaming" || o?.state !== "input-streaming" || "input" in o || "rawInput" in o) return p;
          if (!("input" in p) && !("rawInput" in p)) return p;
          changed = true;
          const { input: _i, rawInput: _r, ...rest } = p;
          return rest as Part;
        }),
      }));
      return changed ? { official: pair.official, ours: { ...pair.ours, messages } } : undefined;
    },
  },
  {
    name: "new-decision-during-own-turn-probes",
    group: "pending-new",
    reason:
      "an approval or client tool answered (with autoContinue) while this tab's own turn still streams: ours sends a resume probe at once and ACKs the server's offer of its own live stream (which the server then replays); official sends no probe until its turn ends",
    normalise: (pair) => {
      if (frames(pair.official, "cf_agent_stream_resume_request").length > 0) return undefined;
      const acks = frames(pair.ours, "cf_agent_stream_resume_ack").filter((f) => ownRequest(f.id));
      if (acks.length === 0 || frames(pair.ours, "cf_agent_stream_resume_request").length === 0) return undefined;
      const sent = pair.ours.sent.filter((f) => {
        const x = f as Record<string, unknown>;
        return !(x.type === "cf_agent_stream_resume_request" || (x.type === "cf_agent_stream_resume_ack" && ownRequest(x.id)));
      });
      return { official: pair.official, ours: { ...pair.ours, sent } };
    },
  },
  {
    name: "new-snapshot-drops-partial-tool-input",
    group: "pending-new",
    reason:
      "another tab's transcript arrives while this tab streams a tool call's input; it holds the streaming message without the partial input: ours takes that copy (the partial `input`/`rawInput` disappear until the next chunk), official keeps its own streaming copy (the README says ours keeps a message still streaming here when the snapshot holds an older copy)",
    normalise: (pair) => {
      const a = pair.official.messages;
      const b = pair.ours.messages;
      if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
      const ours = new Map<string, Part>();
      for (const m of b as Message[]) for (const p of m.parts) if (typeof p.toolCallId === "string") ours.set(p.toolCallId, p);
      let changed = false;
      const messages = (a as Message[]).map((m) => ({
        ...m,
        parts: m.parts.map((p) => {
          const o = typeof p.toolCallId === "string" ? ours.get(p.toolCallId) : undefined;
          if (p.state !== "input-streaming" || o?.state !== "input-streaming" || "input" in o || "rawInput" in o) return p;
          if (!("input" in p) && !("rawInput" in p)) return p;
          changed = true;
          const { input: _i, rawInput: _r, ...rest } = p;
          return rest as Part;
        }),
      }));
      return changed ? { official: { ...pair.official, messages }, ours: pair.ours } : undefined;
    },
  },
  {
    name: "new-send-while-own-turn-streams",
    group: "pending-new",
    reason:
      "sendMessage while this tab's own previous turn still streams: official shows status \"submitted\" for the new request (the AI SDK moves on to it); ours stays \"streaming\" while the earlier turn's stream goes on",
    diverges: ({ pair }, ctx) =>
      ctx.label.startsWith("send ") &&
      new Set([pair.official.status, pair.ours.status]).size === 2 &&
      [pair.official.status, pair.ours.status].every((x) => x === "submitted" || x === "streaming"),
  },
  {
    name: "new-replay-of-unnamed-stream-doubles-text",
    group: "pending-new",
    reason:
      "a stream that names no message id (a plain-text reply: no `start` chunk) is replayed to this tab (resumeStream(), a reconnect): both hooks show its text twice, differently: ours appends a second text part to the message, official adds a second assistant message",
    diverges: ({ pair }) =>
      [pair.official.messages, pair.ours.messages].some((m) => JSON.stringify(m).split('"Plain "').length > 2),
  },
  {
    name: "new-onToolCall-after-stop",
    group: "pending-new",
    reason:
      "stop() ends this tab's turn while its last message holds a tool call with its input (a server tool still running, or a client tool): official then calls onToolCall for it (and would run a client tool and send its result); ours does not",
    normalise: (pair, ctx) => {
      if (ctx.label !== "stop" || callsNamed(pair.ours, "onToolCall").length > 0) return undefined;
      return filterCalls(pair, (c, side) => !(side === "official" && c.name === "onToolCall"));
    },
  },
  {
    name: "new-official-doubles-step-start-on-replay",
    group: "pending-new",
    reason:
      "resumeStream() while this tab's own turn streams: both hooks probe and ACK their own stream, and the server replays it; official adds a second `step-start` part to the message, ours rebuilds it (ours is right: a candidate for the README list)",
    normalise: (pair) => {
      let changed = false;
      const dedupe = (o: Observation): Observation => ({
        ...o,
        messages: walkMessages(o.messages, (m) => ({
          ...m,
          parts: m.parts.filter((p, i) => {
            const dup = p.type === "step-start" && m.parts[i - 1]?.type === "step-start";
            if (dup) changed = true;
            return !dup;
          }),
        })),
      });
      const official = dedupe(pair.official);
      return changed ? { official, ours: pair.ours } : undefined;
    },
  },
  {
    name: "new-step-start-shown-before-content",
    group: "pending-new",
    reason:
      "a continuation's `start-step` chunk arrives: ours shows the new `step-start` part at once; official shows it with the next chunk that has content",
    normalise: (pair) => {
      const a = pair.official.messages;
      const b = pair.ours.messages;
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return undefined;
      let changed = false;
      const messages = (b as Message[]).map((m, i) => {
        const o = a[i] as Message;
        if (m.id !== o.id || m.parts.at(-1)?.type !== "step-start" || m.parts.length !== o.parts.length + 1) return m;
        const trimmed = { ...m, parts: m.parts.slice(0, -1) };
        if (JSON.stringify(trimmed) !== JSON.stringify(o)) return m;
        changed = true;
        return trimmed;
      });
      return changed ? { official: pair.official, ours: { ...pair.ours, messages } } : undefined;
    },
  },
  {
    name: "new-agent-object-same-thread-drops-shown-stream",
    group: "pending-new",
    reason:
      "a new agent object for the same thread (a rotated token) while another tab's stream shows: official stops showing it (isServerStreaming false) until an offer on the new socket is taken; ours keeps showing it live",
    diverges: ({ pair }, ctx) =>
      /^new agent object \((same|first)-thread\)$/.test(ctx.label) &&
      pair.official.isServerStreaming === false &&
      pair.ours.isServerStreaming === true,
  },
];
