// Memory: the JS heap retained after a 2,000-message transcript and 50 finished agent-tool runs, held by
// Runboard's hooks (ChatSession + AgentToolRuns under useAgentChat / useAgentToolEvents) against the official
// hooks (`@cloudflare/ai-chat/react` useAgentChat, `agents/react` useAgentToolEvents), each mounted in jsdom
// (the component renders nothing, so only what the hooks keep counts), and the floor: the same frames only
// parsed, keeping the parsed messages and each run's text, status and progress.
//
// Every measurement runs in a fresh process (`node --expose-gc bench/memory.mjs <contender>`), so no contender
// inherits another's heap; the parent runs the contenders in alternating order, RUNS times each, and reports
// medians. Retained = heapUsed after full GCs minus heapUsed after mounting (same process, same modules).
// `npm run bench:memory`; writes its section of bench/RESULTS.md.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "./lib/build.mjs";
import { agentToolStream, messagesFrame, textOf, transcript } from "./lib/frames.mjs";
import { machine, recordFigures, stamp, writeSection } from "./lib/results.mjs";
import { f2, median, sleep } from "./lib/stats.mjs";

const MESSAGES = 2_000;
const RUNS_OF_TOOLS = 50;
const CHUNKS_PER_RUN = 1_000;
const CONTENDERS = ["floor", "runboard", "official"];

const which = process.argv[2];
if (which) console.log(JSON.stringify(await child(which)));
else await parent();

async function parent() {
  build("packages/protocol", "packages/client", "packages/react");
  const RUNS = Number(process.env.BENCH_RUNS ?? 5);
  const me = fileURLToPath(import.meta.url);
  const results = Object.fromEntries(CONTENDERS.map((c) => [c, []]));
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 ? [...CONTENDERS].reverse() : CONTENDERS;
    for (const c of order) {
      const out = execFileSync(process.execPath, ["--expose-gc", me, c], { encoding: "utf8" });
      results[c].push(JSON.parse(out.trim().split("\n").at(-1)));
    }
  }
  const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
  const med = (c, k) => median(results[c].map((r) => r[k]));
  const total = (c) => med(c, "total");
  const lines = [
    `## Memory (${stamp()})`,
    "",
    `Machine: ${machine()}. \`npm run bench:memory\` (\`node bench/memory.mjs\`); each figure the median of ${RUNS} fresh processes per contender (\`node --expose-gc\`), contenders alternating.`,
    `Heap retained after a ${MESSAGES.toLocaleString("en")}-message transcript (one \`cf_agent_chat_messages\` frame; every fifth assistant message has a tool part) and then ${RUNS_OF_TOOLS} finished agent-tool runs of ${CHUNKS_PER_RUN.toLocaleString("en")} chunks each (+ a progress frame every 100, a milestone every 250), measured after full GCs, minus the heap right after mounting. Hooks mounted in jsdom, rendering nothing.`,
    "",
    "| contender | transcript | + 50 runs | total |",
    "| --- | ---: | ---: | ---: |",
    ...CONTENDERS.map(
      (c) => `| ${c} | ${mb(med(c, "transcript"))} | ${mb(med(c, "runs"))} | ${mb(total(c))} |`,
    ),
    "",
    `- runboard / official: **${f2(total("runboard") / total("official"))}×** (transcript ${f2(med("runboard", "transcript") / med("official", "transcript"))}×, runs ${f2(med("runboard", "runs") / med("official", "runs"))}×)`,
    `- runboard / floor: **${f2(total("runboard") / total("floor"))}×**; official / floor: ${f2(total("official") / total("floor"))}×`,
  ];
  console.log(lines.join("\n"));
  writeSection("Memory", lines);
  recordFigures("memory", [
    { name: "memory, runboard / official", value: total("runboard") / total("official"), unit: "×" },
    { name: "memory, runboard / floor", value: total("runboard") / total("floor"), unit: "×" },
  ]);
}

/** Heap used after full collections (a few, with macrotasks between, so timers and finalizers run). */
async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    await sleep(20);
    globalThis.gc();
  }
  return process.memoryUsage().heapUsed;
}

async function child(contender) {
  if (!globalThis.gc) throw new Error("run with node --expose-gc");
  const { FakeAgent, loadReact, pushInBursts, until } = await import("./lib/dom.mjs");
  const { React, createRoot } = await loadReact();
  let hooks;
  if (contender === "runboard") hooks = await import("../packages/react/dist/index.js");
  if (contender === "official")
    hooks = {
      useAgentChat: (await import("@cloudflare/ai-chat/react")).useAgentChat,
      useAgentToolEvents: (await import("agents/react")).useAgentToolEvents,
    };

  /** Mounts the contender on a fresh agent; `box` shows what it holds. */
  async function mount() {
    const agent = new FakeAgent();
    const box = { messages: [], runs: {}, commits: 0 };
    if (!hooks) {
      // The floor: parse each frame once, keep the messages and per run what a tray shows.
      agent.addEventListener("message", (e) => {
        const f = JSON.parse(e.data);
        if (f.type === "cf_agent_chat_messages") box.messages = f.messages;
        if (f.type !== "agent-tool-event") return;
        const ev = f.event;
        if (ev.kind === "started")
          box.runs[ev.runId] = { ...ev, status: "running", text: "", milestones: [] };
        const run = box.runs[ev.runId];
        if (ev.kind === "finished") run.status = "completed";
        if (ev.kind !== "chunk") return;
        const b = JSON.parse(ev.body);
        if (b.type === "text-delta") run.text += b.delta;
        else if (b.type === "data-agent-progress") run.progress = b.data;
        else if (b.type === "data-agent-milestone") run.milestones.push(b.data);
      });
      return { agent, box, unmount() {} };
    }
    function App() {
      const chat = hooks.useAgentChat({ agent, getInitialMessages: null, resume: false });
      const tools = hooks.useAgentToolEvents({ agent });
      box.messages = chat.messages;
      box.runs = tools.runsById;
      React.useEffect(() => {
        box.commits++;
      });
      return null;
    }
    const root = createRoot(document.createElement("div"));
    root.render(React.createElement(App));
    await until(() => box.commits > 0, "mount");
    await sleep(20);
    return { agent, box, unmount: () => root.unmount() };
  }

  const runText = (r) => r.text ?? textOf(r);
  const feedTranscript = async ({ agent, box }, messages) => {
    agent.push(messagesFrame(transcript(messages)));
    await until(() => box.messages.length === messages, "transcript");
  };
  const feedRuns = async ({ agent, box }, runs, perRun) => {
    const { frames, expectedRunText } = agentToolStream({
      runs,
      perRun,
      progressEvery: 100,
      milestoneEvery: 250,
    });
    await pushInBursts(agent, frames);
    const done = () => {
      const all = Object.values(box.runs);
      return (
        all.length === runs && all.every((r) => r.status === "completed" && runText(r) === expectedRunText)
      );
    };
    await until(done, "runs");
  };

  // Warm up on another agent (JIT, lazily built caches), then measure on a fresh one.
  const warm = await mount();
  await feedTranscript(warm, 20);
  await feedRuns(warm, 2, 300);
  warm.unmount();
  warm.agent = null;

  const subject = await mount();
  const base = await settledHeap();
  await feedTranscript(subject, MESSAGES);
  const afterTranscript = await settledHeap();
  await feedRuns(subject, RUNS_OF_TOOLS, CHUNKS_PER_RUN);
  const afterRuns = await settledHeap();
  // Keep the subject alive past the measurement.
  if (subject.box.messages.length !== MESSAGES) throw new Error("lost the transcript");
  return { transcript: afterTranscript - base, runs: afterRuns - afterTranscript, total: afterRuns - base };
}
