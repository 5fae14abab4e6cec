/**
 * The test controller, shared by both transports: every frame the hub delivers passes through it, so a test
 * can hold, wait for, duplicate, delay or drop frames whichever transport carries them.
 */
import { kebabAgentName } from "@runboard/protocol";
import type { MockConnection } from "./connection.ts";
import type { AgentInstance } from "./instance.ts";

/** One frame the server sent, as tests see it. */
export interface SentFrame {
  agent: string;
  name: string;
  connection: string;
  frame: Record<string, unknown>;
}

/** Frames the controller keeps in `sent` (the newest); older ones are dropped in halves. */
const MAX_SENT_LOG = 20_000;

/** What the controller reaches on its hub. */
export interface ControlledHub {
  find(agent: string, name: string): AgentInstance | undefined;
  /** Forgets a socket the controller is about to drop. */
  dropConnection(conn: MockConnection): void;
}

interface Waiter {
  match: (f: SentFrame) => boolean;
  resolve: (f: SentFrame) => void;
}

interface DropRule {
  after: number;
  filter: (agent: string, name: string) => boolean;
  counts: Map<MockConnection, number>;
}

/**
 * Test control over what the server sends: hold frames and release them one by one, wait for a frame, and
 * inject faults (drop a socket after N frames, duplicate or delay frames, restart an agent).
 */
export class MockController {
  private holding = false;
  private readonly held: Array<() => SentFrame> = [];
  private readonly waiters = new Set<Waiter>();
  private readonly drops: DropRule[] = [];
  private readonly duplicates: Array<(f: SentFrame) => boolean> = [];
  private readonly delays: Array<{ match: (f: SentFrame) => boolean; ms: number }> = [];
  private readonly gates: Array<{ match: (f: SentFrame) => boolean; queue: Array<() => SentFrame> }> = [];
  /** Frames sent since the server started (or `clearLog`), in order; the newest 10,000–20,000 are kept. */
  readonly sent: SentFrame[] = [];

  constructor(private readonly hub: ControlledHub) {}

  /** Frames queue up instead of being sent until `next()` or `release()`. */
  hold() {
    this.holding = true;
  }

  /** Sends the next `n` held frames; returns them. */
  next(n = 1): SentFrame[] {
    const out: SentFrame[] = [];
    for (
      let send = this.held.shift();
      send && out.length < n;
      send = out.length < n ? this.held.shift() : undefined
    )
      out.push(send());
    return out;
  }

  /** Sends everything held and stops holding. */
  release() {
    this.holding = false;
    this.next(Number.POSITIVE_INFINITY);
  }

  /** Number of frames waiting while held. */
  get heldCount() {
    return this.held.length;
  }

  /** Resolves with the first frame sent from now on that matches (a frame `type` or a predicate). */
  waitForFrame(
    match: string | ((f: SentFrame) => boolean) = () => true,
    timeoutMs = 60_000,
  ): Promise<SentFrame> {
    const pred = typeof match === "string" ? (f: SentFrame) => f.frame.type === match : match;
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        match: pred,
        resolve: (f) => {
          clearTimeout(timer);
          this.waiters.delete(w);
          resolve(f);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(`mock-server: no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  /** Terminates a socket (client sees 1006) once `frames` more frames were sent to it. */
  dropSocketAfter(frames: number, where: { agent?: string; name?: string } = {}) {
    this.drops.push({
      after: frames,
      counts: new Map(),
      filter: (a, n) =>
        (where.agent === undefined || kebabAgentName(where.agent) === a) &&
        (where.name === undefined || where.name === n),
    });
  }

  /** Sends matching frames twice. */
  duplicate(match: (f: SentFrame) => boolean) {
    this.duplicates.push(match);
  }

  /** Sends matching frames `ms` later (later frames may overtake them). */
  delay(match: (f: SentFrame) => boolean, ms: number) {
    this.delays.push({ match, ms });
  }

  /**
   * Holds back matching frames (others go on) until the returned function is called, which sends them in
   * order and lets later ones through. Unlike `delay`, what a test sees in between does not depend on speed.
   */
  gate(match: (f: SentFrame) => boolean): () => void {
    const gate = { match, queue: [] as Array<() => SentFrame> };
    this.gates.push(gate);
    return () => {
      const at = this.gates.indexOf(gate);
      if (at >= 0) this.gates.splice(at, 1);
      for (const send of gate.queue.splice(0)) send();
    };
  }

  clearFaults() {
    this.drops.length = 0;
    this.duplicates.length = 0;
    this.delays.length = 0;
    for (const gate of this.gates.splice(0)) for (const send of gate.queue.splice(0)) send();
  }

  clearLog() {
    this.sent.length = 0;
  }

  /**
   * Evicts an agent instance: sockets close (1012), turns stop; the persisted transcript and state stay. A
   * stream cut mid-way is orphaned (the next ACK ends it), or with `recover` finished by a recovery
   * continuation announced with `cf_agent_chat_recovering`; with `recover: "give-up"` the recovery fails with
   * the host's terminal message (an error frame to everyone, then `recovering:false`).
   */
  restart(agent: string, name: string, options: { recover?: boolean | "give-up" } = {}): boolean {
    const inst = this.hub.find(agent, name);
    inst?.restart(options);
    return inst !== undefined;
  }

  /** The live instance, for assertions on its transcript or state. */
  instance(agent: string, name: string) {
    return this.hub.find(agent, name);
  }

  /** @internal */
  deliver(conn: MockConnection, info: SentFrame, text: string) {
    const send = () => {
      this.sent.push(info);
      // Bounded, so a long-running server does not keep every frame it ever sent.
      if (this.sent.length > MAX_SENT_LOG) this.sent.splice(0, this.sent.length - MAX_SENT_LOG / 2);
      for (const w of [...this.waiters]) if (w.match(info)) w.resolve(info);
      conn.send(text);
      for (const d of this.drops) {
        if (!d.filter(info.agent, info.name)) continue;
        const n = (d.counts.get(conn) ?? 0) + 1;
        d.counts.set(conn, n);
        if (n === d.after) {
          this.hub.dropConnection(conn);
          conn.terminate();
        }
      }
      return info;
    };
    const delay = this.delays.find((d) => d.match(info));
    const gate = this.gates.find((g) => g.match(info));
    const times = this.duplicates.some((m) => m(info)) ? 2 : 1;
    for (let i = 0; i < times; i++) {
      if (gate) gate.queue.push(send);
      else if (this.holding) this.held.push(send);
      else if (delay) setTimeout(send, delay.ms);
      else send();
    }
  }
}
