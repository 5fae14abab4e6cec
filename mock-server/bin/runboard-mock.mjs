#!/usr/bin/env node
// runboard-mock: serves the demo agents (ChatAgent, ThinkAgent) of @runboard/mock-server until Ctrl-C.
// Runs the compiled package; inside the Runboard repository that means `npm run build` first (`npm run mock`
// at the repository root builds and starts it).
import { parseArgs } from "node:util";

const DEFAULT_PORT = 8787;
const HELP = `Usage: runboard-mock [--port <n>] [--host <address>] [--allow-origin <origin>]… [--pace <pace>]

Serves the Runboard demo agents (ChatAgent, ThinkAgent) over the Cloudflare Agents wire protocol.

  --port <n>        port to listen on (default ${DEFAULT_PORT}, or a free one when ${DEFAULT_PORT} is taken;
                    0 always picks a free one)
  --host <address>  address to listen on (default 127.0.0.1, this machine only)
  --allow-origin <origin>
                    a web page origin that may connect besides localhost, 127.0.0.1 and [::1]
                    (e.g. http://192.168.1.20:5173); repeat for more
  --pace <pace>     people (default): background (~25 s) and nested (~20 s) runs slow enough to watch,
                    cancel and open; recorded: as quick as the real server was recorded
  -h, --help        show this help

Say hello, weather, pay, locate, research, fanout, background, browse, expense, deploy, fail, nested
or slow to an agent to pick its script.`;

/** Prints a problem the user can fix, with what to do about it, and exits. */
function fail(message, code = 1) {
  console.error(`runboard-mock: ${message}`);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      "allow-origin": { type: "string", multiple: true, default: [] },
      pace: { type: "string", default: "people" },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (e) {
  fail(`${e.message}\nRun \`runboard-mock --help\` for the options.`, 2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const explicitPort = values.port !== undefined;
const port = explicitPort ? Number(values.port) : DEFAULT_PORT;
if (!/^\d+$/.test(values.port ?? "0") || port > 65535)
  fail(`--port takes a port number from 0 to 65535 (0 picks a free port), not "${values.port}".`, 2);
const host = values.host;
if (values.pace !== "people" && values.pace !== "recorded")
  fail(`--pace takes people or recorded, not "${values.pace}".`, 2);

let mod;
try {
  mod = await import("../dist/index.js");
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
  fail(
    "the package is not built yet. In the Runboard repository, run `npm run mock` (it builds first) or " +
      "`npm run build` and try again.",
  );
}
const agents = mod.createDemoAgents({ pace: values.pace });
const allowedOrigins = values["allow-origin"];
const start = (p) => mod.createMockAgentServer({ port: p, host, agents, allowedOrigins });

let server;
try {
  server = await start(port);
} catch (e) {
  if (e?.code === "EADDRINUSE" && !explicitPort) {
    // The default port is only a preference: keep going on a free one, and say so.
    console.warn(
      `runboard-mock: port ${port} is in use (another mock or dev server?); using a free port instead.`,
    );
    server = await start(0).catch((e2) => fail(`cannot listen on ${host}: ${e2.code ?? e2.message}.`));
  } else if (/allowedOrigins/.test(e?.message ?? "")) {
    fail(`--allow-origin takes an origin such as http://192.168.1.20:5173. ${e.message}`, 2);
  } else if (e?.code === "EADDRINUSE") {
    fail(
      `port ${port} on ${host} is already in use (another mock or dev server?). Stop that process, or pick ` +
        "another port: --port 9000, or --port 0 for any free port.",
    );
  } else if (e?.code === "EACCES") {
    fail(
      `not allowed to listen on port ${port}; ports below 1024 need extra rights. Try --port ${DEFAULT_PORT}.`,
    );
  } else if (e?.code === "EADDRNOTAVAIL" || e?.code === "ENOTFOUND") {
    fail(`"${host}" is not an address of this machine. Use --host 127.0.0.1 (the default).`);
  } else {
    fail(`cannot listen on ${host}:${port}: ${e?.code ?? e?.message ?? e}.`);
  }
}

const { agentUrl } = await import("@runboard/protocol");
const names = Object.keys(agents);
const first = names[0] ?? "ChatAgent";
const address = `${new URL(server.url).hostname}:${server.port}`;
console.log(
  [
    "",
    `  Mock agent server: ${server.url}/`,
    `  Agents:            ${names.join(", ")}`,
    `  Connect to:        ${agentUrl({ host: address, agent: first, name: "<name>" })}`,
    `                     e.g. useAgent({ agent: "${first}", host: "${address}" })`,
    "  Say:               hello, pay, research, background, browse … (runboard-mock --help lists them all)",
    ...(host === "127.0.0.1" || host === "localhost" || host === "::1"
      ? []
      : [`  Note:              listening on ${host}, so other machines on the network can reach it.`]),
    "",
    "  Press Ctrl-C to stop.",
    "",
  ].join("\n"),
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // A close that hangs on a stuck socket must not keep the terminal.
  setTimeout(() => process.exit(0), 3000).unref();
  server.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
