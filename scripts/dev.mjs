// `npm run dev`: starts an agent server and the playground (Vite) and prints both addresses.
//   npm run dev                   the mock agent server (demo agents) and the playground
//   npm run dev -- --real         the real `agents` runtime instead: the conformance/ Worker in workerd,
//                                 offline, with a scripted model (same demo words)
//   --mock-only                   only the mock agent server, no playground (`npm run mock` runs the
//                                 runboard-mock CLI, which does the same)
//   --port N                      the agent server's port (default 8787, or PORT_MOCK for the mock);
//                                 0 picks any free port
//   --pace recorded               the mock's quick recorded pace instead of the one paced for people
//                                 (background ~25 s, nested ~20 s)
// Ctrl-C stops everything. VITE_AGENT_HOST, when set, points the playground elsewhere (not with --real).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer as createNetServer } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const HOST = "127.0.0.1";
const DEFAULT_PORT = 8787;
const repo = fileURLToPath(new URL("..", import.meta.url));
const WORDS =
  "hello, pay ACME 250, research durable objects, background research on queues, nested, weather, browse";

/** One line of the summary: a label in a fixed-width column, then the text. */
const line = (label, text) => `${label.padEnd(21)}${text}`;

const USAGE = `Usage:
  npm run dev                      mock agent server + playground
  npm run dev -- --real            real agents runtime (workerd, offline) + playground
  npm run dev -- --mock-only       mock agent server only (like \`npm run mock\`)
Options:
  --port N      port of the agent server (default ${DEFAULT_PORT}; 0 = any free port)
  --real        run the real agents runtime (the conformance/ Worker) instead of the mock
  --mock-only   run only the mock agent server, no playground
  --pace P      the mock's demo pace: people (default; background ~25 s, nested ~20 s, to watch,
                cancel and open) or recorded (as quick as the real server was recorded)
  --verbose     with --real, show wrangler's output
  --help        this text`;

/** Prints a message for the person at the terminal and exits. */
function fail(message, code = 1) {
  console.error(`\n  ${message.split("\n").join("\n  ")}\n`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: "string" },
      real: { type: "boolean", default: false },
      "mock-only": { type: "boolean", default: false },
      pace: { type: "string", default: "people" },
      verbose: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (e) {
  fail(`${e?.message ?? e}\n\n${USAGE}`, 2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const real = args.real;
if (args.pace !== "people" && args.pace !== "recorded") {
  fail(`--pace takes people or recorded; got '${args.pace}'.\n\n${USAGE}`, 2);
}
const serverOnly = args["mock-only"];
if (real && serverOnly) {
  fail(
    "--real and --mock-only do not go together. To run only the real agents runtime, use\n" +
      "  node conformance/start.mjs [--port N]",
    2,
  );
}

/** The port asked for (flag first, then PORT_MOCK for the mock), and whether someone asked for it. */
function wantedPort() {
  const raw = args.port ?? (real ? undefined : process.env.PORT_MOCK);
  if (raw === undefined) return { port: DEFAULT_PORT, explicit: false };
  const from = args.port !== undefined ? "--port" : "PORT_MOCK";
  const port = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`${from} must be a port number from 0 to 65535 (0 = any free port); got '${raw}'.`, 2);
  }
  return { port, explicit: true };
}

/** Whether nothing listens on 127.0.0.1:port right now. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = createNetServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, HOST, () => srv.close(() => resolve(true)));
  });
}

const busy = (port, what) =>
  `Port ${port} is already in use, so the ${what} cannot start there.\n` +
  "Pick another one with --port N, or --port 0 for any free port.";

const closers = [];
let stopping = false;
/** Closes everything once; a stuck close must not keep the terminal hostage. */
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code), 8000).unref();
  await Promise.allSettled(closers.map((close) => close()));
  process.exit(code);
}
process.once("SIGINT", () => stop(0));
process.once("SIGTERM", () => stop(0));

/** The mock agent server with the demo agents. Returns its host:port and what to tell the user. */
async function startMock({ port, explicit }) {
  // The mock runs compiled JS (Node 20 cannot run the .ts sources); `tsc -b` is incremental, so this is
  // quick after the first run. Only the mock server and what it references are built.
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-b", "mock-server"], { cwd: repo, stdio: "inherit" });
  } catch {
    fail("Building the mock server (`tsc -b mock-server`) failed; fix the errors above and run again.");
  }
  const { createMockAgentServer, createDemoAgents } = await import("../mock-server/dist/index.js");
  // Paced for people by default: a background run a person can watch, cancel and open.
  const demoAgents = createDemoAgents({ pace: args.pace });
  const start = (p) => createMockAgentServer({ port: p, host: HOST, agents: demoAgents });
  let mock;
  try {
    mock = await start(port);
  } catch (e) {
    if (e?.code !== "EADDRINUSE") throw e;
    if (explicit) fail(busy(port, "mock agent server"));
    console.log(`  Port ${port} is in use; the mock agent server takes a free port instead.`);
    mock = await start(0);
  }
  closers.push(() => mock.close());
  return {
    host: `${HOST}:${mock.port}`,
    lines: [
      line("Mock agent server:", `${mock.url}/  (the demo agents, scripted)`),
      line(
        "",
        `agents ${Object.keys(demoAgents).join(" and ")}, e.g. ws://${HOST}:${mock.port}/agents/chat-agent/<name>`,
      ),
    ],
  };
}

/** The conformance/ Worker: the real `agents` runtime in workerd, offline, with its scripted model. */
async function startReal({ port, explicit }) {
  if (!existsSync(new URL("../conformance/node_modules/wrangler", import.meta.url))) {
    fail(
      "The real agents runtime is not installed. Install it with\n" +
        "  npm ci --prefix conformance\n" +
        "(a root `npm install` does this too), then run this again.",
    );
  }
  let chosen = port;
  if (port === 0 || !(await portIsFree(port))) {
    if (port !== 0 && explicit) fail(busy(port, "real agents runtime"));
    if (port !== 0)
      console.log(`  Port ${port} is in use; the real agents runtime takes a free port instead.`);
    chosen = undefined; // start.mjs picks a free one
  }
  console.log(
    "  Starting the real agents runtime (wrangler dev --local, workerd, offline); this takes a few seconds…",
  );
  const { startRealServer } = await import("../conformance/start.mjs");
  let server;
  try {
    server = await startRealServer({
      ...(chosen === undefined ? {} : { port: chosen }),
      ...(args.verbose ? { log: (line) => console.log(`  [wrangler] ${line}`) } : {}),
    });
  } catch (e) {
    fail(`The real agents runtime did not start:\n${e?.message ?? e}`);
  }
  closers.push(() => server.stop());
  const ws = server.url.replace("http", "ws");
  return {
    host: `${HOST}:${server.port}`,
    lines: [
      line("Real agents runtime:", `${server.url}/  (workerd, offline; a scripted model answers)`),
      line("", `agents ChatAgent (AIChatAgent) and ThinkAgent (Think), e.g. ${ws}/agents/chat-agent/<name>`),
      line("", `started in ${(server.startupMs / 1000).toFixed(1)} s`),
    ],
  };
}

const agentServer = real ? await startReal(wantedPort()) : await startMock(wantedPort());
const lines = [...agentServer.lines];

if (!serverOnly) {
  // Vite exposes VITE_* variables from the environment to the page as import.meta.env.
  if (real) {
    if (process.env.VITE_AGENT_HOST && process.env.VITE_AGENT_HOST !== agentServer.host) {
      lines.push(
        `(VITE_AGENT_HOST=${process.env.VITE_AGENT_HOST} is ignored: --real uses the runtime above.)`,
      );
    }
    process.env.VITE_AGENT_HOST = agentServer.host;
  } else {
    process.env.VITE_AGENT_HOST ||= agentServer.host;
  }
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
    lines.push(line("Playground:", `${url}  (talks to ${process.env.VITE_AGENT_HOST})`));
    lines.push(`Open the playground and say: ${WORDS}.`);
  } catch (e) {
    console.error(`\n  The playground did not start: ${e?.message ?? e}\n`);
    await stop(1);
  }
} else {
  lines.push(`Point your app at host ${agentServer.host}; say: ${WORDS}.`);
}

console.log(`\n  ${lines.join("\n  ")}\n\n  Press Ctrl-C to stop.\n`);
