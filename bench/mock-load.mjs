// Mock server under load: 100 clients on loopback, each streaming 500 frames/s for 10 s from its own agent
// instance. Reports frames lost (target 0), sequence gaps, the rate achieved, and the server's CPU and memory
// (the server runs in its own process so its numbers are its own). Not a test: run `node bench/mock-load.mjs`.
//
// Options (env): CLIENTS (100), RATE (500 frames/s per client), SECONDS (10).
import { execFileSync, fork } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";

const repo = fileURLToPath(new URL("..", import.meta.url));
const CLIENTS = Number(process.env.CLIENTS ?? 100);
const RATE = Number(process.env.RATE ?? 500);
const SECONDS = Number(process.env.SECONDS ?? 10);

if (process.argv[2] === "--server") await serve();
else await main();

/** Child process: the mock server with one agent that streams RATE words/s for SECONDS. */
async function serve() {
  const { createMockAgentServer, text, delay } = await import("../mock-server/dist/index.js");
  // Timers cannot fire every 2 ms reliably, so the script emits a burst of words every 100 ms (50 per burst at
  // 500/s): the rate over each second is the target one.
  const tickMs = 100;
  const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
  const ticks = Math.round((SECONDS * 1000) / tickMs);
  const steps = [];
  for (let t = 0; t < ticks; t++) {
    steps.push(delay((t + 1) * tickMs, { sinceTurnStart: true }));
    steps.push(
      text(Array.from({ length: perTick }, (_, i) => `w${t * perTick + i}`).join(" "), { delayMs: 0 }),
    );
  }
  const server = await createMockAgentServer({
    agents: { LoadAgent: { host: "ai-chat", turns: [{ match: /./, steps }] } },
    log: () => {},
  });
  const samples = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  setInterval(() => samples.push(process.memoryUsage()), 250).unref();
  process.on("message", (m) => {
    if (m !== "report") return;
    const cpu = process.cpuUsage(cpu0);
    process.send({
      wallMs: performance.now() - t0,
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRss: Math.max(...samples.map((s) => s.rss)),
      peakHeap: Math.max(...samples.map((s) => s.heapUsed)),
    });
  });
  process.send({ port: server.port, expected: ticks * perTick });
}

async function main() {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "mock-server"], { cwd: repo, stdio: "inherit" });
  const child = fork(fileURLToPath(import.meta.url), ["--server"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { port, expected } = await new Promise((resolve) => child.once("message", resolve));

  const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => open(port, i)));
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  child.send("reset");
  for (const c of clients) c.ask();
  await Promise.all(clients.map((c) => c.done));
  const wallMs = performance.now() - start;
  const clientCpu = process.cpuUsage(cpu0);
  child.send("report");
  const server = await new Promise((resolve) => child.once("message", resolve));
  child.kill();
  for (const c of clients) c.ws.close();

  const deltas = clients.map((c) => c.deltas);
  const lost = deltas.reduce((n, d) => n + (expected - d), 0);
  const gaps = clients.reduce((n, c) => n + c.gaps, 0);
  const rates = clients.map((c) => c.deltas / ((c.lastAt - c.firstAt) / 1000)).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  const lines = [
    "",
    `## Mock server load (${new Date().toISOString().slice(0, 10)})`,
    "",
    `Machine: ${os.cpus()[0]?.model.trim()} × ${os.cpus().length}, Node ${process.version}. \`node bench/mock-load.mjs\``,
    `(${CLIENTS} clients × ${RATE} frames/s × ${SECONDS} s on loopback, one agent instance per client).`,
    "",
    "| measure | value |",
    "|---|---|",
    `| text-delta frames per client (scripted) | ${expected} |`,
    `| frames received (all clients) | ${deltas.reduce((a, b) => a + b, 0)} of ${expected * CLIENTS} |`,
    `| **frames lost** (target 0) | **${lost}** |`,
    `| sequence gaps or repeats | ${gaps} |`,
    `| rate per client, median (min) | ${median.toFixed(0)} (${rates[0]?.toFixed(0)}) frames/s |`,
    `| wall time, first request to last done | ${(wallMs / 1000).toFixed(1)} s |`,
    `| server CPU | ${(server.cpuMs / 1000).toFixed(1)} s = ${((server.cpuMs / wallMs) * 100).toFixed(0)} % of one core |`,
    `| server peak RSS / heap | ${mb(server.peakRss)} / ${mb(server.peakHeap)} |`,
    `| client process CPU (100 sockets, parsing) | ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s |`,
  ];
  console.log(lines.join("\n"));
  const results = new URL("./RESULTS.md", import.meta.url);
  if (!process.env.NO_WRITE) {
    const before = readFileSync(results, "utf8");
    const cut = before.indexOf("\n## Mock server load");
    appendFileSync(results, "");
    const kept = cut >= 0 ? before.slice(0, cut) : before;
    await import("node:fs").then((fs) =>
      fs.writeFileSync(results, `${kept.trimEnd()}\n${lines.join("\n")}\n`),
    );
  }
  process.exit(lost === 0 && gaps === 0 ? 0 : 1);
}

/** One client: its own instance, counts text deltas and checks that `seq` runs 0, 1, 2, … without a hole. */
function open(port, i) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/agents/load-agent/load-${i}`);
  const c = { ws, deltas: 0, gaps: 0, next: 0, firstAt: 0, lastAt: 0, ask: undefined, done: undefined };
  let finish;
  c.done = new Promise((r) => {
    finish = r;
  });
  ws.on("message", (data) => {
    const f = JSON.parse(data.toString());
    if (f.type !== "cf_agent_use_chat_response") return;
    if (f.done) return finish();
    if (f.seq !== c.next) c.gaps++;
    c.next = f.seq + 1;
    if (f.body.includes('"text-delta"')) {
      c.deltas++;
      c.lastAt = performance.now();
      if (!c.firstAt) c.firstAt = c.lastAt;
    }
  });
  c.ask = () =>
    ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id: `load${i}`,
        init: {
          method: "POST",
          body: JSON.stringify({
            messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "go" }] }],
            trigger: "submit-message",
          }),
        },
      }),
    );
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(c));
    ws.once("error", reject);
  });
}
