/**
 * The helix demo over HTTP (Node server only): `GET /helix/stream` sends the scripted stream as Server-Sent
 * Events (`?cut=<n>` ends it after n chunks, leaving runs open), and `POST /helix/children/<name>/message` /
 * `…/terminate` answer the playground's Send message and Terminate (the mock has no real child to reach: it
 * acknowledges with `{ ok: true }`). CORS follows the server's origin policy. The two POSTs act, so they take
 * requests from allowed pages only and with a JSON body only (a page elsewhere cannot send one without a
 * preflight, which only allowed origins are answered): mock-server/README.md#who-may-reach-the-server.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HELIX_DEMO_SCRIPT, helixSseEvent } from "./helix.ts";
import { printable } from "./hub.ts";
import { isJsonContentType } from "./origins.ts";

/** What the helix routes need from the server. */
export interface HelixHttpContext {
  /** Multiplies the script's pauses (the server's `delayScale`). */
  delayScale: number;
  /** `Access-Control-Allow-Origin` for a request's `Origin`, or undefined to send none. */
  corsOrigin(origin: string | undefined): string | undefined;
  /** Whether a request that acts may, from its `Origin` and `Sec-Fetch-Site` (`OriginPolicy.actionAllowed`). */
  actionAllowed(origin: string | undefined, fetchSite: string | undefined): boolean;
  /** Logs a refused request (rate-limited: a page elsewhere can send them in a loop). */
  logRefusal(line: string): void;
}

/** Largest body a child action takes; its message is a line a person typed. */
export const MAX_HELIX_BODY_BYTES = 64 << 10;

const CHILD_ACTION = /^\/helix\/children\/([^/]+)\/(message|terminate)$/;

/** Answers a helix route; false when `path` is not one (the hub then answers it). */
export function serveHelix(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  ctx: HelixHttpContext,
): boolean {
  if (!path.startsWith("/helix/")) return false;
  const allow = ctx.corsOrigin(req.headers.origin);
  const cors: Record<string, string> = allow ? { "access-control-allow-origin": allow, vary: "Origin" } : {};
  if (path === "/helix/stream" && (req.method === "GET" || req.method === "HEAD")) {
    const cut = Number(new URL(req.url ?? "/", "http://x").searchParams.get("cut"));
    const steps = Number.isInteger(cut) && cut > 0 ? HELIX_DEMO_SCRIPT.slice(0, cut) : HELIX_DEMO_SCRIPT;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", ...cors });
    if (req.method === "HEAD") {
      res.end();
      return true;
    }
    let i = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      const step = steps[i++];
      if (!step || res.destroyed) {
        res.end();
        return;
      }
      timer = setTimeout(() => {
        if (res.destroyed) return;
        res.write(helixSseEvent(step.chunk));
        next();
      }, step.delayMs * ctx.delayScale);
    };
    res.on("close", () => clearTimeout(timer));
    next();
    return true;
  }
  const action = CHILD_ACTION.exec(path);
  if (action) {
    childAction(req, res, action[1] ?? "", action[2] ?? "", ctx);
    return true;
  }
  res.writeHead(404, { "content-type": "text/plain", ...cors });
  res.end("Not Found");
  return true;
}

/** `header` as one string (Node gives an array for a repeated one), undefined when absent. */
const one = (header: string | string[] | undefined) => (Array.isArray(header) ? header.join(",") : header);

/**
 * A child's Send message or Terminate, and its preflight. Every answer is sent from here, whatever the request
 * holds: a name that does not decode is a 400, never a throw (a `URIError` in a stream callback would end the
 * process, and `npm run dev` runs Vite in it too).
 */
function childAction(
  req: IncomingMessage,
  res: ServerResponse,
  rawName: string,
  action: string,
  ctx: HelixHttpContext,
) {
  const origin = one(req.headers.origin);
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const allow = status === 403 ? undefined : ctx.corsOrigin(origin);
    res.writeHead(status, {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(allow ? { "access-control-allow-origin": allow, vary: "Origin" } : {}),
      ...headers,
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (req.method !== "POST" && req.method !== "OPTIONS") {
    req.resume();
    return reply(405, { ok: false, error: "Method Not Allowed" }, { allow: "POST, OPTIONS" });
  }
  if (!ctx.actionAllowed(origin, one(req.headers["sec-fetch-site"]))) {
    req.resume();
    ctx.logRefusal(
      `mock-server: refused ${req.method} ${printable(req.url ?? "")} from origin ${printable(origin ?? "(none)")}`,
    );
    return reply(403, { ok: false, error: "Forbidden: this page's origin may not use the mock server" });
  }
  if (req.method === "OPTIONS") {
    req.resume();
    return reply(204, undefined, {
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "content-type",
      "access-control-max-age": "600",
    });
  }
  if (!isJsonContentType(one(req.headers["content-type"]))) {
    req.resume();
    return reply(415, { ok: false, error: "Send the body as application/json" });
  }
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    req.resume();
    return reply(400, { ok: false, error: "The child name is not a valid percent-encoded string" });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  req.on("data", (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > MAX_HELIX_BODY_BYTES) {
      done = true;
      reply(413, { ok: false, error: `Body over ${MAX_HELIX_BODY_BYTES} bytes` });
      return;
    }
    chunks.push(chunk);
  });
  // A client that goes away mid-body: nothing to answer, and nothing may throw.
  req.on("error", () => {
    done = true;
  });
  req.on("end", () => {
    if (done) return;
    done = true;
    const text = Buffer.concat(chunks).toString("utf8");
    try {
      // The demo's children are scripted: the message is checked and dropped.
      if (text.trim() !== "") JSON.parse(text);
    } catch {
      return reply(400, { ok: false, error: "The body is not JSON" });
    }
    reply(200, { ok: true, name, action });
  });
}
