/**
 * Watches what code does to the process while it is imported or rendered on the server: reads of browser
 * globals (through getters on `globalThis`), sockets made (a `WebSocket` global that counts its instances,
 * as on Node 22 and workerd), and timers started. React's own server renderer schedules its streaming work
 * with timers too, so a timer counts only when a frame of its stack is outside React, the test runner and
 * these tests: code of the kit, or a library the kit calls.
 */

/** The browser globals a server render must not touch. */
export const BROWSER_GLOBALS = ["window", "document", "sessionStorage", "localStorage", "WebSocket"] as const;
export type BrowserGlobal = (typeof BROWSER_GLOBALS)[number];

const TIMER_KINDS = [
  "setTimeout",
  "setInterval",
  "setImmediate",
  "requestAnimationFrame",
  "requestIdleCallback",
] as const;
const CLEAR_KINDS = [
  "clearTimeout",
  "clearInterval",
  "clearImmediate",
  "cancelAnimationFrame",
  "cancelIdleCallback",
] as const;

/** One access or timer, with the code that made it. */
export interface Sighting {
  what: string;
  stack: string;
}

const NOT_OURS = [
  /\(node:/,
  /at node:/,
  /node_modules\/(react|react-dom|scheduler)\//,
  /node_modules\/(vitest|@vitest|tinypool|tinyspy|chai|vite|vite-node|jsdom|@testing-library)\//,
  /\/test\/ssr\//,
  /<anonymous>/,
];

/** The stack lines that belong to code other than React, the runner and these tests. */
function blame(stack: string): string[] {
  return stack
    .split("\n")
    .slice(1)
    .filter((line) => /\/|\\/.test(line) && !NOT_OURS.some((re) => re.test(line)));
}

const here = () => new Error().stack ?? "";

/** A `WebSocket` that counts itself and never connects (so it starts no timer of its own). */
export class CountingWebSocket extends EventTarget {
  static made = 0;
  /** Made and not closed yet. */
  static readonly open = new Set<CountingWebSocket>();
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = 0;
  binaryType = "blob";
  readonly bufferedAmount = 0;
  readonly extensions = "";
  readonly protocol = "";
  constructor(readonly url: string) {
    super();
    CountingWebSocket.made += 1;
    CountingWebSocket.open.add(this);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
    CountingWebSocket.open.delete(this);
  }
}

/** Timers started by the kit or a library it calls, since the probe was installed (or last reset). */
export interface TimerProbe {
  timers: Sighting[];
  /** Those of `timers` that have neither fired (one-shot) nor been cleared. */
  liveTimers(): Sighting[];
  reset(): void;
  restore(): void;
}

/** Wraps the timer functions of `globalThis` to see which the kit starts and which are still pending. */
export function installTimerProbe(): TimerProbe {
  const g = globalThis as Record<string, unknown>;
  const timers: Sighting[] = [];
  const live = new Map<unknown, Sighting>();
  const saved = new Map<string, unknown>();
  for (const kind of TIMER_KINDS) {
    saved.set(kind, g[kind]);
    const real = g[kind] as ((...a: unknown[]) => unknown) | undefined;
    g[kind] = (fn: (...a: unknown[]) => void, ...rest: unknown[]) => {
      const stack = here();
      const ours = blame(stack).length > 0;
      let handle: unknown;
      const once = kind !== "setInterval";
      const wrapped = (...a: unknown[]) => {
        if (once) live.delete(handle);
        fn(...a);
      };
      // Environments without the browser-only ones: the callback would never run anyway.
      handle = real ? real(wrapped, ...rest) : Symbol(kind);
      if (ours) {
        const sighting = { what: kind, stack };
        timers.push(sighting);
        live.set(handle, sighting);
      }
      return handle;
    };
  }
  for (const clear of CLEAR_KINDS) {
    saved.set(clear, g[clear]);
    const real = g[clear] as ((h: unknown) => void) | undefined;
    g[clear] = (handle: unknown) => {
      live.delete(handle);
      real?.(handle);
    };
  }
  return {
    timers,
    liveTimers: () => [...live.values()],
    reset() {
      timers.length = 0;
      live.clear();
    },
    restore() {
      for (const [name, fn] of saved) {
        if (fn === undefined) delete g[name];
        else g[name] = fn;
      }
    },
  };
}

/** What the probe saw since it was installed (or last reset). */
export interface Probe {
  /** Reads of each browser global. */
  globals: Record<BrowserGlobal, Sighting[]>;
  /** Timers started by the kit or a library it calls. */
  timers: Sighting[];
  /** Those of `timers` that have neither fired (one-shot) nor been cleared. */
  liveTimers(): Sighting[];
  /** Sockets constructed. */
  sockets(): number;
  /** Totals, for messages and the report. */
  counts(): { globals: number; timers: number; liveTimers: number; sockets: number };
  reset(): void;
  /** Puts the real globals back. */
  restore(): void;
}

/** The whole probe, for a server process: browser globals that count their readers, sockets, timers. */
export function installProbe(): Probe {
  const g = globalThis as Record<string, unknown>;
  const globals = Object.fromEntries(BROWSER_GLOBALS.map((n) => [n, [] as Sighting[]])) as Record<
    BrowserGlobal,
    Sighting[]
  >;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of BROWSER_GLOBALS) {
    saved.set(name, Object.getOwnPropertyDescriptor(g, name));
    Object.defineProperty(g, name, {
      configurable: true,
      get() {
        const stack = here();
        // Reads made by the test runner itself between tests are not the code under test.
        if (blame(stack).length > 0) globals[name].push({ what: name, stack });
        return name === "WebSocket" ? CountingWebSocket : undefined;
      },
      set() {},
    });
  }
  const timerProbe = installTimerProbe();
  CountingWebSocket.made = 0;

  return {
    globals,
    timers: timerProbe.timers,
    liveTimers: timerProbe.liveTimers,
    sockets: () => CountingWebSocket.made,
    counts: () => ({
      globals: BROWSER_GLOBALS.reduce((n, name) => n + globals[name].length, 0),
      timers: timerProbe.timers.length,
      liveTimers: timerProbe.liveTimers().length,
      sockets: CountingWebSocket.made,
    }),
    reset() {
      for (const name of BROWSER_GLOBALS) globals[name].length = 0;
      timerProbe.reset();
      CountingWebSocket.made = 0;
    },
    restore() {
      for (const [name, d] of saved) {
        if (d) Object.defineProperty(g, name, d);
        else delete g[name];
      }
      timerProbe.restore();
    },
  };
}

/** A readable summary of what was seen, for assertion messages: each sighting with the kit's frames. */
export function describeSightings(list: readonly Sighting[]): string {
  return list.map((s) => `${s.what}\n${blame(s.stack).slice(0, 6).join("\n")}`).join("\n---\n");
}
