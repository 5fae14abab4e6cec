// bench:load sweep — bench/mock-load.mjs at several loads, to find the largest one the mock server carries with
// an event-loop delay p99 under 100 ms. Not a test. Run: `node bench/mock-load-sweep.mjs` (LOADS=10,25,50,100
// clients, RATE frames/s each as in mock-load.mjs). Writes the "Mock server under load" section of
// bench/RESULTS.md (NO_WRITE=1 only prints; LABEL names the column of code measured, e.g. "before").
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "./lib/build.mjs";
import { machine, stamp, writeSection } from "./lib/results.mjs";

const LOADS = (process.env.LOADS ?? "10,25,50,100").split(",").map(Number);
const LIMIT_MS = 100;
build("mock-server");

const rows = [];
for (const clients of LOADS) {
  const out = execFileSync(process.execPath, [fileURLToPath(new URL("./mock-load.mjs", import.meta.url))], {
    env: { ...process.env, CLIENTS: String(clients), NO_WRITE: "1", BENCH_BUILT: "1", RESULT_JSON: "1" },
    encoding: "utf8",
    // mock-load exits 1 when frames were lost; the row says so.
    stdio: ["ignore", "pipe", "inherit"],
  }).toString();
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  rows.push(JSON.parse(line.slice("RESULT ".length)));
  console.log(line);
}

const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
const ok = rows.filter((r) => r.loopP99 < LIMIT_MS && r.lost === 0).map((r) => r.clients);
const table = [
  `## Mock server under load (${stamp()})`,
  "",
  `Machine: ${machine()}. \`node bench/mock-load-sweep.mjs\`: \`bench/mock-load.mjs\` at ${LOADS.join(", ")} clients`,
  `× ${rows[0]?.rate ?? "?"} text-delta frames/s each (10 s streams, one agent instance per client, server in its own process).`,
  "",
  "| clients | frames/s, all clients | event-loop delay p99 / max | longest client pause between deltas: median / max | frames lost | server CPU | socket writes / frames | server peak RSS / heap |",
  "|---|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.clients} | ${r.clients * r.rate} | ${r.loopP99.toFixed(0)} / ${r.loopMax.toFixed(0)} ms | ${r.pauseMedian.toFixed(0)} / ${r.pauseMax.toFixed(0)} ms | ${r.lost} | ${(r.cpuMs / 1000).toFixed(1)} s | ${r.socketWrites ?? "?"} / ${r.framesSent ?? "?"} | ${mb(r.peakRss)} / ${mb(r.peakHeap)} |`,
  ),
  "",
  `Largest load measured with p99 < ${LIMIT_MS} ms and no frame lost: ${ok.length ? `${Math.max(...ok)} clients` : "none"}.`,
];
console.log(table.join("\n"));
writeSection("Mock server under load", table);
