/**
 * Seeded faults on agent-tool runs, both hosts: one awaited run, three in parallel, failing runs and a detached
 * run with notify. The socket dropped at a random frame of a run (and again in the replay after it),
 * `agent-tool-event` frames duplicated, reordered (chunks and lifecycle events held back so later ones overtake
 * them; see `isOrderedRunFrame` for why progress frames keep their order) and replayed
 * (an earlier frame delivered again later), and a page refresh in the middle of a run.
 *
 * Duplicates, reorders and replays lose nothing, so each run must end exactly as without faults. A drop or a
 * refresh loses what only went out live: progress and milestone frames are not in the server's chunk store
 * and connect-time replay never brings them back (docs/protocol.md#agent-tool-replay). For those the tab must still end with
 * every run, status, transcript part, summary and error of the run without faults, no milestone twice and
 * none that the server did not send, and (after a refresh) the progress kept in storage.
 *
 * `RUNBOARD_FAULT_RUNS=<n>` changes the number of runs (default 500); `RUNBOARD_FAULT_SEED=<n>` replays one.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ProgressStorage } from "../../src/agent-tool-runs.ts";
import type { ChatAgentLike } from "../../src/chat-session.ts";
import { atFrame, dropOnce } from "./faults.ts";
import { assertSame, type FaultServer, HOSTS, room, runSeeds, startFaultServer } from "./harness.ts";
import { type Kind, runKinds } from "./kinds.ts";
import { type Rng, rng } from "./prng.ts";
import { atReference, type Hooks, play, type Reference } from "./runner.ts";

const FILE = "packages/client/test/faults/runs.test.ts";

let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterAll(() => srv.server.close());

const kinds: Kind[] = HOSTS.flatMap(runKinds);
const references = new Map<string, Reference>();
async function reference(kind: Kind): Promise<Reference> {
  let ref = references.get(kind.id);
  if (!ref) {
    ref = await play(srv, kind, room(`ref-${kind.id.replace("/", "-")}`));
    references.set(kind.id, ref);
  }
  return ref;
}

type Fault =
  | { kind: "drop"; at: number; again?: number }
  | { kind: "duplicate"; every: number }
  | { kind: "reorder"; every: number; ms: number }
  | { kind: "replay"; every: number }
  | { kind: "refresh"; at: number };

const LOSSY = new Set<Fault["kind"]>(["drop", "refresh"]);

function chooseFault(r: Rng, ref: Reference): Fault {
  const frames = Math.max(1, ref.frames[0] ?? 1);
  const at = r.int(1, frames);
  switch (r.pick(["drop", "drop", "duplicate", "reorder", "replay", "refresh"] as const)) {
    case "drop":
      return r.chance(0.3) ? { kind: "drop", at, again: r.int(1, frames) } : { kind: "drop", at };
    case "duplicate":
      return { kind: "duplicate", every: r.int(1, 4) };
    case "reorder":
      return { kind: "reorder", every: r.int(2, 5), ms: r.int(1, 15) };
    case "replay":
      return { kind: "replay", every: r.int(2, 6) };
    default:
      return { kind: "refresh", at };
  }
}

type Sent = { name: string; frame: Record<string, unknown> };

const isRunFrame = (name: string) => (f: Sent) => f.name === name && f.frame.type === "agent-tool-event";

/**
 * Frames a reordering link may hold back: stored chunks and lifecycle events. Progress and milestone frames of
 * one run share the sequence of the next stored chunk on the real server and carry no other order (their ids
 * are random), so no client can tell which of two reordered progress frames is newer (docs/protocol.md#agent-tool-replay). They
 * keep their order here; the chunks and events around them are overtaken.
 */
const isOrderedRunFrame = (name: string) => (f: Sent) =>
  isRunFrame(name)(f) && !/agent-(progress|milestone)/.test(JSON.stringify(f.frame.event));

/** Every `every`-th frame that matches (counted from the fault's start), as a controller predicate. */
function everyNth<T>(every: number, match: (f: T) => boolean) {
  let n = 0;
  return (f: T) => match(f) && ++n % every === 0;
}

/**
 * What the run tray hears, with earlier `agent-tool-event` frames delivered again: after every `every`-th
 * such frame, one seen before (picked by the seed) comes once more, as a flaky proxy or a replay racing the
 * live stream would deliver it.
 */
function replaying(r: Rng, every: number) {
  return (client: ChatAgentLike): ChatAgentLike => {
    const seen: string[] = [];
    const wrapped = new Map<(e: Event) => void, (e: Event) => void>();
    let n = 0;
    return {
      send: (d) => client.send(d),
      get readyState() {
        return client.readyState;
      },
      addEventListener(type, fn) {
        if (type !== "message") return client.addEventListener(type, fn);
        const w = (e: Event) => {
          fn(e);
          const data = (e as MessageEvent).data;
          if (typeof data !== "string" || !data.includes('"agent-tool-event"')) return;
          seen.push(data);
          if (++n % every === 0) fn(new MessageEvent("message", { data: seen[r.int(0, seen.length - 1)] }));
        };
        wrapped.set(fn, w);
        client.addEventListener(type, w);
      },
      removeEventListener(type, fn) {
        client.removeEventListener(type, wrapped.get(fn) ?? fn);
      },
    };
  };
}

class MemoryStorage implements ProgressStorage {
  private readonly map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

function hooksFor(fault: Fault): Hooks {
  return {
    before(run) {
      if (run.phase !== 0) return;
      const { controller } = run.srv;
      switch (fault.kind) {
        case "drop":
          return dropOnce(run, fault.at, fault.again);
        case "duplicate":
          return controller.duplicate(everyNth(fault.every, isRunFrame(run.name)));
        case "reorder":
          return controller.delay(everyNth(fault.every, isOrderedRunFrame(run.name)), fault.ms);
        case "refresh":
          return atFrame(run, fault.at, () => run.refresh());
      }
    },
    async after(run) {
      // Held-back frames are still on their timers when the server finishes; RPC replies would overtake them.
      if (run.phase === 0 && fault.kind === "reorder") await new Promise((r) => setTimeout(r, fault.ms + 25));
    },
  };
}

type View = {
  chat: { messages: unknown[] };
  runs: Array<{
    parts: Array<{ type: string }>;
    progress?: unknown;
    milestones: Array<{ name: string; sequence: number }>;
  }>;
};

/** A view without what only travels live (progress, milestones and the milestone parts they add). */
function durable(view: unknown) {
  const v = view as View;
  return {
    ...v,
    runs: v.runs.map(({ progress: _p, milestones: _m, ...r }) => ({
      ...r,
      parts: r.parts.filter((p) => p.type !== "data-agent-milestone"),
    })),
  };
}

/** After a lossy fault: everything durable is as without faults; live-only data is a subset, never doubled. */
function assertLossy(got: unknown, want: unknown, what: string) {
  assertSame(durable(got), durable(want), what);
  const g = got as View;
  const w = want as View;
  g.runs.forEach((run, i) => {
    const names = run.milestones.map((m) => m.sequence);
    expect(new Set(names).size, `${what}: run ${i} lists a milestone twice`).toBe(names.length);
    const sent = new Set(w.runs[i]?.milestones.map((m) => JSON.stringify(m)));
    for (const m of run.milestones)
      expect(
        sent.has(JSON.stringify(m)),
        `${what}: run ${i} shows milestone ${m.name} the server never sent`,
      ).toBe(true);
  });
}

it("agent-tool runs under seeded faults end as without faults", async () => {
  await runSeeds("runs", FILE, async (seed, note) => {
    const kind = kinds[seed % kinds.length] as Kind;
    const ref = await reference(kind);
    const r = rng(seed * 104_729 + 3);
    const fault = chooseFault(r, ref);
    note(`${kind.id} ${JSON.stringify(fault)}`);
    srv.controller.clearFaults();
    try {
      const tabOptions = {
        storage: new MemoryStorage(),
        ...(fault.kind === "replay" ? { runsAgent: replaying(r, fault.every) } : {}),
      };
      const got = await play(srv, kind, room(`r${seed}`), hooksFor(fault), atReference(ref), tabOptions);
      for (let i = 0; i < ref.views.length; i++) {
        if (LOSSY.has(fault.kind)) assertLossy(got.views[i], ref.views[i], `phase ${i}`);
        else assertSame(got.views[i], ref.views[i], `phase ${i}`);
      }
    } finally {
      srv.controller.clearFaults();
    }
  });
}, 600_000);
