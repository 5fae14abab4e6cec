// bench:load — the mock server under load. Not a test. Run: `npm run bench:load` or `node bench/mock-load.mjs`
// (builds mock-server first, writes its "## Mock server load" section of bench/RESULTS.md; NO_WRITE=1 only prints).
//
// CLIENTS (100) WebSocket clients on loopback, each with its own agent instance, all start a turn at once; each
// turn streams RATE (500) text-delta frames/s for SECONDS (10). Reports frames lost (target 0), `seq` gaps, the
// rate each client actually received, and the server's CPU and memory, measured in its own process
// (bench/mock-load-server.mjs, which also takes PACING, TICK_MS and STEP_WORDS; see there).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import { build } from "./lib/build.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { median } from "./lib/stats.mjs";

const CLIENTS = Number(process.env.CLIENTS ?? 100);
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS ?? 60_000);

// Build the mock server (only its project: other packages may be mid-edit). A failed build keeps the old dist.
build("mock-server");

const server = spawn(process.execPath, [fileURLToPath(new URL("./mock-load-server.mjs", import.meta.url))], {
  stdio: ["pipe", "pipe", "inherit"],
});
const lines = createInterface({ input: server.stdout });
const nextLine = () => new Promise((resolve) => lines.once("line", (l) => resolve(JSON.parse(l))));
const tell = (cmd) => server.stdin.write(`${JSON.stringify({ cmd })}\n`);

const { port, expected, pacing } = await nextLine();
const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => connect(port, i)));
await new Promise((r) => setTimeout(r, 500)); // connect frames (identity, state, messages) are in

tell("start");
const cpu0 = process.cpuUsage();
const start = performance.now();
for (const c of clients) c.ask();
let timer;
const timedOut = await Promise.race([
  Promise.all(clients.map((c) => c.done)).then(() => false),
  new Promise((r) => {
    timer = setTimeout(() => r(true), TIMEOUT_MS);
  }),
]);
clearTimeout(timer);
const wallMs = performance.now() - start;
const clientCpu = process.cpuUsage(cpu0);
tell("report");
const srv = await nextLine();
for (const c of clients) c.ws.terminate();
server.kill();
await new Promise((r) => server.once("exit", r));

// ───────────────────────────── results ─────────────────────────────
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const received = sum(clients.map((c) => c.deltas));
const lost = sum(clients.map((c) => Math.max(0, expected - c.deltas)));
const gaps = sum(clients.map((c) => c.gaps));
const wrong = sum(clients.map((c) => c.wrong));
const unfinished = clients.filter((c) => !c.finished).length;
// Rate as the client saw it: its deltas over the time from its request to its last delta.
const rates = clients.map((c) => (c.deltas / (c.lastAt - c.sentAt)) * 1000 || 0).sort((a, b) => a - b);
const pauses = clients.map((c) => c.maxPause).sort((a, b) => a - b);
const firsts = clients.map((c) => c.firstAt - c.sentAt).sort((a, b) => a - b);
const mid = median;
const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const out = [
  `## Mock server load (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:load\` (\`node bench/mock-load.mjs\`)`,
  `${CLIENTS} clients on loopback, one agent instance each, all turns started at once; pacing: ${pacing}.`,
  "Server in its own process; clients share the same cores.",
  "",
  "| measure | value |",
  "|---|---|",
  `| text-delta frames per client (scripted) | ${expected} |`,
  `| all chat frames per client (+ start, text-start/-end, steps, finish) | ${mid(clients.map((c) => c.seq).sort((a, b) => a - b))} |`,
  `| text-delta frames received, all clients | ${received} of ${expected * CLIENTS} |`,
  `| **frames lost** (target 0) | **${lost}** |`,
  `| seq gaps or repeats / deltas out of order | ${gaps} / ${wrong} |`,
  `| clients without \`done\` (timeout ${s(TIMEOUT_MS)}) | ${unfinished} |`,
  `| rate per client, request → last delta: median (min) | ${mid(rates).toFixed(0)} (${rates[0].toFixed(0)}) frames/s |`,
  `| request → first delta: median (max) | ${mid(firsts).toFixed(0)} (${firsts.at(-1).toFixed(0)}) ms |`,
  `| longest pause between deltas: median (max) client | ${mid(pauses).toFixed(0)} (${pauses.at(-1).toFixed(0)}) ms |`,
  `| wall time, first request → last \`done\` | ${s(wallMs)}${timedOut ? " (timed out)" : ""} |`,
  `| server CPU, user + system | ${s(srv.userMs)} + ${s(srv.systemMs)} = ${srv.cpuPct.toFixed(0)} % of one core (peak 500 ms: ${srv.peakCpuPct.toFixed(0)} %) |`,
  `| server RSS: idle (connected) / avg / peak | ${mb(srv.idleRss)} / ${mb(srv.avgRss)} / ${mb(srv.peakRss)} |`,
  `| server heap used: avg / peak | ${mb(srv.avgHeap)} / ${mb(srv.peakHeap)} |`,
  `| server socket writes (OS calls) / chat frames sent | ${srv.socketWrites} / ${sum(clients.map((c) => c.seq))} |`,
  `| server event-loop delay: p99 / max | ${srv.loopDelayP99Ms.toFixed(0)} / ${srv.loopDelayMaxMs.toFixed(0)} ms |`,
  `| server GC: total / longest pause | ${srv.gcTotalMs.toFixed(0)} / ${srv.gcMaxMs.toFixed(0)} ms |`,
  `| client process CPU (${CLIENTS} sockets, parsing) | ${s((clientCpu.user + clientCpu.system) / 1000)} = ${(((clientCpu.user + clientCpu.system) / 1000 / wallMs) * 100).toFixed(0)} % of one core |`,
];
console.log(out.join("\n"));
// For bench/mock-load-sweep.mjs, which runs this at several loads and writes one table.
if (process.env.RESULT_JSON)
  console.log(
    `RESULT ${JSON.stringify({
      clients: CLIENTS,
      rate: srv.rate,
      expected,
      lost,
      gaps: gaps + wrong,
      unfinished,
      loopP99: srv.loopDelayP99Ms,
      loopMax: srv.loopDelayMaxMs,
      pauseMedian: mid(pauses),
      pauseMax: pauses.at(-1),
      peakRss: srv.peakRss,
      peakHeap: srv.peakHeap,
      cpuPct: srv.cpuPct,
      cpuMs: srv.userMs + srv.systemMs,
      socketWrites: srv.socketWrites,
      framesSent: sum(clients.map((c) => c.seq)),
      wallMs,
    })}`,
  );
writeSection("Mock server load", out);
recordFigures("load", [
  { name: `mock server, frames lost (${CLIENTS} clients × ${expected} deltas)`, value: lost, max: 0 },
  { name: "mock server, seq gaps + out-of-order deltas", value: gaps + wrong, max: 0 },
  { name: "mock server CPU, % of one core", value: srv.cpuPct, unit: "%" },
]);
process.exit(lost === 0 && gaps === 0 && wrong === 0 && !timedOut ? 0 : 1);

/** One client: counts text deltas, checks `seq` runs 0, 1, 2, … and the words come in order. */
function connect(port, i) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/agents/load-agent/load-${i}`);
  const c = {
    ws,
    deltas: 0,
    gaps: 0,
    wrong: 0,
    seq: 0,
    sentAt: 0,
    firstAt: 0,
    lastAt: 0,
    maxPause: 0,
    finished: false,
  };
  c.done = new Promise((resolve) => {
    ws.on("message", (data) => {
      const f = JSON.parse(data.toString());
      if (f.type !== "cf_agent_use_chat_response") return;
      if (f.done) {
        c.finished = true;
        return resolve();
      }
      if (f.seq !== c.seq) c.gaps++;
      c.seq = f.seq + 1;
      const chunk = JSON.parse(f.body);
      if (chunk.type !== "text-delta") return;
      if (chunk.delta !== `w${c.deltas} `) c.wrong++;
      const now = performance.now();
      if (c.lastAt) c.maxPause = Math.max(c.maxPause, now - c.lastAt);
      else c.firstAt = now;
      c.lastAt = now;
      c.deltas++;
    });
  });
  c.ask = () => {
    c.sentAt = performance.now();
    ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id: `load${String(i).padStart(4, "0")}`,
        init: {
          method: "POST",
          body: JSON.stringify({
            messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "go" }] }],
            trigger: "submit-message",
          }),
        },
      }),
    );
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(c));
    ws.once("error", reject);
  });
}
