/**
 * Seeded faults on chat streams, one tab, both hosts: the socket dropped at a random frame of a turn or of a
 * tool continuation, dropped again in the middle of the replay that follows, every resume offer sent twice,
 * a `done` that comes late or never (the link that lost it dies), and the agent restarted mid-turn. Each
 * run must end exactly as the same scenario without faults: no lost or doubled text or parts, no stuck
 * spinner, approvals decided once.
 *
 * `RUNBOARD_FAULT_RUNS=<n>` changes the number of runs (default 500); `RUNBOARD_FAULT_SEED=<n>` replays one.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { atFrame, cutSockets, dropOnce } from "./faults.ts";
import {
  AGENT,
  assertSame,
  type FaultServer,
  HOSTS,
  room,
  runSeeds,
  serverView,
  startFaultServer,
} from "./harness.ts";
import { chatKinds, type Kind } from "./kinds.ts";
import { rng } from "./prng.ts";
import { atReference, type Hooks, play, type Reference } from "./runner.ts";

const FILE = "packages/client/test/faults/streams.test.ts";

let srv: FaultServer;
beforeAll(async () => {
  srv = await startFaultServer();
});
afterAll(() => srv.server.close());

const kinds: Kind[] = HOSTS.flatMap(chatKinds);
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
  | { kind: "drop"; phase: number; at: number }
  | { kind: "drop-replay"; phase: number; at: number; again: number }
  | { kind: "duplicate-offers"; phase: number; at: number }
  | { kind: "late-done"; phase: number; ms: number }
  | { kind: "lost-done"; phase: number }
  | { kind: "restart"; phase: number; at: number; recover: boolean };

function chooseFault(seed: number, kind: Kind, ref: Reference): Fault {
  const r = rng(seed * 7919 + 1);
  const phase = r.int(0, kind.phases.length - 1);
  const frames = Math.max(1, ref.frames[phase] ?? 1);
  const at = r.int(1, frames);
  const options: Array<Fault["kind"]> = ["drop", "drop-replay", "duplicate-offers", "late-done", "lost-done"];
  if (kind.textOnly) options.push("restart");
  switch (r.pick(options)) {
    case "drop":
      return { kind: "drop", phase, at };
    case "drop-replay":
      // The new socket gets the connect frames, the offer and the replay: cut it somewhere in there.
      return { kind: "drop-replay", phase, at, again: r.int(1, frames + 6) };
    case "duplicate-offers":
      return { kind: "duplicate-offers", phase, at };
    case "late-done":
      return { kind: "late-done", phase, ms: r.int(1, 20) };
    case "lost-done":
      return { kind: "lost-done", phase };
    default:
      return { kind: "restart", phase, at, recover: r.chance(0.5) };
  }
}

function hooksFor(fault: Fault): Hooks {
  const isDone = (f: { frame: Record<string, unknown> }) =>
    f.frame.type === "cf_agent_use_chat_response" && f.frame.done === true;
  return {
    before(run) {
      if (run.phase !== fault.phase) return;
      const { controller } = run.srv;
      switch (fault.kind) {
        case "drop":
          return dropOnce(run, fault.at);
        case "drop-replay":
          return dropOnce(run, fault.at, fault.again);
        case "duplicate-offers":
          controller.duplicate((f) => f.name === run.name && f.frame.type === "cf_agent_stream_resuming");
          return dropOnce(run, fault.at);
        case "late-done":
          return controller.delay((f) => f.name === run.name && isDone(f), fault.ms);
        case "lost-done":
          // Held back far longer than the run lasts; the socket that should have carried it dies below.
          return controller.delay((f) => f.name === run.name && isDone(f), 250);
        case "restart":
          return; // restartRun sets it up: it needs to know when it happened
      }
    },
    after(run) {
      if (run.phase === fault.phase && fault.kind === "lost-done") cutSockets(run);
    },
  };
}

const describeFault = (kind: Kind, f: Fault) => `${kind.id} ${JSON.stringify(f)}`;

it("the reference runs are repeatable (the comparison is not comparing noise)", async () => {
  for (const kind of kinds) {
    const ref = await reference(kind);
    const again = await play(srv, kind, room("again"));
    expect(again.views, kind.id).toEqual(ref.views);
    expect(again.servers, kind.id).toEqual(ref.servers);
  }
}, 60_000);

it("chat streams under seeded faults end as without faults", async () => {
  await runSeeds("streams", FILE, async (seed, note) => {
    const kind = kinds[seed % kinds.length] as Kind;
    const ref = await reference(kind);
    const fault = chooseFault(seed, kind, ref);
    note(describeFault(kind, fault));
    srv.controller.clearFaults();
    try {
      if (fault.kind === "restart") return await restartRun(kind, ref, fault);
      const got = await play(srv, kind, room(`s${seed}`), hooksFor(fault), atReference(ref));
      for (let i = 0; i < ref.views.length; i++) assertSame(got.views[i], ref.views[i], `phase ${i}`);
    } finally {
      srv.controller.clearFaults();
    }
  });
}, 600_000);

const assistantText = (view: unknown) =>
  (view as Array<{ role: string; parts: Array<{ text?: string }> }>)
    .filter((m) => m.role === "assistant")
    .flatMap((m) => m.parts.map((p) => p.text ?? ""))
    .join("");

/**
 * A restart stops the turn. With recovery the server finishes it in a recovery continuation; without, the
 * partial answer is what it keeps. Either way the tab must end idle, showing exactly the server's transcript,
 * and the text must be the reference's (recovered) or a prefix of it (cut). On AIChatAgent a recovered text
 * turn is indistinguishable from one that never stopped; Think keeps the recovery as a message of its own.
 */
async function restartRun(kind: Kind, ref: Reference, fault: Extract<Fault, { kind: "restart" }>) {
  let restarted = false;
  const hooks = hooksFor(fault);
  const full = assistantText(ref.servers.at(-1));
  const got = await play(
    srv,
    kind,
    room("restart"),
    {
      before(run) {
        if (run.phase !== fault.phase) return;
        atFrame(run, fault.at, () => {
          restarted = true;
          srv.controller.restart(AGENT[kind.host], run.name, { recover: fault.recover });
        });
      },
    },
    (run) => {
      if (!restarted || srv.controller.instance(AGENT[kind.host], run.name)?.streaming !== false)
        return false;
      return !fault.recover || assistantText(serverView(srv, kind.host, run.name)) === full;
    },
  );
  void hooks;
  const last = got.views.at(-1) as { chat: { messages: unknown } };
  expect(last).toMatchObject({ chat: { status: "ready", isStreaming: false, isRecovering: false } });
  expect(last.chat.messages).toEqual(got.servers.at(-1));
  const text = assistantText(last.chat.messages);
  if (fault.recover) expect(text).toBe(full);
  else expect(full.startsWith(text), `${JSON.stringify(text)} is not a prefix of the answer`).toBe(true);
  if (fault.recover && kind.host === "ai-chat") expect(got.views).toEqual(ref.views);
}

/**
 * A decision sent in the instant the link dies (the socket still looks open to the tab, the server already
 * dropped it) never reaches the server. The tab showed it as sent; after the reconnect the server still asks.
 * The decision must be delivered then, once, without the user deciding again. (Found as a rare failure of
 * the seeded suite under CPU load: a drop armed for a replay fired in the gap between two phases.)
 */
it("an approval decided as the link dies reaches the server once after the reconnect", async () => {
  for (const kind of kinds.filter((k) => k.id.endsWith("/pay-deny") || k.id.endsWith("/pay-approve"))) {
    const ref = await reference(kind);
    const got = await play(
      srv,
      kind,
      room(`lost-decision-${kind.id.replace("/", "-")}`),
      {
        before(run) {
          if (run.phase === 1) cutSockets(run);
        },
      },
      atReference(ref),
    );
    for (let i = 0; i < ref.views.length; i++)
      assertSame(got.views[i], ref.views[i], `${kind.id} phase ${i}`);
  }
}, 60_000);
