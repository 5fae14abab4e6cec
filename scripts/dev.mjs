// `npm run dev`: builds the mock server, starts it and the playground (Vite), prints both URLs.
// `npm run mock` (--mock-only) starts only the mock server. Ctrl-C stops everything.
//
// Env: PORT_MOCK (default 8787; a free port is used if it is taken), VITE_AGENT_HOST (default: this mock).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const mockOnly = process.argv.includes("--mock-only");
const HOST = "127.0.0.1";
const repo = fileURLToPath(new URL("..", import.meta.url));

// The mock CLI runs compiled JS (Node 20 cannot run the .ts sources); `tsc -b` is incremental, so this is
// quick after the first run. Only the mock server and what it references are built.
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
try {
  execFileSync(process.execPath, [tsc, "-b", "mock-server"], { cwd: repo, stdio: "inherit" });
} catch {
  console.error("dev: `tsc -b mock-server` failed; fix the errors above and run again.");
  process.exit(1);
}
const { createMockAgentServer, demoAgents } = await import("../mock-server/dist/index.js");

/** Starts the mock on the wanted port, or on a free one when that port is taken. */
async function startMock(wanted) {
  try {
    return await createMockAgentServer({ port: wanted, host: HOST, agents: demoAgents });
  } catch (e) {
    if (e?.code !== "EADDRINUSE") throw e;
    console.warn(`dev: port ${wanted} is busy; the mock server uses a free port instead.`);
    return createMockAgentServer({ port: 0, host: HOST, agents: demoAgents });
  }
}

const closers = [];
let stopping = false;
/** Closes everything once; a stuck close must not keep the terminal hostage. */
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code), 3000).unref();
  await Promise.allSettled(closers.map((close) => close()));
  process.exit(code);
}
process.once("SIGINT", () => stop(0));
process.once("SIGTERM", () => stop(0));

const wantedPort = Number(process.env.PORT_MOCK ?? 8787);
if (!Number.isInteger(wantedPort) || wantedPort < 0 || wantedPort > 65535) {
  console.error(`dev: PORT_MOCK must be a port number, got '${process.env.PORT_MOCK}'.`);
  process.exit(2);
}
const mock = await startMock(wantedPort);
closers.push(() => mock.close());
const lines = [`Mock agent server: ${mock.url}/  (agents: ${Object.keys(demoAgents).join(", ")})`];

if (!mockOnly) {
  // Vite exposes VITE_* variables from the environment to the page as import.meta.env.
  process.env.VITE_AGENT_HOST ||= `${HOST}:${mock.port}`;
  try {
    const { createServer } = await import("vite");
    const vite = await createServer({
      root: fileURLToPath(new URL("../playground/", import.meta.url)),
      clearScreen: false,
      // Not strict: Vite moves to the next free port when 5173 is taken.
      server: { host: HOST, port: 5173, strictPort: false },
    });
    closers.push(() => vite.close());
    await vite.listen();
    const url = vite.resolvedUrls?.local[0] ?? `http://${HOST}:${vite.config.server.port}/`;
    lines.push(`Playground:        ${url}  (agent host ${process.env.VITE_AGENT_HOST})`);
  } catch (e) {
    console.error(`dev: the playground did not start: ${e?.message ?? e}`);
    await stop(1);
  }
}

console.log(`\n  ${lines.join("\n  ")}\n\n  Press Ctrl-C to stop.\n`);
