// Consumer app size: the consumer suite's app (consumer/app) built by Vite for production, as an app would
// ship it, and gzipped. Four builds of the same sources:
// - "hooks only" (src/hooks-only.tsx, a chat with useAgent + useAgentChat + useAgentToolEvents), once on
//   @runboard/react and once with its one import of the hooks pointed at the official agents/react +
//   @cloudflare/ai-chat/react, which take the same options (the kit is a drop-in);
// - the same app with stand-in hooks that do nothing, so React, react-dom and the app's own code can be
//   subtracted: what is left is each library's own share;
// - the full page (src/entry-client.tsx: every hook and every component).
// Everything is bundled (react, react-dom, the AI SDK where a package imports it at run time); sizes are all
// emitted JS and CSS, minified, then gzip -9. `npm run bench:consumer`; writes its section of bench/RESULTS.md.
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build as viteBuild } from "vite";
import { build, repo } from "./lib/build.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2 } from "./lib/stats.mjs";

// Our packages are imported through the workspace links, so from their `dist`, like the installed tarballs.
const fresh = build("packages/protocol", "packages/client", "packages/react");
const app = `${repo}/consumer/app`;

const KITS = {
  runboard: null,
  official:
    'export { useAgent, useAgentToolEvents } from "agents/react";\nexport { useAgentChat } from "@cloudflare/ai-chat/react";',
  baseline: [
    "export const useAgent = () => ({});",
    'export const useAgentChat = () => ({ status: "ready", messages: [], sendMessage: async () => {} });',
    "export const useAgentToolEvents = () => ({ runsById: {} });",
  ].join("\n"),
};

/** Points the app's `./kit.ts` import at another set of hooks. */
function kitPlugin(kit) {
  const id = "\0bench-kit";
  return {
    name: "bench-kit",
    enforce: "pre",
    resolveId: (source, importer) =>
      KITS[kit] !== null && source === "./kit.ts" && importer?.endsWith("hooks-only.tsx") ? id : null,
    load: (loaded) => (loaded === id ? KITS[kit] : null),
  };
}

async function measure(entry, kit) {
  const result = await viteBuild({
    root: app,
    configFile: false,
    logLevel: "silent",
    mode: "production",
    plugins: [react(), kitPlugin(kit)],
    build: {
      write: false,
      minify: true,
      chunkSizeWarningLimit: 1 << 30,
      rollupOptions: { input: `${app}/src/${entry}` },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const code = outputs
    .filter((o) => o.type === "chunk" || /\.css$/.test(o.fileName))
    .map((o) => (o.type === "chunk" ? o.code : String(o.source)));
  return {
    files: code.length,
    min: code.reduce((n, c) => n + Buffer.byteLength(c), 0),
    gzip: code.reduce((n, c) => n + gzipSync(c, { level: 9 }).length, 0),
  };
}

const BASE = "baseline: hooks-only app, stand-in hooks (React + app code)";
const OFFICIAL = "official: hooks-only app on agents/react + @cloudflare/ai-chat/react";
const HOOKS = "runboard: hooks-only app on @runboard/react";
const FULL = "runboard: full page, every hook and component";
const sizes = {
  [BASE]: await measure("hooks-only.tsx", "baseline"),
  [OFFICIAL]: await measure("hooks-only.tsx", "official"),
  [HOOKS]: await measure("hooks-only.tsx", "runboard"),
  [FULL]: await measure("entry-client.tsx", "runboard"),
};

const kb = (b) => `${(b / 1024).toFixed(1)} kB`;
const share = (name) => sizes[name].gzip - sizes[BASE].gzip;
const appRatio = (name) => sizes[name].gzip / sizes[OFFICIAL].gzip;
const shareRatio = (name) => share(name) / share(OFFICIAL);
const lines = [
  `## Consumer app size (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:consumer\` (\`node bench/consumer.mjs\`). The consumer suite's app (\`consumer/app\`) built with Vite 8 for production, everything bundled (React, react-dom, and whatever each library imports at run time, the AI SDK included); all emitted JS and CSS, minified, gzip -9. The hooks-only app is one source file whose hooks import is pointed at each library; the baseline swaps in hooks that do nothing, so subtracting it leaves each library's own share.${fresh ? "" : " The TypeScript build failed: our packages were measured from their previous `dist`."}`,
  "",
  "| app | files | min | gzip | library's share (gzip) |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...Object.entries(sizes).map(
    ([k, s]) => `| ${k} | ${s.files} | ${kb(s.min)} | ${kb(s.gzip)} | ${k === BASE ? "—" : kb(share(k))} |`,
  ),
  "",
  `- hooks-only app, runboard / official: **${f2(appRatio(HOOKS))}×** gzip (whole app); the libraries' own share: **${f2(shareRatio(HOOKS))}×**`,
  `- full page (every hook and component) / the official hooks-only app: **${f2(appRatio(FULL))}×** gzip (whole app); share over the baseline: ${f2(shareRatio(FULL))}× (includes the page's own markup for the components)`,
];
console.log(lines.join("\n"));
writeSection("Consumer app size", lines);
recordFigures("consumer", [
  { name: "consumer app gzip, hooks only, runboard / official", value: appRatio(HOOKS), unit: "×" },
  { name: "consumer app, libraries' own share, runboard / official", value: shareRatio(HOOKS), unit: "×" },
  { name: "consumer app gzip, every component / official hooks app", value: appRatio(FULL), unit: "×" },
]);
