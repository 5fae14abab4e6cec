// bench: what one client that stops reading costs the mock server. Not a test. Run after `tsc -b mock-server`:
// `node --expose-gc bench/mock-load-paused.mjs`. One client connects and stops reading (its socket paused),
// a second sends STATES (300) state updates of 100 kB, which the server fans out to the paused one. Prints the
// server process's memory growth (heap + buffers, after GC) and whether the paused client was dropped.
import { WebSocket } from "ws";
import { createMockAgentServer } from "../mock-server/dist/index.js";

const STATES = Number(process.env.STATES ?? 300);
const server = await createMockAgentServer({
  agents: { ChatAgent: { host: "ai-chat", initialState: { n: 0 } } },
  log: () => {},
});
const url = `${server.url.replace(/^http/, "ws")}/agents/chat-agent/paused`;
const open = () =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mem = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};

const paused = await open();
const writer = await open();
await sleep(200);
const before = mem();
paused._socket.pause();
const blob = "x".repeat(100_000);
for (let i = 0; i < STATES; i++) {
  writer.send(JSON.stringify({ type: "cf_agent_state", state: { n: i, blob } }));
  if (i % 10 === 9) await sleep(10);
}
await sleep(2000);
const after = mem();
const conns = server.controller.instance("ChatAgent", "paused")?.conns.size;
const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
console.log(
  `RESULT ${STATES} × 100 kB fanned out to a paused client: server memory ${mb(before)} → ${mb(after)} ` +
    `(+${mb(after - before)}); paused client ${conns === 1 ? "dropped" : "still connected"}`,
);
paused.terminate();
writer.terminate();
await server.close();
process.exit(0);
