#!/usr/bin/env node
/**
 * Starts the conformance Worker in workerd (`wrangler dev --local`), offline, on a free loopback port.
 *
 *   import { startRealServer } from "./conformance/start.mjs";
 *   const server = await startRealServer();   // { url, port, stop() }
 *
 * or from a shell: `node conformance/start.mjs [--port 8787]` prints the URL and runs until Ctrl-C.
 *
 * Each start gets a fresh Durable Object store in a temporary directory (removed on stop) unless
 * `persistTo` names one. `stop()` ends wrangler's whole process group (wrangler, esbuild, workerd).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const WRANGLER = join(HERE, "node_modules", "wrangler", "bin", "wrangler.js");
const READY_PATH = "/agents/chat-agent/health-probe/get-messages";

/** Environment that keeps wrangler and miniflare off the network. */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "1",
};

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ port?: number, timeoutMs?: number, persistTo?: string, log?: (line: string) => void }} [options]
 *   `port`: fixed port (default: a free one). `timeoutMs`: how long to wait for the first 200 (default 90 s).
 *   `persistTo`: keep Durable Object state there. `log`: receives wrangler's output lines (default: kept
 *   and printed only if start-up fails).
 * @returns {Promise<{ url: string, port: number, startupMs: number, output: string[], stop(): Promise<void> }>}
 *   `output`: wrangler's last lines (when no `log` was given).
 */
export async function startRealServer(options = {}) {
  if (!existsSync(WRANGLER)) {
    throw new Error(`wrangler is not installed in ${HERE}; run \`npm ci\` there first`);
  }
  const started = performance.now();
  const port = options.port ?? (await freePort());
  const inspectorPort = await freePort();
  const tempState = options.persistTo ? undefined : mkdtempSync(join(tmpdir(), "runboard-conformance-"));
  const persistTo = options.persistTo ?? tempState;
  const args = [
    WRANGLER,
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--show-interactive-dev-session=false",
  ];
  const child = spawn(process.execPath, args, {
    cwd: HERE,
    env: { ...process.env, ...OFFLINE_ENV, FORCE_COLOR: "0", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stop() reaches workerd too
  });

  const output = [];
  const onData = (chunk) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line.trim()) continue;
      if (options.log) options.log(line);
      else output.push(line);
      if (output.length > 400) output.shift();
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);

  let exited = false;
  const exitedPromise = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      exited = true;
      resolve({ code, signal });
    });
  });

  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // If this process dies without calling stop(), take workerd with it.
  const onExit = () => killGroup("SIGKILL");
  process.once("exit", onExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", onExit);
    if (!exited) {
      killGroup("SIGTERM");
      const timer = setTimeout(() => killGroup("SIGKILL"), 5000);
      await exitedPromise;
      clearTimeout(timer);
    }
    // workerd may outlive wrangler for a moment; make sure the group is gone.
    killGroup("SIGKILL");
    if (tempState) rmSync(tempState, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`wrangler dev exited before the Worker answered:\n${output.join("\n")}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Worker did not answer ${READY_PATH} with 200 in time:\n${output.join("\n")}`);
    }
    try {
      const res = await fetch(url + READY_PATH, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  return { url, port, startupMs: Math.round(performance.now() - started), stop, output };
}

// CLI: node conformance/start.mjs [--port N]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : undefined;
  const server = await startRealServer({
    ...(port ? { port } : {}),
    log: (line) => process.stderr.write(`[wrangler] ${line}\n`),
  });
  console.log(`Real agents server (workerd) ready at ${server.url} after ${server.startupMs} ms`);
  console.log(`  ChatAgent:  ${server.url.replace("http", "ws")}/agents/chat-agent/<room>`);
  console.log(`  ThinkAgent: ${server.url.replace("http", "ws")}/agents/think-agent/<room>`);
  console.log("Ctrl-C stops it.");
  const shutdown = async () => {
    await server.stop();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
