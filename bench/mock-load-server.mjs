// The mock server for bench/mock-load.mjs, alone in its own process so the CPU and memory measured are its own.
// Prints one JSON line on stdout, `{"port","expected","pacing"}` (expected: text-deltas per stream), then reads
// JSON lines on stdin: `{"cmd":"start"}` restarts the measurement (streams begin), `{"cmd":"report"}` prints a
// report line. SIGTERM prints the report and exits. CPU and memory are sampled every 500 ms.
//
// Env: RATE (500 frames/s per stream), SECONDS (10), PACING (tick | timer), TICK_MS (20), STEP_WORDS (100).
//  - tick: every TICK_MS a burst of RATE × TICK_MS / 1000 words, each tick placed on the wall clock from the turn's
//    start (`delay(…, { sinceTurnStart: true })`), so the rate holds however late timers fire.
//  - timer: one word every 1000 / RATE ms through the text step's own `delayMs` (a setTimeout per word), in text
//    steps of STEP_WORDS words (one long step replays its rest per delta, quadratic in its length).

import { Socket } from "node:net";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createMockAgentServer, delay, text } from "../mock-server/dist/index.js";

const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 10);
const PACING = process.env.PACING ?? "tick";
const TICK_MS = Number(process.env.TICK_MS ?? 20);
const STEP_WORDS = Number(process.env.STEP_WORDS ?? 100);

const words = Array.from({ length: RATE * SECONDS }, (_, i) => `w${i}`);
const chunks = (size) =>
  Array.from({ length: Math.ceil(words.length / size) }, (_, k) => words.slice(k * size, (k + 1) * size));

const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
const pacing =
  PACING === "timer"
    ? `one setTimeout of ${1000 / RATE} ms before each delta, text steps of ${STEP_WORDS} words`
    : `a burst of ${perTick} deltas every ${TICK_MS} ms (one text step each), wall-clock paced`;

function script() {
  if (PACING === "timer")
    return chunks(STEP_WORDS).map((w) => text(`${w.join(" ")} `, { delayMs: 1000 / RATE }));
  return chunks(perTick).flatMap((w, t) => [
    delay((t + 1) * TICK_MS, { sinceTurnStart: true }),
    text(`${w.join(" ")} `, { delayMs: 0 }),
  ]);
}

const server = await createMockAgentServer({
  port: 0,
  host: "127.0.0.1",
  // chunkDelayMs 0: step boundaries (text-start/-end, finish) take a setImmediate, not the default 30 ms.
  agents: { LoadAgent: { host: "ai-chat", chunkDelayMs: 0, turns: [{ match: /./, steps: script() }] } },
  log: () => {},
});

// Socket writes handed to the OS (one per write or per corked batch): the work batching saves, counted, so a
// busy shared machine does not blur it the way it blurs timings.
let socketWrites = 0;
const writeGeneric = Socket.prototype._writeGeneric;
Socket.prototype._writeGeneric = function (...args) {
  socketWrites++;
  return writeGeneric.apply(this, args);
};

// The histogram counts the sampling interval too; the delay reported is the excess over it.
const RESOLUTION_MS = 10;
const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
let gc = { totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.totalMs += e.duration;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
  }
}).observe({ type: "gc" });
let t0;
let cpu0;
let last;
let samples;
function start() {
  t0 = performance.now();
  cpu0 = process.cpuUsage();
  last = { t: t0, cpu: cpu0 };
  samples = [{ cpuPct: 0, ...process.memoryUsage() }];
  gc = { totalMs: 0, maxMs: 0 };
  socketWrites = 0;
  loop.reset();
  loop.enable();
}
function sample() {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const used = cpu.user - last.cpu.user + cpu.system - last.cpu.system;
  samples.push({ cpuPct: (used / 1000 / (t - last.t)) * 100, ...process.memoryUsage() });
  last = { t, cpu };
}
function report() {
  sample();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const peak = (k) => Math.max(...samples.map((s) => s[k]));
  const avg = (k) => samples.reduce((n, s) => n + s[k], 0) / samples.length;
  return {
    wallMs,
    rate: RATE,
    socketWrites,
    userMs: cpu.user / 1000,
    systemMs: cpu.system / 1000,
    cpuPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    peakCpuPct: peak("cpuPct"),
    idleRss: samples[0].rss,
    peakRss: peak("rss"),
    avgRss: avg("rss"),
    peakHeap: peak("heapUsed"),
    avgHeap: avg("heapUsed"),
    loopDelayP99Ms: loop.percentile(99) / 1e6 - RESOLUTION_MS,
    loopDelayMaxMs: loop.max / 1e6 - RESOLUTION_MS,
    gcTotalMs: gc.totalMs,
    gcMaxMs: gc.maxMs,
    samples: samples.length,
  };
}

start();
setInterval(sample, 500).unref();
createInterface({ input: process.stdin }).on("line", (line) => {
  const { cmd } = JSON.parse(line);
  if (cmd === "start") start();
  if (cmd === "report") console.log(JSON.stringify(report()));
});
process.on("SIGTERM", async () => {
  console.log(JSON.stringify(report()));
  await server.close();
  process.exit(0);
});
console.log(JSON.stringify({ port: server.port, expected: words.length, pacing }));
