/**
 * A minimal agent server that speaks the real connect handshake, state sync, resume probe and RPC errors.
 * Scripted agents (chat turns, tools, sub-agent runs) arrive with the mock-server issue; this is the base.
 */
import { createServer, type IncomingMessage, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type ClientFrame, kebabAgentName, parseClientFrame, type ServerFrame } from "@runboard/protocol";
import { type WebSocket, WebSocketServer } from "ws";

/** How one agent class behaves: which host implementation it imitates. */
export interface MockAgentDefinition {
  /** `ai-chat` imitates `AIChatAgent`, `think` imitates Think; they differ in their connect frames. */
  host: "ai-chat" | "think";
  /** State every new instance of this agent starts with; no state frame is sent while it is undefined. */
  initialState?: unknown;
}

/** Options of `createMockAgentServer`. */
export interface MockAgentServerOptions {
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1: the server is for this machine only. */
  host?: string;
  /** Agent classes by class name (`ChatAgent`) or kebab binding (`chat-agent`). */
  agents: Record<string, MockAgentDefinition>;
  /** Where one-line problem reports go. Default `console.warn`. */
  log?: (line: string) => void;
}

/** A running mock server. */
export interface MockAgentServer {
  /** Base HTTP URL, e.g. `http://127.0.0.1:8787`; WebSockets use the same host and port. */
  url: string;
  /** The port actually bound (useful with `port: 0`). */
  port: number;
  /** Closes every socket and stops listening. */
  close(): Promise<void>;
}

/** One agent instance (a Durable Object on the real server): shared by every socket on the same URL. */
interface Instance {
  def: MockAgentDefinition;
  agent: string;
  name: string;
  state: unknown;
  sockets: Set<WebSocket>;
}

type Route =
  | { status: 400 | 404 }
  | { status: 200; agent: string; name: string; def: MockAgentDefinition; rest: string[] };

// Instance names are used verbatim (the official client does not encode them); refuse what cannot be one.
const NAME = /^[^/?#\s]+$/;
const MAX_LOGGED = 80;

/** A client-controlled string cut short and stripped of control characters, so a log line stays one line. */
const printable = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  (s.length > MAX_LOGGED ? `${s.slice(0, MAX_LOGGED)}…` : s).replace(/[\u0000-\u001f\u007f]/g, "?");

/** Starts a mock agent server. Resolves once it listens. */
export async function createMockAgentServer(options: MockAgentServerOptions): Promise<MockAgentServer> {
  const log = options.log ?? ((l: string) => console.warn(l));
  const agents = new Map(Object.entries(options.agents).map(([k, v]) => [kebabAgentName(k), v]));
  const instances = new Map<string, Instance>();
  // 1 MiB is plenty for chat frames and keeps a runaway client from filling memory.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });

  const route = (url: string | undefined): Route => {
    // Not filtered: an empty segment is an empty name (400), not a shorter path.
    const [, root, agent, name, ...rest] = new URL(url ?? "/", "http://x").pathname.split("/");
    if (root !== "agents" || agent === undefined) return { status: 404 };
    const def = agents.get(agent);
    if (!def) return { status: 404 };
    if (name === undefined || !NAME.test(name)) return { status: 400 };
    return { status: 200, agent, name, def, rest };
  };

  const instanceFor = (agent: string, name: string, def: MockAgentDefinition) => {
    const key = `${agent}/${name}`;
    let inst = instances.get(key);
    if (!inst) {
      inst = { def, agent, name, state: def.initialState, sockets: new Set() };
      instances.set(key, inst);
    }
    return inst;
  };

  const http = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path === "/health") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    const r = route(req.url);
    if (r.status === 200 && r.rest.join("/") === "get-messages") {
      // The playground runs on another origin and reads the transcript with fetch.
      res
        .writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" })
        .end("[]");
      return;
    }
    res.writeHead(r.status === 200 ? 404 : r.status).end();
  });

  /** Refuses an upgrade with a plain HTTP response, so clients see the status (ws: `unexpected-response`). */
  const reject = (socket: Duplex, code: 400 | 404) => {
    const text = STATUS_CODES[code] ?? "Error";
    socket.end(
      `HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };

  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node drops its own error listener on upgraded sockets; without one a client reset would crash us.
    socket.on("error", () => socket.destroy());
    const r = route(req.url);
    if (r.status !== 200) return reject(socket, r.status);
    if (r.rest.length > 0) return reject(socket, 404);
    wss.handleUpgrade(req, socket, head, (ws) => connect(ws, instanceFor(r.agent, r.name, r.def)));
  });

  const send = (ws: WebSocket, frame: ServerFrame) => ws.send(JSON.stringify(frame));

  function connect(ws: WebSocket, inst: Instance) {
    inst.sockets.add(ws);
    const hasState = inst.state !== undefined;
    // Order as recorded from the real server: Think pushes the transcript before identity. `stateFollows`
    // is set exactly when a state frame follows (as the agents SDK does), since official clients wait for it.
    if (inst.def.host === "think") send(ws, { type: "cf_agent_chat_messages", messages: [], connect: true });
    send(ws, {
      type: "cf_agent_identity",
      name: inst.name,
      agent: inst.agent,
      ...(hasState ? { stateFollows: true } : {}),
    });
    if (hasState) send(ws, { type: "cf_agent_state", state: inst.state });
    send(ws, { type: "cf_agent_mcp_servers", mcp: { servers: {}, tools: [], prompts: [], resources: [] } });

    ws.on("message", (data, isBinary) => {
      const parsed = parseClientFrame(isBinary ? undefined : data.toString());
      if (parsed.kind !== "frame") {
        // The reason names the frame type and field only, never the payload, so nothing sensitive is logged.
        const why = parsed.kind === "error" ? parsed.reason : `unknown type '${parsed.type}'`;
        log(`mock-server: ${inst.agent}/${inst.name}: ignored frame (${printable(why)})`);
        return;
      }
      handle(ws, inst, parsed.frame);
    });
    ws.on("close", () => inst.sockets.delete(ws));
    // An errored socket closes right after; the listener only keeps the error from being thrown.
    ws.on("error", () => inst.sockets.delete(ws));
  }

  function handle(ws: WebSocket, inst: Instance, f: ClientFrame) {
    switch (f.type) {
      case "cf_agent_state":
        inst.state = f.state;
        // The sender's own update is never echoed back, as on the real server.
        for (const other of inst.sockets)
          if (other !== ws) send(other, { type: "cf_agent_state", state: f.state });
        return;
      case "cf_agent_stream_resume_request":
        // Nothing ever streams yet, so every probe is answered with an authoritative idle.
        send(ws, {
          type: "cf_agent_stream_resume_none",
          reason: "idle",
          ...(f.probeId === undefined ? {} : { probeId: f.probeId }),
        });
        return;
      case "rpc":
        send(ws, { type: "rpc", id: f.id, success: false, error: `Method ${f.method} does not exist` });
        return;
      default:
        // Chat frames are accepted and ignored until the scriptable agent lands.
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  // Later server errors (rare once listening) are reported, not thrown.
  http.on("error", (e) => log(`mock-server: ${e.message}`));
  const { port, address, family } = http.address() as AddressInfo;
  const urlHost = family === "IPv6" ? `[${address}]` : address;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
        // Keep-alive HTTP connections would otherwise hold close() open.
        http.closeAllConnections();
      }),
  };
}
