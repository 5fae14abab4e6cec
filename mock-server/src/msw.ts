/**
 * The scripted agents without a Node server: MSW intercepts the page's WebSocket and fetch calls and hands
 * them to the same hub the Node server uses, so browser tests, jsdom tests and Storybook see the very same
 * frames. Import from `@runboard/mock-server/msw`; `msw` (v2) is an optional peer dependency. This entry also
 * exports the demo agents and the script helpers, so a browser bundle need not load the Node server (`ws`,
 * `node:http`).
 *
 * Where it differs from the Node transport, because MSW has no HTTP upgrade step and no real TCP socket:
 * - a refused socket (unknown agent, bad name, extra path) never opens: it closes with 1008 and the reason
 *   "Not Found" or "Bad Request" (the Node server answers the upgrade with HTTP 404/400; browsers see 1006);
 * - an abrupt drop (`terminate`, e.g. `controller.dropSocketAfter`) is a close with 1006, but MSW reports it
 *   with `wasClean: true` and no preceding `error` event;
 * - Live View pages answer fetch; MSW does not intercept iframe navigations, so embedding them needs the
 *   Node server.
 *
 * Which addresses it answers: the client picks `ws://` or `wss://` from the host (plain for loopback and
 * private hosts, secure for the rest), not from the origin given here, so each origin is served under both
 * schemes. Without an `origin`, the handlers serve `mock-agent.local` and, in a page (browser, jsdom), the
 * page's own origin too, which is where `useAgent` connects when it is given no `host`.
 */
import {
  HttpResponse,
  http,
  type RequestHandler,
  type WebSocketData,
  type WebSocketHandler,
  type WebSocketHandlerConnection,
  ws,
} from "msw";
import { connectionId, type MockConnection } from "./connection.ts";
import type { MockController } from "./controller.ts";
import { Hub, type HubOptions } from "./hub.ts";

export type { MockController, SentFrame } from "./controller.ts";
export * from "./demo.ts";
export * from "./helix.ts";
export type { Hub, HubOptions } from "./hub.ts";
export * from "./script.ts";

/** Options of `createMockAgentHandlers`. */
export interface MockAgentHandlersOptions extends HubOptions {
  /**
   * Origin the app connects to, e.g. `http://127.0.0.1:5173`; its host is served over ws/wss and http/https.
   * Default: `http://mock-agent.local`, plus the page's own origin when there is a page (`location`).
   */
  origin?: string;
  /** Largest client frame accepted, in bytes; bigger ones close the socket with 1009. Default 1 MiB. */
  maxFrameBytes?: number;
}

/** What `createMockAgentHandlers` returns. */
export interface MockAgentHandlers {
  /** Pass to `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: Array<RequestHandler | WebSocketHandler>;
  /** Faults, held frames, frame waits and restarts for tests (the same controller as the Node server's). */
  controller: MockController;
  hub: Hub;
}

const REFUSED = { 400: "Bad Request", 404: "Not Found" } as const;

const DEFAULT_ORIGIN = "http://mock-agent.local";

/** `scheme://host[:port]` of an origin (a trailing path or slash is dropped); throws on a malformed one. */
function hostOf(origin: string): string {
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(origin) ? origin : `http://${origin}`;
  return new URL(withScheme).host;
}

/** The hosts to serve: the given origin, or the default one plus the page's own host when in a page. */
function servedHosts(origin: string | undefined): string[] {
  if (origin !== undefined) return [hostOf(origin)];
  const hosts = [hostOf(DEFAULT_ORIGIN)];
  const page = (globalThis as { location?: { protocol?: string; host?: string } }).location;
  // Only web pages: a `file:` or `about:` document has no host the app could connect to.
  if (page?.host && /^https?:$/.test(page.protocol ?? "") && !hosts.includes(page.host))
    hosts.push(page.host);
  return hosts;
}

/** Whether a frame is over `max` bytes on the wire (UTF-8 for text), encoding only when length cannot tell. */
function tooBig(data: WebSocketData, max: number): boolean {
  if (typeof data !== "string") return ("byteLength" in data ? data.byteLength : data.size) > max;
  // A UTF-16 code unit takes 1 to 3 UTF-8 bytes, so most frames are decided without encoding them.
  if (data.length > max) return true;
  if (data.length * 3 <= max) return false;
  return new TextEncoder().encode(data).byteLength > max;
}

/** MSW handlers serving the given agents at `origin`: WebSocket links and HTTP routes, per scheme. */
export function createMockAgentHandlers(options: MockAgentHandlersOptions): MockAgentHandlers {
  const origin = (options.origin ?? DEFAULT_ORIGIN).replace(/\/$/, "");
  const hosts = servedHosts(options.origin);
  const hub = new Hub(options);
  // Live View URLs the agents mint must point where the http handlers below answer.
  hub.baseUrl = origin;
  // Same default as the Node server's ws `maxPayload`.
  const maxBytes = options.maxFrameBytes ?? 1 << 20;

  const onConnection = ({ client }: WebSocketHandlerConnection) => {
    const a = hub.accept(client.url.pathname);
    if (a.status !== 200) {
      // MSW cannot answer a handshake with an HTTP status; a policy-violation close carries the same meaning.
      client.close(1008, REFUSED[a.status]);
      return;
    }
    // MSW delivers `client.send` a microtask later, or at "open" while the socket is still connecting, and a
    // close takes effect at once: closing right away would lose the frames sent just before (the last frame
    // before `dropSocketAfter`, the final frames before a restart's 1012). So a close waits for those, and
    // anything sent after it is dropped, as with `ws`. `socket` is on MSW's client though not on its type.
    let closing = false;
    const closeAfterSends = (code: number, reason: string) => {
      if (closing) return;
      closing = true;
      const socket = (client as { socket?: WebSocket }).socket;
      if (socket && socket.readyState === socket.CONNECTING)
        socket.addEventListener("open", () => client.close(code, reason), { once: true });
      else queueMicrotask(() => client.close(code, reason));
    };
    const conn: MockConnection = {
      id: connectionId(),
      // MSW ignores sends on a closed socket, as MockConnection requires.
      send: (text) => {
        if (!closing) client.send(text);
      },
      // MSW's server-side close accepts reserved codes (1006, 1009, 1012), unlike WebSocket#close.
      close: closeAfterSends,
      terminate: () => closeAfterSends(1006, ""),
    };
    client.addEventListener("message", (e) => {
      if (closing) return;
      if (tooBig(e.data, maxBytes)) {
        hub.log(`mock-server: socket ${conn.id}: frame over ${maxBytes} bytes`);
        hub.dropConnection(conn);
        closeAfterSends(1009, "Message Too Big");
        return;
      }
      // Binary frames reach the hub as `undefined`, like the Node server; it logs and ignores them.
      hub.message(conn, typeof e.data === "string" ? e.data : undefined);
    });
    // Fires for closes from either side; dropping twice is harmless.
    client.addEventListener("close", () => hub.dropConnection(conn));
    a.open(conn);
  };

  // Every method, like the Node server: the hub answers 405 to anything but GET and HEAD.
  const answer = ({ request }: { request: Request }) => {
    const r = hub.http(request.method, new URL(request.url).pathname);
    return new HttpResponse(request.method === "HEAD" ? null : (r.body ?? null), {
      status: r.status,
      headers: { ...(r.type ? { "content-type": r.type } : {}), ...r.headers },
    });
  };
  const handlers: Array<RequestHandler | WebSocketHandler> = [];
  for (const host of hosts) {
    for (const scheme of ["ws", "wss"])
      handlers.push(ws.link(`${scheme}://${host}/agents/*`).addEventListener("connection", onConnection));
    for (const scheme of ["http", "https"])
      for (const path of ["/health", "/agents/*", "/live-view/*"])
        handlers.push(http.all(`${scheme}://${host}${path}`, answer));
  }
  return { handlers, controller: hub.controller, hub };
}
