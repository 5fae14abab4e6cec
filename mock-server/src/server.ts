/**
 * A minimal agent server that speaks the real connect handshake, state sync, resume probe and RPC errors.
 * Scripted agents (chat turns, tools, sub-agent runs) arrive with the mock-server issue; this is the base.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type ClientFrame, kebabAgentName, parseClientFrame, type ServerFrame } from "@runboard/protocol";
import { type WebSocket, WebSocketServer } from "ws";

/** How one agent class behaves: which host implementation it imitates. */
export interface MockAgentDefinition {
  host: "ai-chat" | "think";
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
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Instance {
  def: MockAgentDefinition;
  agent: string;
  name: string;
  state: unknown;
  sockets: Set<WebSocket>;
}

const NAME = /^[^/?#\s]+$/;

/** Starts a mock agent server. */
export async function createMockAgentServer(options: MockAgentServerOptions): Promise<MockAgentServer> {
  const log = options.log ?? ((l: string) => console.warn(l));
  const agents = new Map(Object.entries(options.agents).map(([k, v]) => [kebabAgentName(k), v]));
  const instances = new Map<string, Instance>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20 });

  const route = (url: string | undefined) => {
    const path = new URL(url ?? "/", "http://x").pathname.split("/").filter(Boolean);
    if (path[0] !== "agents" || path.length < 3) return { status: 404 as const };
    const agent = path[1] as string;
    const name = path[2] as string;
    const def = agents.get(agent);
    if (!def) return { status: 404 as const };
    if (!NAME.test(name)) return { status: 400 as const };
    return { status: 200 as const, agent, name, def, rest: path.slice(3) };
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
    if (req.url === "/health") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    const r = route(req.url);
    if (r.status === 200 && r.rest.join("/") === "get-messages") {
      res
        .writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" })
        .end("[]");
      return;
    }
    res.writeHead(r.status === 200 ? 404 : r.status).end();
  });

  http.on("upgrade", (req: IncomingMessage, socket, head) => {
    const r = route(req.url);
    if (r.status !== 200 || r.rest.length > 0) {
      const code = r.status === 200 ? 404 : r.status;
      socket.end(`HTTP/1.1 ${code} ${code === 400 ? "Bad Request" : "Not Found"}\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => connect(ws, instanceFor(r.agent, r.name, r.def)));
  });

  const send = (ws: WebSocket, frame: ServerFrame) => ws.send(JSON.stringify(frame));

  function connect(ws: WebSocket, inst: Instance) {
    inst.sockets.add(ws);
    // Frame order as recorded from the real server: Think pushes the transcript before identity.
    if (inst.def.host === "think") {
      send(ws, { type: "cf_agent_chat_messages", messages: [], connect: true });
      send(ws, { type: "cf_agent_identity", name: inst.name, agent: inst.agent });
    } else {
      send(ws, { type: "cf_agent_identity", name: inst.name, agent: inst.agent, stateFollows: true });
    }
    if (inst.state !== undefined) send(ws, { type: "cf_agent_state", state: inst.state });
    send(ws, { type: "cf_agent_mcp_servers", mcp: { servers: {}, tools: [], prompts: [], resources: [] } });
    ws.on("message", (data, isBinary) => {
      const parsed = parseClientFrame(isBinary ? undefined : data.toString());
      if (parsed.kind !== "frame") {
        log(
          `mock-server: ${inst.agent}/${inst.name}: ignored frame (${parsed.kind === "error" ? parsed.reason : parsed.type})`,
        );
        return;
      }
      handle(ws, inst, parsed.frame);
    });
    ws.on("close", () => inst.sockets.delete(ws));
    ws.on("error", () => inst.sockets.delete(ws));
  }

  function handle(ws: WebSocket, inst: Instance, f: ClientFrame) {
    switch (f.type) {
      case "cf_agent_state":
        inst.state = f.state;
        // The sender's own update is never echoed back.
        for (const other of inst.sockets)
          if (other !== ws) send(other, { type: "cf_agent_state", state: f.state });
        return;
      case "cf_agent_stream_resume_request":
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
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address } = http.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        http.close(() => resolve());
      }),
  };
}
