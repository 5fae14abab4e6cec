// Chat client benchmark: a 20,000-delta stream, frames in → final message in the store, side by side in one
// process: Runboard's ChatSession, Runboard's useAgentChat under React, the official useAgentChat under
// React (agents 0.32 / @cloudflare/ai-chat 0.12.2), and the floor (each frame and body parsed once, text
// concatenated). Plus React commits while streaming at 1,000 chunks/s, and renders of unchanged messages in a
// 2,000-message transcript. Not a test. Run: `node bench/client.mjs` (appends to bench/RESULTS.md).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { JSDOM } from "jsdom";
import { chatStream } from "./chat-frames.mjs";

// A DOM for React (with requestAnimationFrame: the client coalesces notifications per frame in browsers).
const dom = new JSDOM("<!doctype html><div id=root></div>", {
  pretendToBeVisual: true,
  url: "http://localhost/",
});
for (const k of [
  "window",
  "document",
  "navigator",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "HTMLElement",
])
  if (!(k in globalThis)) globalThis[k] = k === "window" ? dom.window : dom.window[k];
globalThis.IS_REACT_ACT_ENVIRONMENT = false;

execFileSync("npx", ["tsc", "-b", "packages/client", "packages/react"], { stdio: "inherit" });
const { ChatSession } = await import("../packages/client/dist/index.js");
const runboardReact = await import("../packages/react/dist/index.js");
const { useAgentChat: officialUseAgentChat } = await import("@cloudflare/ai-chat/react");
const React = await import("react");
const { createRoot } = await import("react-dom/client");

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DELTAS = 20_000;

const { frames, expected } = chatStream(DELTAS);

const textOf = (m) =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A socket-like agent that the test drives: what the official `useAgent` returns, minus the network. */
class FakeAgent extends EventTarget {
  agent = "chat-agent";
  name = `bench-${Math.random().toString(36).slice(2)}`;
  path = [];
  readyState = 1;
  send() {}
  getHttpUrl() {
    return `http://localhost/agents/chat-agent/${this.name}`;
  }
  push(data) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
}

/** Streams all frames into `agent` in bursts of 500 (one socket read each), yielding between bursts. */
async function stream(agent, id = "req1") {
  const list =
    id === "req1" ? frames : frames.map((f) => f.replace('"id":"req1"', `"id":${JSON.stringify(id)}`));
  for (let i = 0; i < list.length; i += 500) {
    for (const f of list.slice(i, i + 500)) agent.push(f);
    await tick();
  }
}

async function untilText(get, timeoutMs = 60_000) {
  const end = performance.now() + timeoutMs;
  while (textOf(get()) !== expected) {
    if (performance.now() > end) throw new Error("final message not reached");
    await tick();
  }
}

const contenders = {
  // The floor gets the frames the same way (same bursts, same yields), so only the work differs.
  floor: async () => {
    const agent = new FakeAgent();
    let text = "";
    agent.addEventListener("message", (e) => {
      const o = JSON.parse(e.data);
      if (o.body) {
        const b = JSON.parse(o.body);
        if (b.type === "text-delta") text += b.delta;
      }
    });
    await stream(agent);
    if (text !== expected) throw new Error("floor");
  },
  "runboard ChatSession": async () => {
    const agent = new FakeAgent();
    const chat = new ChatSession({ agent, getInitialMessages: null, resume: false });
    await stream(agent);
    await untilText(() => chat.getSnapshot().messages.at(-1));
    chat.dispose();
  },
  "runboard useAgentChat (React)": async () =>
    hook((agent) => runboardReact.useAgentChat({ agent, getInitialMessages: null, resume: false })),
  "official useAgentChat (React)": async () =>
    hook((agent) => officialUseAgentChat({ agent, getInitialMessages: null, resume: false })),
  "runboard useAgentChat, own turn": async () =>
    hook((agent) => runboardReact.useAgentChat({ agent, getInitialMessages: null, resume: false }), true),
  "official useAgentChat, own turn": async () =>
    hook((agent) => officialUseAgentChat({ agent, getInitialMessages: null, resume: false }), true),
};

/**
 * Renders a component using `useChat`, streams the frames, waits for the final message. `ownTurn`: the
 * component sends the message and the frames answer its own request (the transport path); otherwise the
 * stream is another tab's (the observer path).
 */
async function hook(useChat, ownTurn = false) {
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
  const el = document.createElement("div");
  const root = createRoot(el);
  root.render(React.createElement(App));
  // Frames sent before the hook's effects attach its listeners would be lost.
  while (box.commits === 0) await tick();
  await tick();
  let id = "req1";
  if (ownTurn) {
    const sent = [];
    agent.send = (d) => sent.push(JSON.parse(d));
    void box.chat.sendMessage({ text: "go" });
    while (!sent.some((f) => f.type === "cf_agent_use_chat_request")) await tick();
    id = sent.find((f) => f.type === "cf_agent_use_chat_request").id;
  }
  await stream(agent, id);
  await untilText(() => box.messages.at(-1));
  root.unmount();
  return box.commits;
}

async function measure() {
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = -1; round < RUNS; round++) {
    const order = Object.keys(contenders);
    if (round % 2) order.reverse();
    for (const name of order) {
      const t0 = performance.now();
      await contenders[name]();
      if (round >= 0) times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, v]) => [k, v.sort((a, b) => a - b)[Math.floor(v.length / 2)]]),
  );
}

/** React commits while 1,000 chunks/s arrive for 2 s (one chunk per ms, in 16 ms reads). */
async function commitsAt1000PerSecond(useChat) {
  const agent = new FakeAgent();
  const box = { messages: [], commits: 0 };
  function App() {
    box.messages = useChat(agent).messages;
    React.useEffect(() => {
      box.commits++;
    });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  root.render(React.createElement(App));
  while (box.commits === 0) await tick();
  await tick();
  box.commits = 0;
  const chunks = frames.slice(0, 2003);
  const t0 = performance.now();
  let sent = 0;
  while (sent < chunks.length) {
    const due = Math.min(chunks.length, Math.floor(performance.now() - t0) + 1);
    while (sent < due) agent.push(chunks[sent++]);
    await new Promise((r) => setTimeout(r, 16));
  }
  const ms = performance.now() - t0;
  const commits = box.commits;
  root.unmount();
  return { commits, frames: ms / (1000 / 60) };
}

/** In a 2,000-message transcript, how often a message that did not change renders while a reply streams. */
async function unchangedRenders(useChat) {
  const agent = new FakeAgent();
  const history = Array.from({ length: 2000 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [{ type: "text", text: `message ${i}` }],
  }));
  const renders = new Map();
  const Message = React.memo(function Message({ message }) {
    renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
    return null;
  });
  const box = { messages: [] };
  function App() {
    const chat = useChat(agent);
    box.messages = chat.messages;
    return React.createElement(
      React.Fragment,
      null,
      chat.messages.map((m) => React.createElement(Message, { key: m.id, message: m })),
    );
  }
  const root = createRoot(document.createElement("div"));
  root.render(React.createElement(App));
  await tick();
  agent.push(JSON.stringify({ type: "cf_agent_chat_messages", messages: history }));
  for (let i = 0; i < 20 && box.messages.length < 2000; i++) await new Promise((r) => setTimeout(r, 20));
  renders.clear();
  for (const f of frames.slice(0, 503)) agent.push(f);
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 20));
  let unchanged = 0;
  for (const [id, n] of renders) if (id.startsWith("m")) unchanged += n;
  root.unmount();
  return unchanged;
}

const t = await measure();
const ours = (u) => runboardReact.useAgentChat({ agent: u, getInitialMessages: null, resume: false });
const theirs = (u) => officialUseAgentChat({ agent: u, getInitialMessages: null, resume: false });
const c1 = await commitsAt1000PerSecond(ours);
const c2 = await commitsAt1000PerSecond(theirs);
const u1 = await unchangedRenders(ours);
const u2 = await unchangedRenders(theirs);

const f2 = (x) => x.toFixed(2);
const lines = [
  "",
  `## Chat client: ${DELTAS.toLocaleString("en")} deltas, frames in → final message in the store (${new Date().toISOString().slice(0, 10)})`,
  "",
  `Machine: ${os.cpus()[0]?.model.trim()} × ${os.cpus().length}, Node ${process.version}, jsdom; median of ${RUNS}. \`node bench/client.mjs\``,
  "",
  "| contender | median ms |",
  "| --- | ---: |",
  ...Object.entries(t).map(([k, v]) => `| ${k} | ${f2(v)} |`),
  "",
  `- own turn (the transport path): runboard / official **${f2(t["runboard useAgentChat, own turn"] / t["official useAgentChat, own turn"])}×** (target ≤ 0.5×); official / floor ${f2(t["official useAgentChat, own turn"] / t.floor)}× (issue estimate: about 9×)`,
  `- another tab's stream (the observer path): runboard / official **${f2(t["runboard useAgentChat (React)"] / t["official useAgentChat (React)"])}×**`,
  `- runboard ChatSession / floor: **${f2(t["runboard ChatSession"] / t.floor)}×**; runboard useAgentChat / floor: ${f2(t["runboard useAgentChat (React)"] / t.floor)}× (target within 2×)`,
  `- official useAgentChat observing / floor: ${f2(t["official useAgentChat (React)"] / t.floor)}×`,
  `- React commits at 1,000 chunks/s for ${Math.round(c1.frames)} animation frames: runboard ${c1.commits}, official ${c2.commits} (target: at most one per frame)`,
  `- renders of unchanged messages while a reply streams into a 2,000-message transcript: runboard ${u1}, official ${u2} (target 0)`,
];
console.log(lines.join("\n"));
const file = new URL("./RESULTS.md", import.meta.url);
const before = readFileSync(file, "utf8");
const cut = before.indexOf("\n## Chat client:");
const tail =
  cut >= 0
    ? before.slice(before.indexOf("\n## ", cut + 5) >= 0 ? before.indexOf("\n## ", cut + 5) : before.length)
    : "";
writeFileSync(file, `${(cut >= 0 ? before.slice(0, cut) : before).trimEnd()}\n${lines.join("\n")}\n${tail}`);
process.exit(0);
