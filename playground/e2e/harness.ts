/**
 * The playground end to end: an agent server, the Vite dev server and Debian's Chromium (through
 * playwright-core), all on 127.0.0.1 and free ports. The agent server is either the mock (`"mock"`) or the
 * real `agents` runtime in workerd, offline, with its scripted model (`"real"`, the `conformance/` Worker).
 * Each step a person takes is saved as a screenshot under `test-artifacts/playground/`.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createMockAgentServer,
  delay,
  demoAgents,
  type MockAgentDefinition,
  type Step,
  type TurnRule,
} from "@runboard/mock-server";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { createServer, type ViteDevServer } from "vite";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export const SHOTS = fileURLToPath(new URL("../../test-artifacts/playground/", import.meta.url));

/** Which agent server the playground talks to. */
export type Target = "mock" | "real";

/** `RUNBOARD_SKIP_REAL_SERVER=1` leaves the real runtime out, as in the conformance suite. */
export const SKIP_REAL = process.env.RUNBOARD_SKIP_REAL_SERVER === "1";

export interface Playground {
  target: Target;
  /** host:port of the agent server the page connects to. */
  agentHost: string;
  url: string;
  browser: Browser;
  /**
   * How long to wait for something the agent does. The real runtime runs each agent in workerd and loads
   * its bundle on first use, so its waits are longer; they are limits, never pauses.
   */
  waitMs: number;
  close(): Promise<void>;
}

interface AgentServer {
  host: string;
  close(): Promise<void>;
}

/** How long a background run started "… until cancelled" waits for its cancel (before the delay scale). */
const HOLD_MS = 600_000;

/**
 * The demo agents plus one sentence the real Worker also knows: "background … until cancelled" starts the
 * demo's own background run, which then stays open until someone cancels it. A cancel walk needs a run that
 * is surely still going when the person clicks, however slow the machine is.
 */
function e2eAgents(): Record<string, MockAgentDefinition> {
  const withHold = (def: MockAgentDefinition): MockAgentDefinition => {
    const background = def.turns?.find((r) => r.match instanceof RegExp && r.match.test("background"));
    if (!background) return def;
    const hold: TurnRule = {
      match: /\bbackground\b.*\buntil cancell?ed\b/i,
      steps: (ctx) =>
        (typeof background.steps === "function" ? background.steps(ctx) : background.steps).map(
          (step): Step =>
            step.kind === "detached"
              ? { ...step, run: { ...step.run, steps: [...step.run.steps, delay(HOLD_MS)] } }
              : step,
        ),
    };
    return { ...def, turns: [hold, ...(def.turns ?? [])] };
  };
  return Object.fromEntries(Object.entries(demoAgents).map(([name, def]) => [name, withHold(def)]));
}

async function startAgentServer(target: Target): Promise<AgentServer> {
  if (target === "mock") {
    // Scripted delays at 40 %: a person's pace is not needed, and the stream still arrives in pieces.
    const mock = await createMockAgentServer({ agents: e2eAgents(), delayScale: 0.4, log: () => {} });
    return { host: `127.0.0.1:${mock.port}`, close: () => mock.close() };
  }
  if (!existsSync(new URL("../../conformance/node_modules/wrangler", import.meta.url))) {
    throw new Error(
      "conformance/ is not installed: run `npm ci --prefix conformance` (or RUNBOARD_SKIP_REAL_SERVER=1)",
    );
  }
  const { startRealServer } = await import("../../conformance/start.mjs");
  const real = await startRealServer();
  return { host: `127.0.0.1:${real.port}`, close: () => real.stop() };
}

/** Vite reads VITE_* variables when it resolves its config; the page gets this server's address. */
async function startVite(agentHost: string): Promise<ViteDevServer> {
  const before = process.env.VITE_AGENT_HOST;
  process.env.VITE_AGENT_HOST = agentHost;
  try {
    const vite = await createServer({
      root: fileURLToPath(new URL("..", import.meta.url)),
      configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
      // No file watching and no hot reload: a source file saved during a run must not reload a page mid-walk.
      server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null },
      logLevel: "error",
      clearScreen: false,
    });
    await vite.listen();
    return vite;
  } finally {
    if (before === undefined) delete process.env.VITE_AGENT_HOST;
    else process.env.VITE_AGENT_HOST = before;
  }
}

/**
 * Loads the app once, before any walk, so Vite has transformed its modules. On a cold start that takes many
 * seconds, far more on a busy machine, and it was paid inside the first walk's `page.goto` (30 s limit). The
 * caller's `beforeAll` limit bounds it instead. Its agent instance is one no walk uses.
 */
async function warmUp(browser: Browser, url: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${url}?agent=ChatAgent&name=e2e-warm-up`, { waitUntil: "load", timeout: 0 });
  } finally {
    await page.close();
  }
}

export async function startPlayground(target: Target = "mock"): Promise<Playground> {
  const server = await startAgentServer(target);
  let vite: ViteDevServer | undefined;
  let browser: Browser | undefined;
  try {
    vite = await startVite(server.host);
    const address = vite.httpServer?.address();
    if (!address || typeof address === "string") throw new Error("vite did not listen on a port");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    await warmUp(browser, `http://127.0.0.1:${address.port}/`);
    mkdirSync(SHOTS, { recursive: true });
    const v = vite;
    const b = browser;
    return {
      target,
      agentHost: server.host,
      url: `http://127.0.0.1:${address.port}/`,
      browser: b,
      waitMs: target === "real" ? 90_000 : 45_000,
      close: async () => {
        await b.close();
        await v.close();
        await server.close();
      },
    };
  } catch (e) {
    await browser?.close();
    await vite?.close();
    await server.close();
    throw e;
  }
}

let instance = 0;
/** A fresh tab on a fresh agent instance; page errors fail the step that caused them. */
export async function openTab(pg: Playground, agent = "ChatAgent") {
  const page = await pg.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const name = `e2e-${Date.now().toString(36)}-${++instance}`;
  // The app's modules are transformed already (`warmUp`), so this is the page's own load.
  await page.goto(`${pg.url}?agent=${agent}&name=${name}`);
  // A new Durable Object on the real runtime can take a few seconds on its first connection.
  await connected(page).waitFor({ timeout: Math.max(45_000, pg.waitMs) });
  return { page, name, errors };
}

/**
 * Saves the step's screenshot twice, as the page is (light: `<step>.png`) and in the theme's dark scheme
 * (`<step>-dark.png`); the file name says which step it is (and which server, off the mock). Dark is the
 * theme's `data-theme="dark"` on <html>, set for the one shot and then put back as it was, so the walk goes
 * on in the page it left; transitions are finished for that shot, or it would catch colours half-way.
 */
export async function shot(page: Page, step: string, target: Target = "mock") {
  const path = `${SHOTS}${target === "mock" ? "" : `${target}-`}${step}`;
  await page.screenshot({ path: `${path}.png`, fullPage: true });
  const before = await page.evaluate(() => {
    const root = document.documentElement;
    const was = root.getAttribute("data-theme");
    root.setAttribute("data-theme", "dark");
    return was;
  });
  try {
    await page.screenshot({ path: `${path}-dark.png`, fullPage: true, animations: "disabled" });
  } finally {
    await page.evaluate((was) => {
      const root = document.documentElement;
      if (was === null) root.removeAttribute("data-theme");
      else root.setAttribute("data-theme", was);
    }, before);
  }
}

/**
 * Presses a button as a person does, and returns once the press is delivered. Playwright's `click()` also
 * waits, after the page has handled the press, for the page to answer a round trip (`Page.enable`, to catch
 * a navigation the press may start); it counts that wait against the click's limit. A press that starts
 * agent work (Send, Approve, Cancel) is followed by a burst of work on the page (re-renders, the run's end,
 * the agent's next turn streaming in), and on a loaded machine that burst outlasted the limit: the click
 * failed after the press had landed, with the page showing what the press did (Cancel disabled, its cancel on
 * the way, the run still `running`). Nothing here navigates, so that wait is skipped; the walk then waits for
 * what the press should change, each wait with its own limit.
 */
export async function press(button: Locator, timeout?: number) {
  await button.click({ noWaitAfter: true, ...(timeout === undefined ? {} : { timeout }) });
}

/** The header's connection pill once it says the connection is up. */
export const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });

/** Types a message and sends it, as a person would. */
export async function say(page: Page, text: string) {
  await page.getByLabel("Message").fill(text);
  await press(page.getByRole("button", { name: "Send" }));
}
