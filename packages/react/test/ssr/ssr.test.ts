/**
 * Server rendering in Node, as a React Router or Next app on a server does it: importing the packages and
 * rendering every component in every state with `renderToString`, `renderToPipeableStream`,
 * `renderToReadableStream` and `prerenderToNodeStream` touches no browser global, makes no socket and starts
 * no timer; and the HTML does not depend on the server's clock, time zone or locale (a browser elsewhere, or
 * later, could not hydrate it otherwise).
 */
import { PassThrough } from "node:stream";
import type { ReactElement } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLIENT, inEnvironment, type RenderEnvironment, SERVER } from "./environment.ts";
import { CountingWebSocket, describeSightings, installProbe, type Probe } from "./probe.ts";

// Installed before anything of the kit is imported: the imports below are dynamic for that reason.
const probe: Probe = installProbe();
let imported: ReturnType<Probe["counts"]>;
let importSightings: string;
let states: typeof import("./states.tsx");
let server: typeof import("react-dom/server");
let statics: typeof import("react-dom/static");
let React: typeof import("react");

beforeAll(async () => {
  await import("@runboard/protocol");
  await import("@runboard/client");
  await import("@runboard/react");
  imported = probe.counts();
  importSightings = describeSightings([...Object.values(probe.globals).flat(), ...probe.timers]);
  states = await import("./states.tsx");
  server = await import("react-dom/server");
  statics = await import("react-dom/static");
  React = await import("react");
  probe.reset();
});
afterAll(() => probe.restore());

async function streamToString(stream: NodeJS.ReadableStream | ReadableStream<Uint8Array>): Promise<string> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  if ("getReader" in stream) {
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value, { stream: true }));
    }
  } else
    for await (const chunk of stream) chunks.push(typeof chunk === "string" ? chunk : decoder.decode(chunk));
  return chunks.join("");
}

type Renderer = (el: ReactElement) => Promise<string>;

const renderers: Record<string, Renderer> = {
  renderToString: async (el) => server.renderToString(el),
  renderToPipeableStream: (el) =>
    new Promise((resolve, reject) => {
      const { pipe } = server.renderToPipeableStream(el, {
        onAllReady() {
          const out = new PassThrough();
          pipe(out);
          streamToString(out).then(resolve, reject);
        },
        onShellError: reject,
      });
    }),
  renderToReadableStream: async (el) => {
    const stream = await server.renderToReadableStream(el);
    await stream.allReady;
    return streamToString(stream);
  },
  prerenderToNodeStream: async (el) => streamToString((await statics.prerenderToNodeStream(el)).prelude),
};

/** Lets work a render scheduled (a socket made after a promise, a timer) happen before looking. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** Asserts the probe saw nothing of the kit's since the last reset; `what` names the render. */
function expectUntouched(what: string) {
  const seen = probe.counts();
  const sightings = describeSightings([...Object.values(probe.globals).flat(), ...probe.timers]);
  expect(seen, `${what} touched the browser or started timers:\n${sightings}`).toEqual({
    globals: 0,
    timers: 0,
    liveTimers: 0,
    sockets: 0,
  });
}

describe("importing the packages on a server", () => {
  it("reads no browser global, makes no socket and starts no timer", () => {
    expect(imported, `importing touched:\n${importSightings}`).toEqual({
      globals: 0,
      timers: 0,
      liveTimers: 0,
      sockets: 0,
    });
  });
});

describe("server-rendering every component in every state", () => {
  for (const [renderer, render] of Object.entries(renderers))
    describe(renderer, () => {
      // Built lazily: the cases come from a module imported only once the probe is in place.
      it("touches no browser global, makes no socket and starts no timer", async () => {
        for (const c of states.CASES) {
          probe.reset();
          const html = await render(c.render());
          await settle();
          expect(html.length, c.name).toBeGreaterThan(0);
          expectUntouched(`${renderer}: ${c.name}`);
        }
      });
    });
});

/**
 * Renders every case as a server in `env` would: the process time zone set to match, and the kit's modules
 * loaded afresh (a server process of its own, with no clock or cache left from an earlier render).
 */
async function renderAllIn(env: RenderEnvironment): Promise<Map<string, string>> {
  vi.resetModules();
  const fresh: typeof import("./states.tsx") = await import("./states.tsx");
  const tz = process.env.TZ;
  process.env.TZ = env.timeZone;
  try {
    return inEnvironment(
      env,
      () => new Map(fresh.CASES.map((c) => [c.name, server.renderToString(c.render())] as const)),
    );
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
}

describe("the server's HTML", () => {
  it("is the same whatever the server's clock, time zone and locale (so any browser can hydrate it)", async () => {
    const here = await renderAllIn(SERVER);
    const elsewhere = await renderAllIn(CLIENT);
    const differ: string[] = [];
    for (const [name, html] of here) {
      const other = elsewhere.get(name) ?? "";
      if (html !== other) differ.push(`${name}:\n  ${firstDifference(html, other)}`);
    }
    expect(here.size).toBe(states.CASES.length);
    expect(differ, differ.join("\n")).toEqual([]);
  });
});

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${a.slice(Math.max(0, i - 60), i + 40)}\n  ≠ ${b.slice(Math.max(0, i - 60), i + 40)}`;
}

describe("server-rendering the hooks feeding every component (README page)", () => {
  it("opens no socket, reads no browser global and starts no timer", async () => {
    for (const [renderer, render] of Object.entries(renderers)) {
      probe.reset();
      // No `WebSocket` option: the connection finds the global one, as on Node 22 or workerd.
      const html = await render(React.createElement(states.HooksPage, { host: "127.0.0.1:9" }));
      await settle();
      expect(html).toContain("<main");
      expect(CountingWebSocket.made, `${renderer} opened sockets`).toBe(0);
      expectUntouched(`${renderer}: the hooks page`);
    }
  });
});
