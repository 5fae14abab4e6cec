/**
 * The kit as a new user meets it: the four packages built and packed, installed from their tarballs into an
 * app in a temporary folder outside this workspace (with npm, and with pnpm), then type-checked, built with
 * Vite, rendered on the server, hydrated in Chromium and used for one chat turn with an approval against the
 * packed `runboard-mock` CLI. Set RUNBOARD_CONSUMER_KEEP=1 to keep the app folder for a look afterwards.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppServer,
  buildAndPack,
  check,
  describeEvent,
  ensurePnpm,
  isOurs,
  layOutApp,
  notReact,
  npmInstall,
  PACKAGES,
  type PackageName,
  type PageProps,
  pageHtml,
  pnpmInstall,
  run,
  type SsrReport,
  type StartedMock,
  serverRender,
  startAppServer,
  startMockCli,
  type Tarball,
  typecheck,
  viteBuild,
} from "./harness.ts";

// Every step installs, compiles or starts a browser: generous limits that only catch a hang.
const STEP = 600_000;
// How long a page may take to show what a person waits for; a bound on a hang, never a pause.
const UI_WAIT = 90_000;
const NAMES = Object.keys(PACKAGES) as PackageName[];
const KEEP = process.env.RUNBOARD_CONSUMER_KEEP === "1";

let work: string;
let tarballs: Record<PackageName, Tarball>;
let npmApp: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "runboard-consumer-"));
  tarballs = await buildAndPack(path.join(work, "tarballs"));
  npmApp = path.join(work, "app-npm");
  await layOutApp(npmApp, tarballs, { manager: "npm" });
  await npmInstall(npmApp);
}, STEP);

afterAll(async () => {
  if (!work) return;
  if (KEEP) console.log(`consumer app kept in ${work}`);
  else await rm(work, { recursive: true, force: true });
});

/** The installed copy of a package in the npm app. */
const installed = (name: PackageName, file = "") => path.join(npmApp, "node_modules", name, file);
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));

describe("the tarballs", () => {
  it("hold a LICENSE, a README, the build and its sources, and no build info or tests", () => {
    for (const name of NAMES) {
      const files = tarballs[name].files;
      expect(files, name).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
      expect(files, name).toContain("dist/index.js");
      expect(files, name).toContain("dist/index.d.ts");
      expect(
        files.filter((f) => /\.tsbuildinfo$|\.test(-d)?\.|__screenshots__|(^|\/)test\//.test(f)),
        name,
      ).toEqual([]);
    }
  });

  it("declare a license, repository, homepage and keywords, with an MIT LICENSE file", async () => {
    for (const name of NAMES) {
      const pkg = await readJson(installed(name, "package.json"));
      expect(pkg.license, name).toBe("MIT");
      expect(pkg.repository?.directory, name).toBe(PACKAGES[name]);
      expect(pkg.repository?.url, name).toMatch(/^git\+https:\/\//);
      expect(pkg.homepage, name).toMatch(/^https:\/\//);
      expect(pkg.keywords?.length, name).toBeGreaterThan(0);
      const license = await readFile(installed(name, "LICENSE"), "utf8");
      expect(license, name).toMatch(/^MIT License/);
      expect(license, name).toContain("Copyright (c) 2026 Runboard contributors");
    }
  });

  it("depend on each other by version ranges the siblings satisfy", async () => {
    for (const name of NAMES) {
      const pkg = await readJson(installed(name, "package.json"));
      for (const [dep, range] of Object.entries<string>(pkg.dependencies ?? {})) {
        if (!dep.startsWith("@runboard/")) continue;
        const sibling = tarballs[dep as PackageName].version;
        const [major, minor] = sibling.split(".");
        // A caret range on the sibling's own line: ^0.1.x for 0.1 releases, ^1.x for 1.0 and later.
        expect(range, `${name} → ${dep}`).toMatch(/^\^\d+\.\d+\.\d+$/);
        const [rMajor, rMinor] = range.slice(1).split(".");
        expect(rMajor, `${name} → ${dep}`).toBe(major);
        if (major === "0") expect(rMinor, `${name} → ${dep}`).toBe(minor);
      }
    }
  });

  it("declare the peers whose types they expose: ai everywhere, react-dom beside react", async () => {
    for (const name of ["@runboard/protocol", "@runboard/client", "@runboard/react"] as const) {
      const pkg = await readJson(installed(name, "package.json"));
      expect(pkg.peerDependencies?.ai, name).toBeTruthy();
    }
    const react = await readJson(installed("@runboard/react", "package.json"));
    expect(Object.keys(react.peerDependencies)).toEqual(expect.arrayContaining(["react", "react-dom"]));
  });

  it("export types, import and default for every entry, and every target is in the package", async () => {
    for (const name of NAMES) {
      const pkg = await readJson(installed(name, "package.json"));
      for (const [entry, conditions] of Object.entries<Record<string, string> | string>(pkg.exports)) {
        // A stylesheet (@runboard/react/styles.css) is a file, not a module: no types, no conditions.
        if (entry.endsWith(".css")) {
          expect(typeof conditions, `${name} ${entry}`).toBe("string");
          expect(existsSync(installed(name, conditions as string)), `${name} ${entry}`).toBe(true);
          continue;
        }
        expect(Object.keys(conditions), `${name} ${entry}`).toEqual(["types", "import", "default"]);
        for (const target of Object.values(conditions))
          expect(existsSync(installed(name, target)), `${name} ${entry} → ${target}`).toBe(true);
      }
    }
  });

  it("ship the sources their source maps point to", async () => {
    for (const name of NAMES) {
      const maps = tarballs[name].files.filter((f) => f.endsWith(".map"));
      expect(maps.length, name).toBeGreaterThan(0);
      const missing: string[] = [];
      for (const map of maps) {
        const { sources = [], sourceRoot = "" } = await readJson(installed(name, map));
        for (const source of sources as string[]) {
          const file = path.resolve(path.dirname(installed(name, map)), sourceRoot, source);
          if (!existsSync(file)) missing.push(`${map} → ${source}`);
        }
      }
      expect(missing, name).toEqual([]);
    }
  });
});

describe("installing @runboard/react alone", () => {
  it(
    "brings its siblings by their ranges, with every peer satisfied, and imports in Node",
    async () => {
      const dir = path.join(work, "app-react-only");
      await layOutApp(dir, tarballs, { manager: "npm", direct: ["@runboard/react"], withSources: false });
      await npmInstall(dir);
      // `npm ls` fails on a missing or invalid dependency or peer.
      check("npm ls --all", await run("npm", ["ls", "--all"], { cwd: dir }));
      const r = check(
        "importing @runboard/react",
        await run(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            'const m = await import("@runboard/react"); console.log(typeof m.useAgent, typeof m.RunTray.Root);',
          ],
          { cwd: dir },
        ),
      );
      expect(r.stdout.trim()).toBe("function function");
      // The client's subpath export resolves in Node from the installed package (exports map, no source alias).
      const helix = check(
        "importing @runboard/client/helix",
        await run(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            'const m = await import("@runboard/client/helix"); const r = new m.HelixRuns({ throttleMs: 0 }); r.apply({ type: "text_delta", agentType: "o", delta: "x" }); console.log(typeof m.HelixChildren, r.getSnapshot().root.agentType);',
          ],
          { cwd: dir },
        ),
      );
      expect(helix.stdout.trim()).toBe("function o");
      // The protocol's subpaths resolve the same way.
      const view = check(
        "importing @runboard/protocol/view and /helix",
        await run(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            'const v = await import("@runboard/protocol/view"); const h = await import("@runboard/protocol/helix"); console.log(typeof v.runTitle, typeof h.HelixRunsReducer);',
          ],
          { cwd: dir },
        ),
      );
      expect(view.stdout.trim()).toBe("function function");
    },
    STEP,
  );
});

/** Type-checks the app with one tsconfig; third-party declaration errors are not ours to fix. */
async function expectTypecheck(dir: string, config: string) {
  const { errors, files } = await typecheck(dir, config);
  const ours = errors.filter((e) => isOurs(e.split("(")[0] ?? "", dir));
  expect(ours).toEqual([]);
  // The kit's types came from the installed packages' declarations, not from their shipped sources.
  const kit = files.filter((f) => /[\\/]@runboard[\\/]/.test(f));
  expect(kit.some((f) => /[\\/]@runboard[\\/]react[\\/]dist[\\/]index\.d\.ts$/.test(f))).toBe(true);
  expect(kit.filter((f) => !f.endsWith(".d.ts"))).toEqual([]);
}

describe("the app with npm", () => {
  it(
    "type-checks in strict mode with moduleResolution bundler",
    () => expectTypecheck(npmApp, "tsconfig.bundler.json"),
    STEP,
  );

  it(
    "type-checks in strict mode with moduleResolution nodenext",
    () => expectTypecheck(npmApp, "tsconfig.nodenext.json"),
    STEP,
  );

  it(
    "builds with vite",
    async () => {
      await viteBuild(npmApp, "client", "dist/client", "production");
      const html = await readFile(path.join(npmApp, "dist/client/index.html"), "utf8");
      const script = /<script type="module" crossorigin src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeTruthy();
      expect(existsSync(path.join(npmApp, "dist/client", script ?? ""))).toBe(true);
    },
    STEP,
  );

  describe("rendered on the server, hydrated in Chromium, one chat turn", () => {
    let mock: StartedMock;
    let server: AppServer;
    let props: PageProps;
    let ssr: SsrReport;
    let browser: Browser | undefined;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      // The browser build is React's development build: it reports every hydration difference.
      await viteBuild(npmApp, "client", "dist/client-dev", "development");
      await viteBuild(npmApp, "ssr", "dist/server", "development");
      mock = await startMockCli(npmApp);
      server = await startAppServer(path.join(npmApp, "dist/client-dev"));
      props = {
        agentHost: mock.host,
        agentName: `consumer-${process.pid}-${Date.now().toString(36)}`,
        now: Date.now(),
        liveViewOrigin: server.liveViewOrigin,
      };
      ssr = await serverRender(npmApp, "dist/server/entry-server.js", props);
    }, STEP);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await mock?.close();
    });

    it("renders every component into the HTML, with renderToString and with renderToPipeableStream", () => {
      for (const html of [ssr.html, ssr.streamHtml]) {
        expect(html).toContain('aria-label="Conversation"');
        expect(html).toContain("Refunds 120 EUR to the customer"); // ApprovalCard and ApprovalQueue
        expect(html).toContain('aria-label="Research"'); // AgentToolRun
        expect(html).toContain('role="progressbar"'); // Progress
        expect(html).toContain("sources-gathered"); // MilestoneTimeline
        expect(html).toContain('aria-label="Fixture runs"'); // RunTray
        expect(html).toContain('aria-label="The agent&#x27;s browser"'); // LiveView
        expect(html).toContain('data-kind="detached-completion"'); // AgentEvent
      }
    });

    it("opens no socket while importing and rendering", () => {
      const sockets = notReact(ssr.events).filter((e) => e.kind === "socket");
      expect(sockets.map(describeEvent)).toEqual([]);
    });

    it("starts no timer while importing and rendering", () => {
      const timers = notReact(ssr.events).filter((e) => e.kind === "timer");
      expect(timers.map(describeEvent)).toEqual([]);
    });

    it("touches no window, document, sessionStorage, localStorage or WebSocket", () => {
      const globals = notReact(ssr.events).filter((e) => e.kind === "global");
      expect(globals.map(describeEvent)).toEqual([]);
    });

    it("logs no warning or error on the server", () => {
      const logged = notReact(ssr.events).filter((e) => !["socket", "timer", "global"].includes(e.kind));
      expect(logged.map(describeEvent)).toEqual([]);
    });

    it(
      "hydrates in Chromium with no console warning or error",
      async () => {
        const template = await readFile(path.join(npmApp, "dist/client-dev/index.html"), "utf8");
        server.setPage("/", pageHtml(template, ssr.streamHtml, props));
        // The same app without server markup, for a client-only render.
        server.setPage(
          "/client-only",
          pageHtml(template, "", { ...props, agentName: `${props.agentName}-csr` }),
        );
        browser = await chromium.launch({
          executablePath: "/usr/bin/chromium",
          args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        });
        // A reader far from the server: another time zone and language than the server render used.
        const context = await browser.newContext({ locale: "de-DE", timezoneId: "Asia/Kolkata" });
        page = await context.newPage();
        page.on("console", (m) => {
          if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
        });
        page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
        await page.goto(`${server.origin}/`);
        // "open" needs the effects, which run only once hydration has finished.
        await page
          .getByTestId("connection")
          .filter({ hasText: /^open$/ })
          .waitFor({ timeout: UI_WAIT });
        expect(problems).toEqual([]);
      },
      STEP,
    );

    it(
      "does a chat turn with an approval against the packed runboard-mock CLI",
      async () => {
        expect(page, "the page did not load").toBeTruthy();
        const conversation = page.getByRole("region", { name: "Conversation" });
        try {
          await page.getByLabel("Message", { exact: true }).fill("pay ACME 250");
          await page.getByRole("button", { name: "Send", exact: true }).click();
          const approve = conversation.getByRole("button", { name: "Approve", exact: true });
          await approve.waitFor({ timeout: UI_WAIT });
          await approve.click();
          // The turn continues after the approval: the CLI serves the demo at a person's pace, whose agent says
          // what the tool did with its result (amount, recipient, transaction id) in a sentence.
          await conversation
            .getByText("Paid 250 to ACME. The transaction id is tx_123.")
            .waitFor({ timeout: UI_WAIT });
        } catch (e) {
          // What the person would have seen, to tell a flaky step from a wrong page.
          const seen = await conversation.textContent().catch(() => "(no conversation)");
          throw new Error(
            `${(e as Error).message}\n--- conversation ---\n${seen}\n--- console ---\n${problems.join("\n")}`,
          );
        }
        expect(problems).toEqual([]);
      },
      STEP,
    );

    it(
      "renders in the browser without a server render (createRoot) and connects, with no console warning or error",
      async () => {
        expect(page, "the browser did not start").toBeTruthy();
        const csr = await page.context().newPage();
        const seen: string[] = [];
        csr.on("console", (m) => {
          if (m.type() === "error" || m.type() === "warning") seen.push(`${m.type()}: ${m.text()}`);
        });
        csr.on("pageerror", (e) => seen.push(`uncaught: ${e.message}`));
        await csr.goto(`${server.origin}/client-only`);
        try {
          await csr
            .getByTestId("connection")
            .filter({ hasText: /^open$/ })
            .waitFor({ timeout: UI_WAIT });
        } catch (e) {
          const shown = await csr
            .locator("#root")
            .textContent()
            .catch(() => "(nothing)");
          throw new Error(`${(e as Error).message}\n--- page ---\n${shown?.slice(0, 500)}`);
        }
        await csr.close();
        expect(seen).toEqual([]);
      },
      STEP,
    );
  });
});

describe("the app with pnpm", () => {
  let dir: string;

  beforeAll(async () => {
    dir = path.join(work, "app-pnpm");
    await layOutApp(dir, tarballs, { manager: "pnpm" });
    await pnpmInstall(dir, await ensurePnpm());
  }, STEP);

  it(
    "type-checks with moduleResolution bundler and nodenext",
    async () => {
      await expectTypecheck(dir, "tsconfig.bundler.json");
      await expectTypecheck(dir, "tsconfig.nodenext.json");
    },
    STEP,
  );

  it(
    "builds with vite and renders on the server with no socket, timer or browser global",
    async () => {
      await viteBuild(dir, "client", "dist/client", "production");
      await viteBuild(dir, "ssr", "dist/server", "development");
      const props = { agentHost: "127.0.0.1:9", agentName: "pnpm", now: Date.now(), liveViewOrigin: "" };
      const report = await serverRender(dir, "dist/server/entry-server.js", props);
      expect(report.html).toContain("Refunds 120 EUR to the customer");
      expect(notReact(report.events).map(describeEvent)).toEqual([]);
    },
    STEP,
  );
});
