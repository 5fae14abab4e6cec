// Bundle size: `@runboard/client` + `@runboard/react` against `agents/react` + `@cloudflare/ai-chat/react`, each
// bundled the same way with rolldown (the bundler vite 8 uses): one ESM entry re-exporting both packages,
// minified, tree-shaken, for the browser, `process.env.NODE_ENV` = "production"; `react`, `react-dom` and `ai`
// (and their subpaths) external, everything else bundled. Sizes are of all chunks together, min and gzip -9.
// Ours is bundled from source (`packages/*/src`), so no build is needed and the figure is the checkout's.
// `npm run bench:bundle`; writes its section of bench/RESULTS.md.
import { gzipSync } from "node:zlib";
import { rolldown } from "rolldown";
import { repo } from "./lib/build.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2 } from "./lib/stats.mjs";

const src = (p) => `${repo}/packages/${p}`;
const external = /^(react|react-dom|ai)(\/.*)?$/;

// The hooks of @runboard/react (what the official packages offer); the rest of its index is components.
const HOOK_MODULES = ["use-agent.ts", "use-agent-chat.ts", "use-agent-tool-events.ts", "official-helpers.ts"];

const entries = {
  "runboard: client + react (hooks + components)": [src("client/src/index.ts"), src("react/src/index.ts")],
  "runboard: client + react hooks only": [
    src("client/src/index.ts"),
    ...HOOK_MODULES.map((m) => src(`react/src/${m}`)),
  ],
  "runboard: client only": [src("client/src/index.ts")],
  "official: agents/react + @cloudflare/ai-chat/react": ["agents/react", "@cloudflare/ai-chat/react"],
  "official: @cloudflare/ai-chat/react only": ["@cloudflare/ai-chat/react"],
  "official: agents/react only": ["agents/react"],
};

async function bundle(modules) {
  const ENTRY = "\0bench-entry";
  const bundle = await rolldown({
    input: ENTRY,
    cwd: repo,
    platform: "browser",
    external: (id) => external.test(id),
    // Our packages import each other by name; point them at source like the entry.
    resolve: {
      alias: {
        "@runboard/client": src("client/src/index.ts"),
        // Subpaths before the package's own entry: a prefix alias would otherwise swallow them.
        "@runboard/protocol/view": src("protocol/src/view.ts"),
        "@runboard/protocol/helix": src("protocol/src/helix/index.ts"),
        "@runboard/protocol": src("protocol/src/index.ts"),
      },
    },
    transform: { define: { "process.env.NODE_ENV": '"production"' } },
    treeshake: true,
    logLevel: "silent",
    plugins: [
      {
        name: "bench-entry",
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) =>
          id === ENTRY ? modules.map((m) => `export * from ${JSON.stringify(m)};`).join("\n") : null,
      },
    ],
  });
  const { output } = await bundle.generate({ format: "esm", minify: true });
  await bundle.close();
  const code = output.filter((o) => o.type === "chunk").map((o) => o.code);
  return {
    chunks: code.length,
    min: code.reduce((n, c) => n + Buffer.byteLength(c), 0),
    gzip: code.reduce((n, c) => n + gzipSync(c, { level: 9 }).length, 0),
  };
}

const sizes = {};
for (const [name, modules] of Object.entries(entries)) sizes[name] = await bundle(modules);

const kb = (b) => `${(b / 1024).toFixed(1)} kB`;
const OFFICIAL = "official: agents/react + @cloudflare/ai-chat/react";
const HOOKS = "runboard: client + react hooks only";
const FULL = "runboard: client + react (hooks + components)";
const ratio = (name, k) => sizes[name][k] / sizes[OFFICIAL][k];
const lines = [
  `## Bundle size (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:bundle\` (\`node bench/bundle.mjs\`). rolldown, one ESM entry re-exporting the packages, minified, tree-shaken, browser, NODE_ENV=production; \`react\`, \`react-dom\`, \`ai\` (and subpaths) external, everything else bundled (for the official: partysocket, nanoid, \`@ai-sdk/react\`, …; for ours: zustand, partysocket, Radix). gzip -9, all chunks summed.`,
  "",
  "| bundle | chunks | min | gzip |",
  "| --- | ---: | ---: | ---: |",
  ...Object.entries(sizes).map(([k, s]) => `| ${k} | ${s.chunks} | ${kb(s.min)} | ${kb(s.gzip)} |`),
  "",
  `- \`@runboard/client\` + \`@runboard/react\` whole (the issue's figure; hooks and eight headless components, Radix Dialog included, against packages that have no components): runboard / official gzip **${f2(ratio(FULL, "gzip"))}×** (target ≤ 0.5×), min ${f2(ratio(FULL, "min"))}×`,
  `- the hooks only (what an app importing just \`useAgent\` / \`useAgentChat\` / \`useAgentToolEvents\` ships; the rest is tree-shaken): runboard / official gzip **${f2(ratio(HOOKS, "gzip"))}×** (target ≤ 0.5×), min ${f2(ratio(HOOKS, "min"))}×`,
];
console.log(lines.join("\n"));
writeSection("Bundle size", lines);
recordFigures("bundle", [
  { name: "bundle gzip, hooks, runboard / official", value: ratio(HOOKS, "gzip"), unit: "×", max: 0.5 },
  {
    name: "bundle gzip, hooks + components, runboard / official",
    value: ratio(FULL, "gzip"),
    unit: "×",
    max: 0.5,
  },
]);
