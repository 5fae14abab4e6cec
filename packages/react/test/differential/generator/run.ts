/**
 * Runs one seed of the generator: the official hook plays steps chosen from what the server model allows,
 * then ours plays the same steps; after every step what an app sees is compared (messages, status and
 * flags, callbacks and their arguments, frames sent, fetches, suspension, errors). A difference is either
 * explained by a named entry of `DIFFERENCES` (deliberate.ts) or it fails the seed; a failing seed is shrunk
 * (steps deleted while the same difference remains) to a minimal reproduction.
 */
import type { UIMessage } from "ai";
import { assistantText, assistantWaitingTool, userMessage } from "../frames.ts";
import { type Driver, dump, OMIT, play, type Step as Recorded, type Side } from "../harness.ts";
import { DIFFERENCES, type Difference, type FieldDiff, type Observation, type Pair } from "./deliberate.ts";
import { ServerModel } from "./server.ts";
import {
  type Config,
  chooseStep,
  configFor,
  describeStep,
  drainStep,
  LOCATION,
  playStep,
  Random,
  type Step,
} from "./steps.ts";

/** Steps a generated run takes before it lets the server finish. */
export const STEPS_PER_RUN = 28;
/** At most this many steps to let the server finish. */
const DRAIN_LIMIT = 30;

/** What one side recorded. */
export interface SideRun {
  driver: Driver;
  server: ServerModel;
}

/** The history a thread holds before the page loads. */
function historyFor(cfg: Config): UIMessage[] {
  switch (cfg.history) {
    case "text":
      return [userMessage("u-h1", "earlier question"), assistantText("a-h1", "earlier answer")];
    case "waiting-tool":
      return [
        userMessage("u-h1", "locate me please"),
        assistantWaitingTool("a-h1", "call-locate-h", "getLocation", {}),
      ];
    case "approval":
      return [
        userMessage("u-h1", "please pay ACME 250"),
        {
          id: "a-h1",
          role: "assistant",
          parts: [
            { type: "step-start" },
            {
              type: "tool-processPayment",
              toolCallId: "call-pay-h",
              toolName: "processPayment",
              state: "approval-requested",
              input: { amount: 250, recipient: "ACME" },
              approval: { id: "approval-h" },
            },
          ],
        } as UIMessage,
      ];
    default:
      return [];
  }
}

/** The app's options for a configuration. */
function optionsFor(d: Driver, server: ServerModel, cfg: Config): Record<string, unknown> {
  const o: Record<string, unknown> = {
    resume: cfg.resume,
    autoContinueAfterToolResult: cfg.autoContinue,
  };
  if (cfg.body) o.body = { tenant: "t1" };
  if (cfg.initial === "getInitialMessages")
    o.getInitialMessages = d.cb("getInitialMessages", async (a: { name?: string }) =>
      JSON.parse(JSON.stringify(server.room(a.name ?? d.room).stored)),
    );
  if (cfg.tools === "onToolCall")
    o.onToolCall = d.cb(
      "onToolCall",
      ({
        toolCall,
        addToolOutput,
      }: {
        toolCall: { toolCallId: string; toolName: string };
        addToolOutput: (x: unknown) => void;
      }) => {
        // An app answers the tools it knows; the others are the server's.
        if (toolCall.toolName === "getLocation")
          addToolOutput({ tool: toolCall.toolName, toolCallId: toolCall.toolCallId, output: LOCATION });
      },
    );
  if (cfg.tools === "manual") o.onToolCall = d.cb("onToolCall");
  if (cfg.tools === "execute") {
    o.tools = {
      getLocation: {
        description: "Where the user is",
        parameters: { type: "object", properties: {} },
        execute: d.cb("execute", async () => LOCATION),
      },
    };
    o.experimental_automaticToolResolution = true;
  }
  // onData is left out: no recorded turn streams data parts.
  o.onData = OMIT;
  return o;
}

/**
 * Plays a run on one side. Without `steps`, chooses them (from this side's server and hook) and returns the
 * list it chose.
 */
async function playSide(
  side: Side,
  seed: number,
  cfg: Config,
  given?: Step[],
): Promise<SideRun & { steps: Step[] }> {
  let server!: ServerModel;
  const steps: Step[] = given ? [...given] : [];
  const driver = await play(side, async (d) => {
    server = new ServerModel(d);
    d.server = server;
    d.quietRounds = 3;
    const history = historyFor(cfg);
    d.learn(history);
    server.seed(d.room, history);
    server.seed(`${d.room}-b`, [userMessage("u-b1", "other thread"), assistantText("a-b1", "other answer")]);
    d.learn(server.room(`${d.room}-b`).stored);
    const rooms = [d.room];
    await d.mount(optionsFor(d, server, cfg), { strict: cfg.strict });
    const stamp = () => {
      const last = d.steps.at(-1);
      if (last) last.server = d.canonical(server.current.stored);
    };
    stamp();
    if (given) {
      for (const s of given) {
        await playStep(d, server, s, { rooms });
        stamp();
      }
      return;
    }
    const rng = new Random(seed * 7919 + 1);
    for (let i = 0; i < STEPS_PER_RUN; i++) {
      const s = chooseStep(rng, d, server, cfg);
      steps.push(s);
      await playStep(d, server, s, { rooms });
      stamp();
    }
    for (let i = 0; i < DRAIN_LIMIT; i++) {
      const s = drainStep(d, server);
      if (!s) break;
      steps.push(s);
      await playStep(d, server, s, { rooms });
      stamp();
    }
    steps.push({ do: "render" });
    await playStep(d, server, { do: "render" }, { rooms });
    stamp();
  });
  return { driver, server, steps };
}

/** A seed's configuration. */
export function seedConfig(seed: number): Config {
  return configFor(new Random(seed));
}

const FIELDS = [
  "messages",
  "status",
  "error",
  "isStreaming",
  "isServerStreaming",
  "isToolContinuation",
  "isRecovering",
  "suspended",
  "calls",
  "sent",
  "fetches",
  "errors",
] as const;
/** A field compared at each step. */
export type Field = (typeof FIELDS)[number];

/**
 * Message ids this tab minted (`m1`, `m2`, … in the recording, numbered over the whole run) renumbered in
 * order of appearance within one observation: a hook that mints an id nobody sees (the official one makes
 * one for a turn it aborts before any chunk) does not shift the names of every later message.
 */
function renumber(o: Observation): Observation {
  const names = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string" && /^m\d+$/.test(v)) {
      let n = names.get(v);
      if (!n) {
        n = `m${names.size + 1}`;
        names.set(v, n);
      }
      return n;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return {
    ...o,
    messages: walk(o.messages),
    sent: walk(o.sent) as unknown[],
    calls: o.calls.map((c) => JSON.stringify(walk(JSON.parse(c)))).sort(),
    server: walk(o.server),
  };
}

/** What an app sees after a step, in comparable form. */
function observe(s: Recorded): Observation {
  return renumber(observeRaw(s));
}

function observeRaw(s: Recorded): Observation {
  const v = s.view;
  return {
    label: s.label,
    messages: v ? v.messages : "(not rendered)",
    status: v ? v.status : "(not rendered)",
    error: v?.error,
    isStreaming: v?.isStreaming,
    isServerStreaming: v?.isServerStreaming,
    isToolContinuation: v?.isToolContinuation,
    isRecovering: v?.isRecovering,
    suspended: s.suspended,
    // Callbacks run for one step are compared as a set: their order within a step is not an app's concern.
    calls: s.calls.map((c) => JSON.stringify(c)).sort(),
    // Probe ids are random per probe; whether a probe went out is compared, not its id (each side's server
    // answers its own).
    sent: s.sent.map((f) => {
      const x = f as Record<string, unknown>;
      return typeof x.probeId === "string" ? { ...x, probeId: "P" } : x;
    }),
    fetches: s.fetches,
    errors: s.errors,
    server: s.server,
  };
}

/** One field that differs at one step. */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function diffs(p: Pair): FieldDiff[] {
  return FIELDS.filter((f) => !same(p.official[f], p.ours[f])).map((f) => ({
    field: f,
    official: p.official[f],
    ours: p.ours[f],
  }));
}

/** How many leaf values differ between the two sides (a value present on one side only counts once). */
function distance(p: Pair): number {
  let n = 0;
  const walk = (a: unknown, b: unknown) => {
    if (same(a, b)) return;
    const obj = (v: unknown) => v !== null && typeof v === "object";
    if (obj(a) && obj(b) && Array.isArray(a) === Array.isArray(b)) {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk(x[k], y[k]);
      return;
    }
    n++;
  };
  // Calls are JSON strings: compared as data, so a normaliser that fixes part of one counts.
  const data = (o: Observation, f: Field) => (f === "calls" ? o.calls.map((c) => JSON.parse(c)) : o[f]);
  for (const f of FIELDS) walk(data(p.official, f), data(p.ours, f));
  return n;
}

/** The outcome of comparing one run. */
export interface Verdict {
  /** Entries that explained something, with how often. */
  matched: Map<string, number>;
  /** The entry that explained a divergence, after which the run was not compared. */
  divergedBy?: { name: string; step: number };
  /** An unexplained difference: the step and fields. */
  failure?: { step: number; label: string; diffs: FieldDiff[] };
  steps: number;
}

/** Compares the two recordings step by step through the named differences. */
export function judge(official: SideRun, ours: SideRun, cfg: Config, steps: Step[]): Verdict {
  const a = official.driver.steps;
  const b = ours.driver.steps;
  const matched = new Map<string, number>();
  const hit = (e: Difference) => matched.set(e.name, (matched.get(e.name) ?? 0) + 1);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ra = a[i];
    const rb = b[i];
    if (!ra || !rb || ra.label !== rb.label)
      return {
        matched,
        failure: { step: i, label: `${ra?.label} / ${rb?.label}`, diffs: [] },
        steps: n,
      };
    let pair: Pair = { official: observe(ra), ours: observe(rb) };
    const ctx = { cfg, step: i, steps, official: official.driver, ours: ours.driver, label: ra.label };
    for (const e of DIFFERENCES) {
      if (!e.normalise) continue;
      const before = distance(pair);
      if (before === 0) break;
      const next = e.normalise(pair, ctx);
      // It explained something if the two sides are closer for it.
      if (next && distance(next) < before) {
        hit(e);
        pair = next;
      }
    }
    const left = diffs(pair);
    if (left.length === 0) continue;
    for (const e of DIFFERENCES)
      if (e.diverges?.({ pair, diffs: left }, ctx)) {
        hit(e);
        return { matched, divergedBy: { name: e.name, step: i }, steps: n };
      }
    return { matched, failure: { step: i, label: ra.label, diffs: left }, steps: n };
  }
  return { matched, steps: n };
}

/** One seed, both sides. */
export async function runSeed(seed: number, steps?: Step[]) {
  return runCase(seedConfig(seed), steps, seed);
}

/** A configuration and steps (chosen from `seed` when not given), both sides. */
export async function runCase(cfg: Config, steps?: Step[], seed = 0) {
  const official = await playSide("official", seed, cfg, steps);
  const ours = await playSide("ours", seed, cfg, official.steps);
  return { cfg, steps: official.steps, official, ours, verdict: judge(official, ours, cfg, official.steps) };
}

/** The failure's signature: the step label's action and the fields, to keep shrinking on the same bug. */
const signature = (v: Verdict) =>
  v.failure
    ? `${v.failure.diffs
        .map((d) => d.field)
        .sort()
        .join(",")}`
    : undefined;

/**
 * Deletes steps while the run still fails with the same fields differing (delta debugging: chunks, then
 * single steps), within `budget` replays.
 */
export async function shrink(seed: number, steps: Step[], verdict: Verdict, budget = 60) {
  const want = signature(verdict);
  let best = steps;
  let bestVerdict = verdict;
  let runs = 0;
  const fails = async (candidate: Step[]) => {
    runs++;
    const r = await runSeed(seed, candidate);
    if (r.verdict.failure && signature(r.verdict) === want) {
      bestVerdict = r.verdict;
      return true;
    }
    return false;
  };
  // Nothing after the failing step matters.
  const cut = best.slice(0, Math.max(1, (verdict.failure?.step ?? best.length) - 0));
  if (runs < budget && (await fails(cut))) best = cut;
  let chunk = Math.max(1, Math.floor(best.length / 2));
  while (chunk >= 1 && runs < budget) {
    let removed = false;
    for (let i = 0; i + chunk <= best.length && runs < budget; ) {
      const candidate = [...best.slice(0, i), ...best.slice(i + chunk)];
      if (candidate.length > 0 && (await fails(candidate))) {
        best = candidate;
        removed = true;
      } else i += chunk;
    }
    if (!removed) chunk = Math.floor(chunk / 2);
  }
  return { steps: best, verdict: bestVerdict, runs };
}

/** A failing seed in words: the configuration, the steps, the difference, both recordings around it. */
export function report(
  seed: number,
  cfg: Config,
  steps: Step[],
  verdict: Verdict,
  official: Driver,
  ours: Driver,
  file: string,
): string {
  const f = verdict.failure;
  const lines = [
    `seed ${seed}: an unlisted difference at step ${f?.step} "${f?.label}"`,
    `  replay: RUNBOARD_DIFF_SEED=${seed} npx vitest run --project jsdom ${file}`,
    `  these steps only: RUNBOARD_DIFF_SEED=${seed} RUNBOARD_DIFF_STEPS='${JSON.stringify(steps)}' npx vitest run --project jsdom ${file}`,
    `  config ${JSON.stringify(cfg)}`,
    "  steps (step 0 is the mount):",
    ...steps.map((s, i) => `    ${i + 1}. ${describeStep(s)}`),
    ...(f?.diffs ?? []).map(
      (d) =>
        `  ${d.field}:\n    official ${JSON.stringify(d.official)}\n    ours     ${JSON.stringify(d.ours)}`,
    ),
    "--- official (steps before the difference in short, then in full)",
    around(official, f?.step ?? 0),
    "--- ours",
    around(ours, f?.step ?? 0),
  ];
  return lines.join("\n");
}

/** A recording's steps up to `at`: the earlier ones as their first line, the last two in full. */
function around(d: Driver, at: number): string {
  const full = dump(d).split(/\n(?=#\d+ )/);
  return full
    .slice(0, at + 1)
    .map((s, i) => (i >= at - 1 || process.env.RUNBOARD_DIFF_FULL === "1" ? s : (s.split("\n")[0] as string)))
    .join("\n");
}
