// Chat client benchmarks, side by side in one jsdom process with the official useAgentChat
// (`@cloudflare/ai-chat/react`, agents 0.32) and the floor (each frame and body parsed once):
// 1. 20,000 deltas, frames in → final message in the store: Runboard's ChatSession, both hooks under React,
//    as another tab's stream (observer path) and as the component's own turn (the transport path).
// 2. Streaming at 1,000 chunks/s for 2 s into a rendered 2,000-message transcript (own turn): CPU time, React
//    commits, renders of unchanged messages, and the lag from the last chunk to the final text on screen.
// Not a test. `npm run bench:client` (`node bench/client.mjs`); writes its section of bench/RESULTS.md.
import { build } from "./lib/build.mjs";
import { FakeAgent, loadReact, pushInBursts, pushPaced, tick, until } from "./lib/dom.mjs";
import { chatStream, messagesFrame, textOf, transcript } from "./lib/frames.mjs";
import { machine, recordFigures, stamp, writeSection, writeSubsection } from "./lib/results.mjs";
import { f2, measure, median, sleep, window } from "./lib/stats.mjs";

build("packages/protocol", "packages/client", "packages/react");
const { React, createRoot } = await loadReact();
const { ChatSession } = await import("../packages/client/dist/index.js");
const runboardReact = await import("../packages/react/dist/index.js");
const { useAgentChat: officialUseAgentChat } = await import("@cloudflare/ai-chat/react");

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Rounds of the paced contenders run before the measured ones (`BENCH_WARMUP`, default 1). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/** `BENCH_ONLY=paced`: only the paced transcript bench, which then rewrites only its own subsection. */
const ONLY_PACED = process.env.BENCH_ONLY === "paced";
const DELTAS = 20_000;
const h = React.createElement;

const { frames, expected } = chatStream(DELTAS);

/** The floor: each frame and its body parsed once, the text deltas joined. Returns a reader of the text. */
function floorOn(agent) {
  let text = "";
  agent.addEventListener("message", (e) => {
    const o = JSON.parse(e.data);
    if (o.body) {
      const b = JSON.parse(o.body);
      if (b.type === "text-delta") text += b.delta;
    }
  });
  return () => text;
}
/**
 * The frames answering request `id`, as new strings: every contender gets frames made just before its timed
 * window, as a socket hands over new strings, never ones an earlier run has already aged into the old heap.
 */
const framesFor = (id, list = frames) =>
  list.map((f) => f.replace('"id":"req1"', `"id":${JSON.stringify(id)}`));

const ours = (agent) => runboardReact.useAgentChat({ agent, getInitialMessages: null, resume: false });
/** Ours with text shown at most every 50 ms (about the official hook's commit rate here) instead of per frame. */
const ours50 = (agent) =>
  runboardReact.useAgentChat({ agent, getInitialMessages: null, resume: false, throttleMs: 50 });
const theirs = (agent) => officialUseAgentChat({ agent, getInitialMessages: null, resume: false });

/** Makes the mounted chat send a message and resolves with the request id the frames must answer. */
async function ownTurn(agent, box) {
  const sent = [];
  agent.send = (d) => sent.push(JSON.parse(d));
  void box.chat.sendMessage({ text: "go" });
  await until(() => sent.some((f) => f.type === "cf_agent_use_chat_request"), "chat request");
  return sent.find((f) => f.type === "cf_agent_use_chat_request").id;
}

/**
 * Renders a component using `useChat`, streams the 20,000 deltas, waits for the final message. `own`: the
 * component sends the message and the frames answer its own request; otherwise the stream is another tab's.
 */
async function hook(useChat, own = false) {
  const agent = new FakeAgent();
  const box = { messages: [], commits: 0, chat: undefined };
  function App() {
    const chat = useChat(agent);
    box.chat = chat;
    box.messages = chat.messages;
    React.useEffect(() => {
      box.commits++;
    });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  root.render(h(App));
  // Frames sent before the hook's effects attach its listeners would be lost.
  await until(() => box.commits > 0, "mount");
  await tick();
  const id = own ? await ownTurn(agent, box) : "req1";
  const answer = framesFor(id);
  const timed = await window(async () => {
    await pushInBursts(agent, answer);
    await until(() => textOf(box.messages.at(-1)) === expected, "final message");
  });
  root.unmount();
  return timed;
}

const { medians: wall, cpu: t } = ONLY_PACED
  ? { medians: {}, cpu: {} }
  : await measure(
      {
        // The floor gets the frames the same way (same bursts, same yields), so only the work differs.
        floor: async () => {
          const agent = new FakeAgent();
          const text = floorOn(agent);
          const fresh = framesFor("req1");
          const timed = await window(() => pushInBursts(agent, fresh));
          if (text() !== expected) throw new Error("floor");
          return timed;
        },
        "runboard ChatSession": async () => {
          const agent = new FakeAgent();
          const chat = new ChatSession({ agent, getInitialMessages: null, resume: false });
          const fresh = framesFor("req1");
          const timed = await window(async () => {
            await pushInBursts(agent, fresh);
            await until(() => textOf(chat.getSnapshot().messages.at(-1)) === expected, "final message");
          });
          chat.dispose();
          return timed;
        },
        "runboard useAgentChat (React)": () => hook(ours),
        "official useAgentChat (React)": () => hook(theirs),
        "runboard useAgentChat, own turn": () => hook(ours, true),
        "official useAgentChat, own turn": () => hook(theirs, true),
      },
      { runs: RUNS, warmups: 1 },
    );

// ───────────── 1,000 chunks/s into a rendered 2,000-message transcript ─────────────
const loadAtStart = (await import("node:os"))
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(", ");
const HISTORY = 2_000;
const RATE = 1_000;
const PACED = 2_000; // deltas: 2 s at RATE
const paced = chatStream(PACED);

/** `BENCH_PROFILE=dir`: a V8 CPU profile of each timed window is written there (off the CPU count). */
const profileDir = process.env.BENCH_PROFILE;
const inspector = profileDir ? new (await import("node:inspector/promises")).Session() : undefined;
inspector?.connect();
let profiled = 0;

/** CPU ms of this process while `fn` runs (user + system). */
async function cpuDuring(fn) {
  if (inspector) {
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
    await inspector.post("Profiler.start");
  }
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  if (inspector) {
    const { profile } = await inspector.post("Profiler.stop");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${profileDir}/window-${profiled++}.cpuprofile`, JSON.stringify(profile));
  }
  return (c.user + c.system) / 1000;
}

const { ChatMessageList, ChatMessagesProvider, MessageParts, useChatMessage, useChatMessageIds } =
  runboardReact;
/** Renders of each message's row, by message id (reset before the timed window). */
const renders = new Map();
const counted = (id) => renders.set(id, (renders.get(id) ?? 0) + 1);
/** A row as apps write it today: memoized on the message object, its parts through `MessageParts`. */
const MessageRow = React.memo(function MessageRow({ message }) {
  counted(message.id);
  return h("div", { "data-role": message.role }, h(MessageParts, { message }));
});
/** The same row subscribed to its own message by id. */
const IdRow = React.memo(function IdRow({ id }) {
  counted(id);
  const message = useChatMessage(id);
  return message ? h("div", { "data-role": message.role }, h(MessageParts, { message })) : null;
});
/** The list by hand, flat: re-renders only when messages are added or removed. */
const FlatIdList = React.memo(function FlatIdList() {
  return useChatMessageIds().map((id) => h(IdRow, { key: id, id }));
});

/**
 * Own turn streamed at RATE into a rendered transcript of HISTORY messages; see the header. `list`: "blocks",
 * the library's `ChatMessageList` (rows through `useChatMessage`); "flat", `useChatMessageIds().map(…)` by
 * hand; otherwise the list maps `chat.messages`.
 */
async function intoTranscript(useChat, list = "messages", { constantActiveElement = false } = {}) {
  // React reads `document.activeElement` twice in every commit; jsdom computes it on each read through its
  // wrappers (finding `<body>` among the root's children), a browser keeps it. With nothing focused both
  // answer `<body>`: this contender pins that answer, for its own run only.
  const body = document.body;
  if (constantActiveElement)
    Object.defineProperty(document, "activeElement", { configurable: true, get: () => body });
  try {
    return await transcriptRun(useChat, list);
  } finally {
    if (constantActiveElement) delete document.activeElement;
  }
}

async function transcriptRun(useChat, list) {
  const agent = new FakeAgent();
  const box = { messages: [], commits: 0, chat: undefined };
  function App() {
    const chat = useChat(agent);
    box.chat = chat;
    // Counts the app's own commits (the mount is waited for below); the stream's commits are counted by the
    // renders of its row, the same measure for every contender.
    React.useEffect(() => {
      box.commits++;
    });
    if (list === "blocks") return h("main", null, h(ChatMessageList, { chat, row: IdRow }));
    if (list === "flat") return h("main", null, h(ChatMessagesProvider, { chat }, h(FlatIdList)));
    return h(
      "main",
      null,
      chat.messages.map((m) => h(MessageRow, { key: m.id, message: m })),
    );
  }
  const el = document.createElement("div");
  const root = createRoot(el);
  root.render(h(App));
  await until(() => box.commits > 0, "mount");
  agent.push(messagesFrame(transcript(HISTORY)));
  await until(() => el.firstChild?.childNodes.length === HISTORY, "transcript shown");
  const id = await ownTurn(agent, box);
  await until(() => el.firstChild.childNodes.length === HISTORY + 1, "own message shown");
  await sleep(50);
  renders.clear();
  let lag = 0;
  const shown = () => el.firstChild.lastChild?.textContent === paced.expected;
  const answer = framesFor(id, paced.frames);
  let frames = 0;
  const cpu = await cpuDuring(async () => {
    const start = performance.now();
    await deliver(agent, answer);
    const t0 = performance.now();
    await until(shown, "final text shown");
    lag = performance.now() - t0;
    // The animation frames that began while the stream ran (60 Hz): what "one commit per frame" counts against.
    frames = Math.floor((performance.now() - start) / (1000 / 60)) + 1;
  });
  let unchanged = 0;
  for (const [mid, n] of renders) if (mid.startsWith("m")) unchanged += n;
  // The streamed message's row renders once per commit that changed it (its id is the stream's `start`).
  const commits = renders.get(paced.messageId) ?? 0;
  root.unmount();
  return { cpu, commits, unchanged, lag, frames };
}

/** How the timed frames arrive: paced on the wall clock, or back to back inside `withoutTimers`. */
let deliver = (agent, frames) => pushPaced(agent, frames, { perSecond: RATE });

const immediate = () => new Promise((r) => setImmediate(r));

/**
 * Runs a contender with the same frames back to back: the frames of one animation frame (17 at RATE), then
 * that frame, then the next, with `requestAnimationFrame` answered on the next turn of the event loop instead
 * of jsdom's 60 Hz timer. No timer wakes the process and it never idles, so the CPU time is the work each
 * contender does for the stream (the same commits), without the per-read wake-ups and the cold start after
 * every 16 ms idle that the paced run pays in proportion to how much code runs per frame.
 */
async function withoutTimers(run) {
  const raf = globalThis.requestAnimationFrame;
  let queue = [];
  globalThis.requestAnimationFrame = (cb) => {
    if (queue.push(cb) === 1)
      setImmediate(() => {
        const q = queue;
        queue = [];
        for (const f of q) f(performance.now());
      });
    return queue.length;
  };
  const paced = deliver;
  deliver = async (agent, frames) => {
    const perFrame = Math.ceil(RATE / 60);
    for (let i = 0; i < frames.length; i += perFrame) {
      for (let j = i; j < Math.min(frames.length, i + perFrame); j++) agent.push(frames[j]);
      await immediate();
    }
  };
  try {
    return await run();
  } finally {
    globalThis.requestAnimationFrame = raf;
    deliver = paced;
  }
}

async function floorPaced() {
  const agent = new FakeAgent();
  const text = floorOn(agent);
  const fresh = framesFor("req1", paced.frames);
  const cpu = await cpuDuring(() => deliver(agent, fresh));
  if (text() !== paced.expected) throw new Error("floor");
  return { cpu, commits: 0, unchanged: 0, lag: 0 };
}

/**
 * Not a target, for reading the others: the floor plus the least any client that shows the stream must add,
 * the text written to one DOM text node once per animation frame (no store, no React, no transcript).
 */
async function floorShownPaced() {
  const agent = new FakeAgent();
  const node = document.createTextNode("");
  document.createElement("div").appendChild(node);
  let text = "";
  let frames = 0;
  let scheduled = false;
  const show = () => {
    scheduled = false;
    frames++;
    node.data = text;
  };
  agent.addEventListener("message", (e) => {
    const o = JSON.parse(e.data);
    if (!o.body) return;
    const b = JSON.parse(o.body);
    if (b.type !== "text-delta") return;
    text += b.delta;
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(show);
    }
  });
  const fresh = framesFor("req1", paced.frames);
  const cpu = await cpuDuring(async () => {
    await pushPaced(agent, fresh, { perSecond: RATE });
    await until(() => node.data === paced.expected, "floor text shown");
  });
  return { cpu, commits: frames, unchanged: 0, lag: 0 };
}

/** The store alone at the same pace (own turn, no React): what is left above the floor without rendering. */
async function storePaced() {
  const agent = new FakeAgent();
  const chat = new ChatSession({ agent, getInitialMessages: null, resume: false });
  agent.push(messagesFrame(transcript(HISTORY)));
  const id = await ownTurn(agent, { chat });
  const answer = framesFor(id, paced.frames);
  const cpu = await cpuDuring(async () => {
    await deliver(agent, answer);
    await until(() => textOf(chat.getSnapshot().messages.at(-1)) === paced.expected, "final message");
  });
  chat.dispose();
  return { cpu, commits: 0, unchanged: 0, lag: 0 };
}

const streaming = {
  floor: [],
  "floor + text shown per frame": [],
  "runboard ChatSession (no React)": [],
  runboard: [],
  official: [],
  "runboard, flat list of ids": [],
  "runboard, list from chat.messages": [],
  "runboard, throttleMs 50": [],
  "runboard, activeElement kept (as browsers)": [],
  "floor, back to back": [],
  "runboard ChatSession (no React), back to back": [],
  "runboard, back to back": [],
};
const pacedContenders = {
  floor: floorPaced,
  "floor + text shown per frame": floorShownPaced,
  "runboard ChatSession (no React)": storePaced,
  runboard: () => intoTranscript(ours, "blocks"),
  official: () => intoTranscript(theirs),
  "runboard, flat list of ids": () => intoTranscript(ours, "flat"),
  "runboard, list from chat.messages": () => intoTranscript(ours),
  "runboard, throttleMs 50": () => intoTranscript(ours50, "blocks"),
  "runboard, activeElement kept (as browsers)": () =>
    intoTranscript(ours, "blocks", { constantActiveElement: true }),
  "floor, back to back": () => withoutTimers(floorPaced),
  "runboard ChatSession (no React), back to back": () => withoutTimers(storePaced),
  "runboard, back to back": () => withoutTimers(() => intoTranscript(ours, "blocks")),
};
/** `BENCH_CONTENDERS="runboard|floor"`: only these (to profile one with `node --cpu-prof`); nothing is written. */
const only = process.env.BENCH_CONTENDERS?.split("|");
for (let round = -WARMUP; round < RUNS; round++) {
  const order = Object.keys(pacedContenders).filter((k) => !only || only.includes(k));
  if (round % 2) order.reverse();
  for (const k of order) {
    const r = await pacedContenders[k]();
    if (round >= 0) streaming[k].push(r);
  }
}
if (only) {
  for (const k of only) console.log(k, JSON.stringify(streaming[k]));
  process.exit(0);
}
const sm = (k, f) => median(streaming[k].map((r) => r[f]));
/**
 * The animation frames runboard's stream spanned (median), and the most commits that allows: one per frame, plus
 * the end of the stream, which is shown at once rather than on the next frame (`ChatSession` flushes on `done`).
 */
const animationFrames = sm("runboard", "frames");
const maxCommits = animationFrames + 1;
/** What answering `activeElement` as browsers do saved, in words (a negative difference is this run's noise). */
function activeElementSaving() {
  const d = sm("runboard", "cpu") - sm("runboard, activeElement kept (as browsers)", "cpu");
  return d >= 0 ? `${f2(d)} ms less` : `no less in this run (${f2(-d)} ms more, within its noise)`;
}
const perCommit = (k) => (sm(k, "cpu") - sm("floor", "cpu")) / sm(k, "commits");

const head = [
  `## Chat client: ${DELTAS.toLocaleString("en")} deltas, frames in → final message in the store (${stamp()})`,
  "",
  `Machine: ${machine()}. \`npm run bench:client\` (\`node bench/client.mjs\`); jsdom, frames pushed in reads of 500 with a macrotask between, timed from the first frame until the final message is in the store (mounting, sending the request and unmounting left out, for every contender); median of ${RUNS} after a warm-up, contenders alternating.`,
  "",
  "| contender | median CPU ms | median wall ms |",
  "| --- | ---: | ---: |",
  ...Object.entries(t).map(([k, v]) => `| ${k} | ${f2(v)} | ${f2(wall[k])} |`),
  "",
  "Ratios use CPU time (user + system of the process). Wall time also counts the macrotask yields between reads and the waits for animation frames, which are idle time of the same length for every contender; it compresses every ratio towards 1 (the floor itself is mostly such waits), so it says little about the work each client does.",
  "",
  `- own turn (the transport path): runboard / official **${f2(t["runboard useAgentChat, own turn"] / t["official useAgentChat, own turn"])}×** (target ≤ 0.5×); runboard / floor **${f2(t["runboard useAgentChat, own turn"] / t.floor)}×** (target ≤ 2×); official / floor ${f2(t["official useAgentChat, own turn"] / t.floor)}× (issue estimate: about 9×)`,
  `- another tab's stream (the observer path): runboard / official **${f2(t["runboard useAgentChat (React)"] / t["official useAgentChat (React)"])}×** (target ≤ 0.5×); runboard / floor **${f2(t["runboard useAgentChat (React)"] / t.floor)}×** (target ≤ 2×); official / floor ${f2(t["official useAgentChat (React)"] / t.floor)}×`,
  `- runboard ChatSession (no React) / floor: ${f2(t["runboard ChatSession"] / t.floor)}×`,
  "",
];
const pacedLines = [
  `### Streaming ${RATE.toLocaleString("en")} chunks/s into a ${HISTORY.toLocaleString("en")}-message transcript`,
  "",
  `Own turn, ${PACED.toLocaleString("en")} deltas paced on the wall clock (reads every 16 ms) into a rendered transcript, a memoized row per message with its parts through \`MessageParts\`: runboard's list is \`ChatMessageList\` (the ids from \`useChatMessageIds()\` in memoized blocks) and each row reads \`useChatMessage(id)\`; "flat list of ids" is the same rows under \`useChatMessageIds().map(…)\` written by hand; the official hook's list maps \`chat.messages\` as apps do today (so does the "list from chat.messages" row, on our hook). CPU time of the process (user + system, all its threads, so GC and JIT threads too) from the first chunk until the final text is on screen; median of ${RUNS} runs each, contenders alternating. The floor parses the same frames at the same pace; "ChatSession (no React)" is our store alone at that pace. Measured ${stamp()}, load average at the start ${loadAtStart}. \`BENCH_ONLY=paced npm run bench:client\` runs this part alone.`,
  "",
  "| contender | CPU ms | commits | unchanged-message renders | lag after last chunk, ms |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...Object.keys(streaming).map(
    (k) =>
      `| ${k} | ${f2(sm(k, "cpu"))} | ${sm(k, "commits")} | ${sm(k, "unchanged")} | ${f2(sm(k, "lag"))} |`,
  ),
  "",
  `- CPU while streaming, runboard (MessageParts + selector hooks) / official: **${f2(sm("runboard", "cpu") / sm("official", "cpu"))}×** (target ≤ 0.5×); runboard / floor **${f2(sm("runboard", "cpu") / sm("floor", "cpu"))}×** (target ≤ 3×); official / floor ${f2(sm("official", "cpu") / sm("floor", "cpu"))}×`,
  `- store alone (no React) / floor: ${f2(sm("runboard ChatSession (no React)", "cpu") / sm("floor", "cpu"))}×; what rendering adds on top of it: runboard ${f2(sm("runboard", "cpu") - sm("runboard ChatSession (no React)", "cpu"))} ms, official ${f2(sm("official", "cpu") - sm("runboard ChatSession (no React)", "cpu"))} ms (its own store is not measured alone)`,
  `- the same rows in a flat \`useChatMessageIds().map(…)\` list: / official ${f2(sm("runboard, flat list of ids", "cpu") / sm("official", "cpu"))}×, / floor ${f2(sm("runboard, flat list of ids", "cpu") / sm("floor", "cpu"))}×`,
  `- our hook with the list mapping \`chat.messages\` (every commit re-renders the 2,000-row list): / official ${f2(sm("runboard, list from chat.messages", "cpu") / sm("official", "cpu"))}×, / floor ${f2(sm("runboard, list from chat.messages", "cpu") / sm("floor", "cpu"))}×`,
  `- CPU per React commit above the floor: runboard ${f2(perCommit("runboard"))} ms, flat list of ids ${f2(perCommit("runboard, flat list of ids"))} ms, list from chat.messages ${f2(perCommit("runboard, list from chat.messages"))} ms, official ${f2(perCommit("official"))} ms`,
  `- with \`throttleMs: 50\` (at most 20 commits a second, near the official hook's rate here): runboard / official **${f2(sm("runboard, throttleMs 50", "cpu") / sm("official", "cpu"))}×**, ${sm("runboard, throttleMs 50", "commits")} commits`,
  `- React commits over the ${animationFrames} animation frames the stream spanned: runboard ${sm("runboard", "commits")}, official ${sm("official", "commits")} (target: at most one per frame, plus the end of the stream, which is shown at once: ≤ ${maxCommits})`,
  `- renders of unchanged messages: runboard ${sm("runboard", "unchanged")}, official ${sm("official", "unchanged")} (target 0)`,
  `- not a target, for reading the floor ratio: "floor + text shown per frame" adds to the floor only what showing the stream costs at least (the text written to one DOM text node once per animation frame, ${sm("floor + text shown per frame", "commits")} times): ${f2(sm("floor + text shown per frame", "cpu") / sm("floor", "cpu"))}× the floor; runboard / that ${f2(sm("runboard", "cpu") / sm("floor + text shown per frame", "cpu"))}×`,
  `- where runboard's time goes, per ${PACED.toLocaleString("en")} chunks (\`BENCH_PROFILE=dir\` writes a V8 profile of each window): the floor's own ${f2(sm("floor", "cpu"))} ms (${f2((sm("floor", "cpu") * 1000) / PACED)} µs a chunk: the harness's event dispatch and timers, two \`JSON.parse\`); the store above it ${f2(sm("runboard ChatSession (no React)", "cpu") - sm("floor", "cpu"))} ms (${f2(((sm("runboard ChatSession (no React)", "cpu") - sm("floor", "cpu")) * 1000) / PACED)} µs a chunk: the checked parse of frame and body, the resume machine's routing, the applier, and per animation frame one snapshot and its notification); then ${f2(sm("runboard", "cpu") - sm("runboard ChatSession (no React)", "cpu"))} ms of rendering, ${f2((sm("runboard", "cpu") - sm("runboard ChatSession (no React)", "cpu")) / sm("runboard", "commits"))} ms per commit: the streaming row through \`useChatMessage\` and \`MessageParts\`, React's commit of its text node (jsdom's \`replaceData\` copies the whole text), and jsdom's \`document.activeElement\` (React reads it in every commit; see the next line), not the other rows (\`ChatMessageList\`: 25 fibers per commit instead of 2,010) and not the app component (it reads no field of \`useAgentChat\`'s result that a delta changes, so it is not re-rendered)`,
  `- not a target, the work alone: the same frames back to back (${Math.ceil(RATE / 60)} frames, then their animation frame, on the next turn of the event loop; no timers, no idle), CPU: floor ${f2(sm("floor, back to back", "cpu"))} ms, store ${f2(sm("runboard ChatSession (no React), back to back", "cpu"))} ms (${f2(sm("runboard ChatSession (no React), back to back", "cpu") / sm("floor, back to back", "cpu"))}× the floor), runboard ${f2(sm("runboard, back to back", "cpu"))} ms (${f2(sm("runboard, back to back", "cpu") / sm("floor, back to back", "cpu"))}×, ${sm("runboard, back to back", "commits")} commits). Paced, each contender pays on top the wake-ups of its timers and a cold start after every 16 ms idle, which grows with the code run per frame (React's render and commit most)`,
  `- jsdom's \`document.activeElement\` is an artefact of this harness: answered as a browser does (kept, not searched), the same run costs ${activeElementSaving()} (${f2(sm("runboard, activeElement kept (as browsers)", "cpu") / sm("floor", "cpu"))}× the floor); the target ratio above keeps jsdom's answer`,
];
const lines = ONLY_PACED ? pacedLines : [...head, ...pacedLines];
console.log(lines.join("\n"));
if (ONLY_PACED) writeSubsection("Chat client", pacedLines);
else writeSection("Chat client", lines);
const figures = [
  {
    name: "chat 20k deltas own turn, runboard / official",
    value: t["runboard useAgentChat, own turn"] / t["official useAgentChat, own turn"],
    unit: "×",
    max: 0.5,
  },
  {
    name: "chat 20k deltas own turn, runboard / floor",
    value: t["runboard useAgentChat, own turn"] / t.floor,
    unit: "×",
    max: 2,
  },
  {
    name: "chat 20k deltas observer, runboard / official",
    value: t["runboard useAgentChat (React)"] / t["official useAgentChat (React)"],
    unit: "×",
    max: 0.5,
  },
  {
    name: "chat 20k deltas observer, runboard / floor",
    value: t["runboard useAgentChat (React)"] / t.floor,
    unit: "×",
    max: 2,
  },
  {
    name: "chat 1k chunks/s into 2k transcript, CPU runboard / official",
    value: sm("runboard", "cpu") / sm("official", "cpu"),
    unit: "×",
    max: 0.5,
  },
  {
    name: "chat 1k chunks/s into 2k transcript, CPU runboard / floor",
    value: sm("runboard", "cpu") / sm("floor", "cpu"),
    unit: "×",
    max: 3,
  },
  {
    name: "chat 1k chunks/s, runboard commits (one per animation frame + the end)",
    value: sm("runboard", "commits"),
    max: maxCommits,
  },
  {
    name: "chat 1k chunks/s, runboard unchanged-message renders",
    value: sm("runboard", "unchanged"),
    max: 0,
  },
];
// Alone, the paced part records only its own figures (the others were not measured).
recordFigures(
  "client",
  figures.filter((f) => !ONLY_PACED || f.name.startsWith("chat 1k")),
);
process.exit(0);
