// Agent-tool runs at scale: does the cost of one frame grow with what came before it? Two parts.
//
// "Runs at scale": mean µs per frame over the last 500 frames, once a run already has 2,000 or 8,000
// milestones, and once there are 2,000 or 8,000 runs; the 8k/2k ratio says how the per-frame cost grows (≈1×
// flat, ≈4× linear in the history). Contenders: the client store (`AgentToolRuns`, frames as message events,
// every frame published, progress saved to an in-memory Storage) and the protocol reducer, each with the whole
// state read every 16 frames or every frame, and the official reducer (`applyAgentToolEvent` from agents/chat,
// no storage, a new state per frame), each parsing the frame. Histories are built without O(n²) set-up (see
// `warm`).
//
// "Runs over a long session" (issue 26 §2): one session streamed from its first frame to its last (140,000
// frames of distinct runs, one run's 400,000 milestones, 200,000 milestones in descending order, 600,000
// distinct progress ids), the per-frame cost measured in a window before each checkpoint, one read after a
// change timed at each checkpoint, and the heap after a GC there; late / early says whether the session got
// slower with age, bytes per item whether memory grows with it. BENCH_LONG_BASELINE=save keeps the figures as
// the "before" of bench/runs-long-baseline.json (measured on the commit before the fix).
//
// BENCH_BASELINE=<checkout> also measures that checkout's built packages (e.g. a `git worktree` at the commit
// before the fix, with its own `node_modules/@runboard` links) and keeps its figures in
// bench/runs-scale-baseline.json for later runs. BENCH_CURRENT=<checkout> measures another checkout as "current"
// (when the shared tree does not build); BENCH_SCENARIOS=milestones,runs,long-runs,long-milestones,
// long-descending,long-progress picks cases. Not a test. `npm run bench:runs`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "./lib/build.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2, median } from "./lib/stats.mjs";

build("packages/protocol", "packages/client");
const SIZES = [2_000, 8_000];
const LAST = 500;
const BASELINE_FILE = new URL("runs-scale-baseline.json", import.meta.url);

const load = async (root) => ({
  client: await import(pathToFileURL(path.join(root, "packages/client/dist/index.js")).href),
  protocol: await import(pathToFileURL(path.join(root, "packages/protocol/dist/index.js")).href),
});
const { applyAgentToolEvent, createAgentToolEventState } = await import("agents/chat");

const frame = (runId, event, sequence, parent) =>
  JSON.stringify({
    type: "agent-tool-event",
    sequence,
    ...(parent ? { parentToolCallId: parent } : {}),
    event: { runId, ...event },
  });
const started = (runId, parent, order = 0) =>
  frame(runId, { kind: "started", agentType: "Researcher", order, display: { name: "Research" } }, 0, parent);
const milestone = (runId, seq) =>
  frame(
    runId,
    {
      kind: "chunk",
      body: JSON.stringify({
        type: "data-agent-milestone",
        data: { name: `step-${seq}`, sequence: seq, at: 1_700_000_000_000 + seq, fraction: seq / 1e5 },
      }),
    },
    1,
    "call_1",
  );
/** Progress report `n` of a run, at sequence `seq` (default `n`), of tool call `parent`. */
const progress = (runId, n, seq = n, parent = `call_${runId}`) =>
  frame(
    runId,
    {
      kind: "chunk",
      body: JSON.stringify({
        type: "data-agent-progress",
        id: `p-${n}`,
        transient: true,
        data: { fraction: (n % 100) / 100, message: `step ${n}` },
      }),
    },
    seq,
    parent,
  );

/** One run, `history` milestones, then 500 more. */
function milestoneFrames(history) {
  const warm = [started("run-1", "call_1")];
  for (let i = 0; i < history; i++) warm.push(milestone("run-1", i));
  const timed = [];
  for (let i = history; i < history + LAST; i++) timed.push(milestone("run-1", i));
  return { warm, timed };
}

/** `count` runs (each from its own tool call) with one progress each, then 500 progress frames across them. */
function runFrames(count) {
  const warm = [];
  for (let i = 0; i < count; i++) warm.push(started(`r${i}`, `call_r${i}`, i), progress(`r${i}`, 1));
  const timed = [];
  const stride = Math.floor(count / LAST);
  for (let i = 0; i < LAST; i++) timed.push(progress(`r${i * stride}`, 2 + i));
  return { warm, timed };
}

/**
 * Contenders: `make(readEvery)` returns `{ warm(frames), apply(raw), done() }`. `readEvery` is how often the
 * consumer reads the whole state: 16 (one render per animation frame at 1,000 frames/s) or 1 (every frame).
 */
function contenders(pkgs) {
  return {
    "client store + storage": (readEvery) => {
      const listeners = [];
      const map = new Map();
      const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
      const agent = {
        addEventListener: (_t, fn) => listeners.push(fn),
        removeEventListener: () => {},
      };
      // Coalesced while the history is built (one publish at the end instead of one per warm frame, which is
      // O(runs²) for a store that builds its state per publish); then every frame publishes, as
      // `throttleMs: 0` does (the store's notifier is swapped: a bench-only reach into a private field).
      const store = new pkgs.client.AgentToolRuns({ agent, storage, storageKey: "bench", throttleMs: 1 });
      let heard = 0;
      store.subscribe(() => {
        if (readEvery && ++heard % readEvery === 0) void store.getSnapshot();
      });
      const deliver = (raw) => {
        for (const fn of listeners) fn({ data: raw });
      };
      return {
        warm: (frames) => {
          for (const raw of frames) deliver(raw);
          store.changed = () => store.publish();
          store.publish();
          void store.getSnapshot();
        },
        apply: deliver,
        done: () => store.dispose(),
      };
    },
    reducer: (readEvery) => {
      const reducer = new pkgs.protocol.AgentToolRunsReducer();
      let n = 0;
      const apply = (raw) => {
        const r = pkgs.protocol.parseServerFrame(raw);
        if (r.kind === "frame") reducer.apply(r.frame);
      };
      return {
        warm: (frames) => {
          for (const raw of frames) apply(raw);
          void reducer.state;
        },
        apply: (raw) => {
          apply(raw);
          if (readEvery && ++n % readEvery === 0) void reducer.state;
        },
        done: () => {},
      };
    },
  };
}

/**
 * What the public shape costs at the least: per read, a new id index and tool-call index (plain records, the
 * previous state unchanged) and a new array for the run whose milestones grew. Copied every 16 frames from a
 * state built untimed, with nothing else done (no parse, no reducer): the part of "read every 16 frames" that no
 * implementation of this shape avoids.
 */
const shapeMinimum = (pkgs) => () => {
  let state;
  let n = 0;
  return {
    warm: (frames) => {
      const reducer = new pkgs.protocol.AgentToolRunsReducer();
      for (const raw of frames) {
        const r = pkgs.protocol.parseServerFrame(raw);
        if (r.kind === "frame") reducer.apply(r.frame);
      }
      state = reducer.state;
    },
    apply: () => {
      if (++n % 16 !== 0) return;
      void Object.assign(Object.create(null), state.runsById);
      void Object.assign(Object.create(null), state.runsByToolCallId);
      void state.runsById["run-1"]?.milestones.slice();
    },
    done: () => {},
  };
};

/**
 * The official reducer builds a whole new state per frame (a spread of the id index and its groups rebuilt),
 * so it reads "every frame" in both modes. Its history is built run by run and joined once: applying 16,000
 * warm frames in a row to one state is itself O(runs²).
 */
const official = () => {
  let state = createAgentToolEventState();
  return {
    warm: (frames) => {
      const perRun = new Map();
      for (const raw of frames) {
        const msg = JSON.parse(raw);
        const id = msg.event.runId;
        perRun.set(id, applyAgentToolEvent(perRun.get(id) ?? createAgentToolEventState(), msg));
      }
      const runsById = {};
      for (const s of perRun.values()) Object.assign(runsById, s.runsById);
      // Its indexes are rebuilt from runsById by the next frame it applies.
      state = { runsById, runsByToolCallId: {}, unboundRuns: [] };
    },
    apply: (raw) => {
      state = applyAgentToolEvent(state, JSON.parse(raw));
    },
    done: () => {},
  };
};

/**
 * Mean µs of CPU time (this process, user + system) per frame over the timed frames: with a read every 16
 * frames the median misses the reads. CPU time rather than wall time: on the shared, loaded machine the wall
 * clock also counts the time other processes held the cores (figures swung 2-5x between runs).
 */
function meanPerFrame(make, readEvery, { warm, timed }) {
  const c = make(readEvery);
  c.warm(warm);
  const t0 = process.cpuUsage();
  for (const raw of timed) c.apply(raw);
  const used = process.cpuUsage(t0);
  const us = (used.user + used.system) / timed.length;
  c.done();
  return us;
}

// How often the whole state is read: 0 = never while timed (the ingest alone). BENCH_READS=0,16,1 picks.
const READS = (process.env.BENCH_READS ?? "16,1").split(",").map(Number);

const readLabel = (every) =>
  every === 0 ? "no read" : `read every ${every === 1 ? "frame" : `${every} frames`}`;

async function measureAll(pkgs, withOfficial) {
  const out = {};
  const list = contenders(pkgs);
  const only = process.env.BENCH_SCENARIOS?.split(",");
  for (const [scenario, frames] of [
    ["milestones", milestoneFrames],
    ["runs", runFrames],
  ].filter(([s]) => !only || only.includes(s))) {
    const rows = [];
    for (const [name, make] of Object.entries(list))
      for (const every of READS) rows.push([`${name}, ${readLabel(every)}`, make, every]);
    rows.push([
      "public shape's minimum: the indexes (and the grown list) copied every 16 frames",
      shapeMinimum(pkgs),
      16,
    ]);
    if (withOfficial) rows.push(["official applyAgentToolEvent (new state per frame)", official, 1]);
    for (const [name, make, every] of rows) {
      const row = {};
      for (const n of SIZES) {
        const t0 = performance.now();
        row[n] = meanPerFrame(make, every, frames(n));
        console.log(
          `${scenario} ${n}: ${name} ${f2(row[n])} µs/frame (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
      out[`${scenario}|${name}`] = row;
    }
  }
  return out;
}

const ONLY = process.env.BENCH_SCENARIOS?.split(",");
const picked = (scenario) => !ONLY || ONLY.includes(scenario);
const currentPkgs = await load(path.resolve(process.env.BENCH_CURRENT ?? "."));

if (picked("milestones") || picked("runs")) await runsAtScale();

async function runsAtScale() {
  const current = await measureAll(currentPkgs, process.env.BENCH_OFFICIAL !== "0");
  let baseline;
  if (process.env.BENCH_BASELINE) {
    const root = path.resolve(process.env.BENCH_BASELINE);
    console.log(`baseline: ${root}`);
    baseline = {
      measured: stamp(),
      root: path.basename(root),
      figures: await measureAll(await load(root), false),
    };
    if (!process.env.NO_WRITE) writeFileSync(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
  } else if (existsSync(BASELINE_FILE)) baseline = JSON.parse(readFileSync(BASELINE_FILE, "utf8"));

  const ratio = (row) => row[SIZES[1]] / row[SIZES[0]];
  const table = (figures) =>
    Object.entries(figures).map(([key, row]) => {
      const [scenario, name] = key.split("|");
      const big = Number.isNaN(row[SIZES[1]]) ? "not run" : f2(row[SIZES[1]]);
      const r = Number.isNaN(row[SIZES[1]]) ? "—" : `**${f2(ratio(row))}×**`;
      return `| ${scenario} | ${name} | ${f2(row[SIZES[0]])} | ${big} | ${r} |`;
    });
  const head = [
    "| history | contender | µs/frame at 2k | µs/frame at 8k | 8k / 2k |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  const lines = [
    `## Runs at scale (${stamp()})`,
    "",
    `Machine: ${machine()}. Mean µs of CPU time (user + system, this process) per frame over the last ${LAST} frames (mean, not median: with a read every 16 frames the reads are the cost), once one run already has 2,000 or 8,000 milestones ("milestones"), or once there are 2,000 or 8,000 runs, each from its own tool call, with one progress each ("runs", the timed frames are progress frames spread over the runs). The history is built without a read (one at its end). The store parses each frame from a message event, publishes after every frame (as \`throttleMs: 0\`) and saves progress to an in-memory Storage; a subscriber reads the whole state (\`getSnapshot()\`) every 16th or every notification, as \`useSyncExternalStore\` does once per render. Every contender parses the frame. 8k / 2k ≈ 1× means the cost of a frame does not grow with the history, ≈ 4× that it grows linearly.`,
    "",
    ...head,
    ...table(current),
    "",
    ...(baseline
      ? [
          `Before the fix (${baseline.root}, measured ${baseline.measured}, same machine; wall time, as the script measured then):`,
          "",
          ...head,
          ...table(baseline.figures),
          "",
        ]
      : []),
    'Since issue 26 §2 a run keeps its newest 1,000 milestones (`maxMilestones`), so the milestones rows at 8k hold 1,000 and no longer grow; the runs rows hold 2,000 or 8,000 runs that are still running, which `maxFinishedRuns` never evicts, so they grow as the text below says (finished runs are bounded: see "Runs over a long session"). What grows, and why: a frame itself costs the same whatever the history (without reads the store\'s frame is flat; the ingest is parse, dedupe by a Set, an append or a binary-search insert). A read of the whole state after a change must hand out a new `runsById` and a new `runsByToolCallId` (plain records with one entry per run and per tool call, the official shape; the previous state must stay as it was for whoever holds it) and a new `milestones` array for a run whose list grew. Writing a record of n entries, or an array of n elements, is O(n): no implementation of this shape reads in O(changed). The row "public shape\'s minimum" measures that copy alone, once per 16 frames, from an already built state. The reducer and the store copy exactly that and nothing else per read (counted, not timed, in packages/protocol/src/agent-tool-runs-scale.test.ts and packages/client/src/agent-tool-runs-lazy.test.ts): unchanged runs, groups and milestone arrays are shared, frames between reads add no copy, a read without a change copies nothing. Copying a null-prototype record grows faster than its size (8k / 2k ≈ 5-6× for 4× the entries: V8 keeps such records as hash tables, and the larger ones no longer fit the caches), so the runs rows grow a little faster than linear for the same reason. Lifting it would take a different public shape (a Map, or indexes that are not plain records) or Proxy-backed records, which are not plain objects (structuredClone throws on them, and every property read goes through a trap).',
  ];
  console.log(lines.join("\n"));
  writeSection("Runs at scale", lines);
  recordFigures(
    "runs",
    Object.entries(current).map(([key, row]) => ({
      name: `${key.replace("|", ": ")}, per-frame cost 8k / 2k`,
      value: ratio(row),
      unit: "×",
    })),
  );
}

// ───────────────────────────── Runs over a long session (issue 26 §2) ─────────────────────────────

const LONG_BASELINE_FILE = new URL("runs-long-baseline.json", import.meta.url);
/**
 * Frames timed before each checkpoint (a read every 16 of them, as one render per animation frame); all the
 * frames before it when there are fewer.
 */
const WINDOW = 4_096;
/** Reads timed at each checkpoint, each after one more frame of the session. */
const READS_AT = 32;
/** The official reducer stops at the checkpoint where its CPU time passed this (ms): it is O(history) a frame. */
const OFFICIAL_BUDGET_MS = Number(process.env.BENCH_OFFICIAL_BUDGET_MS ?? 60_000);

/**
 * The sessions: `frame(i)` is the session's i-th frame (made on the fly, so the session's text is not held in
 * memory), `items(i)` how many finished items (runs, milestones, progress ids) i frames made.
 */
const LONG_SESSIONS = {
  "long-runs": {
    label: "distinct runs (started, progress, finished; each its own tool call)",
    total: 140_000,
    checkpoints: [8_750, 17_500, 35_000, 70_000, 140_000],
    item: "finished run",
    items: (i) => Math.floor(i / 3),
    frame: (i) => {
      const k = Math.floor(i / 3);
      const id = `r${k}`;
      if (i % 3 === 0) return started(id, `call_${id}`);
      if (i % 3 === 1) return progress(id, 1);
      return frame(id, { kind: "finished", summary: `done ${k}` }, 2, `call_${id}`);
    },
  },
  "long-milestones": {
    label: "one run's milestones, ascending",
    total: 400_000,
    checkpoints: [25_000, 50_000, 100_000, 200_000, 400_000],
    item: "milestone",
    items: (i) => Math.max(0, i - 1),
    frame: (i) => (i === 0 ? started("run-1", "call_1") : milestone("run-1", i - 1)),
  },
  "long-descending": {
    label: "one run's milestones, descending sequence",
    total: 200_000,
    checkpoints: [12_500, 25_000, 50_000, 100_000, 200_000],
    item: "milestone",
    items: (i) => Math.max(0, i - 1),
    // From 200,000 + the reads after the last checkpoint down to 1.
    frame: (i) => (i === 0 ? started("run-1", "call_1") : milestone("run-1", 200_000 + READS_AT - i)),
  },
  "long-progress": {
    // All at one sequence, as the real server numbers a child that reports progress and stores no chunk
    // (docs/protocol.md#agent-tool-dedupe): ordering alone cannot tell them apart, only their ids.
    label: "one run's distinct progress ids, one sequence",
    total: 600_000,
    checkpoints: [37_500, 75_000, 150_000, 300_000, 600_000],
    item: "progress id",
    items: (i) => Math.max(0, i - 1),
    frame: (i) => (i === 0 ? started("run-1", "call_1") : progress("run-1", i, 1, "call_1")),
  },
};

const { setFlagsFromString } = await import("node:v8");
const { runInNewContext } = await import("node:vm");
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * Long-session contenders: `{ apply(raw), read(), done() }`. `read` reads the whole state as a render does;
 * `null` for the official reducer, whose state is new after every frame anyway.
 */
function longContenders(pkgs) {
  return {
    "client store + storage": () => {
      const listeners = [];
      const map = new Map();
      const storage = {
        getItem: (k) => map.get(k) ?? null,
        setItem: (k, v) => void map.set(k, v),
        removeItem: (k) => void map.delete(k),
      };
      const agent = { addEventListener: (_t, fn) => listeners.push(fn), removeEventListener: () => {} };
      const store = new pkgs.client.AgentToolRuns({ agent, storage, storageKey: "bench", throttleMs: 1 });
      // Every frame publishes, as `throttleMs: 0` (a bench-only reach into a private field, as above).
      store.changed = () => store.publish();
      return {
        apply: (raw) => {
          for (const fn of listeners) fn({ data: raw });
        },
        read: () => store.getSnapshot(),
        done: () => store.dispose(),
      };
    },
    reducer: () => {
      const reducer = new pkgs.protocol.AgentToolRunsReducer();
      return {
        apply: (raw) => {
          const r = pkgs.protocol.parseServerFrame(raw);
          if (r.kind === "frame") reducer.apply(r.frame);
        },
        read: () => reducer.state,
        done: () => {},
      };
    },
    "official applyAgentToolEvent": () => {
      let state = createAgentToolEventState();
      return {
        apply: (raw) => {
          state = applyAgentToolEvent(state, JSON.parse(raw));
        },
        read: null,
        done: () => {},
      };
    },
  };
}

const cpuUs = (t0) => {
  const u = process.cpuUsage(t0);
  return u.user + u.system;
};

/**
 * Streams one session through one contender. Per checkpoint: mean µs per frame over the `WINDOW` frames before
 * it (a read every 16 frames, the state read once untimed before the window so it starts clean), mean µs of
 * one read after one more frame (`READS_AT` times), and the heap after a GC. Frames outside the windows are
 * applied without reads (a read there would only add work the windows do not measure).
 */
function streamSession(session, make, budgetMs = Number.POSITIVE_INFINITY) {
  const c = make();
  const points = [];
  let i = 0;
  const start = process.cpuUsage();
  const over = () => cpuUs(start) / 1000 > budgetMs;
  for (const cp of session.checkpoints) {
    for (; i < cp - WINDOW; i++) {
      c.apply(session.frame(i));
      // Checked between checkpoints too: the official reducer takes minutes to reach the next one.
      if (i % 1024 === 0 && over()) break;
    }
    if (i < cp - WINDOW) break;
    c.read?.();
    const frames = [];
    for (let k = i; k < cp; k++) frames.push(session.frame(k));
    const w0 = process.cpuUsage();
    for (let k = 0; k < frames.length; k++) {
      c.apply(frames[k]);
      if (c.read && (k + 1) % 16 === 0) c.read();
    }
    const perFrame = cpuUs(w0) / frames.length;
    i = cp;
    let readUs = Number.NaN;
    if (c.read) {
      // The median of single reads: a read is a few µs to a few ms, so one GC landing in one of them moved a
      // mean 20×. A GC first, so the reads start from a clean heap.
      gc();
      const reads = [];
      // The frames after the checkpoint (past the last one too: every session's `frame` goes on).
      for (let k = 0; k < READS_AT; k++, i++) {
        c.apply(session.frame(i));
        const r0 = process.cpuUsage();
        c.read();
        reads.push(cpuUs(r0));
      }
      readUs = median(reads);
    }
    const heap = heapAfterGc();
    points.push({ at: cp, items: session.items(i), perFrame, readUs, heap });
    console.log(
      `  ${cp}: ${f2(perFrame)} µs/frame, read ${f2(readUs)} µs, heap ${(heap / 2 ** 20).toFixed(1)} MiB (${(cpuUs(start) / 1e6).toFixed(1)} s)`,
    );
    if (over()) break;
  }
  c.done();
  return points;
}

function measureLong(pkgs) {
  const out = {};
  for (const [key, session] of Object.entries(LONG_SESSIONS)) {
    if (!picked(key)) continue;
    for (const [name, make] of Object.entries(longContenders(pkgs))) {
      console.log(`${key}: ${name}`);
      const official = name.startsWith("official");
      if (official && process.env.BENCH_OFFICIAL === "0") continue;
      out[`${key}|${name}`] = streamSession(session, make, official ? OFFICIAL_BUDGET_MS : undefined);
    }
  }
  return out;
}

/** Late / early figures of one contender's checkpoints. */
function longFigures(key, points) {
  const session = LONG_SESSIONS[key.split("|")[0]];
  const first = points[0];
  const last = points[points.length - 1];
  // Only over a whole session: the official reducer stopped early has two close checkpoints at most, where
  // what the GC had left of the contender before moved the difference by tens of KB per item.
  const bytes =
    last.at === session.total && points.length > 1 && last.items > first.items
      ? (last.heap - first.heap) / (last.items - first.items)
      : Number.NaN;
  return {
    first,
    last,
    reached: last.at === session.total ? "" : ` (stopped at ${last.at.toLocaleString("en")})`,
    // One checkpoint (the official reducer out of budget at the first) has no ratio.
    frameRatio: points.length > 1 ? last.perFrame / first.perFrame : Number.NaN,
    readRatio: points.length > 1 && typeof last.readUs === "number" ? last.readUs / first.readUs : Number.NaN,
    bytes,
  };
}

if (Object.keys(LONG_SESSIONS).some(picked)) {
  const current = measureLong(currentPkgs);
  if (process.env.BENCH_LONG_BASELINE === "save" && !process.env.NO_WRITE)
    writeFileSync(
      LONG_BASELINE_FILE,
      `${JSON.stringify({ measured: stamp(), commit: process.env.BENCH_LONG_COMMIT ?? "", figures: current }, null, 2)}\n`,
    );
  const before = existsSync(LONG_BASELINE_FILE) ? JSON.parse(readFileSync(LONG_BASELINE_FILE, "utf8")) : null;
  // A figure not measured is NaN here and null once read back from the baseline's JSON.
  const us = (x) => (typeof x === "number" && !Number.isNaN(x) ? f2(x) : "—");
  const x = (r) => (Number.isFinite(r) ? `**${f2(r)}×**` : "—");
  const bytes = (b) => (Number.isNaN(b) ? "—" : `${Math.round(b)}`);
  const table = (figures) =>
    Object.entries(figures).map(([key, points]) => {
      const [scenario, name] = key.split("|");
      const f = longFigures(key, points);
      const session = LONG_SESSIONS[scenario];
      return `| ${session.label} | ${name}${f.reached} | ${f.first.at.toLocaleString("en")} → ${f.last.at.toLocaleString("en")} | ${us(f.first.perFrame)} → ${us(f.last.perFrame)} | ${x(f.frameRatio)} | ${us(f.first.readUs)} → ${us(f.last.readUs)} | ${x(f.readRatio)} | ${bytes(f.bytes)} per ${session.item} |`;
    });
  const head = [
    "| session | contender | frames (first → last checkpoint) | µs/frame | late / early | µs per read after a change | late / early | heap growth |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  const lines = [
    `## Runs over a long session (${stamp()})`,
    "",
    `Machine: ${machine()}. Each session streamed from its first frame to its last through one contender; at each checkpoint (${Object.values(
      LONG_SESSIONS,
    )
      .map((s) => s.checkpoints.map((c) => c.toLocaleString("en")).join(", "))
      .join(
        "; ",
      )}) the mean µs of CPU time per frame over the ${WINDOW.toLocaleString("en")} frames before it (the whole state read every 16 frames, as one render per animation frame at 1,000 frames/s; frames outside the windows are applied without reads), the median µs of one read after one more frame (${READS_AT} of them, after a GC), and the heap after a GC. "late / early" is last checkpoint / first (target ≤ 2×); heap growth is (heap at the last − at the first checkpoint) / items made in between (a few bytes either way, negative too, is the GC's noise: nothing is kept per item). The store parses each frame from a message event, publishes every frame and saves progress to an in-memory Storage (counted in its heap). The official reducer (\`applyAgentToolEvent\`, agents/chat, a new state per frame, no reads) stops at the checkpoint where it has used ${OFFICIAL_BUDGET_MS / 1000} s of CPU. Defaults: \`maxFinishedRuns\` and \`maxMilestones\` as documented in packages/client/README.md.`,
    "",
    ...head,
    ...table(current),
    "",
    ...(before
      ? [
          `Before the fix (${before.commit || "the commit before"}, measured ${before.measured}, same machine and script):`,
          "",
          ...head,
          ...table(before.figures),
          "",
        ]
      : []),
  ];
  console.log(lines.join("\n"));
  writeSection("Runs over a long session", lines);
  recordFigures(
    "runs",
    Object.entries(current).flatMap(([key, points]) => {
      const f = longFigures(key, points);
      const name = key.replace("|", ": ");
      return [
        {
          name: `long session, ${name}, per-frame cost late / early`,
          value: f.frameRatio,
          unit: "×",
          max: 2,
        },
        ...(Number.isFinite(f.readRatio)
          ? [
              {
                name: `long session, ${name}, read after a change late / early`,
                value: f.readRatio,
                unit: "×",
                max: 2,
              },
            ]
          : []),
      ];
    }),
  );
}
