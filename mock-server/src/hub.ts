/**
 * The transport-neutral server: routes paths to agent instances, parses client frames, and delivers server
 * frames through the test controller's faults (`controller.ts`). `server.ts` (Node `ws`) and `msw.ts` (MSW
 * interception) are thin adapters over it.
 */
import { type ClientFrame, kebabAgentName, parseClientFrame, type ServerFrame } from "@runboard/protocol";
import type { MockConnection } from "./connection.ts";
import { MockController, type SentFrame } from "./controller.ts";
import { AgentInstance } from "./instance.ts";
import type { InstanceServices } from "./instance-host.ts";
import { DEFAULT_LIVE_VIEW_TTL_MS, LiveViews } from "./live-view.ts";
import { LogLimiter } from "./log-limit.ts";
import type { MockAgentDefinition } from "./script.ts";

/** Options of the hub, shared by both transports. */
export interface HubOptions {
  agents: Record<string, MockAgentDefinition>;
  log?: (line: string) => void;
  /** Multiplies every scripted delay; 0 plays scripts as fast as possible (tests). Default 1. */
  delayScale?: number;
  /** How long Live View URLs stay valid. Default 5 minutes. */
  liveViewTtlMs?: number;
  /**
   * An agent instance with no sockets (its children's included), no turn streaming or queued and no child
   * run going is dropped after this long, transcript and state with it, so a long-running mock does not keep
   * every instance it ever served. 0 or Infinity keeps them all. Default 10 minutes.
   */
  idleInstanceMs?: number;
  /**
   * Log lines about ignored client frames allowed per connection per `perMs`; the rest are counted and
   * reported in one "suppressed" line. The Node server gives the requests it refuses (pages of other origins)
   * one such budget in all. Default 10 per 10 seconds.
   */
  logLimit?: { lines: number; perMs: number };
}

/** Default `idleInstanceMs`. */
export const DEFAULT_IDLE_INSTANCE_MS = 10 * 60_000;

type Route =
  | { status: 400 | 404 }
  | { status: 200; instance: AgentInstance; rest: string[] }
  | { status: 200; create: () => AgentInstance; rest: string[] };

// Instance names are used verbatim (the official client does not encode them); refuse what cannot be one.
const NAME = /^[^/?#\s]+$/;
const MAX_LOGGED = 80;

/** A client-controlled string cut short and stripped of control characters, so a log line stays one line. */
export const printable = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  (s.length > MAX_LOGGED ? `${s.slice(0, MAX_LOGGED)}…` : s).replace(/[\u0000-\u001f\u007f]/g, "?");

/** Node's setImmediate; in a browser (MSW in Storybook) a message-channel task, which is not clamped either. */
const yieldToLoop: (fn: () => void) => void =
  typeof setImmediate === "function"
    ? (fn) => setImmediate(fn)
    : (fn) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          ch.port1.close();
          fn();
        };
        ch.port2.postMessage(null);
      };

/** Routes, instances and delivery; shared by every transport. */
export class Hub {
  private readonly agents: Map<string, MockAgentDefinition>;
  private readonly instances = new Map<string, AgentInstance>();
  private readonly where = new Map<MockConnection, AgentInstance>();
  readonly controller = new MockController(this);
  readonly liveViews: LiveViews;
  readonly log: (line: string) => void;
  private readonly scale: number;
  /** Base URL pages are served from; the transport sets it once it knows its address. */
  baseUrl = "http://127.0.0.1";
  /**
   * The `Access-Control-Allow-Origin` answer for a request's `Origin` (undefined: none). In a page (MSW) nothing
   * listens on the network, so any; the Node server narrows it to the origins it allows.
   */
  corsOrigin: (origin: string | undefined) => string | undefined = () => "*";
  private readonly svc: InstanceServices;
  private readonly frameLog: LogLimiter<MockConnection>;
  /** When each top-level instance was last seen busy or touched by a socket. */
  private readonly lastActive = new Map<string, number>();
  private readonly idleMs: number;
  private sweeper?: ReturnType<typeof setInterval>;

  constructor(options: HubOptions) {
    this.agents = new Map(Object.entries(options.agents).map(([k, v]) => [kebabAgentName(k), v]));
    this.log = options.log ?? ((l: string) => console.warn(l));
    this.scale = options.delayScale ?? 1;
    this.liveViews = new LiveViews(options.liveViewTtlMs ?? DEFAULT_LIVE_VIEW_TTL_MS);
    this.frameLog = new LogLimiter(this.log, options.logLimit?.lines, options.logLimit?.perMs);
    const idle = options.idleInstanceMs ?? DEFAULT_IDLE_INSTANCE_MS;
    this.idleMs = idle > 0 ? idle : Number.POSITIVE_INFINITY;
    this.svc = {
      log: this.log,
      delayScale: this.scale,
      deliver: (conn, frame) => this.deliver(conn, frame),
      sleep: (ms, signal) => this.sleep(ms, signal),
      liveView: (mode) => this.liveViews.mint(this.baseUrl, mode),
    };
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const d = ms * this.scale;
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      // Even a zero delay yields to the event loop (I/O first), so frames from concurrent streams interleave
      // as on a server; setImmediate rather than a 0 ms timer, which Node stretches to 1 ms or more under load.
      if (d <= 0) {
        yieldToLoop(resolve);
        return;
      }
      const done = () => {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const t = setTimeout(done, d);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Adds (or replaces) an agent class after start, e.g. one Storybook story's scripted agent. */
  define(agent: string, definition: MockAgentDefinition): void {
    this.agents.set(kebabAgentName(agent), definition);
  }

  find(agent: string, name: string): AgentInstance | undefined {
    return this.instances.get(`${kebabAgentName(agent)}/${name}`);
  }

  /** Resolves a path `/agents/<agent>/<name>[/sub/<child>/<name>…][/rest]`. */
  route(pathname: string): Route {
    const [, root, agent, name, ...rest] = pathname.split("/");
    if (root !== "agents" || agent === undefined) return { status: 404 };
    const def = this.agents.get(agent);
    if (!def) return { status: 404 };
    if (name === undefined || !NAME.test(name)) return { status: 400 };
    const key = `${agent}/${name}`;
    let inst = this.instances.get(key);
    // Drill-in: `/sub/<kebab child class>/<encoded child name>` reaches a child run's own chat.
    while (rest[0] === "sub") {
      const [, childType, childName] = rest.splice(0, 3);
      if (childType === undefined || childName === undefined) return { status: 404 };
      let decoded: string;
      try {
        decoded = decodeURIComponent(childName);
      } catch {
        return { status: 400 };
      }
      const child = inst?.children.get(`${childType}/${decoded}`);
      if (!child) return { status: 404 };
      inst = child;
    }
    if (inst) return { status: 200, instance: inst, rest };
    return {
      status: 200,
      rest,
      create: () => {
        const created = new AgentInstance(def, agent, name, this.svc);
        this.instances.set(key, created);
        this.lastActive.set(key, Date.now());
        this.startSweeping();
        return created;
      },
    };
  }

  private instanceOf(r: Extract<Route, { status: 200 }>): AgentInstance {
    return "instance" in r ? r.instance : r.create();
  }

  /** A new socket on `pathname`. Returns the HTTP status to refuse it with, or the instance it joined. */
  accept(pathname: string): { status: 400 | 404 } | { status: 200; open: (conn: MockConnection) => void } {
    const r = this.route(pathname);
    if (r.status !== 200) return r;
    if (r.rest.length > 0) return { status: 404 };
    return {
      status: 200,
      open: (conn) => {
        const inst = this.instanceOf(r);
        this.where.set(conn, inst);
        inst.connect(conn);
      },
    };
  }

  /** A text (or binary: `undefined`) frame from a socket. */
  message(conn: MockConnection, raw: string | undefined) {
    const inst = this.where.get(conn);
    // A socket its instance dropped (a restart, a scripted drop) is dead to it, though `ws` may still read
    // what was on the way while it closes: lost, as a real eviction loses it.
    if (!inst?.conns.has(conn)) return;
    const parsed = parseClientFrame(raw);
    if (parsed.kind !== "frame") {
      // The reason names the frame type and field only, never the payload, so nothing sensitive is logged.
      const why = parsed.kind === "error" ? parsed.reason : `unknown type '${parsed.type}'`;
      const label = `${inst.agent}/${inst.name} socket ${conn.id}`;
      this.frameLog.write(
        conn,
        label,
        `mock-server: ${inst.agent}/${inst.name}: ignored frame (${printable(why)})`,
      );
      return;
    }
    try {
      const p = inst.handle(conn, parsed.frame as ClientFrame);
      if (p)
        p.catch((e: unknown) => this.log(`mock-server: ${inst.agent}/${inst.name}: ${printable(String(e))}`));
    } catch (e) {
      // A bug in a script must not take the server down, nor the other sockets of the agent.
      this.log(`mock-server: ${inst.agent}/${inst.name}: ${printable(String(e))}`);
    }
  }

  /** The socket closed. */
  dropConnection(conn: MockConnection) {
    const inst = this.where.get(conn);
    if (!inst) return;
    inst.disconnect(conn);
    this.where.delete(conn);
    this.frameLog.forget(conn, `${inst.agent}/${inst.name} socket ${conn.id}`);
  }

  /** Checks for idle instances at a tenth of `idleInstanceMs` (at most once a minute), while there are any. */
  private startSweeping() {
    if (this.sweeper !== undefined || !Number.isFinite(this.idleMs)) return;
    this.sweeper = setInterval(() => this.evictIdle(), Math.min(this.idleMs / 10, 60_000));
    // Node: the sweep alone must not keep a test process or the CLI alive.
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  /** Drops instances idle for `idleInstanceMs`: no sockets, nothing streaming, queued or running. */
  evictIdle(now = Date.now()) {
    for (const [key, inst] of this.instances) {
      if (!inst.idle) {
        this.lastActive.set(key, now);
        continue;
      }
      if (now - (this.lastActive.get(key) ?? now) < this.idleMs) continue;
      inst.restart();
      this.instances.delete(key);
      this.lastActive.delete(key);
    }
    if (this.instances.size === 0) this.stopSweeping();
  }

  private stopSweeping() {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** HTTP GET: `/health`, `…/get-messages`, Live View pages. `origin` is the request's `Origin` header. */
  http(
    method: string,
    pathname: string,
    origin?: string,
  ): { status: number; type?: string; body?: string; headers?: Record<string, string> } {
    if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { allow: "GET, HEAD" } };
    if (pathname === "/health") return { status: 200, type: "application/json", body: '{"ok":true}' };
    if (pathname.startsWith("/live-view/")) {
      const page = this.liveViews.page(pathname.slice("/live-view/".length));
      if (page.status !== 200)
        return {
          status: page.status,
          type: "text/plain",
          body: page.status === 410 ? "Live View expired" : "Not found",
        };
      return {
        status: 200,
        type: "text/html; charset=utf-8",
        body: page.html,
        headers: { "cache-control": "no-store" },
      };
    }
    const r = this.route(pathname);
    if (r.status !== 200) return { status: r.status };
    if (r.rest.join("/") !== "get-messages") return { status: 404 };
    const messages = "instance" in r ? r.instance.messages : [];
    // The playground runs on another origin and reads the transcript with fetch; only allowed pages may.
    const allow = this.corsOrigin(origin);
    return {
      status: 200,
      type: "application/json",
      body: JSON.stringify(messages),
      headers: {
        ...(allow ? { "access-control-allow-origin": allow } : {}),
        ...(allow !== "*" ? { vary: "Origin" } : {}),
      },
    };
  }

  private deliver(conn: MockConnection, frame: ServerFrame) {
    const inst = this.where.get(conn);
    const info: SentFrame = {
      agent: inst?.agent ?? "",
      name: inst?.name ?? "",
      connection: conn.id,
      frame: frame as Record<string, unknown>,
    };
    this.controller.deliver(conn, info, JSON.stringify(frame));
  }

  /** Closes every socket (server shutdown). */
  closeAll(code = 1001, reason = "Server closing") {
    this.stopSweeping();
    for (const conn of [...this.where.keys()]) {
      this.dropConnection(conn);
      conn.close(code, reason);
    }
  }
}
