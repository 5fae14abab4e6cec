// Agent-tool runs at scale: does the cost of one frame grow with what came before it? Median µs per frame over
// the last 500 frames, once a run already has 2,000 or 8,000 milestones, and once there are 2,000 or 8,000
// runs; the 8k/2k ratio says how the per-frame cost grows (≈1× flat, ≈4× linear in the history).
// Contenders: the client store (`AgentToolRuns`, frames as message events, every frame published, progress
// saved to an in-memory Storage), the protocol reducer with a snapshot read after every frame, and the
// official reducer (`applyAgentToolEvent` from agents/chat, which keeps no storage), each parsing the frame.
// BENCH_BASELINE=<checkout> also measures that checkout's built packages (e.g. a `git worktree` at the commit
// before the fix, with its own `node_modules/@runboard` links) and keeps its figures in
// bench/runs-scale-baseline.json for later runs; the old code's 8,000-run case is skipped (its 16,000 warm-up
// frames alone take minutes: that is the bug). BENCH_CURRENT=<checkout> measures another checkout as "current"
// (when the shared tree does not build); BENCH_SCENARIOS=milestones,runs picks cases. Not a test. `npm run bench:runs`.
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
const progress = (runId, n) =>
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
    n,
    `call_${runId}`,
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

/** Contenders: `make()` returns a function taking one raw frame. */
function contenders(pkgs) {
  return {
    "client store + storage": () => {
      const listeners = [];
      const map = new Map();
      const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
      const agent = {
        addEventListener: (_t, fn) => listeners.push(fn),
        removeEventListener: () => {},
      };
      const store = new pkgs.client.AgentToolRuns({ agent, storage, storageKey: "bench", throttleMs: 0 });
      return {
        apply: (raw) => {
          for (const fn of listeners) fn({ data: raw });
        },
        done: () => store.dispose(),
      };
    },
    "reducer, snapshot per frame": () => {
      const reducer = new pkgs.protocol.AgentToolRunsReducer();
      return {
        apply: (raw) => {
          const r = pkgs.protocol.parseServerFrame(raw);
          if (r.kind === "frame") reducer.apply(r.frame);
          void reducer.state;
        },
        done: () => {},
      };
    },
  };
}

const official = () => {
  let state = createAgentToolEventState();
  return {
    apply: (raw) => {
      state = applyAgentToolEvent(state, JSON.parse(raw));
    },
    done: () => {},
  };
};

/** Median µs of each of the timed frames, after the warm frames built the history. */
function perFrame(make, { warm, timed }) {
  const c = make();
  for (const raw of warm) c.apply(raw);
  const us = [];
  for (const raw of timed) {
    const t0 = performance.now();
    c.apply(raw);
    us.push((performance.now() - t0) * 1000);
  }
  c.done();
  return median(us);
}

async function measureAll(pkgs, withOfficial, skip = () => false) {
  const out = {};
  const list = { ...contenders(pkgs), ...(withOfficial ? { "official applyAgentToolEvent": official } : {}) };
  const only = process.env.BENCH_SCENARIOS?.split(",");
  for (const [scenario, frames] of [
    ["milestones", milestoneFrames],
    ["runs", runFrames],
  ].filter(([s]) => !only || only.includes(s)))
    for (const [name, make] of Object.entries(list)) {
      const row = {};
      for (const n of SIZES) {
        if (skip(scenario, n)) {
          row[n] = Number.NaN;
          continue;
        }
        const t0 = performance.now();
        row[n] = perFrame(make, frames(n));
        console.log(
          `${scenario} ${n}: ${name} ${f2(row[n])} µs/frame (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
        );
      }
      out[`${scenario}|${name}`] = row;
    }
  return out;
}

const current = await measureAll(await load(path.resolve(process.env.BENCH_CURRENT ?? ".")), true);
let baseline;
if (process.env.BENCH_BASELINE) {
  const root = path.resolve(process.env.BENCH_BASELINE);
  console.log(`baseline: ${root}`);
  baseline = {
    measured: stamp(),
    root: path.basename(root),
    figures: await measureAll(await load(root), false, (s, n) => s === "runs" && n > SIZES[0]),
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
  `Machine: ${machine()}. Median µs per frame over the last ${LAST} frames, once one run already has 2,000 or 8,000 milestones ("milestones"), or once there are 2,000 or 8,000 runs, each from its own tool call, with one progress each ("runs", the timed frames are progress frames spread over the runs). The store parses each frame from a message event, publishes after every frame (\`throttleMs: 0\`) and saves progress to an in-memory Storage; every contender parses the frame. 8k / 2k ≈ 1× means the cost of a frame does not grow with the history, ≈ 4× that it grows linearly.`,
  "",
  ...head,
  ...table(current),
  "",
  ...(baseline
    ? [
        `Before the fix (${baseline.root}, measured ${baseline.measured}, same machine and script):`,
        "",
        ...head,
        ...table(baseline.figures),
        "",
      ]
    : []),
  "The official reducer keeps no storage. In the runs case a published snapshot still copies the id index (a shallow copy of every run's entry, needed so the previous snapshot stays as it was); a browser publishes at most once per animation frame, so that copy is paid per frame shown, not per wire frame.",
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
