import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import the packages by name; resolve them to source so no build step is needed.
const alias = {
  "@runboard/protocol": here("./packages/protocol/src/index.ts"),
  "@runboard/client": here("./packages/client/src/index.ts"),
  "@runboard/react": here("./packages/react/src/index.ts"),
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

const exclude = ["**/node_modules/**", "**/dist/**", "**/dist-test/**"];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "node",
          environment: "node",
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
          include: ["**/*.dom.test.{ts,tsx}"],
          exclude,
        },
      },
      {
        resolve: { alias },
        plugins: [react()],
        test: {
          name: "browser",
          include: ["**/*.browser.test.{ts,tsx}"],
          // A browser cannot start a server: the mock runs in Node and the tests get its port.
          globalSetup: ["packages/client/test/mock-global-setup.ts"],
          exclude,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
