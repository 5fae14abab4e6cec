// Builds the consumer app with Vite, from outside the app: the app folder has only the packages under test
// and their peers installed, so the build tool (this repository's vite and @vitejs/plugin-react) comes from
// here while everything the app imports resolves from the app's own node_modules.
//
// node consumer/build-app.mjs <app root> client|ssr <outDir>
// NODE_ENV=development gives React's development build (more warnings; used for the hydration check).
import path from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";

const [root, kind, outDir] = process.argv.slice(2);
if (!root || !outDir || (kind !== "client" && kind !== "ssr")) {
  console.error("usage: node consumer/build-app.mjs <app root> client|ssr <outDir>");
  process.exit(2);
}

await build({
  root: path.resolve(root),
  configFile: false,
  logLevel: "warn",
  plugins: [react()],
  build: {
    outDir: path.resolve(root, outDir),
    emptyOutDir: true,
    // A development build stays readable, so a hydration report names the components.
    minify: process.env.NODE_ENV !== "development",
    chunkSizeWarningLimit: 4096,
    ...(kind === "ssr" ? { ssr: "src/entry-server.tsx" } : {}),
  },
});
