/**
 * The differences between the official hooks and ours that the generator accepts, each by name. Every other
 * difference fails the generator's run. Two groups:
 *
 * - `deliberate`: the README's "Where the kit deliberately differs from the official client" list
 *   (packages/react/README.md); each entry names the README bullet it stands for (checked by
 *   generator.dom.test.ts).
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
  /** The server's stored transcript after the step (not compared: read by entries). */
  server?: unknown;
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
  group: "deliberate" | "pending-new";
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
  !!v &&
  typeof v === "object" &&
  typeof (v as Message).role === "string" &&
  Array.isArray((v as Message).parts);

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
const earlier = (ctx: Context, what: Step["do"]) =>
  ctx.steps.slice(0, ctx.step - 1).some((s) => s.do === what);

/**
 * For each message id both sides show (`messages`), `fix` may return the two versions rewritten; every copy of
 * a version (shown, sent in a request, handed to a callback) is then replaced by its rewrite.
 */
function pairMessages(
  pair: Pair,
  fix: (official: Message, ours: Message) => [Message, Message] | undefined,
): Pair | undefined {
  const a = pair.official.messages;
  const b = pair.ours.messages;
  if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
  const mine = new Map((b as Message[]).map((m) => [m.id, m]));
  const rewrite = { official: new Map<string, Message>(), ours: new Map<string, Message>() };
  for (const m of a as Message[]) {
    const o = mine.get(m.id);
    if (!o || JSON.stringify(m) === JSON.stringify(o)) continue;
    const fixed = fix(m, o);
    if (!fixed) continue;
    rewrite.official.set(JSON.stringify(m), fixed[0]);
    rewrite.ours.set(JSON.stringify(o), fixed[1]);
  }
  if (rewrite.official.size === 0) return undefined;
  const map = (o: Observation, r: Map<string, Message>): Observation => {
    const f = (m: Message) => r.get(JSON.stringify(m)) ?? m;
    return {
      ...o,
      messages: walkMessages(o.messages, f),
      sent: walkMessages(o.sent, f) as unknown[],
      calls: o.calls.map((c) => JSON.stringify(walkMessages(JSON.parse(c), f))).sort(),
    };
  };
  return { official: map(pair.official, rewrite.official), ours: map(pair.ours, rewrite.ours) };
}

/** A message holding the same text part twice, or two assistant messages in a row with the same text. */
function showsTextTwice(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  const texts = (m: Message) => m.parts.filter((p) => p.type === "text").map((p) => p.text as string);
  let previous: string | undefined;
  for (const m of messages as Message[]) {
    const t = texts(m);
    if (t.some((x, i) => x !== "" && t.indexOf(x) !== i)) return true;
    const joined = m.role === "assistant" ? t.join("") : undefined;
    if (joined && joined === previous) return true;
    previous = joined;
  }
  return false;
}

const isStaticTool = (p: Part) => p.type.startsWith("tool-");
const isProbe = (f: unknown) => (f as { type?: string }).type === "cf_agent_stream_resume_request";

/**
 * Entries or groups left out for this run (`RUNBOARD_DIFF_WITHOUT=<name or group>,…`): to see what they hide,
 * or to check a fix lets the generator pass without its entry.
 */
const without = new Set((process.env.RUNBOARD_DIFF_WITHOUT ?? "").split(",").filter(Boolean));
const kept = <T extends { name: string; group: string }>(list: T[]): T[] =>
  list.filter((e) => !without.has(e.name) && !without.has(e.group));

/** Every difference the generator accepts. */
export const DIFFERENCES: Difference[] = kept([
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
          calls: extraLoad
            ? pair.ours.calls.filter((c) => parse(c).name !== "getInitialMessages")
            : pair.ours.calls,
        },
      };
    },
  },
  {
    name: "reconnect-rereads-transcript-shows-missed-messages",
    group: "deliberate",
    readme: "Resume handshake",
    reason:
      "what the re-read transcript after a reconnect brings: messages that arrived while the socket was down (another tab's message, a server's) show in ours; the official hook never shows them until something else sends a transcript",
    diverges: ({ pair, diffs }, ctx) => {
      if (!earlier(ctx, "drop") || !diffs.some((d) => d.field === "messages")) return false;
      const ids = (o: Observation) =>
        new Set(Array.isArray(o.messages) ? (o.messages as Message[]).map((m) => m.id) : []);
      const theirs = ids(pair.official);
      return [...ids(pair.ours)].some((id) => !theirs.has(id));
    },
  },
  {
    name: "reconnect-probes-while-own-turn-runs",
    group: "deliberate",
    readme: "Resume handshake",
    reason:
      "on a reconnect ours sends a resume probe whenever resuming is on (docs/protocol.md#resume-handshake); the official hook probes only once no turn or resume of its own is running",
    normalise: (pair, ctx) => {
      if (
        ctx.label !== "socket reconnects" ||
        frames(pair.official, "cf_agent_stream_resume_request").length > 0
      )
        return undefined;
      return {
        official: pair.official,
        ours: { ...pair.ours, sent: pair.ours.sent.filter((f) => !isProbe(f)) },
      };
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
      const ours = new Set(
        frames(pair.ours, "cf_agent_stream_resume_ack").map((f) => JSON.stringify([f.socket, f.id])),
      );
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
    name: "server-transcript-replaces-local-diverges",
    group: "deliberate",
    readme: "A server transcript replaces the local one",
    reason:
      "after a transcript from the server, ours shows exactly what the server stores while the official hook shows its own copy (a message it streamed, an update it missed): the first difference where ours equals the server's transcript and the official hook does not",
    diverges: ({ pair, diffs }, ctx) => {
      // Only where a transcript can have come from the server: its events, not this tab's own actions.
      if (!/^(server:|other tab|socket reconnects)/.test(ctx.label)) return false;
      if (!diffs.some((d) => d.field === "messages")) return false;
      const server = JSON.stringify(pair.ours.server);
      return (
        server !== undefined &&
        JSON.stringify(pair.ours.messages) === server &&
        JSON.stringify(pair.official.messages) !== server
      );
    },
  },
  {
    name: "server-transcript-replaces-local",
    group: "deliberate",
    readme: "A server transcript replaces the local one",
    reason:
      "a transcript from the server replaces the local copy of a message that is no longer streaming here; the official hook keeps its own streamed copy in some end-of-turn races (here: the `finishReason` metadata the stream carried, which the server does not store), and sends that copy back with the next request",
    normalise: (pair) => {
      const strip = (x: Message) => {
        const { metadata: _m, ...rest } = x;
        return rest as Message;
      };
      const ids = new Set<string>();
      const paired = pairMessages(pair, (m, o) => {
        if (m.role !== "assistant" || (m.metadata === undefined) === (o.metadata === undefined))
          return undefined;
        if (JSON.stringify(strip(m)) !== JSON.stringify(strip(o))) return undefined;
        ids.add(m.id);
        return [strip(m), strip(o)];
      });
      // Every other copy of such a message (one handed to onFinish before the transcript replaced it) too.
      return paired && everyMessage(paired, (m) => (ids.has(m.id) && m.role === "assistant" ? strip(m) : m));
    },
  },

  {
    name: "own-turn-replay-rebuilt",
    group: "deliberate",
    readme: "A turn replayed to this tab is rebuilt",
    reason:
      "this tab's own turn is replayed to it (resumeStream() while it streams, a reconnect): ours rebuilds the message from the replay; the official hook adds the replayed parts to its copy (a second `step-start`, the text twice, or text lost) and calls onFinish with that copy, sometimes twice",
    diverges: ({ pair, diffs }, ctx) => {
      if (!earlier(ctx, "resumeStream") && ctx.label !== "resumeStream" && !earlier(ctx, "drop"))
        return false;
      const doubled = (o: Observation) => {
        let twice = showsTextTwice(o.messages);
        everyMessage({ official: o, ours: o }, (m) => {
          if (
            m.parts.filter((p) => p.type === "step-start").length > 1 &&
            showsTextTwice([
              { ...m, parts: m.parts.map((p) => (p.type === "text" ? { ...p, state: "" } : p)) },
            ])
          )
            twice = true;
          if (m.parts.some((p, i) => p.type === "step-start" && m.parts[i - 1]?.type === "step-start"))
            twice = true;
          return m;
        });
        return twice;
      };
      const ownReplay = ctx.ours.steps
        .slice(0, ctx.step + 1)
        .some((st) =>
          (st.sent as Record<string, unknown>[]).some(
            (f) => f.type === "cf_agent_stream_resume_ack" && ownRequest(f.id),
          ),
        );
      const moreFinishes =
        callsNamed(pair.official, "onFinish").length > callsNamed(pair.ours, "onFinish").length;
      return (
        (doubled(pair.official) && !showsTextTwice(pair.ours.messages)) ||
        (ownReplay && (moreFinishes || diffs.every((d) => d.field === "messages" || d.field === "calls")))
      );
    },
  },
  {
    name: "continuation-into-its-message",
    group: "deliberate",
    readme: "A tool continuation goes into the message it continues",
    reason:
      "a tool continuation this tab waits for streams after a new agent object or a remount: ours appends it to the last assistant message, where the server stores it; the official hook shows it as a new assistant message under a client-made id (the AI SDK resumes into an empty message)",
    diverges: ({ pair }) => {
      const a = pair.official.messages;
      const b = pair.ours.messages;
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length + 1) return false;
      const last = a.at(-1) as Message;
      const prev = a.at(-2) as Message;
      return /^m\d+$/.test(last.id) && last.role === "assistant" && prev.role === "assistant";
    },
  },
  {
    name: "continuation-onFinish-message",
    group: "deliberate",
    readme: "A tool continuation goes into the message it continues",
    reason:
      "a tool continuation this tab awaited ends (or fails): ours hands onFinish the message it continued, where the server stores it; the official hook a message of its own under a client-made id holding only the continuation's parts",
    normalise: (pair) => {
      const a = callsNamed(pair.official, "onFinish");
      const b = callsNamed(pair.ours, "onFinish");
      const ma = a[0]?.args.message as Message | undefined;
      const mb = b[0]?.args.message as Message | undefined;
      if (a.length !== 1 || b.length !== 1 || !ma || !mb || ma.id === mb.id || !/^m\d+$/.test(ma.id))
        return undefined;
      const shown = (o: Observation, id: string) =>
        Array.isArray(o.messages) && (o.messages as Message[]).some((m) => m.id === id);
      if (shown(pair.official, ma.id) || mb.role !== "assistant") return undefined;
      const tail = JSON.stringify(mb.parts.slice(mb.parts.length - ma.parts.length));
      if (ma.parts.length > mb.parts.length || tail !== JSON.stringify(ma.parts)) return undefined;
      // Both sides' message replaced by the same mark (not a message: later entries leave it alone).
      const mark = { continued: mb.id };
      const swap = (c: Call) => (c.name === "onFinish" ? { ...c, args: { ...c.args, message: mark } } : c);
      const map = (o: Observation) => ({
        ...o,
        calls: o.calls.map((c) => JSON.stringify(swap(parse(c)))).sort(),
      });
      return { official: map(pair.official), ours: map(pair.ours) };
    },
  },
  {
    name: "queued-turn-stays-submitted",
    group: "deliberate",
    readme: "A message sent while a turn streams stays `submitted` until its turn starts",
    reason:
      'sendMessage while this tab\'s own previous turn streams (the server queues the new turn), then the earlier turn ends: ours stays "submitted" until the queued turn streams; the official hook shows "ready" although that turn is still to come',
    diverges: ({ pair, diffs }, ctx) =>
      pair.official.status === "ready" &&
      pair.ours.status === "submitted" &&
      diffs.every((d) => d.field === "status" || d.field === "isStreaming") &&
      ctx.official.steps
        .slice(1, ctx.step + 1)
        .some(
          (s, i) =>
            s.label.startsWith("send ") &&
            ["submitted", "streaming"].includes(String(ctx.official.steps[i]?.view?.status)),
        ),
  },
  {
    name: "client-tool-on-load-submitted",
    group: "deliberate",
    readme: "A client tool answered on load shows `submitted`",
    reason:
      'a transcript loaded on mount ends with a client tool waiting; the app answers it at once (with autoContinue): ours shows "submitted" while the continuation is awaited, as after any answer; the official hook stays "ready" (its isToolContinuation is true)',
    normalise: (pair, ctx) => {
      // Since the last mount, the official hook has shown nothing but "ready" (the answer's wait).
      let since = ctx.step;
      while (since > 0 && !/^(mount|remount)$/.test(ctx.official.steps[since]?.label ?? "")) since--;
      if (!/^(mount|remount)$/.test(ctx.official.steps[since]?.label ?? "")) return undefined;
      if (ctx.official.steps.slice(since, ctx.step).some((s) => s.view?.status !== "ready")) return undefined;
      const { official: a, ours: b } = pair;
      if (a.status !== "ready" || b.status !== "submitted") return undefined;
      if (a.isToolContinuation !== true || b.isToolContinuation !== true) return undefined;
      return { official: a, ours: { ...b, status: "ready" } };
    },
  },
  {
    name: "agent-object-keeps-shown-stream",
    group: "deliberate",
    readme: "A new agent object for the same thread",
    reason:
      "a new agent object for the same thread (a rotated token) while another tab's stream shows: ours keeps showing it live; the official hook stops showing it (isServerStreaming false) until an offer on the new socket is taken",
    diverges: ({ pair }, ctx) =>
      /^new agent object \((same|first)-thread\)$/.test(ctx.label) &&
      pair.official.isServerStreaming === false &&
      pair.ours.isServerStreaming === true,
  },
  {
    name: "agent-object-keeps-awaited-continuation",
    group: "deliberate",
    readme: "A new agent object for the same thread",
    reason:
      'a new agent object for the same thread while a tool continuation this tab awaits (or reads) is on: ours keeps awaiting it and takes the new socket\'s offer as its continuation; the official hook gives it up (status "ready", isToolContinuation false, onFinish with an empty message) and shows the rest only as another stream',
    diverges: ({ pair }, ctx) =>
      /^new agent object \((same|first)-thread\)$/.test(ctx.label) &&
      pair.official.isToolContinuation === false &&
      pair.ours.isToolContinuation === true,
  },
  {
    name: "socket-drop-keeps-turn",
    group: "deliberate",
    readme: "A dropped socket does not fail the turn",
    reason:
      'the socket closes while this tab reads a stream (its own turn, one it resumed): ours keeps the turn live and picks it up after the reconnect (the server\'s turn goes on); the official hook fails it (status "error", "WebSocket closed mid-stream", onError, onFinish({ isError: true })) and shows the server\'s result only when a transcript comes',
    diverges: ({ pair }, ctx) =>
      ctx.label === "socket drops" &&
      (pair.official.error === "WebSocket closed mid-stream" ||
        // A continuation it awaited through its transport ends there too (isToolContinuation off, onFinish).
        (pair.official.isToolContinuation === false && pair.ours.isToolContinuation === true)),
  },
  {
    name: "observed-tool-input-streams",
    group: "deliberate",
    readme: "Partial tool input shows for every stream",
    reason:
      "another tab's (or the server's) stream calls a tool: while its input streams, ours shows the partial input (`input`, `rawInput`) as for this tab's own requests; the official hook's observer path shows neither until the input is complete",
    normalise: (pair) => {
      const a = pair.official.messages;
      const b = pair.ours.messages;
      if (!Array.isArray(a) || !Array.isArray(b)) return undefined;
      const theirs = new Map<string, Part>();
      for (const m of a as Message[])
        for (const p of m.parts) if (typeof p.toolCallId === "string") theirs.set(p.toolCallId, p);
      let changed = false;
      const messages = (b as Message[]).map((m) => ({
        ...m,
        parts: m.parts.map((p) => {
          const o = typeof p.toolCallId === "string" ? theirs.get(p.toolCallId) : undefined;
          if (
            p.state !== "input-streaming" ||
            o?.state !== "input-streaming" ||
            "input" in o ||
            "rawInput" in o
          )
            return p;
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
    name: "no-tools-after-stop-or-error",
    group: "deliberate",
    readme: "The tools of a stopped or failed turn do not run",
    reason:
      "this tab's turn is stopped or fails while its last message holds a tool call with its input (a server tool still running, a client tool, an approval-gated tool before its approval request): the official hook then calls onToolCall for it (and would run a client tool and send its result into a turn that is over); ours does not",
    normalise: (pair, ctx) => {
      if (
        !/^(stop|server: (in-band|thrown) error)$/.test(ctx.label) ||
        callsNamed(pair.ours, "onToolCall").length > 0
      )
        return undefined;
      return filterCalls(pair, (c, side) => !(side === "official" && c.name === "onToolCall"));
    },
  },
  {
    name: "stop-ends-continuation-wait",
    group: "deliberate",
    readme: "`stop()` or a failed turn ends the wait for a tool continuation",
    reason:
      "stop() ends this tab's turn while a tool continuation it asked for earlier has not started: ours gives up waiting with the stop (status ready, isToolContinuation false); the official hook keeps waiting for it after the user pressed stop",
    diverges: ({ pair }, ctx) =>
      ctx.label === "stop" &&
      pair.official.isToolContinuation === true &&
      pair.ours.isToolContinuation === false,
  },
  {
    name: "error-ends-continuation-wait",
    group: "deliberate",
    readme: "`stop()` or a failed turn ends the wait for a tool continuation",
    reason:
      "this tab's turn fails while a tool continuation it asked for has not started: ours clears isToolContinuation with the error; the official hook keeps it true (and takes the continuation when it comes)",
    diverges: ({ diffs, pair }, ctx) =>
      /^server: (in-band|thrown) error$/.test(ctx.label) &&
      pair.official.isToolContinuation === true &&
      pair.ours.isToolContinuation === false &&
      diffs.every((d) => ["isToolContinuation", "status", "calls", "sent"].includes(d.field)),
  },
  {
    name: "onFinish-message-is-the-chats",
    group: "deliberate",
    readme: "`onFinish` has no `finishReason`",
    reason:
      "setMessages drops this tab's streaming reply, then the stream ends: ours hands onFinish the reply as the chat holds it (its id, no parts); the official hook its transport's copy (with the streamed text)",
    normalise: (pair, ctx) => {
      const dropped = ctx.steps.slice(0, ctx.step).some((st) => (st as { do: string }).do === "setMessages");
      const a = callsNamed(pair.official, "onFinish");
      const b = callsNamed(pair.ours, "onFinish");
      const ma = a[0]?.args.message as Message | undefined;
      const mb = b[0]?.args.message as Message | undefined;
      if (!dropped || a.length !== 1 || b.length !== 1 || !ma || !mb) return undefined;
      if (ma.id !== mb.id || mb.parts.length !== 0 || ma.parts.length === 0) return undefined;
      const swap = (c: Call) => (c.name === "onFinish" ? { ...c, args: { ...c.args, message: mb } } : c);
      return {
        official: {
          ...pair.official,
          calls: pair.official.calls.map((c) => JSON.stringify(swap(parse(c)))).sort(),
        },
        ours: pair.ours,
      };
    },
  },

  // ───────────── pending: new differences the generator found ─────────────
  {
    name: "new-reconnect-offer-of-unseen-stream-as-own",
    group: "pending-new",
    reason:
      "setup: the socket is down while another tab's (or the server's) stream starts, and this tab's own message waits to go out; the socket reconnects and the server's connect offer of that stream is ACKed → official: its transport reads the stream as a resumed one (isStreaming and isServerStreaming true at once) → ours: the offer answers its reconnect probe, so the stream counts as this tab's resumed turn (isServerStreaming false, isStreaming false until its next content chunk)",
    diverges: ({ pair, diffs }, ctx) =>
      ctx.label === "socket reconnects" &&
      diffs.length > 0 &&
      diffs.every(
        (d) =>
          (d.field === "isStreaming" || d.field === "isServerStreaming") &&
          d.official === true &&
          d.ours === false,
      ) &&
      pair.ours.sent.some((f) => (f as { type?: string }).type === "cf_agent_stream_resume_ack"),
  },
  {
    name: "new-send-while-own-turn-streams",
    group: "pending-new",
    reason:
      'sendMessage while this tab\'s own previous turn still streams (the server queues the new turn): both hooks show "submitted" at the send, "streaming" at either turn\'s next chunk, and the queued turn streaming after the earlier one failed; what still differs after that (seeds 41, 93, 116, 133, 141, 151 of 1-160): which request onFinish reports, a client tool or continuation answered meanwhile, a reconnect or a new agent object while both turns are on',
    diverges: ({ diffs }, ctx) => {
      const sentWhileStreaming = ctx.official.steps
        .slice(1, ctx.step + 1)
        .some(
          (s, i) =>
            s.label.startsWith("send ") &&
            ["submitted", "streaming"].includes(String(ctx.official.steps[i]?.view?.status)),
        );
      return sentWhileStreaming && diffs.length > 0;
    },
  },
  {
    name: "new-replay-of-unnamed-stream-doubles-text",
    group: "pending-new",
    reason:
      "a stream that names no message id (a plain-text reply: no `start` chunk) is replayed to this tab (resumeStream(), a reconnect): both hooks show its text twice, differently: ours appends a second text part to the message, official adds a second assistant message",
    diverges: ({ pair }) => [pair.official.messages, pair.ours.messages].some(showsTextTwice),
  },
  {
    name: "new-step-start-shown-before-content",
    group: "pending-new",
    reason:
      "a continuation's `start-step` chunk arrives: ours shows the new `step-start` part at once (and keeps it, and sends it back, when the continuation fails before any content); official adds it with the next chunk that has content",
    normalise: (pair) =>
      pairMessages(pair, (m, o) => {
        if (o.parts.at(-1)?.type !== "step-start" || o.parts.length !== m.parts.length + 1) return undefined;
        const trimmed = { ...o, parts: o.parts.slice(0, -1) };
        return JSON.stringify(trimmed) === JSON.stringify(m) ? [m, trimmed] : undefined;
      }),
  },
  {
    name: "new-execute-runs-before-stream-ends",
    group: "pending-new",
    reason:
      "a client tool with `execute` (experimental_automaticToolResolution) is called in this tab's turn: official runs it and sends its result as soon as the call's input is complete, while the turn still streams; ours runs it once the stream has ended",
    diverges: ({ pair }) =>
      callsNamed(pair.official, "execute").length > callsNamed(pair.ours, "execute").length &&
      frames(pair.official, "cf_agent_tool_result").length > frames(pair.ours, "cf_agent_tool_result").length,
  },
]);

// ───────────────────────────── useAgent ─────────────────────────────

/** Both sides' observations of one `useAgent` step (generator/agent.ts). */
export interface AgentPair {
  official: { label: string; fields: Record<string, unknown>; calls: string[]; wire: unknown[] };
  ours: { label: string; fields: Record<string, unknown>; calls: string[]; wire: unknown[] };
}

/** Where a `useAgent` step sits: its index and the labels of the steps so far (this one included). */
export interface AgentContext {
  step: number;
  label: string;
  labels: string[];
}

/** A named difference of the `useAgent` generator. */
export interface AgentDifference {
  name: string;
  group: Difference["group"];
  reason: string;
  readme?: string;
  normalise?: (pair: AgentPair, ctx: AgentContext) => AgentPair | undefined;
  diverges?: (pair: AgentPair, ctx: AgentContext) => boolean;
}

/** Every `useAgent` difference the generator accepts. */
export const AGENT_DIFFERENCES: AgentDifference[] = kept([
  // ───────────── deliberate (the README's list) ─────────────
  {
    name: "useAgent-name-change-clears-state",
    group: "deliberate",
    readme: "A new agent name never shows the previous instance's state",
    reason:
      "`enabled` turned false (and stays false), then the agent's `name` changes: ours shows no state (undefined) until the new instance sends its own; the official hook keeps showing the previous instance's state as the new one's",
    diverges: (pair, ctx) =>
      ctx.label === '{"do":"name"}' &&
      ctx.labels.includes('{"do":"enabled","on":false}') &&
      pair.official.fields.state !== undefined &&
      pair.ours.fields.state === undefined,
  },
]);
