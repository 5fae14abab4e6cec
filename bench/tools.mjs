// Agent-tool runs through a rendered tray: 20 runs × 1,000 chunks (+ progress frames), frames in → every run
// shown as finished with its full text, side by side in one jsdom process: Runboard's `useAgentToolEvents`
// and the official `useAgentToolEvents` (agents/react), each feeding the same `RunTray` from @runboard/react
// (the official packages have no tray; an app would put their runs in one like it), Runboard's `AgentToolRuns`
// store alone, and the floor (the same frames only parsed, delivered the same way). The reducer alone is in
// bench/run.mjs. `npm run bench:tools`; writes its section of bench/RESULTS.md.
import { build } from "./lib/build.mjs";
import { FakeAgent, loadReact, pushInBursts, until } from "./lib/dom.mjs";
import { agentToolStream, textOf } from "./lib/frames.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2, measure, window } from "./lib/stats.mjs";

build("packages/protocol", "packages/client", "packages/react");
const { React, createRoot } = await loadReact();
const { AgentToolRuns } = await import("../packages/client/dist/index.js");
const runboard = await import("../packages/react/dist/index.js");
const { RunTray } = runboard;
const official = await import("agents/react");

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const N_RUNS = 20;
const PER_RUN = 1_000;
const { frames, progressFrames, expectedRunText } = agentToolStream({ runs: N_RUNS, perRun: PER_RUN });
const h = React.createElement;
/** The frames as new strings, made just before a contender's timed window, as a socket hands them over. */
const fresh = () => frames.map((f) => f.replace('"type":"agent-tool-event"', '"type":"agent-tool-event"'));

/**
 * The tray: every run, in display order, in `RunTray` with its title, status and progress bar, plus the run's
 * text in a paragraph so the benchmark can see when the last chunk is on screen.
 */
function Tray({ runsById }) {
  const runs = React.useMemo(() => Object.values(runsById).sort((a, b) => a.order - b.order), [runsById]);
  return h(
    RunTray.Root,
    { runs, defaultOpen: true, stallAfterMs: 0 },
    h(RunTray.List, null, (run) =>
      h(
        RunTray.Item,
        null,
        h(RunTray.Title),
        h(RunTray.Status),
        h(RunTray.Progress),
        h("p", { "data-text": "" }, textOf(run)),
      ),
    ),
  );
}

const shown = (el) => {
  const rows = el.querySelectorAll('li[data-status="completed"]');
  if (rows.length !== N_RUNS) return false;
  for (const li of rows) if (li.querySelector("p[data-text]")?.textContent !== expectedRunText) return false;
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
  const input = fresh();
  const timed = await window(async () => {
    await pushInBursts(agent, input);
    await until(() => shown(el), `${name}: all runs shown`);
  });
  commits[name] = box.commits - before;
  root.unmount();
  return timed;
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
      const input = fresh();
      const timed = await window(() => pushInBursts(agent, input));
      if (finished !== N_RUNS) throw new Error("floor");
      return timed;
    },
    "runboard AgentToolRuns (store, no React)": async () => {
      const agent = new FakeAgent();
      const store = new AgentToolRuns({ agent, storage: null });
      const done = () => {
        const runs = Object.values(store.getSnapshot().runsById);
        return runs.length === N_RUNS && runs.every((r) => r.status === "completed");
      };
      const input = fresh();
      const timed = await window(async () => {
        await pushInBursts(agent, input);
        await until(done, "store");
      });
      store.dispose();
      return timed;
    },
    "runboard useAgentToolEvents + tray": () => tray("runboard", runboard.useAgentToolEvents),
    "official useAgentToolEvents + tray": () => tray("official", official.useAgentToolEvents),
  },
  { runs: RUNS, warmups: 1 },
);

const FLOOR = "floor: parse frame + body";
const OURS = "runboard useAgentToolEvents + tray";
const THEIRS = "official useAgentToolEvents + tray";
// Ratios on CPU time, as in the chat client bench: wall time adds the same idle yields to every contender.
const floor = cpu[FLOOR];
const ours = cpu[OURS];
const theirs = cpu[THEIRS];
const lines = [
  `## Agent-tool runs, rendered: ${N_RUNS} runs × ${PER_RUN.toLocaleString("en")} chunks (+${progressFrames} progress frames) → tray shows every run finished (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:tools\` (\`node bench/tools.mjs\`); jsdom, frames pushed in reads of 500 with a macrotask between, timed from the first frame until every run is shown finished (mounting and unmounting left out); median of ${RUNS} after a warm-up, contenders alternating. Both hooks feed the same \`RunTray\` (title, status, progress bar and the run's text per item).`,
  "",
  "| contender | median wall ms | median CPU ms |",
  "| --- | ---: | ---: |",
  ...Object.entries(t).map(([k, v]) => `| ${k} | ${f2(v)} | ${f2(cpu[k])} |`),
  "",
  `- rendered tray, runboard / official (CPU): **${f2(ours / theirs)}×** (target ≤ 0.25×); wall ${f2(t[OURS] / t[THEIRS])}×`,
  `- rendered tray, runboard / floor (CPU): **${f2(ours / floor)}×** (target ≤ 1.5×); wall ${f2(t[OURS] / t[FLOOR])}×; official / floor: ${f2(theirs / floor)}× (wall ${f2(t[THEIRS] / t[FLOOR])}×)`,
  `- store alone, runboard / floor (CPU): ${f2(cpu["runboard AgentToolRuns (store, no React)"] / floor)}×`,
  `- React commits (last run): runboard ${commits.runboard}, official ${commits.official}`,
];
console.log(lines.join("\n"));
writeSection("Agent-tool runs, rendered", lines);
recordFigures("tools", [
  { name: "agent tools rendered tray, runboard / official", value: ours / theirs, unit: "×", max: 0.25 },
  { name: "agent tools rendered tray, runboard / floor", value: ours / floor, unit: "×", max: 1.5 },
]);
process.exit(0);
