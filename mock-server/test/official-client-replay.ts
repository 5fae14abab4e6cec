/**
 * A stand-in for the REAL server built from its recorded transcript: it answers a client's frames with the
 * frames the real server sent the recording client at the same point, at the recorded pace, with the
 * client-minted ids (request ids, user message ids, probe ids, room) swapped for the ones this client used.
 *
 * The official client sends a few frames the recording client did not: `cf_agent_stream_resume_request`
 * probes on every (re)connect and right after a tool result or approval. Those are answered by the rules
 * of the real server's ResumeHandshake (agents 0.32 `handleResumeRequest`): idle → `resume_none idle`,
 * continuation scheduled but not streaming yet → `stream_pending {id, probeId}` (the connection is already
 * in the continuation's awaiting set, so the recorded `stream_resuming` still follows once). Any other frame
 * the recording has no answer for is reported in `unexpected`, so a test knows the replay was faithful.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { loadTranscript, type Rec } from "../../test-support/normalize.ts";

type Frame = Record<string, unknown>;

interface Step {
  /** The recorded client frame this step answers (none for the frames sent on open). */
  trigger?: Frame;
  t: number;
  frames: Array<{ raw: string; t: number }>;
  used: boolean;
}

export interface ReplayOptions {
  /** Multiplies the recorded gaps between frames. Default 1. */
  speed?: number;
  /**
   * Frames recorded in the same millisecond go out in one tick, as one burst; frames recorded apart are
   * sent at least this many ms apart, so they reach the client in separate reads even when the test
   * process is busy (on the real network a 1–3 ms gap already means separate reads). Default 15.
   */
  minGapMs?: number;
  /** Replays these records instead of the stored transcript. */
  recs?: Rec[];
  /**
   * How to send the tail of the last turn (everything after its last text delta: text-end, finish-step,
   * finish, the end snapshot, done). Default: at the recorded pace. `burst`: all in the same tick as that
   * delta, the way the mock server sends it. `spread`: each in its own tick, the way the live real server
   * usually delivers it (the end snapshot about 1 ms after `finish`).
   */
  tail?: "burst" | "spread";
}

export interface ReplayServer {
  port: number;
  /** Client frames the replay could not answer from the recording or the documented rules. */
  unexpected: string[];
  /** Probes answered by rule instead of from the recording (kind and frame), for inspection. */
  synthesized: string[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The recorded connections of a scenario in the order they were opened, each cut into steps. */
function script(recs: Rec[]): Step[][] {
  const order: string[] = [];
  const steps = new Map<string, Step[]>();
  for (const r of recs) {
    if (r.conn === "-") continue;
    if (r.dir === "event" && r.event === "connecting") {
      order.push(r.conn);
      steps.set(r.conn, []);
      continue;
    }
    const list = steps.get(r.conn);
    if (!list) continue;
    if (r.dir === "event" && r.event === "open") list.push({ t: r.t, frames: [], used: true });
    else if (r.dir === "out" && r.raw)
      list.push({ trigger: JSON.parse(r.raw), t: r.t, frames: [], used: false });
    else if (r.dir === "in" && r.raw) list.at(-1)?.frames.push({ raw: r.raw, t: r.t });
  }
  return order.map((c) => steps.get(c) ?? []);
}

const isTextDelta = (raw: string) => {
  const f = JSON.parse(raw) as Frame;
  return (
    f.type === "cf_agent_use_chat_response" && typeof f.body === "string" && f.body.includes('"text-delta"')
  );
};

function reshapeTail(conns: Step[][], how: "burst" | "spread") {
  const steps = conns.at(-1) ?? [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const frames = (steps[i] as Step).frames;
    let last = frames.length - 1;
    while (last >= 0 && !isTextDelta((frames[last] as { raw: string }).raw)) last--;
    if (last < 0) continue;
    let t = (frames[last] as { t: number }).t;
    for (const f of frames.slice(last + 1)) {
      t = how === "burst" ? t : Math.max(f.t, t + 1);
      f.t = t;
    }
    return;
  }
}

export async function startReplayServer(
  host: "ai-chat" | "think",
  scenario: string,
  opts: ReplayOptions = {},
): Promise<ReplayServer> {
  const speed = opts.speed ?? 1;
  const minGap = opts.minGapMs ?? 15;
  const recs = opts.recs ?? loadTranscript(host, scenario);
  const recordedRoom = String((recs[0] as { room?: string }).room ?? "");
  const conns = script(recs);
  if (opts.tail) reshapeTail(conns, opts.tail);
  const unexpected: string[] = [];
  const synthesized: string[] = [];
  let next = 0;

  const http = createServer((req, res) => {
    if (req.method === "GET" && req.url?.split("?")[0]?.endsWith("/get-messages")) {
      // A fresh room: the real server answers with an empty JSON array.
      res.writeHead(200, { "content-type": "application/json" });
      res.end("[]");
      return;
    }
    res.writeHead(404);
    res.end();
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on("upgrade", (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req));
  });

  function serve(ws: WebSocket, req: IncomingMessage) {
    const steps = conns[next++];
    if (!steps) {
      unexpected.push(`connection #${next} was never recorded`);
      ws.close(1011);
      return;
    }
    const room = new URL(req.url ?? "/", "http://x").pathname.split("/")[3] ?? "";
    // Recorded token → this client's token.
    const ids = new Map<string, string>([[recordedRoom, room]]);
    const swap = (raw: string) => {
      let out = raw;
      for (const [from, to] of ids) if (from && out.includes(from)) out = out.split(from).join(to);
      return out;
    };
    const active = new Set<string>();
    let pendingContinuation: string | undefined;
    let chain: Promise<void> = Promise.resolve();

    const send = (raw: string) => {
      if (ws.readyState !== ws.OPEN) return;
      const f = JSON.parse(raw) as Frame;
      if (f.type === "cf_agent_stream_resuming") {
        if (f.id === pendingContinuation) pendingContinuation = undefined;
        active.add(String(f.id));
      }
      if (f.type === "cf_agent_use_chat_response") {
        if (f.done === true) active.delete(String(f.id));
        else active.add(String(f.id));
      }
      ws.send(raw);
    };
    const play = (step: Step) => {
      step.used = true;
      let at = step.t;
      // Frames recorded in the same millisecond go out in the same tick, as one burst (they reach the client
      // in one read and are dispatched before React renders); later ones after the recorded gap.
      for (const frame of step.frames) {
        const gap = frame.t > at ? Math.max(minGap, (frame.t - at) * speed) : 0;
        at = frame.t;
        chain =
          gap > 0
            ? chain.then(() => sleep(gap)).then(() => send(swap(frame.raw)))
            : chain.then(() => send(swap(frame.raw)));
      }
    };

    play(steps[0] as Step);
    ws.on("message", (data) => {
      const raw = String(data);
      const f = JSON.parse(raw) as Frame;
      const step = steps.find((s) => !s.used && s.trigger?.type === f.type);
      if (step?.trigger) {
        learn(step.trigger, f, ids, unexpected);
        if ((f.type === "cf_agent_tool_approval" || f.type === "cf_agent_tool_result") && f.autoContinue) {
          const resuming = step.frames
            .map((x) => JSON.parse(x.raw) as Frame)
            .find((x) => x.type === "cf_agent_stream_resuming");
          pendingContinuation = resuming ? String(resuming.id) : undefined;
        }
        play(step);
        return;
      }
      if (f.type === "cf_agent_stream_resume_request") {
        const probeId = f.probeId;
        let answer: Frame;
        if (active.size > 0) {
          // Not needed by the scenarios replayed here: the real server would replay its buffer on the ACK,
          // which the recording does not hold.
          unexpected.push(`probe during an active stream: ${raw}`);
          return;
        }
        if (pendingContinuation)
          answer = {
            type: "cf_agent_stream_pending",
            id: pendingContinuation,
            ...(probeId ? { probeId } : {}),
          };
        else
          answer = { type: "cf_agent_stream_resume_none", reason: "idle", ...(probeId ? { probeId } : {}) };
        synthesized.push(JSON.stringify(answer));
        send(JSON.stringify(answer));
        return;
      }
      unexpected.push(`no recorded answer for ${raw}`);
    });
  }

  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  return {
    port: (http.address() as AddressInfo).port,
    unexpected,
    synthesized,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/** Learns the ids this client minted where the recording client minted its own, and checks the rest. */
function learn(recorded: Frame, actual: Frame, ids: Map<string, string>, unexpected: string[]) {
  const pair = (a: unknown, b: unknown) => {
    if (typeof a === "string" && typeof b === "string" && a !== b) ids.set(a, b);
  };
  if (recorded.type === "cf_agent_use_chat_request") {
    pair(recorded.id, actual.id);
    const body = (f: Frame) =>
      JSON.parse(String((f.init as { body?: string } | undefined)?.body ?? "{}")) as {
        messages?: Array<{ id: string }>;
      };
    const rec = body(recorded).messages ?? [];
    const got = body(actual).messages ?? [];
    if (rec.length !== got.length)
      unexpected.push(`request with ${got.length} messages, recorded ${rec.length}`);
    for (const [i, m] of rec.entries()) pair(m.id, got[i]?.id);
    return;
  }
  if (recorded.type === "cf_agent_stream_resume_request") {
    pair(recorded.probeId, actual.probeId);
    return;
  }
  // Everything else carries only server-minted ids, which the client must echo unchanged.
  for (const key of ["id", "toolCallId", "approved", "output"] as const) {
    const want = ids.get(String(recorded[key])) ?? recorded[key];
    if (JSON.stringify(want) !== JSON.stringify(actual[key]))
      unexpected.push(
        `${String(actual.type)}.${key}: sent ${JSON.stringify(actual[key])}, recorded ${JSON.stringify(want)}`,
      );
  }
}
