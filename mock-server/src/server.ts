/**
 * The Node transport: `node:http` for `/health`, `…/get-messages` and Live View pages, `ws` for agent sockets.
 * Binds 127.0.0.1 unless told otherwise. Everything about agents lives in the hub.
 */
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { connectionId, type MockConnection } from "./connection.ts";
import type { MockController } from "./controller.ts";
import { serveHelix } from "./helix-http.ts";
import { Hub, type HubOptions, printable } from "./hub.ts";
import { LogLimiter } from "./log-limit.ts";
import { originPolicy } from "./origins.ts";
import {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_TOTAL_BUFFERED_BYTES,
  Outbox,
  OutboxBudget,
} from "./outbox.ts";

export type { MockAgentDefinition } from "./script.ts";

/** Options of `createMockAgentServer`. */
export interface MockAgentServerOptions extends HubOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1: the server is for this machine only. */
  host?: string;
  /** Largest client frame accepted; bigger ones close the socket with 1009. Default 1 MiB. */
  maxFrameBytes?: number;
  /**
   * Web origins allowed besides the loopback ones (http/https on localhost, 127.0.0.0/8 and [::1], any port),
   * e.g. `http://192.168.1.20:5173`. Applies to the `Origin` of WebSocket upgrades and of requests that act
   * (the helix POSTs), refused with 403 otherwise (requests without one, from Node or other non-browser
   * clients, pass unless `Sec-Fetch-Site` says another site sent them), and to CORS on HTTP routes. `Host` must
   * be a loopback name, the address listened on, or the host of an allowed origin (403 otherwise), which stops
   * DNS rebinding. `"*"` allows every origin and host. Default: none (loopback only).
   */
  allowedOrigins?: readonly string[];
  /**
   * Bytes a socket may have waiting to be read (queued plus `bufferedAmount`) before the server drops that
   * client (close 1008, "Client too slow…"; its socket is freed a second later) and logs it, so a client that
   * stops reading cannot grow the server's memory. Default 8 MiB.
   */
  maxBufferedBytes?: number;
  /**
   * Bytes all sockets together may have waiting to be read. When a write passes it, the sockets holding the
   * most are dropped, largest first (close 1013, "Server busy…", logged), until the others are under it, so
   * many clients that stop reading cannot grow the server's memory either; what they hold stays below twice
   * this. Default 64 MiB.
   */
  maxTotalBufferedBytes?: number;
}

/** A running mock server. */
export interface MockAgentServer {
  /** Base HTTP URL, e.g. `http://127.0.0.1:8787`; WebSockets use the same host and port. */
  url: string;
  /** The port actually bound (useful with `port: 0`). */
  port: number;
  /** Faults, held frames, frame waits and restarts for tests. */
  controller: MockController;
  /**
   * Bytes waiting to be read across every socket now (queued, plus written and not yet taken by the kernel;
   * sockets being dropped included): what `maxTotalBufferedBytes` caps.
   */
  bufferedBytes(): number;
  /** Closes every socket and stops listening. */
  close(): Promise<void>;
}

/**
 * The path of a request target, or undefined when it cannot be routed: `new URL` throws on targets such as
 * `//[` or `http://[::1`, and a NUL (raw or `%00`) has no business in a route or page name.
 */
function pathOf(target: string | undefined): string | undefined {
  let path: string;
  try {
    path = new URL(target ?? "/", "http://x").pathname;
  } catch {
    return undefined;
  }
  return /%00|\0/i.test(path) ? undefined : path;
}

/** Starts a mock server. Resolves once it listens. */
export async function createMockAgentServer(options: MockAgentServerOptions): Promise<MockAgentServer> {
  const hub = new Hub(options);
  const policy = originPolicy(options.allowedOrigins, options.host ?? "127.0.0.1");
  hub.corsOrigin = policy.corsOrigin;
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const budget = new OutboxBudget(options.maxTotalBufferedBytes ?? DEFAULT_MAX_TOTAL_BUFFERED_BYTES);
  // 1 MiB is plenty for chat frames and keeps a runaway client from filling memory; ws closes with 1009.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes ?? 1 << 20,
    // The outbox writes uncompressed frames itself (outbox.ts).
    perMessageDeflate: false,
  });

  // A page elsewhere can send refused requests in a loop: their lines share one budget (`logLimit`).
  const refusals = new LogLimiter<"refused">(
    hub.log,
    options.logLimit?.lines,
    options.logLimit?.perMs,
    Date.now,
    "refused-request",
  );
  const logRefusal = (line: string) => refusals.write("refused", "refused requests", line);
  const helix = {
    delayScale: options.delayScale ?? 1,
    corsOrigin: policy.corsOrigin,
    actionAllowed: policy.actionAllowed,
    logRefusal,
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req.url);
    if (path !== undefined && policy.hostAllowed(req.headers.host) && serveHelix(req, res, path, helix))
      return;
    // A bad target is the client's fault: answer 400 rather than let the throw take the process down.
    const r =
      path === undefined
        ? { status: 400, type: "text/plain", body: "Bad Request" }
        : !policy.hostAllowed(req.headers.host)
          ? { status: 403, type: "text/plain", body: "Forbidden" }
          : hub.http(req.method ?? "GET", path, req.headers.origin);
    res.writeHead(r.status, { ...(r.type ? { "content-type": r.type } : {}), ...r.headers });
    res.end(req.method === "HEAD" ? undefined : r.body);
  };
  const http = createServer((req, res) => {
    // Nothing a request holds may end the process (`npm run dev` runs Vite in it): a throw here is a bug,
    // answered 500 and logged. The routes' own callbacks are written not to throw (helix-http.ts).
    try {
      serve(req, res);
    } catch (e) {
      hub.log(`mock-server: ${req.method} ${printable(req.url ?? "")}: ${printable(String(e))}`);
      if (res.headersSent) res.end();
      else res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
    }
  });

  /** Refuses an upgrade with a plain HTTP response, so clients see the status (ws: `unexpected-response`). */
  const reject = (socket: Duplex, code: 400 | 403 | 404 | 500) => {
    const text = STATUS_CODES[code] ?? "Error";
    socket.end(
      `HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOf(req.url);
    if (path === undefined) return reject(socket, 400);
    const fetchSite = req.headers["sec-fetch-site"];
    if (!policy.hostAllowed(req.headers.host) || !policy.actionAllowed(req.headers.origin, fetchSite)) {
      const from = `origin ${printable(req.headers.origin ?? "(none)")}, host ${printable(req.headers.host ?? "(none)")}`;
      logRefusal(`mock-server: refused a socket from ${from} (see the allowedOrigins option)`);
      return reject(socket, 403);
    }
    const a = hub.accept(path);
    if (a.status !== 200) return reject(socket, a.status);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const id = connectionId();
      const out = new Outbox(ws, maxBuffered, budget, (reason, pending) => {
        hub.log(
          reason === "slow"
            ? `mock-server: socket ${id}: dropped, ${pending} bytes unread (over maxBufferedBytes ${maxBuffered})`
            : `mock-server: socket ${id}: dropped (close 1013), ${pending} bytes unread, the most of all sockets ` +
                `(together over maxTotalBufferedBytes ${budget.max})`,
        );
        hub.dropConnection(conn);
      });
      const conn: MockConnection = {
        id,
        send: (text) => out.send(text),
        // Frames queued before a close or a drop still go first, as they did when every send wrote at once.
        close: (code, reason) => {
          out.flush();
          ws.close(code, reason);
        },
        terminate: () => {
          out.flush();
          ws.terminate();
        },
      };
      ws.on("message", (data, isBinary) => hub.message(conn, isBinary ? undefined : data.toString()));
      ws.on("close", () => hub.dropConnection(conn));
      // An errored socket (e.g. an oversized frame: ws closes it with 1009) closes right after.
      ws.on("error", (e) => {
        hub.log(`mock-server: socket ${conn.id}: ${e.message}`);
        hub.dropConnection(conn);
      });
      try {
        a.open(conn);
      } catch (e) {
        // A bug on connect ends this socket (1011, internal error), not the server.
        hub.log(`mock-server: socket ${id}: ${printable(String(e))}`);
        hub.dropConnection(conn);
        ws.close(1011, "Internal Error");
      }
    });
  };

  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own error listener on upgraded sockets; without one a client reset would crash us.
    socket.on("error", () => socket.destroy());
    try {
      upgrade(req, socket, head);
    } catch (e) {
      hub.log(`mock-server: upgrade ${printable(req.url ?? "")}: ${printable(String(e))}`);
      if (socket.writable) reject(socket, 500);
      else socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  // Later server errors (rare once listening) are reported, not thrown.
  http.on("error", (e) => hub.log(`mock-server: ${e.message}`));
  const { port, address, family } = http.address() as AddressInfo;
  const urlHost = family === "IPv6" ? `[${address}]` : address;
  const url = `http://${urlHost}:${port}`;
  hub.baseUrl = url;
  return {
    url,
    port,
    controller: hub.controller,
    bufferedBytes: () => budget.held(),
    close: () =>
      new Promise<void>((resolve) => {
        hub.closeAll();
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
        // Keep-alive HTTP connections would otherwise hold close() open.
        http.closeAllConnections();
      }),
  };
}
