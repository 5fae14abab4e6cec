/**
 * Connection doubles for the approval stores' tests: a scripted agent whose callables answer from a table and
 * which records every frame and call, and a replay of a recorded real-server transcript that answers what the
 * client sends with the frames the real server sent next.
 */
import type { TranscriptLine } from "./transcripts.ts";

type Listener = (e: Event) => void;

/** A scripted agent connection: `status`, events, `send`, `call`, and what went out. */
export interface ScriptedAgent {
  status: "connecting" | "open" | "closed";
  readyState: number;
  state?: unknown;
  /** Every frame `send` got, parsed. */
  readonly sent: Array<Record<string, unknown>>;
  /** Every callable call, `[method, args]`. */
  readonly calls: Array<[string, unknown[]]>;
  send(data: string): void;
  call(method: string, args?: unknown[]): Promise<unknown>;
  addEventListener(type: string, fn: Listener): void;
  removeEventListener(type: string, fn: Listener): void;
  /** How many listeners of `type` are attached. */
  listenerCount(type: string): number;
  /** Delivers a frame from the server (a new event object, as a socket gives every listener). */
  receive(frame: unknown): void;
  /** Opens or closes the connection, firing the event. */
  setStatus(status: "open" | "closed"): void;
  /** Called with each frame the client sends (after it is recorded). */
  onSend?: (frame: Record<string, unknown>) => void;
}

/** A connection whose callables answer from `handlers`; a missing one throws as a real agent would. */
export function scriptedAgent(
  handlers: Record<string, (...args: unknown[]) => unknown> = {},
  status: "connecting" | "open" | "closed" = "open",
): ScriptedAgent {
  const listeners = new Map<string, Set<Listener>>();
  const fire = (type: string, event: Event) => {
    for (const fn of [...(listeners.get(type) ?? [])]) fn(event);
  };
  const agent: ScriptedAgent = {
    status,
    readyState: status === "open" ? 1 : 0,
    sent: [],
    calls: [],
    send(data) {
      const frame = JSON.parse(data) as Record<string, unknown>;
      agent.sent.push(frame);
      agent.onSend?.(frame);
    },
    async call(method, args = []) {
      agent.calls.push([method, args]);
      const h = handlers[method];
      if (!h) throw new Error(`Method ${method} does not exist`);
      return h(...args);
    },
    addEventListener(type, fn) {
      const set = listeners.get(type) ?? new Set();
      set.add(fn);
      listeners.set(type, set);
    },
    removeEventListener(type, fn) {
      listeners.get(type)?.delete(fn);
    },
    listenerCount: (type) => listeners.get(type)?.size ?? 0,
    receive(frame) {
      const data = typeof frame === "string" ? frame : JSON.stringify(frame);
      fire("message", Object.assign(new Event("message"), { data }));
    },
    setStatus(next) {
      agent.status = next;
      agent.readyState = next === "open" ? 1 : 3;
      fire(next === "open" ? "open" : "close", new Event(next));
    },
  };
  return agent;
}

/**
 * Plays a recorded transcript's connection `conn` against a client on `agent`: the frames the server sent
 * before the client's first frame at once, then, each time the client sends a frame of the type the recorded
 * client sent next, what the server answered it with. A chat request's recorded id is replaced with the id
 * the client chose. A resume probe the recording does not have is answered with `cf_agent_stream_resume_none`.
 * Returns a promise for the moment the whole recording has been played.
 */
export function replayTranscript(
  agent: ScriptedAgent,
  lines: TranscriptLine[],
  conn = "main",
): Promise<void> {
  const mine = lines.filter((l) => l.conn === conn && (l.dir === "in" || l.dir === "out") && l.raw);
  const ids = new Map<string, string>();
  let next = 0;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const playUntilOut = () => {
    const batch: string[] = [];
    while (next < mine.length && mine[next]?.dir === "in") batch.push(mine[next++]?.raw as string);
    // As a socket delivers: after the send that caused it returned.
    setTimeout(() => {
      for (const raw of batch) {
        const frame = JSON.parse(raw) as Record<string, unknown>;
        const id = typeof frame.id === "string" ? ids.get(frame.id) : undefined;
        agent.receive(id ? { ...frame, id } : frame);
      }
      if (next >= mine.length) finish();
    }, 0);
  };
  agent.onSend = (frame) => {
    const expected = mine[next];
    const recorded = expected ? (JSON.parse(expected.raw as string) as Record<string, unknown>) : undefined;
    if (recorded && recorded.type === frame.type) {
      if (typeof recorded.id === "string" && typeof frame.id === "string") ids.set(recorded.id, frame.id);
      next++;
      playUntilOut();
    } else if (frame.type === "cf_agent_stream_resume_request")
      setTimeout(() => agent.receive({ type: "cf_agent_stream_resume_none" }), 0);
  };
  playUntilOut();
  return done;
}
