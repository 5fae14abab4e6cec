import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The playground: a Vite + React page against the mock agent server. `npm run dev` at the root starts both. */
export default defineConfig({
  plugins: [react()],
  resolve: {
    // Source, not dist: protocol edits show up without a rebuild.
    alias: {
      // Before the package's own entry: a prefix alias would otherwise swallow the subpaths.
      "@runboard/protocol/view": fileURLToPath(new URL("../packages/protocol/src/view.ts", import.meta.url)),
      "@runboard/protocol/helix": fileURLToPath(
        new URL("../packages/protocol/src/helix/index.ts", import.meta.url),
      ),
      "@runboard/protocol": fileURLToPath(new URL("../packages/protocol/src/index.ts", import.meta.url)),
      // Before the package's own entry: a prefix alias would otherwise swallow the subpath.
      "@runboard/client/helix": fileURLToPath(
        new URL("../packages/client/src/helix/index.ts", import.meta.url),
      ),
      "@runboard/client": fileURLToPath(new URL("../packages/client/src/index.ts", import.meta.url)),
      // Before the package's own entry: a prefix alias would otherwise swallow the subpath.
      "@runboard/react/styles.css": fileURLToPath(new URL("../packages/react/styles.css", import.meta.url)),
      "@runboard/react": fileURLToPath(new URL("../packages/react/src/index.ts", import.meta.url)),
    },
  },
  server: { host: "127.0.0.1" },
});
