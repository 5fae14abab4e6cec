/**
 * The consumer suite's plumbing: build and pack the four packages, lay out an app outside the workspace, install
 * the tarballs with npm or pnpm, build it, render it on the server, serve it, and start the packed mock CLI.
 * Nothing here waits on the clock except as an upper bound for a step that hangs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
export const APP_SOURCE = fileURLToPath(new URL("./app/", import.meta.url));
const TSC = path.join(REPO, "node_modules/typescript/bin/tsc");
const BUILD_APP = fileURLToPath(new URL("./build-app.mjs", import.meta.url));

/** Where pnpm and its store are kept between runs, so only the first run downloads them. */
export const CACHE = path.join(os.tmpdir(), "runboard-consumer-cache");
/** The pnpm the suite installs when none is on the PATH (the registry's latest when this was written). */
export const PNPM_VERSION = "12.21.0";

export const PACKAGES = {
  "@runboard/protocol": "packages/protocol",
  "@runboard/client": "packages/client",
  "@runboard/react": "packages/react",
  "@runboard/mock-server": "mock-server",
} as const;
export type PackageName = keyof typeof PACKAGES;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for tools run on the app: without what `npm test` and Vitest put there (npm_* settings of
 * this workspace, VITEST flags, NODE_OPTIONS), as if a person ran them in a fresh terminal.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|INIT_CWD$)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs a command to completion; `limitMs` only bounds a hang (the result then has code null). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; limitMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const limit = setTimeout(() => child.kill("SIGKILL"), options.limitMs ?? 300_000);
    child.on("error", (e) => {
      clearTimeout(limit);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Throws with the command's output when it failed. */
export function check(what: string, r: RunResult): RunResult {
  if (r.code !== 0)
    throw new Error(`${what} failed (exit ${r.code}):\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  return r;
}

export interface Tarball {
  name: PackageName;
  version: string;
  /** Absolute path of the .tgz. */
  file: string;
  /** Paths inside the package, as `npm pack` lists them. */
  files: string[];
}

/** `tsc -b` of the workspace, then `npm pack` of the four packages into `dest`. */
export async function buildAndPack(dest: string): Promise<Record<PackageName, Tarball>> {
  check("tsc -b (building the packages)", await run(process.execPath, [TSC, "-b"], { cwd: REPO }));
  await mkdir(dest, { recursive: true });
  const workspaces = Object.values(PACKAGES).flatMap((p) => ["-w", p]);
  const packed = check(
    "npm pack",
    await run("npm", ["pack", ...workspaces, "--pack-destination", dest, "--json"], { cwd: REPO }),
  );
  const list = JSON.parse(packed.stdout) as Array<{
    name: PackageName;
    version: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const out = {} as Record<PackageName, Tarball>;
  for (const p of list)
    out[p.name] = {
      name: p.name,
      version: p.version,
      file: path.join(dest, p.filename),
      files: p.files.map((f) => f.path),
    };
  return out;
}

/** The versions this repository develops against, so the app gets the same React, AI SDK and types. */
export async function repoVersions(): Promise<Record<string, string>> {
  const root = JSON.parse(await readFile(path.join(REPO, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const pick = ["react", "react-dom", "ai", "@types/react", "@types/react-dom"];
  return Object.fromEntries(pick.map((n) => [n, root.devDependencies[n] as string]));
}

/**
 * Copies the app into `dir` and writes its package.json: `direct` tarballs as dependencies, with every
 * tarball also pinned by name (npm `overrides`, pnpm `overrides`), which is how a registry would serve the
 * siblings that `direct` depends on by version range.
 */
export async function layOutApp(
  dir: string,
  tarballs: Record<PackageName, Tarball>,
  options: { manager: "npm" | "pnpm"; direct?: readonly PackageName[]; withSources?: boolean },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (options.withSources !== false) await cp(APP_SOURCE, dir, { recursive: true });
  const versions = await repoVersions();
  const direct = options.direct ?? (Object.keys(PACKAGES) as PackageName[]);
  const spec = (n: PackageName) => `file:${tarballs[n].file}`;
  const pins = Object.fromEntries((Object.keys(PACKAGES) as PackageName[]).map((n) => [n, spec(n)]));
  const pkg = {
    name: "runboard-consumer-app",
    private: true,
    version: "0.0.0",
    type: "module",
    dependencies: {
      ...Object.fromEntries(direct.map((n) => [n, spec(n)])),
      ...versions,
    },
    ...(options.manager === "npm" ? { overrides: pins } : {}),
  };
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  if (options.manager === "pnpm") {
    const yaml = Object.entries(pins)
      .map(([n, s]) => `  ${JSON.stringify(n)}: ${JSON.stringify(s)}`)
      .join("\n");
    await writeFile(path.join(dir, "pnpm-workspace.yaml"), `overrides:\n${yaml}\n`);
  }
}

/** `npm install` in the app, as a person would (the registry for React and the AI SDK, the cache when warm). */
export async function npmInstall(dir: string): Promise<RunResult> {
  return check(
    "npm install in the app",
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir }),
  );
}

/** A pnpm to run: the one on the PATH when it is 10 or newer, else `PNPM_VERSION` installed once into the cache. */
export async function ensurePnpm(): Promise<string> {
  const onPath = await run("pnpm", ["--version"], { cwd: os.tmpdir(), limitMs: 60_000 }).catch(() => null);
  if (onPath?.code === 0 && Number(onPath.stdout.trim().split(".")[0]) >= 10) return "pnpm";
  const home = path.join(CACHE, `pnpm-${PNPM_VERSION}`);
  const bin = path.join(home, "node_modules/pnpm/bin/pnpm.mjs");
  if (existsSync(bin)) return bin;
  // Installed next to the final place and renamed into it, so a run that stops halfway leaves nothing half-made.
  const staging = `${home}.${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  check(
    `npm install pnpm@${PNPM_VERSION}`,
    await run(
      "npm",
      ["install", "--prefix", staging, "--no-audit", "--no-fund", "--no-save", `pnpm@${PNPM_VERSION}`],
      { cwd: staging },
    ),
  );
  await rename(staging, home).catch(async () => {
    // Another run got there first; its copy is as good.
    await rm(staging, { recursive: true, force: true });
  });
  return bin;
}

/** `pnpm install` in the app with its store in the cache. */
export async function pnpmInstall(dir: string, pnpm: string): Promise<RunResult> {
  const [command, prefix] = pnpm.endsWith(".mjs") ? [process.execPath, [pnpm]] : [pnpm, []];
  return check(
    "pnpm install in the app",
    await run(
      command,
      [
        ...prefix,
        "install",
        "--no-frozen-lockfile",
        "--prefer-offline",
        "--store-dir",
        path.join(CACHE, "pnpm-store"),
      ],
      { cwd: dir },
    ),
  );
}

/** One `tsc --noEmit -p <config>` of the app: the errors by file, and every file the program loaded. */
export async function typecheck(
  dir: string,
  config: string,
): Promise<{ errors: string[]; files: string[]; output: string }> {
  const r = await run(process.execPath, [TSC, "-p", config, "--noEmit", "--pretty", "false", "--listFiles"], {
    cwd: dir,
  });
  const lines = r.stdout.split("\n");
  const errors = lines.filter((l) => /error TS\d+:/.test(l));
  const files = lines.filter((l) => l.startsWith("/"));
  if (files.length === 0) throw new Error(`tsc did not run:\n${r.stdout}\n${r.stderr}`);
  return { errors, files, output: r.stdout };
}

/** Whether a path belongs to the kit: the app's own sources or an installed @runboard package. */
export function isOurs(file: string, appDir: string): boolean {
  const rel = path.relative(appDir, path.resolve(appDir, file));
  return rel.startsWith("src") || /(^|[\\/])@runboard([\\/]|\+)/.test(rel);
}

/** `vite build` of the app (`client`) or of its server entry (`ssr`). */
export async function viteBuild(
  dir: string,
  kind: "client" | "ssr",
  outDir: string,
  nodeEnv: "production" | "development",
): Promise<RunResult> {
  return check(
    `vite build (${kind}, ${nodeEnv})`,
    await run(process.execPath, [BUILD_APP, dir, kind, outDir], {
      cwd: REPO,
      env: cleanEnv({ NODE_ENV: nodeEnv }),
    }),
  );
}

/** The page's props, as the server hands them over. */
export interface PageProps {
  agentHost: string;
  agentName: string;
  now: number;
  liveViewOrigin: string;
}

export interface SsrEvent {
  phase: string;
  kind: "socket" | "timer" | "global" | "console" | "unhandled rejection" | "render error";
  what: string;
  origin: string;
}

export interface SsrReport {
  events: SsrEvent[];
  html: string;
  streamHtml: string;
}

/**
 * Runs the app's ssr-check.mjs on its server build in a fresh Node process: the server's clock zone and
 * language are fixed (UTC, US English) so the browser can be put somewhere else.
 */
export async function serverRender(dir: string, serverBundle: string, props: PageProps): Promise<SsrReport> {
  const r = check(
    "the server render",
    await run(process.execPath, ["ssr-check.mjs", serverBundle, JSON.stringify(props)], {
      cwd: dir,
      env: cleanEnv({ NODE_ENV: "development", TZ: "UTC", LANG: "en_US.UTF-8", LC_ALL: "en_US.UTF-8" }),
    }),
  );
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as SsrReport;
}

/** Events caused by anything but React's own renderer (its streaming schedules work with timers). */
export function notReact(events: readonly SsrEvent[]): SsrEvent[] {
  return events.filter((e) => !/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(e.origin));
}

/** One line per event, for readable failures. */
export const describeEvent = (e: SsrEvent) => `${e.phase}: ${e.kind} ${e.what} (at ${e.origin})`;

export interface StartedMock {
  host: string;
  stdout: () => string;
  close(): Promise<void>;
}

/** Starts the installed `runboard-mock` CLI on a free loopback port and reads its address from what it prints. */
export async function startMockCli(dir: string): Promise<StartedMock> {
  const bin = path.join(dir, "node_modules/.bin/runboard-mock");
  const child: ChildProcess = spawn(process.execPath, [bin, "--port", "0", "--host", "127.0.0.1"], {
    cwd: dir,
    env: cleanEnv(),
  });
  let out = "";
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const host = await new Promise<string>((resolve, reject) => {
    const limit = setTimeout(() => reject(new Error(`runboard-mock printed no address:\n${out}`)), 120_000);
    child.stdout?.on("data", (d) => {
      out += d;
      const m = /Mock agent server:\s+http:\/\/([\d.]+:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(limit);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(limit);
      reject(new Error(`runboard-mock exited with ${code}:\n${out}`));
    });
  });
  return {
    host,
    stdout: () => out,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface AppServer {
  origin: string;
  /**
   * Origin of the pretend remote browser the Live View embeds: another origin than the app's, as in
   * production (an embedded page of the app's own origin could lift its sandbox, and Chromium warns).
   */
  liveViewOrigin: string;
  /** Sets the page the server answers at `pathname` (`/` for the home page). */
  setPage(pathname: string, html: string): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
};

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * The app's server on a free loopback port (the pages set with `setPage`, `/assets/*` the browser build),
 * and beside it the pretend remote browser whose `/live-view/*` pages the fixture Live View session embeds.
 */
export async function startAppServer(staticDir: string): Promise<AppServer> {
  const pages = new Map<string, string>();
  const app: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const page = pages.get(url.pathname);
    if (page !== undefined) {
      res.writeHead(200, { "content-type": TYPES[".html"] });
      res.end(page);
      return;
    }
    const file = path.join(staticDir, path.normalize(url.pathname).replace(/^([/\\])+/, ""));
    if (!file.startsWith(staticDir) || !url.pathname.startsWith("/assets/")) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const remote: Server = createServer((req, res) => {
    if (!req.url?.startsWith("/live-view/")) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[".html"] });
    res.end('<!doctype html><html lang="en"><title>Sign in</title><p>The remote page.</p></html>');
  });
  const origin = await listen(app);
  const liveViewOrigin = await listen(remote);
  return {
    origin,
    liveViewOrigin,
    setPage: (pathname, html) => {
      pages.set(pathname, html);
    },
    close: async () => {
      await Promise.all([closeServer(app), closeServer(remote)]);
    },
  };
}

/** The built index.html with the server's markup and the props the browser hydrates with. */
export function pageHtml(template: string, markup: string, props: PageProps): string {
  const json = JSON.stringify(props).replace(/</g, "\\u003c");
  return template
    .replace("<!--app-html-->", () => markup)
    .replace("<!--app-props-->", () => `<script id="page-props" type="application/json">${json}</script>`);
}
