/**
 * The playground end to end: the mock agent server, the Vite dev server and Debian's Chromium (through
 * playwright-core), all on 127.0.0.1 and free ports. Each step a person takes is saved as a screenshot under
 * `test-artifacts/playground/`.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { type Browser, chromium, type Page } from "playwright-core";
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

export interface Playground {
  mock: MockAgentServer;
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startPlayground(): Promise<Playground> {
  // Scripted delays at 40 %: a person's pace is not needed, and the stream still arrives in pieces.
  const mock = await createMockAgentServer({ agents: demoAgents, delayScale: 0.4, log: () => {} });
  process.env.VITE_AGENT_HOST = `127.0.0.1:${mock.port}`;
  let vite: ViteDevServer | undefined;
  let browser: Browser | undefined;
  try {
    vite = await createServer({
      root: fileURLToPath(new URL("..", import.meta.url)),
      configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)),
      server: { host: "127.0.0.1", port: 0, strictPort: false },
      logLevel: "error",
      clearScreen: false,
    });
    await vite.listen();
    const address = vite.httpServer?.address();
    if (!address || typeof address === "string") throw new Error("vite did not listen on a port");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    mkdirSync(SHOTS, { recursive: true });
    const v = vite;
    const b = browser;
    return {
      mock,
      url: `http://127.0.0.1:${address.port}/`,
      browser: b,
      close: async () => {
        await b.close();
        await v.close();
        await mock.close();
      },
    };
  } catch (e) {
    await browser?.close();
    await vite?.close();
    await mock.close();
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
  await page.goto(`${pg.url}?agent=${agent}&name=${name}`);
  await page.getByText("open", { exact: true }).first().waitFor({ timeout: 20_000 });
  return { page, name, errors };
}

/** Saves the step's screenshot; the file name says which step it is. */
export async function shot(page: Page, step: string) {
  await page.screenshot({ path: `${SHOTS}${step}.png`, fullPage: true });
}

/** Types a message and sends it, as a person would. */
export async function say(page: Page, text: string) {
  await page.getByLabel("Message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}
