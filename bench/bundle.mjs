// Bundle size: `@runboard/client` + `@runboard/react` against `agents/react` + `@cloudflare/ai-chat/react`, each
// bundled the same way (bench/lib/bundle.mjs: rolldown, the bundler vite 8 uses; minified, tree-shaken, for the
// browser, `react`, `react-dom` and `ai` external). The packages whole, the three hooks imported by name as an
// app imports them (ours and the official), and each component alone and on top of the hooks: its marginal
// cost. Sizes are of all chunks together, min and gzip -9. Ours is bundled from source, so no build is needed.
// `npm run bench:bundle`; writes its section of bench/RESULTS.md.
import { bundleEntry, reexport } from "./lib/bundle.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2 } from "./lib/stats.mjs";

const everything = (...packages) => packages.map((p) => `export * from ${JSON.stringify(p)};`).join("\n");
// What an app that uses only the hooks imports: the three hooks by name, from each side's public entries.
const HOOK_NAMES = ["useAgent", "useAgentChat", "useAgentToolEvents"];
const ourHooks = reexport(HOOK_NAMES, "@runboard/react");
const officialHooks = `${reexport(["useAgent", "useAgentToolEvents"], "agents/react")}\n${reexport(["useAgentChat"], "@cloudflare/ai-chat/react")}`;
// Every component of @runboard/react, each measured alone and on top of the hooks (its marginal cost).
const COMPONENTS = [
  "AgentEvent",
  "AgentToolRun",
  "ApprovalCard",
  "ApprovalQueue",
  "BranchPicker",
  "ChatMessageList",
  "ChatStatus",
  "HelixChild",
  "LiveView",
  "MessageParts",
  "MilestoneTimeline",
  "Progress",
  "RunTray",
];

const entries = {
  "runboard: client + react (hooks + components)": everything("@runboard/client", "@runboard/react"),
  "runboard: the hooks (`useAgent`, `useAgentChat`, `useAgentToolEvents` from @runboard/react)": ourHooks,
  "runboard: client only": everything("@runboard/client"),
  "official: agents/react + @cloudflare/ai-chat/react": everything(
    "agents/react",
    "@cloudflare/ai-chat/react",
  ),
  "official: the hooks (the same three, by name)": officialHooks,
  "official: @cloudflare/ai-chat/react only": everything("@cloudflare/ai-chat/react"),
  "official: agents/react only": everything("agents/react"),
};

const sizes = {};
for (const [name, code] of Object.entries(entries)) sizes[name] = await bundleEntry(code);
const parts = {};
for (const c of COMPONENTS)
  parts[c] = {
    alone: await bundleEntry(reexport([c], "@runboard/react")),
    withHooks: await bundleEntry(`${ourHooks}\n${reexport([c], "@runboard/react")}`),
  };

const kb = (b) => `${(b / 1024).toFixed(1)} kB`;
const OFFICIAL = "official: agents/react + @cloudflare/ai-chat/react";
const OFFICIAL_HOOKS = "official: the hooks (the same three, by name)";
const HOOKS = "runboard: the hooks (`useAgent`, `useAgentChat`, `useAgentToolEvents` from @runboard/react)";
const FULL = "runboard: client + react (hooks + components)";
const ratio = (name, k, base = OFFICIAL) => sizes[name][k] / sizes[base][k];
const hooksGzip = sizes[HOOKS].initial.gzip;
const officialHooksGzip = sizes[OFFICIAL_HOOKS].initial.gzip;
const lines = [
  `## Bundle size (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:bundle\` (\`node bench/bundle.mjs\`). rolldown, one ESM entry (re-exporting the packages, or naming what an app imports), minified, tree-shaken, browser, NODE_ENV=production; \`react\`, \`react-dom\`, \`ai\` (and subpaths) external, everything else bundled (for the official: partysocket, nanoid, \`@ai-sdk/react\`, …; for ours: zustand, partysocket, Radix). Ours from source. gzip -9, all chunks summed.`,
  "",
  "| bundle | chunks | min | gzip | gzip loaded first |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...Object.entries(sizes).map(
    ([k, s]) => `| ${k} | ${s.chunks} | ${kb(s.min)} | ${kb(s.gzip)} | ${kb(s.initial.gzip)} |`,
  ),
  "",
  `- \`@runboard/client\` + \`@runboard/react\` whole (every hook and component, Radix Dialog included, against packages that have no components): runboard / official gzip **${f2(ratio(FULL, "gzip"))}×** (target ≤ 0.5×), min ${f2(ratio(FULL, "min"))}×`,
  `- the hooks only (an app importing just \`useAgent\` / \`useAgentChat\` / \`useAgentToolEvents\`; the rest is tree-shaken), against the official hooks imported the same way: runboard / official gzip **${f2(ratio(HOOKS, "gzip", OFFICIAL_HOOKS))}×** (target ≤ 0.5×), min ${f2(ratio(HOOKS, "min", OFFICIAL_HOOKS))}×; against the official entries whole ${f2(ratio(HOOKS, "gzip"))}×`,
  "",
  "### Per part (gzip)",
  "",
  `Each component of \`@runboard/react\` imported by name, alone and on top of the three hooks, as loaded with the app (the entry and what it imports statically); the marginal cost is what the component adds to the hooks' ${kb(hooksGzip)}. "On demand" is what a part loads by \`import()\` when a feature is first used (ApprovalCard's confirm dialog, AgentToolRun following a child run). Ratios are to the official hooks (${kb(officialHooksGzip)}).`,
  "",
  "| part | alone | alone / official hooks | hooks + part | marginal over the hooks | marginal / official hooks | on demand (alone) |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  `| hooks only | ${kb(hooksGzip)} | ${f2(hooksGzip / officialHooksGzip)}× | — | — | — | — |`,
  ...Object.entries(parts).map(([c, p]) => {
    const alone = p.alone.initial.gzip;
    const marginal = p.withHooks.initial.gzip - hooksGzip;
    return `| ${c} | ${kb(alone)} | ${f2(alone / officialHooksGzip)}× | ${kb(p.withHooks.initial.gzip)} | ${kb(marginal)} | ${f2(marginal / officialHooksGzip)}× | ${kb(p.alone.gzip - alone)} |`;
  }),
];
console.log(lines.join("\n"));
writeSection("Bundle size", lines);
recordFigures("bundle", [
  {
    name: "bundle gzip, hooks, runboard / official",
    value: ratio(HOOKS, "gzip", OFFICIAL_HOOKS),
    unit: "×",
    max: 0.5,
  },
  {
    name: "bundle gzip, hooks + components, runboard / official",
    value: ratio(FULL, "gzip"),
    unit: "×",
    max: 0.5,
  },
]);
