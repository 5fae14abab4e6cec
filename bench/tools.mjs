// Agent-tool runs through a rendered tray: 20 runs × 1,000 chunks (+ progress frames), frames in → every run
// shown as finished with its full text, side by side in one jsdom process: Runboard's `useAgentToolEvents`
// rendering a minimal tray list, the official `useAgentToolEvents` (agents/react) rendering the same list,
// Runboard's `AgentToolRuns` store alone, and the floor (the same frames only parsed, delivered the same way).
// `RunTray` from @runboard/react is not used: it does not exist yet (packages/react/src/run-tray/ is empty);
// the list below stands in for it, the same for both. The reducer alone is in bench/run.mjs.
// `npm run bench:tools`; writes its section of bench/RESULTS.md.
import { build } from "./lib/build.mjs";
import { FakeAgent, loadReact, pushInBursts, until } from "./lib/dom.mjs";
import { agentToolStream, textOf } from "./lib/frames.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2, measure } from "./lib/stats.mjs";

build("packages/protocol", "packages/client", "packages/react");
const { React, createRoot } = await loadReact();
const { AgentToolRuns } = await import("../packages/client/dist/index.js");
const runboard = await import("../packages/react/dist/index.js");
const official = await import("agents/react");

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const N_RUNS = 20;
const PER_RUN = 1_000;
const { frames, progressFrames, expectedRunText } = agentToolStream({ runs: N_RUNS, perRun: PER_RUN });
const h = React.createElement;

/** One tray row: memoized on the run object, so an unchanged run does not re-render. */
const Row = React.memo(function Row({ run }) {
  return h(
    "li",
    { "data-state": run.status },
    h("span", null, run.agentType),
    h("progress", { max: 1, value: run.progress?.fraction ?? 0 }),
    h("p", null, textOf(run)),
  );
});

/** The tray: runs in display order (`order`), as both hooks return them in `runsById`. */
function Tray({ runsById }) {
  const runs = Object.values(runsById).sort((a, b) => a.order - b.order);
  return h(
    "ul",
    null,
    runs.map((run) => h(Row, { key: run.runId, run })),
  );
}

const shown = (el) => {
  const rows = el.querySelectorAll('li[data-state="completed"]');
  if (rows.length !== N_RUNS) return false;
  for (const li of rows) if (li.lastChild.textContent !== expectedRunText) return false;
  return true;
};

const commits = {};
async function tray(name, useTools) {
  const agent = new FakeAgent();
  const box = { commits: 0 };
  function App() {
    const tools = useTools({ agent });
    React.useEffect(() => {
      box.commits++;
    });
    return h(Tray, { runsById: tools.runsById });
  }
  const el = document.createElement("div");
  const root = createRoot(el);
  root.render(h(App));
  await until(() => box.commits > 0, "mount");
  const before = box.commits;
  await pushInBursts(agent, frames);
  await until(() => shown(el), `${name}: all runs shown`);
  commits[name] = box.commits - before;
  root.unmount();
}

const { medians: t, cpu } = await measure(
  {
    "floor: parse frame + body": async () => {
      const agent = new FakeAgent();
      let finished = 0;
      agent.addEventListener("message", (e) => {
        const f = JSON.parse(e.data);
        if (f.event.kind === "chunk") JSON.parse(f.event.body);
        else if (f.event.kind === "finished") finished++;
      });
      await pushInBursts(agent, frames);
      if (finished !== N_RUNS) throw new Error("floor");
    },
    "runboard AgentToolRuns (store, no React)": async () => {
      const agent = new FakeAgent();
      const store = new AgentToolRuns({ agent, storage: null });
      await pushInBursts(agent, frames);
      const done = () => {
        const runs = Object.values(store.getSnapshot().runsById);
        return runs.length === N_RUNS && runs.every((r) => r.status === "completed");
      };
      await until(done, "store");
      store.dispose();
    },
    "runboard useAgentToolEvents + tray": () => tray("runboard", runboard.useAgentToolEvents),
    "official useAgentToolEvents + tray": () => tray("official", official.useAgentToolEvents),
  },
  { runs: RUNS, warmups: 1 },
);

const FLOOR = "floor: parse frame + body";
const OURS = "runboard useAgentToolEvents + tray";
const THEIRS = "official useAgentToolEvents + tray";
const floor = t[FLOOR];
const ours = t[OURS];
const theirs = t[THEIRS];
const lines = [
  `## Agent-tool runs, rendered: ${N_RUNS} runs × ${PER_RUN.toLocaleString("en")} chunks (+${progressFrames} progress frames) → tray shows every run finished (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:tools\` (\`node bench/tools.mjs\`); jsdom, frames pushed in reads of 500 with a macrotask between; median of ${RUNS} after a warm-up, contenders alternating. RunTray does not exist yet: both hooks render the same minimal list (a memoized row per run: status, agent type, progress bar, text).`,
  "",
  "| contender | median wall ms | median CPU ms |",
  "| --- | ---: | ---: |",
  ...Object.entries(t).map(([k, v]) => `| ${k} | ${f2(v)} | ${f2(cpu[k])} |`),
  "",
  `- rendered tray, runboard / official: **${f2(ours / theirs)}×** (target ≤ 0.25×); CPU ${f2(cpu[OURS] / cpu[THEIRS])}×`,
  `- rendered tray, runboard / floor: **${f2(ours / floor)}×** (target ≤ 1.5×); CPU ${f2(cpu[OURS] / cpu[FLOOR])}×; official / floor: ${f2(theirs / floor)}× (CPU ${f2(cpu[THEIRS] / cpu[FLOOR])}×)`,
  `- store alone, runboard / floor: ${f2(t["runboard AgentToolRuns (store, no React)"] / floor)}×`,
  `- React commits (last run): runboard ${commits.runboard}, official ${commits.official}`,
];
console.log(lines.join("\n"));
writeSection("Agent-tool runs, rendered", lines);
recordFigures("tools", [
  { name: "agent tools rendered tray, runboard / official", value: ours / theirs, unit: "×", max: 0.25 },
  { name: "agent tools rendered tray, runboard / floor", value: ours / floor, unit: "×", max: 1.5 },
]);
process.exit(0);
