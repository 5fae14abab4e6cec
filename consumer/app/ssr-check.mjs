// Server rendering of the consumer page, the way a server framework does it, in a Node process of its own
// (fresh globals), with a trip wire on everything a server render must not do: open a socket (WebSocket,
// fetch, TCP), start a timer (setTimeout, setInterval, setImmediate), or read a browser global (window,
// document, sessionStorage, localStorage, WebSocket). It runs from the app's folder, so every import resolves
// from the app's own node_modules, as in production.
//
// node ssr-check.mjs <server bundle> <props as JSON>  →  one JSON line on stdout: { events, html, streamHtml }
import net from "node:net";
import { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

const [bundle, propsJson] = process.argv.slice(2);
if (!bundle || !propsJson) {
  console.error("usage: node ssr-check.mjs <server bundle> <props as JSON>");
  process.exit(2);
}
const SELF = fileURLToPath(import.meta.url);

/** Everything caught, in order: what happened, in which phase, and the first frame outside this file. */
const events = [];
let phase = "start";

function origin(stack) {
  const frames = String(stack)
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => !l.includes(SELF) && !l.includes("node:internal") && !/\(node:/.test(l));
  return frames[0]?.replace(/^at /, "") ?? "unknown";
}
function record(kind, what) {
  events.push({ phase, kind, what, origin: origin(new Error().stack) });
}

// Browser globals: absent, as on a server, but every read is noted. WebSocket is present (Node 22 and
// workerd have it) and never connects, so a socket opened during render is seen instead of crashing.
class TripWireWebSocket extends EventTarget {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  readyState = 0;
  constructor(url) {
    super();
    record("socket", `new WebSocket(${String(url)})`);
    this.url = String(url);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}
for (const name of ["window", "document", "sessionStorage", "localStorage", "WebSocket"]) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      record("global", name);
      return name === "WebSocket" ? TripWireWebSocket : undefined;
    },
  });
}
// requestAnimationFrame and requestIdleCallback stay absent, as on any server: calling one would throw into
// the render (caught below as a render error); checking whether it exists is what server-safe code does.

// Timers still run (React's own streaming uses them); each one started is noted.
const real = { setTimeout, setImmediate };
for (const name of ["setTimeout", "setInterval", "setImmediate"]) {
  const original = globalThis[name];
  globalThis[name] = function tripWireTimer(...args) {
    record("timer", name);
    return original.apply(this, args);
  };
}

// Sockets by other roads: HTTP requests (a transcript fetch) and raw TCP.
globalThis.fetch = (input) => {
  record("socket", `fetch(${typeof input === "string" ? input : (input?.url ?? "?")})`);
  return Promise.reject(new TypeError("the network is off during this server render"));
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function tripWireConnect(...args) {
  record("socket", "net.Socket#connect");
  return connect.apply(this, args);
};

// What a server's log would show.
for (const level of ["error", "warn"]) {
  const original = console[level];
  console[level] = (...args) => {
    record("console", `${level}: ${args.map(String).join(" ").slice(0, 300)}`);
    original.apply(console, args);
  };
}
process.on("unhandledRejection", (e) => record("unhandled rejection", String(e?.message ?? e)));

const props = JSON.parse(propsJson);

phase = "import react";
const { renderToString, renderToPipeableStream } = await import("react-dom/server");

phase = "import packages";
await import("@runboard/protocol");
await import("@runboard/protocol/view");
await import("@runboard/protocol/helix");
await import("@runboard/client");
await import("@runboard/react");

phase = "import app";
const app = await import(pathToFileURL(bundle).href);

phase = "renderToString";
const html = renderToString(app.createPage(props));

phase = "renderToPipeableStream";
const streamHtml = await new Promise((resolve, reject) => {
  let out = "";
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  sink.on("finish", () => resolve(out));
  const stream = renderToPipeableStream(app.createPage(props), {
    onAllReady: () => stream.pipe(sink),
    onShellError: reject,
    onError: (e) => record("render error", String(e?.message ?? e)),
  });
});

// Work a render started but left for later (a promise that opens a socket once it settles) shows up here.
phase = "after render";
await new Promise((resolve) => real.setTimeout(resolve, 200));
await new Promise((resolve) => real.setImmediate(resolve));

process.stdout.write(`${JSON.stringify({ events, html, streamHtml })}\n`);
process.exit(0);
