import { describe, expect, it } from "vitest";
import type { AgentToolRunState, AgentToolRunStatus } from "./agent-tool-runs.ts";
import {
  activeCount,
  canCancel,
  canDismiss,
  endingsAnnouncement,
  isStalled,
  observeEndings,
  observeRun,
  runEndAnnouncement,
  settleCancelling,
  stallDueAt,
  stalledLabel,
  TRAY_STATUS_LABELS,
  trackRuns,
  trayStatus,
  visibleRuns,
  watchRunning,
  withCancelling,
  withDismissed,
} from "./run-tray-rules.ts";

const run = (runId: string, status: AgentToolRunStatus = "running", extra: Partial<AgentToolRunState> = {}) =>
  ({
    runId,
    agentType: "Researcher",
    display: { name: `Run ${runId}` },
    order: 0,
    status,
    parts: [],
    milestones: [],
    subAgent: { agent: "Researcher", name: runId },
    ...extra,
  }) as AgentToolRunState;

describe("status", () => {
  it("reads cancelling only while the run still runs", () => {
    expect(trayStatus("running", true)).toBe("cancelling");
    expect(trayStatus("running", false)).toBe("running");
    expect(trayStatus("aborted", true)).toBe("aborted");
    expect(TRAY_STATUS_LABELS.cancelling).toBe("Cancelling…");
    expect(TRAY_STATUS_LABELS.error).toBe("Failed");
    expect(TRAY_STATUS_LABELS.aborted).toBe("Cancelled");
  });
});

describe("stall", () => {
  it("is due stallAfterMs after the last signal, for running runs only", () => {
    expect(stallDueAt(1000, 500)).toBe(1500);
    expect(isStalled("running", 1000, 1499, 500)).toBe(false);
    expect(isStalled("running", 1000, 1500, 500)).toBe(true);
    expect(isStalled("completed", 0, 1e9, 500)).toBe(false);
  });

  it("is off for 0, negative or non-finite thresholds", () => {
    expect(stallDueAt(1000, 0)).toBeNull();
    expect(stallDueAt(1000, -1)).toBeNull();
    expect(stallDueAt(1000, Number.POSITIVE_INFINITY)).toBeNull();
    expect(isStalled("running", 0, 1e12, 0)).toBe(false);
  });

  it("says how long in words", () => {
    expect(stalledLabel(30_000)).toBe("No update for 30 seconds");
    expect(stalledLabel(1000)).toBe("No update for 1 second");
    expect(stalledLabel(300_000)).toBe("No update for 5 minutes");
  });
});

describe("observeRun", () => {
  it("is the same record for the same run object, and a signal with new times for a new one", () => {
    const a = run("a");
    const seen = observeRun(undefined, a, 100);
    expect(seen).toEqual({ run: a, times: { startedAt: 100, endedAt: null }, lastSignalAt: 100 });
    expect(observeRun(seen, a, 900)).toBe(seen);
    const ended = observeRun(seen, { ...a, status: "error" }, 1000);
    expect([ended.lastSignalAt, ended.times]).toEqual([1000, { startedAt: 100, endedAt: 1000 }]);
  });
});

describe("trackRuns", () => {
  it("records a signal each time a run object changes, and keeps first sight", () => {
    const a = run("a");
    const t1 = trackRuns(new Map(), [a], 100);
    expect(t1.get("a")).toMatchObject({ lastSignalAt: 100, times: { startedAt: 100, endedAt: null } });
    // Same objects: the very same map, so it can live across renders.
    expect(trackRuns(t1, [a], 200)).toBe(t1);
    const a2 = { ...a, progress: { fraction: 0.5, at: 0 } };
    const t2 = trackRuns(t1, [a2], 300);
    expect(t2.get("a")).toMatchObject({ lastSignalAt: 300, times: { startedAt: 100 } });
    const done = { ...a2, status: "completed" as const };
    expect(trackRuns(t2, [done], 400).get("a")?.times).toEqual({ startedAt: 100, endedAt: 400 });
  });

  it("does not know when a run first seen finished started, and forgets runs no longer listed", () => {
    const t = trackRuns(new Map(), [run("a", "completed"), run("b")], 50);
    expect(t.get("a")?.times.startedAt).toBeNull();
    expect([...trackRuns(t, [t.get("b")?.run as AgentToolRunState], 60).keys()]).toEqual(["b"]);
  });
});

describe("dismissal", () => {
  it("dismisses finished runs only, once", () => {
    expect(canDismiss(run("a"))).toBe(false);
    const none: readonly string[] = [];
    expect(withDismissed(none, run("a"))).toBe(none);
    const one = withDismissed(none, run("a", "completed"));
    expect(one).toEqual(["a"]);
    expect(withDismissed(one, run("a", "completed"))).toBe(one);
  });

  it("hides dismissed finished runs, but shows a dismissed id that is running", () => {
    const runs = [run("a", "completed"), run("b", "error"), run("c")];
    expect(visibleRuns(runs, ["a", "c"]).map((r) => r.runId)).toEqual(["b", "c"]);
    expect(visibleRuns(runs, []).map((r) => r.runId)).toEqual(["a", "b", "c"]);
  });

  it("counts running runs as active", () => {
    expect(activeCount([run("a"), run("b", "completed"), run("c"), run("d", "interrupted")])).toBe(2);
  });
});

describe("announcements", () => {
  it("words each ending with the run's name", () => {
    expect(runEndAnnouncement(run("a", "completed"))).toBe("Run a finished");
    expect(runEndAnnouncement(run("a", "error", { error: "upstream timeout" }))).toBe(
      "Run a failed: upstream timeout",
    );
    expect(runEndAnnouncement(run("a", "error"))).toBe("Run a failed");
    expect(runEndAnnouncement(run("a", "aborted", { error: "x" }))).toBe("Run a was cancelled");
    expect(runEndAnnouncement(run("a", "interrupted", { error: "No progress" }))).toBe(
      "Run a was interrupted: No progress",
    );
    expect(runEndAnnouncement(run("a", "completed", { display: {} }))).toBe("Researcher finished");
    expect(endingsAnnouncement([run("a", "completed"), run("b", "aborted")])).toBe(
      "Run a finished. Run b was cancelled",
    );
  });

  it("announces only runs seen running, once per ending, never progress ticks", () => {
    const start = watchRunning([run("a"), run("old", "completed")]);
    const tick = observeEndings(start, [run("a", "running", { progress: { fraction: 0.5, at: 1 } })]);
    expect(tick.ended).toEqual([]);
    expect(tick.watched).toBe(start);
    // A run first seen finished is history; a new running one is watched from now on.
    const later = observeEndings(start, [run("a"), run("old", "completed"), run("b")]);
    expect(later.ended).toEqual([]);
    const ended = observeEndings(later.watched, [run("a", "completed"), run("old", "completed"), run("b")]);
    expect(ended.ended.map((r) => r.runId)).toEqual(["a"]);
    expect(observeEndings(ended.watched, [run("a", "completed")]).ended).toEqual([]);
  });

  it("announces an interrupted run again when its real end arrives", () => {
    const w = observeEndings(watchRunning([run("a")]), [run("a", "interrupted")]);
    expect(w.ended.map((r) => r.status)).toEqual(["interrupted"]);
    expect(observeEndings(w.watched, [run("a", "completed")]).ended.map((r) => r.status)).toEqual([
      "completed",
    ]);
  });
});

describe("cancel bookkeeping", () => {
  it("allows one cancel per running run", () => {
    const none: ReadonlySet<string> = new Set();
    expect(canCancel(run("a"), none)).toBe(true);
    expect(canCancel(run("a", "completed"), none)).toBe(false);
    const one = withCancelling(none, "a", true);
    expect(canCancel(run("a"), one)).toBe(false);
    expect(withCancelling(one, "a", true)).toBe(one);
    expect(withCancelling(one, "a", false).has("a")).toBe(false);
  });

  it("settles cancels whose runs ended, and keeps the rest", () => {
    const s = new Set(["a", "b", "gone"]);
    const next = settleCancelling(s, [run("a", "aborted"), run("b")]);
    expect([...next].sort()).toEqual(["b", "gone"]);
    expect(settleCancelling(next, [run("b")])).toBe(next);
  });
});
