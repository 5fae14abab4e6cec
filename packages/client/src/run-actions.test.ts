/**
 * Run actions without any UI: the cancel a tray or a run card sends, its in-flight and failure rules, retry
 * and reconnect gating, and what this client saw of a run, per instance. Also through an `AgentToolRuns`
 * store fed agent-tool frames, as `useAgentToolEvents` holds it.
 */
import type { AgentToolEvent, AgentToolEventFrame, AgentToolRunState } from "@runboard/protocol";
import { describe, expect, it, vi } from "vitest";
import { AgentToolRuns } from "./agent-tool-runs.ts";
import { RunActions } from "./run-actions.ts";

const run = (runId: string, extra: Partial<AgentToolRunState> = {}): AgentToolRunState => ({
  runId,
  agentType: "Researcher",
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: runId },
  ...extra,
});

/** An agent whose `call` the test settles by hand. */
function fakeAgent() {
  const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const call = vi.fn(
    (_method: string, _args?: unknown[]) =>
      new Promise<unknown>((resolve, reject) => pending.push({ resolve, reject })),
  );
  return { agent: { call }, call, pending };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("RunActions cancel", () => {
  it("sends one cancelAgentTool call however often it is asked, and reads cancelling until the run ends", () => {
    const { agent, call } = fakeAgent();
    const actions = new RunActions({ agent });
    const heard = vi.fn();
    actions.subscribe(heard);
    const a = run("a");
    expect(actions.cancel(a)).toBe(true);
    expect(actions.cancel(a)).toBe(false);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("cancelAgentTool", ["a", "Cancelled by the user"]);
    expect(actions.isCancelling("a")).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    // A progress tick changes nothing; the end does.
    actions.settle([{ ...a, progress: { fraction: 0.5, at: 1 } }]);
    expect(actions.isCancelling("a")).toBe(true);
    actions.settle([{ ...a, status: "aborted" }]);
    expect(actions.isCancelling("a")).toBe(false);
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it("goes back to running and tells onError when the call fails; then it can be sent again", async () => {
    const { agent, call, pending } = fakeAgent();
    const onError = vi.fn();
    const actions = new RunActions({ agent, cancelMethod: "cancelRun", cancelReason: "stop", onError });
    const a = run("a");
    actions.cancel(a);
    expect(call).toHaveBeenCalledWith("cancelRun", ["a", "stop"]);
    const failure = new Error("Method cancelRun is not callable");
    pending[0]?.reject(failure);
    await flush();
    expect(onError).toHaveBeenCalledWith(failure, a);
    expect(actions.getSnapshot().cancelling.size).toBe(0);
    expect(actions.cancel(a)).toBe(true);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it("sends nothing for a finished run or without a way to send it", () => {
    expect(new RunActions().canSendCancel()).toBe(false);
    expect(new RunActions().cancel(run("a"))).toBe(false);
    const { agent, call } = fakeAgent();
    expect(new RunActions({ agent }).cancel(run("a", { status: "completed" }))).toBe(false);
    expect(call).not.toHaveBeenCalled();
  });

  it("a caller's own onCancel or agent replaces the defaults' whole; a synchronous throw is a failure", async () => {
    const { agent, call } = fakeAgent();
    const actions = new RunActions({ agent });
    const onError = vi.fn();
    const onCancel = vi.fn(() => {
      throw new Error("nope");
    });
    expect(actions.cancel(run("a"), { onCancel, onError })).toBe(true);
    expect(call).not.toHaveBeenCalled();
    await flush();
    expect(onError).toHaveBeenCalledWith(new Error("nope"), expect.objectContaining({ runId: "a" }));
    expect(actions.isCancelling("a")).toBe(false);
    // Only a reason of the caller's: the defaults' agent sends it.
    actions.cancel(run("b"), { cancelReason: "No longer needed" });
    expect(call).toHaveBeenCalledWith("cancelAgentTool", ["b", "No longer needed"]);
  });
});

describe("RunActions retry and reconnect", () => {
  it("offers retry for retryable stopped runs, reconnect for a child still running, each only with its handler", () => {
    const onRetry = vi.fn();
    const onReconnect = vi.fn();
    const actions = new RunActions({ onRetry, onReconnect });
    // agents 0.32 calls an `error` run not retryable (docs/protocol.md#agent-tool-failure-envelope): no Retry.
    expect(actions.retry(run("e", { status: "error", retryable: false }))).toBe(false);
    const failed = run("f", { status: "interrupted", childStillRunning: false, retryable: true });
    const stillRunning = run("i", { status: "interrupted", childStillRunning: true });
    expect(actions.retry(failed)).toBe(true);
    expect(onRetry).toHaveBeenCalledWith(failed);
    expect(actions.retry(stillRunning)).toBe(false);
    expect(actions.reconnect(failed)).toBe(false);
    expect(actions.reconnect(stillRunning)).toBe(true);
    expect(onReconnect).toHaveBeenCalledWith(stillRunning);
    expect(actions.retry(run("c", { status: "completed" }))).toBe(false);
    expect(new RunActions().canRetry(failed)).toBe(false);
    expect(new RunActions().canRetry(failed, { onRetry })).toBe(true);
  });
});

describe("RunActions retry and reconnect through the agent", () => {
  it("retry sends one retryAgentTool call with the run id however often pressed, and is offered again once answered", async () => {
    const { agent, call, pending } = fakeAgent();
    const actions = new RunActions({ agent });
    const stopped = run("s", { status: "interrupted", childStillRunning: false });
    expect(actions.canRetry(stopped)).toBe(true);
    expect(actions.retry(stopped)).toBe(true);
    expect(actions.retry(stopped)).toBe(false);
    expect(actions.canRetry(stopped)).toBe(false);
    expect(actions.isRecovering("s")).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("retryAgentTool", ["s"]);
    pending[0]?.resolve({ runId: "s", status: "completed" });
    await flush();
    expect(actions.isRecovering("s")).toBe(false);
    expect(actions.canRetry(stopped)).toBe(true);
  });

  it("a failed retry makes the run retryable again and tells onRetryError (else onError) why", async () => {
    const { agent, call, pending } = fakeAgent();
    const onError = vi.fn();
    const actions = new RunActions({ agent, retryMethod: "redoRun", onError });
    const stopped = run("s", { status: "interrupted" });
    actions.retry(stopped);
    expect(call).toHaveBeenCalledWith("redoRun", ["s"]);
    const failure = new Error("Method redoRun is not callable");
    pending[0]?.reject(failure);
    await flush();
    expect(onError).toHaveBeenCalledWith(failure, stopped);
    expect(actions.canRetry(stopped)).toBe(true);
    const onRetryError = vi.fn();
    actions.retry(stopped, { onRetryError });
    pending[1]?.reject(failure);
    await flush();
    expect(onRetryError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it("reconnect calls the reconnectMethod (default: the retryMethod) once for a child still running", () => {
    const { agent, call } = fakeAgent();
    const stillRunning = run("r", { status: "interrupted", childStillRunning: true });
    const actions = new RunActions({ agent, retryMethod: "redoRun" });
    expect(actions.canRetry(stillRunning)).toBe(false);
    expect(actions.reconnect(stillRunning)).toBe(true);
    expect(actions.reconnect(stillRunning)).toBe(false);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("redoRun", ["r"]);
    const other = new RunActions({ agent, reconnectMethod: "reattachRun" });
    other.reconnect(stillRunning);
    expect(call).toHaveBeenLastCalledWith("reattachRun", ["r"]);
  });

  it("a run that moves on (its real end arrives) is no longer recovering, even before the call answers", () => {
    const { agent } = fakeAgent();
    const actions = new RunActions({ agent });
    const stopped = run("s", { status: "interrupted" });
    actions.retry(stopped);
    actions.settle([{ ...stopped, parts: [] }]);
    expect(actions.isRecovering("s")).toBe(true);
    actions.settle([{ ...stopped, status: "completed", summary: "done" }]);
    expect(actions.isRecovering("s")).toBe(false);
  });

  it("a synchronous throw from onRetry is a failed retry, not an exception", async () => {
    const onError = vi.fn();
    const actions = new RunActions({
      onRetry: () => {
        throw new Error("nope");
      },
      onError,
    });
    expect(actions.retry(run("e", { status: "interrupted" }))).toBe(true);
    await flush();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(actions.isRecovering("e")).toBe(false);
  });
});

describe("RunActions seen times", () => {
  it("keeps first sight and end per instance; a new run object is a signal", () => {
    const one = new RunActions();
    const other = new RunActions();
    const a = run("a");
    expect(one.timesOf(a, 1000)).toEqual({ startedAt: 1000, endedAt: null });
    expect(one.timesOf(a, 5000)).toEqual({ startedAt: 1000, endedAt: null });
    expect(one.observe({ ...a }, 6000).lastSignalAt).toBe(6000);
    expect(one.timesOf({ ...a, status: "completed" }, 9000)).toEqual({ startedAt: 1000, endedAt: 9000 });
    // Another connection's store saw nothing of it: a run first seen finished has no start.
    expect(other.timesOf({ ...a, status: "completed" }, 9500)).toEqual({ startedAt: null, endedAt: 9500 });
  });

  it("once a store records frames, views read the receive times whenever they render", () => {
    const actions = new RunActions();
    const a = run("a");
    actions.record(a, 1000);
    // The same object changed in place between two publishes is still a new signal.
    actions.record(a, 2000);
    const view = { ...a };
    expect(actions.seenOf(view, 7000)).toMatchObject({
      lastSignalAt: 2000,
      times: { startedAt: 1000, endedAt: null },
    });
    expect(actions.timesOf(view, 8000)).toEqual({ startedAt: 1000, endedAt: null });
    actions.record({ ...a, status: "completed" }, 3000);
    expect(actions.seenOf(view, 9000)).toMatchObject({
      lastSignalAt: 3000,
      times: { startedAt: 1000, endedAt: 3000 },
    });
  });
});

/** Just enough of a connection: frames in through "message" events, callables out through `call`. */
class FrameAgent extends EventTarget {
  call = vi.fn(async (_method: string, _args?: unknown[]) => true);
  frame(sequence: number, event: AgentToolEvent) {
    const f: AgentToolEventFrame = { type: "agent-tool-event", sequence, event };
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) }));
  }
}

describe("AgentToolRuns run actions", () => {
  it("cancels a run by id through the agent's callable, and the aborted frame ends cancelling", () => {
    const agent = new FrameAgent();
    const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    agent.frame(0, { kind: "started", runId: "r1", agentType: "Researcher", order: 0 });
    expect(runs.cancel("r1")).toBe(true);
    expect(runs.cancel("r1")).toBe(false);
    expect(runs.cancel("unknown")).toBe(false);
    expect(agent.call).toHaveBeenCalledTimes(1);
    expect(agent.call).toHaveBeenCalledWith("cancelAgentTool", ["r1", "Cancelled by the user"]);
    expect(runs.actions.isCancelling("r1")).toBe(true);
    agent.frame(1, { kind: "aborted", runId: "r1", reason: "Cancelled by the user" });
    expect(runs.getSnapshot().runsById.r1?.status).toBe("aborted");
    expect(runs.actions.isCancelling("r1")).toBe(false);
    runs.dispose();
  });

  it("cannot cancel over a connection without call; retry goes to onRetry", () => {
    const target = new EventTarget();
    const onRetry = vi.fn();
    const runs = new AgentToolRuns({ agent: target, storage: null, throttleMs: 0, onRetry });
    const frame = (sequence: number, event: AgentToolEvent) =>
      target.dispatchEvent(
        new MessageEvent("message", { data: JSON.stringify({ type: "agent-tool-event", sequence, event }) }),
      );
    frame(0, { kind: "started", runId: "r1", agentType: "Researcher", order: 0 });
    expect(runs.cancel("r1")).toBe(false);
    frame(1, { kind: "error", runId: "r1", error: "boom" });
    expect(runs.retry("r1")).toBe(false);
    frame(0, { kind: "started", runId: "r2", agentType: "Researcher", order: 0 });
    frame(1, { kind: "interrupted", runId: "r2", error: "stalled", childStillRunning: false });
    expect(runs.retry("r2")).toBe(true);
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ runId: "r2", status: "interrupted" }));
    runs.dispose();
  });
});
