/**
 * A small raw-WebSocket test client for the mock server: collects every frame a socket receives, waits for
 * frames by predicate (polling, with a timeout), and speaks the chat, resume and RPC frames the way the
 * official client does. Nothing here interprets the protocol beyond picking frames out by type and id.
 */
import { WebSocket } from "ws";
import { createMockAgentServer, type MockAgentServer, type MockAgentServerOptions } from "../src/index.ts";

export type Frame = Record<string, unknown>;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` every 5 ms until it is truthy; throws `what` after `timeoutMs`. */
export async function until<T>(
  cond: () => T | undefined | false,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A running server plus the log lines it wrote. */
export interface TestServer {
  server: MockAgentServer;
  logs: string[];
  /** Opens a socket on `path` (e.g. `/agents/chat-agent/room`). */
  open(path: string): Promise<TestClient>;
  /** `GET <path>/get-messages` as parsed JSON. */
  messages(path: string): Promise<StoredMessage[]>;
  /** The HTTP status an upgrade on `path` is refused with. */
  refusedWith(path: string): Promise<number | undefined>;
  close(): Promise<void>;
}

export interface StoredMessage {
  id: string;
  role: string;
  parts: Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}

export async function startServer(options: Omit<MockAgentServerOptions, "log">): Promise<TestServer> {
  const logs: string[] = [];
  const server = await createMockAgentServer({ ...options, log: (l) => logs.push(l) });
  const ws = server.url.replace(/^http/, "ws");
  return {
    server,
    logs,
    open: (path) => TestClient.open(`${ws}${path}`),
    messages: async (path) => {
      const res = await fetch(`${server.url}${path}/get-messages`);
      if (res.status !== 200) throw new Error(`get-messages ${path}: HTTP ${res.status}`);
      return (await res.json()) as StoredMessage[];
    },
    refusedWith: (path) =>
      new Promise((resolve, reject) => {
        const s = new WebSocket(`${ws}${path}`);
        s.on("unexpected-response", (_req, res) => {
          resolve(res.statusCode);
          res.resume();
        });
        s.on("open", () => {
          s.close();
          reject(new Error(`${path} was accepted`));
        });
        s.on("error", () => {});
      }),
    close: () => server.close(),
  };
}

let rooms = 0;
/** A room name no other test uses. */
export const room = (prefix: string) => `${prefix}-${++rooms}-${Math.random().toString(36).slice(2, 7)}`;

/** A user message as the AI SDK sends it. */
export const userMessage = (id: string, text: string) => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

const isResponse = (f: Frame, id: string) => f.type === "cf_agent_use_chat_response" && f.id === id;

export class TestClient {
  readonly frames: Frame[] = [];
  /** Text frames that were not JSON (never expected from the server). */
  readonly garbage: string[] = [];
  closeCode?: number;
  private rpcN = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data, binary) => {
      if (binary) {
        this.garbage.push("<binary>");
        return;
      }
      const text = data.toString();
      try {
        this.frames.push(JSON.parse(text) as Frame);
      } catch {
        this.garbage.push(text);
      }
    });
    ws.on("close", (code) => {
      this.closeCode = code;
    });
    ws.on("error", () => {});
  }

  static async open(url: string): Promise<TestClient> {
    const ws = new WebSocket(url);
    const c = new TestClient(ws);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("unexpected-response", (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return c;
  }

  send(frame: unknown) {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer) {
    this.ws.send(data);
  }

  /** The first frame (from index `from` on) matching `pred`. */
  async waitFor(
    pred: (f: Frame) => boolean,
    opts: { timeoutMs?: number; from?: number } = {},
  ): Promise<Frame> {
    const from = opts.from ?? 0;
    return until(() => this.frames.slice(from).find(pred), "a matching frame", opts.timeoutMs);
  }

  /** Index of the first frame matching `pred`, or -1. */
  indexOf(pred: (f: Frame) => boolean): number {
    return this.frames.findIndex(pred);
  }

  ofType(type: string): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  waitForClose(timeoutMs = 5000): Promise<number> {
    return until(() => this.closeCode, "the socket to close", timeoutMs);
  }

  /** Waits until no frame arrived for `ms`. */
  async quiet(ms = 60) {
    let n = -1;
    while (n !== this.frames.length) {
      n = this.frames.length;
      await sleep(ms);
    }
  }

  // ─── chat ───

  /** Sends a chat request; `messages` defaults to one user message `u-<id>` with `text`. */
  ask(
    id: string,
    text: string,
    opts: { messages?: unknown[]; trigger?: string; extra?: Record<string, unknown> } = {},
  ) {
    this.send({
      type: "cf_agent_use_chat_request",
      id,
      init: {
        method: "POST",
        body: JSON.stringify({
          messages: opts.messages ?? [userMessage(`u-${id}`, text)],
          trigger: opts.trigger ?? "submit-message",
          ...opts.extra,
        }),
      },
    });
  }

  /** Every `cf_agent_use_chat_response` frame of stream `id`. */
  responses(id: string): Frame[] {
    return this.frames.filter((f) => isResponse(f, id));
  }

  /** The parsed chunk bodies of stream `id` (skipping control, terminal and error frames). */
  chunks(id: string): Frame[] {
    return this.responses(id)
      .filter((f) => f.error !== true && typeof f.body === "string" && f.body !== "")
      .map((f) => JSON.parse(f.body as string) as Frame);
  }

  /** Concatenated text deltas of stream `id`. */
  text(id: string): string {
    return this.chunks(id)
      .filter((c) => c.type === "text-delta")
      .map((c) => c.delta)
      .join("");
  }

  /** Waits for the terminal (`done:true`) frame of stream `id`. */
  done(id: string, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => isResponse(f, id) && f.done === true, timeoutMs ? { timeoutMs } : {});
  }

  /** Waits for a chunk of stream `id` whose parsed body matches. */
  chunk(id: string, pred: (c: Frame) => boolean, timeoutMs?: number): Promise<Frame> {
    return until(() => this.chunks(id).find(pred), `a chunk of ${id}`, timeoutMs);
  }

  probe(probeId: string) {
    this.send({ type: "cf_agent_stream_resume_request", probeId });
  }

  ack(id: string) {
    this.send({ type: "cf_agent_stream_resume_ack", id });
  }

  // ─── rpc ───

  /** Calls a method; resolves with the final frame (done:true or success:false). */
  async rpc(method: string, ...args: unknown[]): Promise<Frame> {
    const id = this.rpcSend(method, ...args);
    return this.waitFor((f) => f.type === "rpc" && f.id === id && f.done !== false);
  }

  /** Sends an RPC and returns its id without waiting. */
  rpcSend(method: string, ...args: unknown[]): string {
    const id = `rpc-${++this.rpcN}`;
    this.send({ type: "rpc", id, method, args });
    return id;
  }

  async close() {
    if (this.closeCode !== undefined) return;
    this.ws.close();
    await this.waitForClose();
  }
}

/** Parses a stream frame's body. */
export const bodyOf = (f: Frame) => JSON.parse(f.body as string) as Frame;
