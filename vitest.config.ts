import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import the packages by name; resolve them to source so no build step is needed.
const alias = {
  // Subpaths before the package's own entry: a prefix alias would otherwise swallow them.
  "@runboard/protocol/view": here("./packages/protocol/src/view.ts"),
  "@runboard/protocol/helix": here("./packages/protocol/src/helix/index.ts"),
  "@runboard/protocol": here("./packages/protocol/src/index.ts"),
  "@runboard/client/helix": here("./packages/client/src/helix/index.ts"),
  "@runboard/client": here("./packages/client/src/index.ts"),
  "@runboard/react/styles.css": here("./packages/react/styles.css"),
  "@runboard/react": here("./packages/react/src/index.ts"),
  // Before the package's own entry: a prefix alias would otherwise swallow the subpath.
  "@runboard/mock-server/msw": here("./mock-server/src/msw.ts"),
  "@runboard/mock-server": here("./mock-server/src/index.ts"),
};

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const chromium = () =>
  playwright({ launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS } });

const exclude = ["**/node_modules/**", "**/dist/**", "**/dist-test/**"];

// Vitest's 5 s default fails a test whose steps are correct but slow when the machine is busy (CI shares its
// cores); the suite must not depend on speed, so a test only fails on what it asserts or on a real hang.
const testTimeout = 60_000;

// Browser pages are served on 127.0.0.1 (not whatever `localhost` resolves to first), so the same server is
// also reachable as `localhost`: the stories and tests load their Live View pages under that other name, a
// different origin (see test-support/loopback-origin.ts).
const BROWSER_API = { host: "127.0.0.1" };

/** A Vitest project running every story with the preview's `theme` toolbar global pinned to `theme`. */
function storybookProject(name: string, theme: "light" | "dark") {
  return {
    resolve: { alias },
    plugins: [storybookTest({ configDir: here("./.storybook"), initialGlobals: { theme } })],
    test: {
      name,
      testTimeout,
      browser: {
        enabled: true,
        headless: true,
        provider: chromium(),
        api: BROWSER_API,
        instances: [{ browser: "chromium" as const }],
      },
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "node",
          environment: "node",
          testTimeout,
          include: ["**/*.test.ts"],
          exclude: [...exclude, "**/*.browser.test.*", "**/*.dom.test.*"],
          typecheck: {
            enabled: true,
            only: false,
            include: ["**/*.test-d.ts"],
            tsconfig: "./tsconfig.typecheck.json",
          },
        },
      },
      {
        resolve: { alias },
        plugins: [react()],
        test: {
          name: "jsdom",
          environment: "jsdom",
          testTimeout,
          setupFiles: [here("./test-support/jsdom-setup.ts")],
          include: ["**/*.dom.test.{ts,tsx}"],
          exclude,
        },
      },
      {
        resolve: { alias },
        plugins: [react()],
        test: {
          name: "browser",
          testTimeout,
          include: ["**/*.browser.test.{ts,tsx}"],
          // A browser cannot start a server: the mock runs in Node and the tests get its port.
          globalSetup: ["packages/client/test/mock-global-setup.ts"],
          exclude,
          browser: {
            enabled: true,
            headless: true,
            provider: chromium(),
            api: BROWSER_API,
            instances: [{ browser: "chromium" }],
          },
        },
      },
      // Every story's play function and its axe-core check (colour contrast included), in headless Chromium
      // (Storybook's Vitest addon), once per colour scheme of the theme: the toolbar's `theme` global is pinned
      // per project, so the same stories run with data-theme="light" and data-theme="dark" on <html>.
      storybookProject("storybook", "light"),
      storybookProject("storybook-dark", "dark"),
    ],
  },
});
