#!/usr/bin/env node
// runboard-mock [--port 8787] [--host 127.0.0.1]: serves the demo agents (ChatAgent, ThinkAgent).
// Runs the compiled package, so it needs `npm run build` (or `npm run dev`, which builds) first.
import { parseArgs } from "node:util";

const USAGE = "usage: runboard-mock [--port 8787] [--host 127.0.0.1]  (--port 0 picks a free port)";

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      help: { type: "boolean", short: "h", default: false },
    },
  }));
} catch (e) {
  console.error(`runboard-mock: ${e.message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`runboard-mock: --port must be an integer 0-65535\n${USAGE}`);
  process.exit(2);
}

let mod;
try {
  mod = await import("../dist/index.js");
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
  console.error("runboard-mock: the package is not built yet; run `npm run build` at the repository root.");
  process.exit(1);
}

let server;
try {
  server = await mod.createMockAgentServer({ port, host: values.host, agents: mod.demoAgents });
} catch (e) {
  console.error(`runboard-mock: cannot listen on ${values.host}:${port}: ${e.code ?? e.message}`);
  process.exit(1);
}
console.log(`Mock agent server: ${server.url} (agents: ${Object.keys(mod.demoAgents).join(", ")})`);
const stop = () => server.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
