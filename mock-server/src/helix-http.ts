/**
 * The helix demo over HTTP (Node server only): `GET /helix/stream` sends the scripted stream as Server-Sent
 * Events (`?cut=<n>` ends it after n chunks, leaving runs open), and `POST /helix/children/<name>/message` /
 * `…/terminate` answer the playground's Send message and Terminate (the mock has no real child to reach: it
 * acknowledges with `{ ok: true }`). CORS follows the server's origin policy; a plain POST needs no preflight.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HELIX_DEMO_SCRIPT, helixSseEvent } from "./helix.ts";

/** What the helix routes need from the server. */
export interface HelixHttpContext {
  /** Multiplies the script's pauses (the server's `delayScale`). */
  delayScale: number;
  /** `Access-Control-Allow-Origin` for a request's `Origin`, or undefined to send none. */
  corsOrigin(origin: string | undefined): string | undefined;
}

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
  if (action && req.method === "POST") {
    // The body (the message) is read and dropped: the demo's children are scripted.
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", ...cors });
      res.end(JSON.stringify({ ok: true, name: decodeURIComponent(action[1] ?? ""), action: action[2] }));
    });
    return true;
  }
  res.writeHead(404, { "content-type": "text/plain", ...cors });
  res.end("Not Found");
  return true;
}
