import { fileURLToPath } from "node:url";
import type { StorybookConfig } from "@storybook/react-vite";
import ts from "typescript";
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

/**
 * `ChatStatus.Root` for the `Root` in `export const ChatStatus = { Root, … }`. The docgen plugin attaches a
 * table to the name it gets here; a part's bare name ("Root", or "Icon" for a factory-made part) is no variable
 * of the module, so without this the parts of every namespace had no table.
 */
function namespacedPartName(symbol: ts.Symbol): string | undefined {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (!declaration) return;
  // A part made by a factory (`export const LiveViewTakeOver = createActionButton(…)`): its own name. The
  // docgen's fallback takes the first `X.displayName = …` of the module, so two such parts got the same name
  // and the second was dropped as a duplicate.
  if (ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name))
    return declaration.name.text;
  if (!(ts.isShorthandPropertyAssignment(declaration) || ts.isPropertyAssignment(declaration))) return;
  const variable = declaration.parent.parent;
  if (!ts.isVariableDeclaration(variable) || !ts.isIdentifier(variable.name)) return;
  return `${variable.name.text}.${symbol.getName()}`;
}

const config: StorybookConfig = {
  stories: ["../stories/**/*.mdx", "../stories/**/*.stories.@(ts|tsx)"],
  addons: ["@storybook/addon-vitest", "@storybook/addon-a11y", "@storybook/addon-docs"],
  framework: { name: "@storybook/react-vite", options: {} },
  // MSW's service worker answers the mock agent's HTTP routes (get-messages, Live View pages).
  staticDirs: ["../stories/public"],
  core: { disableTelemetry: true },
  // Props tables (the API reference page) from the TypeScript types and their TSDoc. react-docgen, the default,
  // documents only components a module exports by name, so the parts reached through a namespace
  // (`ChatStatus.Root`) or made by a factory (`AgentToolRun.Icon`, the action buttons) had no table.
  typescript: {
    reactDocgen: "react-docgen-typescript",
    // Keep the parts' own displayName ("ChatStatus.Root"), which dev warnings and React DevTools show.
    // The kit's own program: from the root one, the package resolves to its built .d.ts (project references),
    // where a namespace's parts are only types and get no table.
    reactDocgenTypescriptOptions: {
      tsconfigPath: here("../packages/react/tsconfig.json"),
      setDisplayName: false,
      shouldRemoveUndefinedFromOptional: true,
      componentNameResolver: namespacedPartName,
    },
  },
  // Stories import the packages by name from source, as the tests do: no build step.
  viteFinal: async (c) => ({
    ...c,
    plugins: [...(c.plugins ?? []), liveViewPages],
    resolve: {
      ...c.resolve,
      alias: {
        ...(c.resolve?.alias as Record<string, string> | undefined),
        // Before the package's own entry: a prefix alias would otherwise swallow the subpaths.
        "@runboard/protocol/view": here("../packages/protocol/src/view.ts"),
        "@runboard/protocol/helix": here("../packages/protocol/src/helix/index.ts"),
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
