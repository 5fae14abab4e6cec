import { describe, expect, it } from "vitest";
import { AgentToolRuns } from "./agent-tool-runs.ts";

/** A socket double: frames go to the store as `message` events. */
function fakeAgent() {
  const target = new EventTarget();
  return {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    send: (frame: unknown) =>
      target.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })),
  };
}
const started = (id: string) => ({
  type: "agent-tool-event",
  parentToolCallId: id,
  sequence: 0,
  event: { kind: "started", runId: `agent-tool:${id}`, agentType: "Verifier", order: 0 },
});
const ended = (id: string, event: Record<string, unknown>) => ({
  type: "agent-tool-event",
  parentToolCallId: id,
  sequence: 1,
  event: { runId: `agent-tool:${id}`, ...event },
});
const outputChunk = (toolCallId: string, output: unknown) => ({
  type: "cf_agent_use_chat_response",
  id: "req-1",
  done: false,
  body: JSON.stringify({ type: "tool-output-available", toolCallId, output }),
});

describe("AgentToolRuns: the failure envelope", () => {
  it("joins the parent tool part's envelope to its run: live chunk and transcript on connect", () => {
    const agent = fakeAgent();
    const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
    agent.send(started("c1"));
    agent.send(ended("c1", { kind: "interrupted", error: "stalled" }));
    agent.send(
      outputChunk("c1", {
        ok: false,
        status: "interrupted",
        error: "stalled",
        retryable: true,
        reason: "no-progress",
        childStillRunning: false,
      }),
    );
    expect(runs.getSnapshot().runsById["agent-tool:c1"]).toMatchObject({
      status: "interrupted",
      retryable: true,
      reason: "no-progress",
      childStillRunning: false,
      failure: { status: "interrupted", reason: "no-progress" },
    });
    // A transcript sent on connect, before the runs are replayed.
    agent.send({
      type: "cf_agent_chat_messages",
      messages: [
        {
          id: "m1",
          role: "assistant",
          parts: [
            {
              type: "tool-verify",
              toolCallId: "c2",
              state: "output-available",
              input: {},
              output: {
                ok: false,
                status: "aborted",
                error: "agent tool run was cancelled",
                retryable: false,
              },
            },
          ],
        },
      ],
    });
    agent.send(started("c2"));
    expect(runs.getSnapshot().runsById["agent-tool:c2"]).toMatchObject({
      status: "aborted",
      retryable: false,
      failure: { status: "aborted", error: "agent tool run was cancelled" },
    });
    expect(runs.retry("agent-tool:c2")).toBe(false);
    runs.dispose();
  });

  it("shows a malformed envelope as a generic failure and reports it once through onError", () => {
    const agent = fakeAgent();
    const errors: Error[] = [];
    const runs = new AgentToolRuns({ agent, storage: null, throttleMs: 0, onError: (e) => errors.push(e) });
    agent.send(started("bad"));
    const broken = { ok: false, status: "exploded", error: "<b>raw</b>", retryable: "maybe" };
    expect(() => {
      agent.send(outputChunk("bad", broken));
      agent.send(outputChunk("bad", broken));
      agent.send({
        type: "cf_agent_chat_messages",
        messages: [
          {
            id: "m",
            role: "assistant",
            parts: [{ type: "tool-verify", toolCallId: "bad", state: "output-available", output: broken }],
          },
        ],
      });
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("unknown 'status'");
    const run = runs.getSnapshot().runsById["agent-tool:bad"];
    expect(run).toMatchObject({
      status: "error",
      retryable: false,
      failure: { malformed: true, status: "error" },
    });
    expect(run?.failure?.error).toContain("<b>raw</b>");
    runs.dispose();
  });
});
