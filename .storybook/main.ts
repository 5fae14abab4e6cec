import { fileURLToPath } from "node:url";
import type { StorybookConfig } from "@storybook/react-vite";
import type { Plugin } from "vite";
import { standInPage } from "../mock-server/src/live-view.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Live View pages for the stories' frames. The mock runs in the browser under MSW, whose service worker does not
 * see iframe navigations, so the dev server draws the pretend tab a page id names (stateless: never expired).
 */
const liveViewPages: Plugin = {
  name: "runboard-live-view-pages",
  configureServer(server) {
    server.middlewares.use("/live-view/", (req, res, next) => {
      const html = standInPage((req.url ?? "").replace(/^\//, "").split("?")[0] ?? "");
      if (html === undefined) return next();
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(html);
    });
  },
};

const config: StorybookConfig = {
  stories: ["../stories/**/*.mdx", "../stories/**/*.stories.@(ts|tsx)"],
  addons: ["@storybook/addon-vitest", "@storybook/addon-a11y", "@storybook/addon-docs"],
  framework: { name: "@storybook/react-vite", options: {} },
  // MSW's service worker answers the mock agent's HTTP routes (get-messages, Live View pages).
  staticDirs: ["../stories/public"],
  core: { disableTelemetry: true },
  // Stories import the packages by name from source, as the tests do: no build step.
  viteFinal: async (c) => ({
    ...c,
    plugins: [...(c.plugins ?? []), liveViewPages],
    resolve: {
      ...c.resolve,
      alias: {
        ...(c.resolve?.alias as Record<string, string> | undefined),
        "@runboard/protocol": here("../packages/protocol/src/index.ts"),
        "@runboard/client/helix": here("../packages/client/src/helix/index.ts"),
        "@runboard/client": here("../packages/client/src/index.ts"),
        // Before the package's own entry: a prefix alias would otherwise swallow the subpath.
        "@runboard/react/styles.css": here("../packages/react/styles.css"),
        "@runboard/react": here("../packages/react/src/index.ts"),
        "@runboard/mock-server/msw": here("../mock-server/src/msw.ts"),
      },
    },
  }),
};
export default config;
