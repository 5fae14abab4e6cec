// `npm run bench`: every benchmark, one after another, each in its own process (so none inherits another's heap,
// JIT state or timers), then every ratio against its target, and the header and `## Summary` of
// bench/RESULTS.md (each benchmark writes its own sections). `node bench/all.mjs client tools` runs a subset.
// Not tests: nothing fails on time; the exit code is non-zero only when a benchmark crashed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "./lib/build.mjs";
import { machine, stamp, verdict, writeHeader, writeSection } from "./lib/results.mjs";
import { f2 } from "./lib/stats.mjs";

const BENCHES = {
  protocol: { file: "run.mjs", what: "chat applier and agent-tool reducer vs agents/chat, floor" },
  client: { file: "client.mjs", what: "chat hooks in jsdom vs @cloudflare/ai-chat/react, floor" },
  tools: { file: "tools.mjs", what: "agent-tool runs through a rendered tray vs agents/react, floor" },
  runs: { file: "runs-scale.mjs", what: "per-frame cost of agent-tool runs at 2k vs 8k milestones / runs" },
  "chat-scale": {
    file: "chat-scale.mjs",
    args: ["--expose-gc"],
    what: "per-frame cost of a chat at the first and the last checkpoint: streams that never end, tool calls, turns",
  },
  memory: {
    file: "memory.mjs",
    what: "retained heap, 2,000 messages + 50 runs, vs the official hooks, floor",
  },
  bundle: { file: "bundle.mjs", what: "min + gzip of client + react vs agents/react + ai-chat/react" },
  load: { file: "mock-load.mjs", what: "mock server, 100 clients × 500 frames/s for 10 s" },
  consumer: {
    file: "consumer.mjs",
    what: "gzip of a Vite-built app, hooks only and every component, vs the same app on the official hooks",
  },
};
const picked = process.argv.slice(2);
for (const p of picked)
  if (!BENCHES[p]) throw new Error(`unknown bench "${p}"; one of ${Object.keys(BENCHES)}`);
const names = picked.length ? picked : Object.keys(BENCHES);
const command = picked.length ? `node bench/all.mjs ${picked.join(" ")}` : "npm run bench";

const fresh = build("packages/protocol", "packages/client", "packages/react", "mock-server");
const summary = path.join(os.tmpdir(), `runboard-bench-${process.pid}.jsonl`);
rmSync(summary, { force: true });
const env = { ...process.env, BENCH_BUILT: "1", BENCH_SUMMARY: summary };

const ran = [];
const started = new Date();
for (const name of names) {
  console.log(`\n━━━━━━━━ ${name}: ${BENCHES[name].what} ━━━━━━━━`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [...(BENCHES[name].args ?? []), fileURLToPath(new URL(BENCHES[name].file, import.meta.url))],
    {
      env,
      stdio: "inherit",
    },
  );
  ran.push({ name, status: r.status, seconds: (performance.now() - t0) / 1000 });
}

const figures = existsSync(summary)
  ? readFileSync(summary, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(summary, { force: true });

// Two decimals, or three where two would print the target itself for a figure on the wrong side of it.
const ratio = (f) => (f.max !== undefined && f2(f.value) === f2(f.max) ? f.value.toFixed(3) : f2(f.value));
const value = (f) =>
  f.unit === "×" ? `${ratio(f)}×` : f.unit === "%" ? `${f.value.toFixed(0)} %` : String(f.value);
const target = (f) => (f.max === undefined ? "—" : `≤ ${f.max}${f.unit === "×" ? "×" : ""}`);
const rows = figures.map(
  (f) => `| ${f.bench} | ${f.name} | ${value(f)} | ${target(f)} | ${verdict(f) || "—"} |`,
);
const met = figures.filter((f) => verdict(f) === "met").length;
const missed = figures.filter((f) => verdict(f) === "NOT met");
const crashed = ran.filter((r) => r.status !== 0);
const lines = [
  `## Summary (${stamp()})`,
  "",
  `Ratios are ours / official or ours / floor (the same frames only parsed), each from medians of several runs measured side by side in one run (see each section). ${met} of ${met + missed.length} targets met.`,
  "",
  "| bench | figure | value | target | |",
  "| --- | --- | ---: | ---: | --- |",
  ...rows,
  "",
  ...ran.map(
    (r) =>
      `- ${r.name} (\`${BENCHES[r.name].file}\`): ${r.seconds.toFixed(0)} s${r.status === 0 ? "" : `, exit code ${r.status}`}`,
  ),
  ...(fresh ? [] : ["- the TypeScript build failed; packages were measured from their previous `dist`"]),
];
console.log(`\n${lines.join("\n")}`);
if (missed.length) console.log(`\nNot met: ${missed.map((f) => f.name).join("; ")}`);
writeHeader([
  "# Benchmark results",
  "",
  `Command: \`${command}\` — started ${started.toISOString()}`,
  "",
  `Machine: ${machine()} (${os.loadavg()[0].toFixed(1)} load average at the end; the machine is shared, so only ratios measured side by side mean anything).`,
]);
writeSection("Summary", lines, { top: true });
process.exit(crashed.length ? 1 : 0);
