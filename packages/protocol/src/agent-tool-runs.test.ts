import { describe, expect, it } from "vitest";
import { AgentToolRunsReducer, MAX_GAP } from "./agent-tool-runs.ts";
import type { AgentToolEvent, AgentToolEventFrame } from "./frames.ts";

type Body = Record<string, unknown>;
const ev = (
  sequence: number,
  event: AgentToolEvent,
  parentToolCallId?: string,
  replay?: boolean,
): AgentToolEventFrame => ({
  type: "agent-tool-event",
  sequence,
  event,
  ...(parentToolCallId ? { parentToolCallId } : {}),
  ...(replay ? { replay: true as const } : {}),
});
const started = (runId: string, parent?: string, order = 0, replay?: boolean) =>
  ev(
    0,
    { kind: "started", runId, agentType: "Researcher", order, display: { name: "Researcher" } },
    parent,
    replay,
  );
const chunk = (runId: string, sequence: number, body: Body, parent?: string, replay?: boolean) =>
  ev(sequence, { kind: "chunk", runId, body: JSON.stringify(body) }, parent, replay);
const textOf = (r: AgentToolRunsReducer, runId: string) =>
  (r.state.runsById[runId]?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

/** A child stream as the real server numbers it: stored chunks 1..N, progress reusing the next stored number. */
function liveRun(runId: string, words: string[], parent = "call_1") {
  const frames: AgentToolEventFrame[] = [started(runId, parent)];
  let seq = 1;
  frames.push(chunk(runId, seq++, { type: "start", messageId: "m1" }, parent));
  frames.push(chunk(runId, seq++, { type: "text-start", id: "t" }, parent));
  words.forEach((w, i) => {
    if (i === 2) {
      // Progress and a milestone between two stored chunks carry the number of the next stored chunk.
      frames.push(
        chunk(
          runId,
          seq,
          {
            type: "data-agent-progress",
            id: "p1",
            transient: true,
            data: { fraction: 0.5, phase: "reading" },
          },
          parent,
        ),
      );
      frames.push(
        chunk(
          runId,
          seq,
          { type: "data-agent-milestone", data: { name: "half", sequence: 0, at: 1000 } },
          parent,
        ),
      );
    }
    frames.push(chunk(runId, seq++, { type: "text-delta", id: "t", delta: w }, parent));
  });
  frames.push(chunk(runId, seq++, { type: "text-end", id: "t" }, parent));
  const terminal = ev(seq, { kind: "finished", runId, summary: words.join("") }, parent);
  return { frames, terminal, storedCount: seq - 1 };
}

/** What connect-time replay sends for the same run: stored chunks only, flagged replay. */
function replayOf(frames: AgentToolEventFrame[], upTo = Number.POSITIVE_INFINITY) {
  return frames
    .filter(
      (f) =>
        f.event.kind !== "chunk" || !/agent-(progress|milestone)/.test((f.event as { body: string }).body),
    )
    .filter((f) => f.sequence <= upTo)
    .map((f) => ({ ...f, replay: true as const }));
}

describe("AgentToolRunsReducer", () => {
  it("groups runs by the tool call that spawned them and orders them by (order, runId)", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("b", "call_1", 1));
    r.apply(started("c", "call_1", 0));
    r.apply(started("a", "call_1", 1));
    r.apply(started("x", "call_2"));
    r.apply(started("detached-1"));
    expect(r.getRunsForToolCall("call_1").map((x) => x.runId)).toEqual(["c", "a", "b"]);
    expect(r.getRunsForToolCall("call_2").map((x) => x.runId)).toEqual(["x"]);
    expect(r.getRunsForToolCall("nope")).toEqual([]);
    expect(r.state.unboundRuns.map((x) => x.runId)).toEqual(["detached-1"]);
    expect(r.state.runsById.a).toMatchObject({
      status: "running",
      subAgent: { agent: "Researcher", name: "a" },
    });
  });

  it("applies every stored chunk even when progress and a milestone share its sequence (real-server numbering)", () => {
    const r = new AgentToolRunsReducer();
    const { frames, terminal } = liveRun("run", ["a ", "b ", "c ", "d"]);
    for (const f of [...frames, terminal]) r.apply(f);
    const run = r.state.runsById.run!;
    expect(textOf(r, "run")).toBe("a b c d");
    expect(run.status).toBe("completed");
    expect(run.milestones).toEqual([{ name: "half", sequence: 0, at: 1000 }]);
    // The milestone carried no fraction: the bar keeps the one the progress frame set.
    expect(run.progress).toMatchObject({ milestone: "half", fraction: 0.5, phase: "reading" });
    // Milestones are not child parts: a replayed run, which has none, must look the same.
    expect(run.parts.some((p) => p.type === "data-agent-milestone")).toBe(false);
  });

  it("applies an unstored (too large) chunk once by its id, and the stored chunk sharing its sequence too", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run-u", "call_u"));
    r.apply(chunk("run-u", 1, { type: "text-start", id: "t" }, "call_u"));
    const big = ev(
      2,
      {
        kind: "chunk",
        runId: "run-u",
        body: JSON.stringify({ type: "text-delta", id: "t", delta: "big " }),
        unstoredId: "u1",
      },
      "call_u",
    );
    r.apply(big);
    r.apply(big);
    r.apply(chunk("run-u", 2, { type: "text-delta", id: "t", delta: "stored" }, "call_u"));
    expect(textOf(r, "run-u")).toBe("big stored");
  });

  it("does not double text when a client that watched live reconnects and gets the whole run replayed", () => {
    const r = new AgentToolRunsReducer();
    const { frames, terminal } = liveRun("run", ["one ", "two ", "three"]);
    for (const f of frames) r.apply(f);
    for (const f of replayOf(frames)) r.apply(f);
    r.apply(terminal);
    expect(textOf(r, "run")).toBe("one two three");
  });

  it("fills exactly the chunks missed while disconnected from the replay", () => {
    const r = new AgentToolRunsReducer();
    const { frames, terminal } = liveRun("run", ["w0 ", "w1 ", "w2 ", "w3 ", "w4 ", "w5"]);
    // Live up to sequence 4, then the socket drops; the server goes on to the end; reconnect replays all.
    for (const f of frames.filter((x) => x.sequence <= 4)) r.apply(f);
    for (const f of replayOf([...frames, terminal])) r.apply(f);
    expect(textOf(r, "run")).toBe("w0 w1 w2 w3 w4 w5");
    expect(r.state.runsById.run!.status).toBe("completed");
  });

  it("a replay racing live frames (live chunk first, replay after) neither drops nor doubles", () => {
    const r = new AgentToolRunsReducer();
    const { frames, terminal } = liveRun("run", ["a", "b", "c", "d", "e"]);
    const stored = frames.filter(
      (f) => f.sequence > 0 && !/agent-(progress|milestone)/.test(JSON.stringify(f)),
    );
    r.apply(frames[0]!);
    // A live frame from beyond the gap arrives before the replay of the earlier chunks.
    const last = stored.at(-1)!;
    expect(r.apply(last).kind).toBe("buffered");
    expect(textOf(r, "run")).toBe("");
    for (const f of replayOf(frames)) r.apply(f);
    r.apply(terminal);
    expect(textOf(r, "run")).toBe("abcde");
  });

  it("applies duplicated and reordered chunks once, in order", () => {
    const r = new AgentToolRunsReducer();
    const { frames, terminal } = liveRun("run", ["1", "2", "3", "4", "5", "6"]);
    const [first, ...rest] = frames;
    r.apply(first!);
    const shuffled = [...rest].reverse();
    for (const f of [...shuffled, ...shuffled]) r.apply(f);
    r.apply(terminal);
    expect(textOf(r, "run")).toBe("123456");
  });

  it("keeps waiting for a missing chunk after the run ends, and stops once too many are waiting", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run"));
    r.apply(chunk("run", 1, { type: "text-start", id: "t" }));
    r.apply(chunk("run", 3, { type: "text-delta", id: "t", delta: "late" }));
    expect(textOf(r, "run")).toBe("");
    r.apply(ev(9, { kind: "finished", runId: "run", summary: "late" }));
    // A link that reorders delivers the missing chunk after the terminal event: it still lands in place.
    expect(r.state.runsById.run!.status).toBe("completed");
    expect(textOf(r, "run")).toBe("");
    r.apply(chunk("run", 2, { type: "text-delta", id: "t", delta: "on " }));
    expect(textOf(r, "run")).toBe("on late");

    const g = new AgentToolRunsReducer();
    g.apply(started("g"));
    g.apply(chunk("g", 1, { type: "text-start", id: "t" }));
    for (let s = 3; s <= MAX_GAP + 3; s++)
      g.apply(chunk("g", s, { type: "text-delta", id: "t", delta: "x" }));
    expect(textOf(g, "g")).toBe("x".repeat(MAX_GAP + 1));
  });

  it("applies chunks that overtook their run's start once it starts", () => {
    const r = new AgentToolRunsReducer();
    expect(r.apply(chunk("run", 1, { type: "text-start", id: "t" })).kind).toBe("ignored");
    r.apply(chunk("run", 2, { type: "text-delta", id: "t", delta: "early" }));
    expect(r.state.runsById.run).toBeUndefined();
    r.apply(started("run"));
    expect(textOf(r, "run")).toBe("early");
    // The replay that follows a reconnect brings them again: applied once.
    r.apply(chunk("run", 2, { type: "text-delta", id: "t", delta: "early" }));
    expect(textOf(r, "run")).toBe("early");
  });

  it("keeps progress latest-wins but never lets an older frame move it back", () => {
    const r = new AgentToolRunsReducer({ now: () => 42 });
    r.apply(started("run"));
    r.apply(
      chunk("run", 3, { type: "data-agent-progress", id: "p2", transient: true, data: { fraction: 0.6 } }),
    );
    r.apply(
      chunk("run", 2, { type: "data-agent-progress", id: "p1", transient: true, data: { fraction: 0.3 } }),
    );
    expect(r.state.runsById.run!.progress).toEqual({ fraction: 0.6, at: 42 });
    r.apply(
      chunk("run", 3, {
        type: "data-agent-progress",
        id: "p3",
        transient: true,
        data: { fraction: 0.7, message: "m" },
      }),
    );
    expect(r.state.runsById.run!.progress).toEqual({ fraction: 0.7, message: "m", at: 42 });
    expect(r.state.runsById.run!.parts).toEqual([]);
  });

  it("keeps a finished run's progress final: late progress is ignored, a late milestone only joins the timeline (issue 26 §3)", () => {
    for (const end of [
      { kind: "finished", runId: "run", summary: "done" },
      { kind: "error", runId: "run", error: "boom" },
      { kind: "aborted", runId: "run" },
    ] as AgentToolEvent[]) {
      const r = new AgentToolRunsReducer({ now: () => 42 });
      r.apply(started("run"));
      r.apply(
        chunk("run", 1, { type: "data-agent-progress", id: "p1", data: { fraction: 1, message: "Done" } }),
      );
      r.apply(ev(2, end));
      const final = r.state.runsById.run!;
      const late = r.apply(
        chunk("run", 9, {
          type: "data-agent-progress",
          id: "p2",
          data: { fraction: 0.2, message: "Searching" },
        }),
      );
      expect(late.kind).toBe("ignored");
      expect(r.state.runsById.run!.progress).toEqual({ fraction: 1, message: "Done", at: 42 });
      expect(r.state.runsById.run).toBe(final);
      r.apply(
        chunk("run", 9, { type: "data-agent-milestone", data: { name: "drafted", sequence: 4, at: 7 } }),
      );
      expect(r.state.runsById.run!.milestones.map((m) => m.name)).toEqual(["drafted"]);
      expect(r.state.runsById.run!.progress).toEqual({ fraction: 1, message: "Done", at: 42 });
      expect(r.state.runsById.run!.status).toBe(final.status);
    }
  });

  it("dedupes milestones by their own sequence, keeps them sorted and never rolls the snapshot back", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run"));
    const ms = (seq: number, name: string, s: number) =>
      chunk("run", s, {
        type: "data-agent-milestone",
        data: { name, sequence: seq, at: 100 + seq, fraction: seq / 10 },
      });
    r.apply(ms(2, "written", 5));
    r.apply(ms(0, "searched", 5));
    r.apply(ms(2, "written", 9));
    r.apply(ms(1, "read", 5));
    const run = r.state.runsById.run!;
    expect(run.milestones.map((m) => m.name)).toEqual(["searched", "read", "written"]);
    expect(run.progress).toMatchObject({ milestone: "written", fraction: 0.2 });
    expect(r.apply(chunk("run", 1, { type: "data-agent-milestone", data: { sequence: 3 } })).kind).toBe(
      "error",
    );
  });

  it("takes the receive time for a milestone whose time a Date cannot hold (found by the fuzz test)", () => {
    const r = new AgentToolRunsReducer({ now: () => 42 });
    r.apply(started("run"));
    const at = (sequence: number, value: unknown) =>
      r.apply(chunk("run", 1, { type: "data-agent-milestone", data: { name: "m", sequence, at: value } }));
    at(0, 1e308);
    at(1, -8.64e15 - 1);
    at(2, 8.64e15);
    at(3, "2026-01-01");
    expect(r.state.runsById.run!.milestones.map((m) => m.at)).toEqual([42, 42, 8.64e15, 42]);
    for (const m of r.state.runsById.run!.milestones)
      expect(() => new Date(m.at).toISOString()).not.toThrow();
  });

  it("ignores a stray started after a terminal and lets a later terminal replace a soft interrupted", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run"));
    r.apply(
      ev(5, {
        kind: "interrupted",
        runId: "run",
        error: "stalled",
        reason: "no-progress",
        childStillRunning: true,
      }),
    );
    expect(r.state.runsById.run).toMatchObject({
      status: "interrupted",
      reason: "no-progress",
      childStillRunning: true,
    });
    expect(r.apply(started("run")).kind).toBe("ignored");
    r.apply(ev(Date.now(), { kind: "finished", runId: "run", summary: "done after all" }));
    expect(r.state.runsById.run).toMatchObject({ status: "completed", summary: "done after all" });
    expect(r.state.runsById.run!.error).toBeUndefined();
    // A hard terminal is final: the first one wins.
    expect(r.apply(ev(7, { kind: "error", runId: "run", error: "late" })).kind).toBe("duplicate");
    expect(r.state.runsById.run!.status).toBe("completed");
  });

  it("records every terminal kind", () => {
    const r = new AgentToolRunsReducer();
    for (const id of ["e", "a", "i"]) r.apply(started(id));
    r.apply(ev(1, { kind: "error", runId: "e", error: "boom" }));
    r.apply(ev(1, { kind: "aborted", runId: "a", reason: "user cancelled" }));
    r.apply(
      ev(1, {
        kind: "interrupted",
        runId: "i",
        error: "gone",
        reason: "window-exceeded",
        childStillRunning: false,
      }),
    );
    expect(r.state.runsById.e).toMatchObject({ status: "error", error: "boom" });
    expect(r.state.runsById.a).toMatchObject({ status: "aborted", error: "user cancelled" });
    expect(r.state.runsById.i).toMatchObject({
      status: "interrupted",
      reason: "window-exceeded",
      childStillRunning: false,
    });
  });

  it("ignores frames for a run it never saw start, without remembering them, so a replay still delivers them", () => {
    const r = new AgentToolRunsReducer();
    expect(r.apply(chunk("late", 1, { type: "text-start", id: "t" })).kind).toBe("ignored");
    expect(r.apply(ev(3, { kind: "finished", runId: "late", summary: "" })).kind).toBe("ignored");
    expect(r.state.runsById).toEqual({});
    r.apply(started("late", undefined, 0, true));
    r.apply(chunk("late", 1, { type: "text-start", id: "t" }, undefined, true));
    r.apply(chunk("late", 2, { type: "text-delta", id: "t", delta: "hi" }, undefined, true));
    expect(textOf(r, "late")).toBe("hi");
  });

  it("reports a chunk body that is not JSON and leaves the run as it was", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("run"));
    const before = r.state.runsById.run;
    expect(r.apply(ev(1, { kind: "chunk", runId: "run", body: "{nope" }))).toMatchObject({ kind: "error" });
    expect(r.state.runsById.run).toBe(before);
  });

  it("keeps the identity of runs and groups that did not change, and never mutates a published run", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("a", "call_1"));
    r.apply(started("b", "call_2"));
    r.apply(chunk("a", 1, { type: "text-start", id: "t" }, "call_1"));
    r.apply(chunk("a", 2, { type: "text-delta", id: "t", delta: "x" }, "call_1"));
    const s1 = r.state;
    r.apply(chunk("a", 3, { type: "text-delta", id: "t", delta: "y" }, "call_1"));
    const s2 = r.state;
    expect(s2).not.toBe(s1);
    expect(s2.runsById.b).toBe(s1.runsById.b);
    expect(s2.runsByToolCallId.call_2).toBe(s1.runsByToolCallId.call_2);
    expect(s2.runsById.a).not.toBe(s1.runsById.a);
    expect((s1.runsById.a!.parts[0] as { text: string }).text).toBe("x");
    expect((s2.runsById.a!.parts[0] as { text: string }).text).toBe("xy");
    expect(r.state).toBe(s2);
  });

  it("forgets everything on reset", () => {
    const r = new AgentToolRunsReducer();
    r.apply(started("a", "call_1"));
    r.reset();
    expect(r.state).toEqual({ runsById: {}, runsByToolCallId: {}, unboundRuns: [] });
    r.apply(started("a", "call_1"));
    expect(r.getRunsForToolCall("call_1")).toHaveLength(1);
  });
});
