// A jsdom window for the React benchmarks, and a socket-like agent the benchmark drives. Importing this module
// installs the DOM globals; load React through `loadReact()` afterwards (react-dom checks for a DOM on load).
// React runs its production build (what users ship) unless NODE_ENV says otherwise.
import { JSDOM } from "jsdom";
import { sleep } from "./stats.mjs";

// With requestAnimationFrame at 60 Hz (`pretendToBeVisual`): the client coalesces notifications per frame in
// browsers, so it must see one here too.
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

/** `{ React, createRoot }`, loaded after the DOM exists, production build unless NODE_ENV is set. */
export async function loadReact() {
  process.env.NODE_ENV ??= "production";
  const React = await import("react");
  const { createRoot } = await import("react-dom/client");
  return { React, createRoot };
}

/** The next macrotask. */
export const tick = () => sleep(0);

/** A socket-like agent that the benchmark drives: what the official `useAgent` returns, minus the network. */
export class FakeAgent extends EventTarget {
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

/** Pushes `frames` into `agent` in bursts of `burst` (one socket read each), yielding a macrotask between. */
export async function pushInBursts(agent, frames, burst = 500) {
  for (let i = 0; i < frames.length; i += burst) {
    for (let j = i; j < Math.min(frames.length, i + burst); j++) agent.push(frames[j]);
    await tick();
  }
}

/**
 * Pushes `frames` at `perSecond` on the wall clock, in reads every `readMs` (what arrives in that time), like
 * a socket under a steady stream. Resolves when the last frame is pushed.
 */
export async function pushPaced(agent, frames, { perSecond = 1_000, readMs = 16 } = {}) {
  const t0 = performance.now();
  let sent = 0;
  while (sent < frames.length) {
    const due = Math.min(frames.length, Math.floor(((performance.now() - t0) * perSecond) / 1000) + 1);
    while (sent < due) agent.push(frames[sent++]);
    if (sent < frames.length) await sleep(readMs);
  }
}

/** Polls `done()` every macrotask until it holds; throws after `timeoutMs`. */
export async function until(done, what = "condition", timeoutMs = 60_000) {
  const end = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}
