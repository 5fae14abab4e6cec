import { fileURLToPath } from "node:url";
import type { StorybookConfig } from "@storybook/react-vite";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const config: StorybookConfig = {
  stories: ["../stories/**/*.stories.@(ts|tsx)"],
  addons: ["@storybook/addon-vitest", "@storybook/addon-a11y"],
  framework: { name: "@storybook/react-vite", options: {} },
  // MSW's service worker answers the mock agent's HTTP routes (get-messages, Live View pages).
  staticDirs: ["../stories/public"],
  core: { disableTelemetry: true },
  // Stories import the packages by name from source, as the tests do: no build step.
  viteFinal: async (c) => ({
    ...c,
    resolve: {
      ...c.resolve,
      alias: {
        ...(c.resolve?.alias as Record<string, string> | undefined),
        "@runboard/protocol": here("../packages/protocol/src/index.ts"),
        "@runboard/client": here("../packages/client/src/index.ts"),
        "@runboard/react": here("../packages/react/src/index.ts"),
        "@runboard/mock-server/msw": here("../mock-server/src/msw.ts"),
      },
    },
  }),
};
export default config;
