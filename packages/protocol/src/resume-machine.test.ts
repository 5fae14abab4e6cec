import { describe, expect, it } from "vitest";
import type { ChatResponseFrame } from "./frames.ts";
import {
  RESUME_PENDING_TIMEOUT_MS,
  RESUME_PROBE_TIMEOUT_MS,
  type ResumeCommand,
  ResumeMachine,
} from "./resume-machine.ts";

function machine(options: { resume?: boolean } = {}) {
  let n = 0;
  return new ResumeMachine({ createId: () => `p${++n}`, ...options });
}
const sends = (cmds: ResumeCommand[]) => cmds.flatMap((c) => (c.type === "send" ? [c.frame] : []));
const acks = (cmds: ResumeCommand[]) => sends(cmds).filter((f) => f.type === "cf_agent_stream_resume_ack");
const offer = (id: string, probeId?: string) => ({
  type: "frame" as const,
  frame: { type: "cf_agent_stream_resuming" as const, id, ...(probeId ? { probeId } : {}) },
});
const none = (reason?: "idle" | "continuation-owned", probeId?: string) => ({
  type: "frame" as const,
  frame: {
    type: "cf_agent_stream_resume_none" as const,
    ...(reason ? { reason } : {}),
    ...(probeId ? { probeId } : {}),
  },
});
const resp = (id: string, extra: Partial<ChatResponseFrame> = {}): ChatResponseFrame => ({
  type: "cf_agent_use_chat_response",
  id,
  body: '{"type":"text-delta","id":"t","delta":"x"}',
  done: false,
  ...extra,
});

describe("ResumeMachine: probing", () => {
  it("sends one probe with a probe id and a 5 s timer; asking again while in flight sends nothing", () => {
    const m = machine();
    expect(m.handle({ type: "socket-open" })).toEqual([]);
    const first = m.handle({ type: "resume" });
    expect(first).toEqual([
      { type: "send", frame: { type: "cf_agent_stream_resume_request", probeId: "p1" } },
      { type: "arm-timer", probeId: "p1", ms: RESUME_PROBE_TIMEOUT_MS },
    ]);
    expect(m.handle({ type: "resume" })).toEqual([]);
    expect(m.probeId).toBe("p1");
  });

  it("acknowledges a stream offered twice exactly once per socket (#1733): probe sent, then the ACK of the connect offer", () => {
    // The recorded reconnect (ai-chat/reconnect.jsonl): the connect offer arrives, the probe goes out, then the
    // ACK; the server reads the probe before the ACK, so its answer is a duplicate the ACK already covers.
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "socket-close" });
    const reopened = m.handle({ type: "socket-open" });
    expect(sends(reopened)).toEqual([{ type: "cf_agent_stream_resume_request", probeId: "p1" }]);
    const connectOffer = m.handle(offer("s1"));
    const probeAnswer = m.handle(offer("s1", "p1"));
    expect(acks(connectOffer)).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s1" }]);
    expect(acks(probeAnswer)).toEqual([]);
    // The connect offer already answered the probe.
    expect(connectOffer).toContainEqual({
      type: "probe-settled",
      probeId: "p1",
      outcome: "stream",
      streamId: "s1",
    });
    expect(m.probeId).toBeUndefined();
  });

  it("acknowledges a stream offered twice exactly once per socket (#1733): mount probe, then the connect offer", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    // The probe went out before the connect-time offer arrived, so the server read it before the ACK.
    m.handle({ type: "resume" });
    expect(acks(m.handle(offer("s1")))).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s1" }]);
    expect(acks(m.handle(offer("s1", "p1")))).toEqual([]);
    expect(m.probeId).toBeUndefined();
  });

  it("sends no probe while a stream this socket ACKed is live: resume is answered with it (docs/protocol.md#probe-after-ack)", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(acks(m.handle(offer("s1")))).toHaveLength(1);
    // A probe now would reach the server after the ACK: its answer would stop the stream for this socket.
    const asked = m.handle({ type: "resume" });
    expect(sends(asked)).toEqual([]);
    expect(asked).toContainEqual({ type: "probe-settled", probeId: "p1", outcome: "stream", streamId: "s1" });
    expect(asked.some((c) => c.type === "arm-timer")).toBe(false);
    expect(m.probeId).toBeUndefined();
    expect(m.route(resp("s1", { body: "", done: true })).accept).toBe(true);
    // Once it ended, the server may know of something new: ask it.
    expect(sends(m.handle({ type: "resume" }))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p2" },
    ]);
  });

  it("holds a continuation's probe while an ACKed stream is live and sends it, with its timer, when that stream ends", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle(offer("s1"));
    expect(m.handle({ type: "expect-continuation" })).toEqual([]);
    expect(m.isToolContinuation).toBe(true);
    // A pending frame for another socket's question has no timer of ours to stretch.
    expect(m.handle({ type: "frame", frame: { type: "cf_agent_stream_pending" } })).toEqual([]);
    const ended = m.route(resp("s1", { body: "", done: true }));
    expect(ended.accept && ended.commands).toEqual([
      { type: "stream-ended", streamId: "s1", reason: "done" },
      { type: "send", frame: { type: "cf_agent_stream_resume_request", probeId: "p1" } },
      { type: "arm-timer", probeId: "p1", ms: RESUME_PROBE_TIMEOUT_MS },
    ]);
    expect(acks(m.handle(offer("s2", "p1")))).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s2" }]);
    expect(m.continuationStream).toBe("s2");
  });

  it("a decision made while this tab's own turn streams probes only once that turn is done", () => {
    // The server answers a probe with whatever is live: the turn itself, which this socket would have to ACK
    // and be sent again from its start (the replayed approval request took the decision back on screen).
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "r1" });
    expect(m.route(resp("r1")).accept).toBe(true);
    expect(sends(m.handle({ type: "expect-continuation" }))).toEqual([]);
    expect(m.isToolContinuation).toBe(true);
    const ended = m.route(resp("r1", { body: "", done: true }));
    expect(ended.accept && ended.commands).toEqual([
      { type: "stream-ended", streamId: "r1", reason: "done" },
      { type: "send", frame: { type: "cf_agent_stream_resume_request", probeId: "p1" } },
      { type: "arm-timer", probeId: "p1", ms: RESUME_PROBE_TIMEOUT_MS },
    ]);
    expect(acks(m.handle(offer("c1", "p1")))).toEqual([{ type: "cf_agent_stream_resume_ack", id: "c1" }]);
    expect(m.continuationStream).toBe("c1");
  });

  it("a decision made while this tab's own turn streams is given up when that turn fails", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "r1" });
    m.route(resp("r1"));
    m.handle({ type: "expect-continuation" });
    const failed = m.route(resp("r1", { body: "Model overloaded", done: true, error: true }));
    expect(sends(failed.commands ?? [])).toEqual([]);
    expect(m.isToolContinuation).toBe(false);
    expect(m.probeId).toBeUndefined();
  });

  it("a held probe is answered by the continuation's own offer, without ever going out", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle(offer("s1"));
    expect(sends(m.handle({ type: "expect-continuation" }))).toEqual([]);
    const offered = m.handle(offer("s2"));
    expect(acks(offered)).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s2" }]);
    expect(offered).toContainEqual({
      type: "probe-settled",
      probeId: "p1",
      outcome: "stream",
      streamId: "s2",
    });
    expect(m.continuationStream).toBe("s2");
    const ended = m.route(resp("s1", { body: "", done: true }));
    expect(ended.accept && sends(ended.commands)).toEqual([]);
  });

  it("ACKs again the offer answering a probe sent after its ACK: the server holds the socket out of the stream until it does", () => {
    // Every offer puts the socket in the server's pending-resume set, which the stream's frames leave out
    // (docs/protocol.md#resume-handshake). No probe goes out while the ACKed stream is live here
    // (docs/protocol.md#probe-after-ack), so this is a stream this client ended (cleared) that the server still
    // streams: its offer in answer to the next probe is ACKed again.
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(acks(m.handle(offer("s1")))).toHaveLength(1);
    m.handle({ type: "clear" });
    expect(sends(m.handle({ type: "resume" }))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p1" },
    ]);
    const probeAnswer = m.handle(offer("s1", "p1"));
    expect(acks(probeAnswer)).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s1" }]);
    expect(probeAnswer).toContainEqual({ type: "stream-started", streamId: "s1", origin: "resumed" });
    expect(m.probeId).toBeUndefined();
    // An unprompted repeat of the offer, or a stale answer, is not ACKed again.
    expect(acks(m.handle(offer("s1")))).toEqual([]);
    expect(acks(m.handle(offer("s1", "p1")))).toEqual([]);
  });

  it("ACKs on a socket the app hands over (a new agent object) a stream the old one had ACKed, without probing", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(acks(m.handle(offer("s1")))).toHaveLength(1);
    expect(m.handle({ type: "socket-replaced" })).toEqual([]);
    expect(acks(m.handle(offer("s1")))).toEqual([{ type: "cf_agent_stream_resume_ack", id: "s1" }]);
  });

  it("tells the caller the stream started before it sends the ACK (listener first)", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "resume" });
    const cmds = m.handle(offer("s1", "p1"));
    const started = cmds.findIndex((c) => c.type === "stream-started");
    const ack = cmds.findIndex((c) => c.type === "send");
    expect(started).toBeGreaterThanOrEqual(0);
    expect(ack).toBeGreaterThan(started);
    expect(m.isServerStreaming).toBe(true);
  });

  it("re-sends the in-flight probe with the same id after a real close→open, and ACKs again on the new socket", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(acks(m.handle(offer("s1")))).toHaveLength(1);
    m.handle({ type: "socket-close" });
    expect(sends(m.handle({ type: "resume" }))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p1" },
    ]);
    const reopened = m.handle({ type: "socket-open" });
    expect(sends(reopened)).toEqual([{ type: "cf_agent_stream_resume_request", probeId: "p1" }]);
    expect(acks(m.handle(offer("s1")))).toHaveLength(1);
  });

  it("starts a new probe on reconnect when none is in flight", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "resume" });
    m.handle(none("idle", "p1"));
    m.handle({ type: "socket-close" });
    expect(sends(m.handle({ type: "socket-open" }))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p2" },
    ]);
  });

  it("stretches the timeout to 60 s on stream_pending, and a timeout settles only its own probe", () => {
    const m = machine();
    m.handle({ type: "resume" });
    expect(
      m.handle({ type: "frame", frame: { type: "cf_agent_stream_pending", id: "x", probeId: "p1" } }),
    ).toEqual([
      { type: "cancel-timer", probeId: "p1" },
      { type: "arm-timer", probeId: "p1", ms: RESUME_PENDING_TIMEOUT_MS },
    ]);
    expect(m.handle({ type: "timeout", probeId: "old" })).toEqual([]);
    expect(m.handle({ type: "timeout", probeId: "p1" })).toContainEqual({
      type: "probe-settled",
      probeId: "p1",
      outcome: "timeout",
    });
  });
});

describe("ResumeMachine: resume_none", () => {
  function observing() {
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(m.route(resp("other-tab")).accept).toBe(true);
    m.handle({ type: "resume" });
    return m;
  }

  it("ignores a reply to another probe", () => {
    const m = observing();
    expect(m.handle(none("idle", "stale"))).toEqual([]);
    expect(m.probeId).toBe("p1");
  });

  it("settles the probe on an unreasoned or continuation-owned reply without tearing down a live stream", () => {
    for (const reason of [undefined, "continuation-owned" as const]) {
      const m = observing();
      const cmds = m.handle(none(reason, reason ? "p1" : undefined));
      expect(cmds).toContainEqual({ type: "probe-settled", probeId: "p1", outcome: "none" });
      expect(cmds.some((c) => c.type === "stream-ended")).toBe(false);
      expect(m.isServerStreaming).toBe(true);
    }
  });

  it("ends streams that ended unseen only on a correlated idle reply (#1914/#1963)", () => {
    const m = observing();
    expect(m.handle(none("idle", "p1"))).toContainEqual({
      type: "stream-ended",
      streamId: "other-tab",
      reason: "idle",
    });
    expect(m.isServerStreaming).toBe(false);
  });
});

describe("ResumeMachine: routing response frames", () => {
  it("rejects a replay nobody acknowledged on this socket and accepts it after the ACK", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    expect(m.route(resp("s1", { replay: true }))).toMatchObject({ accept: false });
    m.handle(offer("s1"));
    expect(m.route(resp("s1", { replay: true }))).toMatchObject({ accept: true, origin: "resumed" });
  });

  it("ignores a stray done for an unknown stream instead of creating an empty message (docs/protocol.md#stray-done)", () => {
    const m = machine();
    expect(m.route(resp("ghost", { body: "", done: true }))).toMatchObject({ accept: false });
    expect(m.route(resp("ghost", { body: "boom", done: true, error: true }))).toMatchObject({
      accept: false,
    });
    expect(m.activeStreams.size).toBe(0);
  });

  it("lists the live streams in order, as the same map until one starts or ends", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "r1" });
    const one = m.activeStreams;
    expect([...one]).toEqual([["r1", "local"]]);
    m.route(resp("r1"));
    expect(m.activeStreams).toBe(one);
    m.route(resp("t2"));
    const two = m.activeStreams;
    expect([...two]).toEqual([
      ["r1", "local"],
      ["t2", "observed"],
    ]);
    m.route(resp("r1", { body: "", done: true }));
    expect([...m.activeStreams]).toEqual([["t2", "observed"]]);
    // Same size, other stream: a new map, not the one read before.
    m.handle({ type: "local-request", id: "r3" });
    m.route(resp("t2", { body: "", done: true }));
    expect([...m.activeStreams]).toEqual([["r3", "local"]]);
    expect([...two]).toEqual([
      ["r1", "local"],
      ["t2", "observed"],
    ]);
  });

  it("observes another tab's stream, ends it on done and ignores late frames for it", () => {
    const m = machine();
    const first = m.route(resp("t2"));
    expect(first).toMatchObject({ accept: true, origin: "observed" });
    expect(first.accept && first.commands).toEqual([
      { type: "stream-started", streamId: "t2", origin: "observed" },
    ]);
    const done = m.route(resp("t2", { body: "", done: true }));
    expect(done.accept && done.commands).toEqual([{ type: "stream-ended", streamId: "t2", reason: "done" }]);
    expect(m.route(resp("t2"))).toMatchObject({ accept: false, reason: "stream already ended" });
  });

  it("keeps a local request routed to this client until its done, and an error ends it", () => {
    const m = machine();
    m.handle({ type: "local-request", id: "mine" });
    expect(m.route(resp("mine"))).toMatchObject({ accept: true, origin: "local" });
    expect(m.isServerStreaming).toBe(false);
    const err = m.route(resp("mine", { body: "model failed", done: false, error: true }));
    expect(err.accept && err.commands).toEqual([{ type: "stream-ended", streamId: "mine", reason: "error" }]);
  });
});

describe("ResumeMachine: stop, clear, continuations, resume:false", () => {
  it("stop cancels every live stream: own turn, resumed and observed", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "a" });
    m.handle(offer("b"));
    m.route(resp("c"));
    expect(sends(m.handle({ type: "stop" }))).toEqual([
      { type: "cf_agent_chat_request_cancel", id: "a" },
      { type: "cf_agent_chat_request_cancel", id: "b" },
      { type: "cf_agent_chat_request_cancel", id: "c" },
    ]);
  });

  it("tracks a tool continuation from the tool result to its done", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    const probe = m.handle({ type: "expect-continuation" });
    expect(sends(probe)).toEqual([{ type: "cf_agent_stream_resume_request", probeId: "p1" }]);
    expect(m.isToolContinuation).toBe(true);
    // The server announces the continuation unsolicited (the sender awaits it), without a probe id.
    expect(acks(m.handle(offer("cont")))).toHaveLength(1);
    expect(m.isToolContinuation).toBe(true);
    m.route(resp("cont", { continuation: true, replay: true }));
    m.route(resp("cont", { body: "", done: true, continuation: true }));
    expect(m.isToolContinuation).toBe(false);
  });

  it("a continuation expected while an earlier probe is in flight outlives that probe's idle answer or timeout", () => {
    for (const end of ["idle", "timeout"] as const) {
      const m = machine();
      m.handle({ type: "socket-open" });
      m.handle({ type: "resume" });
      // A client tool answered while the mount's probe p1 was out: the server saw p1 first.
      expect(sends(m.handle({ type: "expect-continuation" }))).toEqual([]);
      expect(m.isToolContinuation).toBe(true);
      const settled =
        end === "idle" ? m.handle(none("idle", "p1")) : m.handle({ type: "timeout", probeId: "p1" });
      expect(settled).toContainEqual({
        type: "probe-settled",
        probeId: "p1",
        outcome: end === "idle" ? "none" : "timeout",
      });
      // Still awaited, and asked for with a probe of its own.
      expect(m.isToolContinuation).toBe(true);
      expect(sends(settled)).toEqual([{ type: "cf_agent_stream_resume_request", probeId: "p2" }]);
      expect(acks(m.handle(offer("cont")))).toHaveLength(1);
      expect(m.continuationStream).toBe("cont");
      // That probe's own idle answer ends the wait, as before.
      const m2 = machine();
      m2.handle({ type: "socket-open" });
      m2.handle({ type: "resume" });
      m2.handle({ type: "expect-continuation" });
      m2.handle(none("idle", "p1"));
      m2.handle(none("idle", "p2"));
      expect(m2.isToolContinuation).toBe(false);
      expect(m2.probeId).toBeUndefined();
    }
  });

  it("a continuation's own probe answered 'continuation-owned' or without a reason ends the wait", () => {
    for (const reason of ["continuation-owned" as const, undefined]) {
      const m = machine();
      m.handle({ type: "socket-open" });
      m.handle({ type: "expect-continuation" });
      // Another socket's answer started it: its live chunks reach this socket as another's stream.
      m.route(resp("cont-other", { continuation: true }));
      const settled = m.handle(none(reason, reason ? "p1" : undefined));
      expect(settled).toContainEqual({ type: "probe-settled", probeId: "p1", outcome: "none" });
      expect(sends(settled)).toEqual([]);
      expect(m.isToolContinuation).toBe(false);
      expect(m.isServerStreaming).toBe(true);
      m.route(resp("cont-other", { body: "", done: true, continuation: true }));
      expect(m.isServerStreaming).toBe(false);
    }
    // The answer to a probe sent before the tool answer still says nothing of the continuation: it is asked for.
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "resume" });
    m.handle({ type: "expect-continuation" });
    expect(sends(m.handle(none("continuation-owned", "p1")))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p2" },
    ]);
    expect(m.isToolContinuation).toBe(true);
    m.handle(none("continuation-owned", "p2"));
    expect(m.isToolContinuation).toBe(false);
  });

  it("clear ends every stream", () => {
    const m = machine();
    m.route(resp("x"));
    expect(m.handle({ type: "clear" })).toEqual([{ type: "stream-ended", streamId: "x", reason: "cleared" }]);
    expect(m.route(resp("x"))).toMatchObject({ accept: false });
  });

  it("with resume:false does not acknowledge offers except the continuation it asked for", () => {
    const m = machine({ resume: false });
    m.handle({ type: "socket-open" });
    expect(acks(m.handle(offer("someone-elses")))).toEqual([]);
    m.handle({ type: "expect-continuation" });
    expect(acks(m.handle(offer("cont")))).toHaveLength(1);
  });
});

describe("ResumeMachine: a pending turn that ends unseen (issue 30)", () => {
  const pendingFor = (id: string, probeId?: string) => ({
    type: "frame" as const,
    frame: { type: "cf_agent_stream_pending" as const, id, ...(probeId ? { probeId } : {}) },
  });

  it("the awaited continuation ends with the done of the turn its probe was told is pending", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "expect-continuation" });
    m.handle(pendingFor("cont-1", "p1"));
    expect(m.isToolContinuation).toBe(true);
    // Never offered here: only the bare terminal frame arrives.
    const done = m.route(resp("cont-1", { body: "", done: true, continuation: true }));
    expect(done).toMatchObject({ accept: false });
    expect(done.accept ? [] : done.commands).toEqual([
      { type: "cancel-timer", probeId: "p1" },
      { type: "probe-settled", probeId: "p1", outcome: "none" },
    ]);
    expect(m.isToolContinuation).toBe(false);
    expect(m.probeId).toBeUndefined();
  });

  it("a done for another turn settles nothing", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.handle({ type: "expect-continuation" });
    m.handle(pendingFor("cont-1", "p1"));
    const other = m.route(resp("someone-else", { body: "", done: true }));
    expect(other.accept ? [] : (other.commands ?? [])).toEqual([]);
    expect(m.isToolContinuation).toBe(true);
    expect(m.probeId).toBe("p1");
  });
});

describe("ResumeMachine: resume:false and a socket close (issue 30)", () => {
  it("ends the streams it only watched, keeps its own turn, and probes once on the next open", () => {
    const m = machine({ resume: false });
    m.handle({ type: "socket-open" });
    m.handle({ type: "local-request", id: "mine" });
    m.route(resp("other-tab"));
    expect(m.isServerStreaming).toBe(true);
    expect(m.handle({ type: "socket-close" })).toEqual([
      { type: "stream-ended", streamId: "other-tab", reason: "closed" },
    ]);
    expect(m.isServerStreaming).toBe(false);
    expect([...m.activeStreams.keys()]).toEqual(["mine"]);
    expect(sends(m.handle({ type: "socket-open" }))).toEqual([
      { type: "cf_agent_stream_resume_request", probeId: "p1" },
    ]);
    // The answer is not acknowledged, and a late chunk of the ended stream is dropped.
    expect(acks(m.handle(offer("other-tab", "p1")))).toEqual([]);
    expect(m.route(resp("other-tab"))).toMatchObject({ accept: false });
  });

  it("sends no probe after a close when nothing was live", () => {
    const m = machine({ resume: false });
    m.handle({ type: "socket-open" });
    m.handle({ type: "socket-close" });
    expect(m.handle({ type: "socket-open" })).toEqual([]);
  });

  it("with resume on, a close ends nothing (the stream is resumed after the reconnect)", () => {
    const m = machine();
    m.handle({ type: "socket-open" });
    m.route(resp("other-tab"));
    expect(m.handle({ type: "socket-close" })).toEqual([]);
    expect(m.isServerStreaming).toBe(true);
  });
});

describe("ResumeMachine: resume:false and an explicit resume (issue 30)", () => {
  it("takes the stream its own resume probe is answered with, and not one the machine's reconnect probe finds", () => {
    const m = machine({ resume: false });
    m.handle({ type: "socket-open" });
    m.route(resp("other-tab"));
    m.handle({ type: "resume" });
    expect(acks(m.handle(offer("other-tab", "p1")))).toEqual([
      { type: "cf_agent_stream_resume_ack", id: "other-tab" },
    ]);

    const n = machine({ resume: false });
    n.handle({ type: "socket-open" });
    n.route(resp("other-tab"));
    n.handle({ type: "socket-close" });
    n.handle({ type: "socket-open" });
    expect(acks(n.handle(offer("other-tab", "p1")))).toEqual([]);
  });
});
