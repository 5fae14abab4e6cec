/**
 * Fidelity: for every recorded real-server transcript, drive the mock with the same client frames at the same
 * moments and compare what it sends with what the real server sent, after normalising ids and timestamps.
 *
 * Frames are compared per connection and per channel: each chat stream's chunks (by request id), each child
 * run's events (by run id), and everything else in order (connect frames, snapshots, offers, terminals).
 * Streams run concurrently on a server, so only the order inside a channel is meaningful. Differences that
 * remain are listed in KNOWN_DIFFERENCES with the reason each is acceptable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { loadTranscript, Normalizer, type Rec } from "../../test-support/normalize.ts";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../src/index.ts";

type Frame = Record<string, unknown>;

let server: MockAgentServer;
const logs: string[] = [];
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, log: (l) => logs.push(l) });
});
afterAll(() => server.close());

interface Conn {
  ws: WebSocket;
  frames: Frame[];
  closed: boolean;
  /**
   * For a socket the client dropped: how many frames the recorded client had when it dropped it. Frames
   * already on the wire when the test drops its socket depend on timing, so they are not compared.
   */
  cut?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!cond() && Date.now() < end) await sleep(5);
}

/** Replays the client side of a transcript against the mock; returns the frames each connection received. */
async function drive(recs: Rec[], room: string) {
  const recNorm = new Normalizer();
  const mockNorm = new Normalizer();
  const conns = new Map<string, Conn>();
  const recIn = new Map<string, Frame[]>();
  const start = Date.now();
  for (const r of recs) {
    if (r.dir === "event" && r.event === "scenario-start")
      recNorm.token((r as { room?: string }).room ?? "", "room");
    if (r.dir === "in" && r.raw) {
      const list = recIn.get(r.conn) ?? [];
      list.push(JSON.parse(r.raw));
      recIn.set(r.conn, list);
    }
  }
  mockNorm.assign(room, "<room1>");
  const seenIn = new Map<string, number>();
  for (const r of recs) {
    if (r.dir === "in") {
      seenIn.set(r.conn, (seenIn.get(r.conn) ?? 0) + 1);
      continue;
    }
    await until(() => Date.now() - start >= r.t, 30_000);
    const conn = conns.get(r.conn);
    // Act once the mock has sent this connection as many frames as the real server had at this point.
    if (conn) await until(() => conn.frames.length >= (seenIn.get(r.conn) ?? 0), 5_000);
    if (r.dir === "event" && r.event === "connecting") {
      const ws = new WebSocket(
        `${server.url.replace(/^http/, "ws")}/agents/${new URL(r.url ?? "").pathname.split("/")[2]}/${room}`,
      );
      const c: Conn = { ws, frames: [], closed: false };
      ws.on("message", (d) => c.frames.push(JSON.parse(d.toString())));
      ws.on("close", () => {
        c.closed = true;
      });
      conns.set(r.conn, c);
      await new Promise((res, rej) => {
        ws.once("open", res);
        ws.once("error", rej);
      });
    } else if (r.dir === "event" && r.event?.startsWith("terminate") && conn) {
      conn.ws.terminate();
      conn.cut = seenIn.get(r.conn) ?? 0;
    } else if (r.dir === "out" && r.raw && conn) {
      conn.ws.send(JSON.stringify(translate(JSON.parse(r.raw), recNorm, mockNorm, conns, r.conn)));
    }
  }
  // Let every connection receive what the real server sent it, then a little longer for anything extra.
  for (const [name, c] of conns)
    await until(() => c.frames.length >= (recIn.get(name)?.length ?? 0) || c.closed, 10_000);
  await sleep(300);
  for (const c of conns.values()) c.ws.close();
  return { conns, recIn, recNorm, mockNorm };
}

/**
 * A recorded client frame with the real server's ids swapped for the mock's: recorded id → placeholder (the
 * recording's normaliser, learnt from everything the recorded client had seen) → mock id (the mock's
 * normaliser, learnt from what the mock actually sent). Ids the client minted itself are kept as they are.
 */
function translate(
  frame: Frame,
  recNorm: Normalizer,
  mockNorm: Normalizer,
  conns: Map<string, Conn>,
  _conn: string,
) {
  for (const c of conns.values()) for (const f of c.frames) mockNorm.learn(f);
  recNorm.learn(frame);
  const swap = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (v.startsWith("{")) {
        try {
          return JSON.stringify(swap(JSON.parse(v)));
        } catch {}
      }
      const placeholder = recNorm.replace(v);
      if (placeholder === v) return v;
      return placeholder.replace(/<[a-z]+\d+>/g, (p) => {
        const mine = mockNorm.reverse(p);
        if (mine !== undefined) return mine;
        const original = recNorm.reverse(p) ?? p;
        mockNorm.assign(original, p);
        return original;
      });
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  return swap(frame) as Frame;
}

/** Splits one connection's frames into comparable channels. */
function channels(frames: Frame[], norm: Normalizer) {
  const out: Record<string, unknown[]> = { control: [] };
  const push = (key: string, f: unknown) => {
    const list = out[key] ?? [];
    list.push(f);
    out[key] = list;
  };
  for (const f of frames) norm.learn(f);
  for (const raw of frames) {
    const f = norm.apply(raw) as Frame;
    if (f.type === "cf_agent_use_chat_response" && f.done !== true) {
      // Where replay ends and live frames begin depends on timing; the stream's content and order do not.
      if (f.replayComplete === true) continue;
      const { replay: _r, ...rest } = f;
      push(`stream ${String(f.id)}`, rest);
    } else if (f.type === "agent-tool-event") {
      const ev = f.event as Frame;
      push(`run ${String(ev.runId)}`, f);
    } else {
      push("control", f);
    }
  }
  return out;
}

/** Replay frames of a stream form one prefix from seq 0, closed by one `replayComplete` or a `done`. */
function replayShapeOk(frames: Frame[]): boolean {
  const byId = new Map<string, Frame[]>();
  for (const f of frames)
    if (f.type === "cf_agent_use_chat_response")
      byId.set(String(f.id), [...(byId.get(String(f.id)) ?? []), f]);
  for (const list of byId.values()) {
    const firstReplay = list.findIndex((f) => f.replay === true);
    if (firstReplay < 0) continue;
    let seq = 0;
    for (const f of list.slice(firstReplay)) {
      if (f.replayComplete === true || f.done === true) break;
      if (f.replay !== true || f.seq !== seq++) return false;
    }
  }
  return true;
}

/**
 * Differences between the mock and the real server that remain, each with why it is acceptable. Each entry
 * rewrites both sides the same way, so everything else is still compared exactly.
 */
const KNOWN_DIFFERENCES: Array<{
  why: string;
  scenarios: string[];
  fix: (c: Record<string, unknown[]>) => void;
}> = [];

const SCENARIOS: Array<["ai-chat" | "think", string]> = [
  ["ai-chat", "connect"],
  ["ai-chat", "hello"],
  ["ai-chat", "observer"],
  ["ai-chat", "weather"],
  ["ai-chat", "pay"],
  ["ai-chat", "locate"],
  ["ai-chat", "research"],
  ["ai-chat", "background"],
  ["ai-chat", "reconnect"],
  ["ai-chat", "clear"],
  ["ai-chat", "rpc"],
  ["think", "connect"],
  ["think", "hello"],
  ["think", "pay"],
  ["think", "research"],
];

describe.concurrent("mock server matches the recorded real server", () => {
  for (const [host, scenario] of SCENARIOS) {
    it(`${host}/${scenario}`, { timeout: 40_000 }, async () => {
      const recs = loadTranscript(host, scenario);
      const room = `fid-${host}-${scenario}-${Math.random().toString(36).slice(2, 8)}`;
      const { conns, recIn, recNorm, mockNorm } = await drive(recs, room);
      for (const [name, c] of conns) {
        const real = channels(recIn.get(name) ?? [], recNorm);
        const mock = channels(c.frames.slice(0, c.cut), mockNorm);
        for (const d of KNOWN_DIFFERENCES) {
          if (!d.scenarios.includes(`${host}/${scenario}`)) continue;
          d.fix(real);
          d.fix(mock);
        }
        expect(replayShapeOk(c.frames), `${name}: replay prefix`).toBe(true);
        expect(mock, `${host}/${scenario} connection ${name}`).toEqual(real);
      }
    });
  }
});
