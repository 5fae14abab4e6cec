/**
 * Issue 26 §2 under React: a long session keeps `maxFinishedRuns` finished runs (the official hook keeps every
 * one: a deliberate difference), a running run stays under its tool call, and a run past `maxMilestones` shows
 * its newest milestones with one entry counting the earlier ones.
 */
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { useAgentToolEvents as useOfficialAgentToolEvents } from "agents/react";
import { afterEach, describe, expect, it } from "vitest";
import { MilestoneTimeline } from "../milestone-timeline/milestone-timeline.tsx";
import { type UseAgentToolEventsResult, useAgentToolEvents } from "../use-agent-tool-events.ts";
import { AgentToolRun } from "./agent-tool-run.tsx";

afterEach(cleanup);

/** A socket-like object both hooks accept; `deliver` hands them a frame as a message event. */
function fakeAgent() {
  const target = new EventTarget();
  return Object.assign(target, {
    deliver: (frame: unknown) => {
      act(() => void target.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })));
    },
  });
}

const ev = (runId: string, event: Record<string, unknown>, sequence: number, parent?: string) => ({
  type: "agent-tool-event",
  sequence,
  ...(parent ? { parentToolCallId: parent } : {}),
  event: { runId, ...event },
});
const startedRun = (runId: string, parent?: string) =>
  ev(runId, { kind: "started", agentType: "Researcher", order: 0, display: { name: runId } }, 0, parent);
const milestone = (runId: string, seq: number, parent?: string) =>
  ev(
    runId,
    {
      kind: "chunk",
      body: JSON.stringify({
        type: "data-agent-milestone",
        data: { name: `step ${seq}`, sequence: seq, at: 1e12 },
      }),
    },
    1,
    parent,
  );

interface Box {
  ours?: UseAgentToolEventsResult;
  official?: ReturnType<typeof useOfficialAgentToolEvents>;
}

function Both({ agent, box, max }: { agent: EventTarget; box: Box; max?: number }) {
  box.ours = useAgentToolEvents({ agent, storage: null, throttleMs: 0, maxFinishedRuns: max });
  box.official = useOfficialAgentToolEvents({ agent });
  return null;
}

/** One run as an app shows it: a timeline with expected steps and an announcer, and the run's chips. */
function LongRun({ agent, box }: { agent: EventTarget; box: Box }) {
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0, maxMilestones: 20 });
  box.ours = runs;
  const run = runs.runsById.run;
  if (!run) return null;
  return (
    <>
      <MilestoneTimeline.Root run={run} expected={["step 0", "step 49", "report"]}>
        <MilestoneTimeline.List aria-label="Timeline" />
        <MilestoneTimeline.Announcer />
      </MilestoneTimeline.Root>
      <AgentToolRun.Root run={run}>
        <AgentToolRun.Milestones />
      </AgentToolRun.Root>
    </>
  );
}

describe("a long session under React", () => {
  it("keeps maxFinishedRuns finished runs where the official hook keeps all, and a running run stays", () => {
    const agent = fakeAgent();
    const box: Box = {};
    render(<Both agent={agent} box={box} max={5} />);
    agent.deliver(startedRun("long", "call_long"));
    for (let i = 0; i < 30; i++) {
      agent.deliver(startedRun(`r${i}`, `call_${i}`));
      agent.deliver(ev(`r${i}`, { kind: "finished", summary: `done ${i}` }, 1, `call_${i}`));
    }
    expect(Object.keys(box.official?.runsById ?? {})).toHaveLength(31);
    expect(Object.keys(box.ours?.runsById ?? {}).sort()).toEqual(["long", "r25", "r26", "r27", "r28", "r29"]);
    expect(box.ours?.getRunsForToolCall("call_0")).toEqual([]);
    expect(box.ours?.getRunsForToolCall("call_long").map((r) => r.status)).toEqual(["running"]);
    expect(box.official?.getRunsForToolCall("call_long").map((r) => r.status)).toEqual(["running"]);
  });

  it("a run past maxMilestones shows its newest ones and counts the earlier ones, in the timeline and the chips", () => {
    const agent = fakeAgent();
    const box: Box = {};
    render(<LongRun agent={agent} box={box} />);
    agent.deliver(startedRun("run"));
    for (let s = 0; s < 50; s++) agent.deliver(milestone("run", s));
    const items = within(screen.getByRole("list", { name: "Timeline" })).getAllByRole("listitem");
    // 20 kept, one entry for the 30 before them, and the one expected step not reached.
    expect(items).toHaveLength(22);
    expect(items[0]?.getAttribute("data-status")).toBe("omitted");
    expect(items[0]?.getAttribute("data-count")).toBe("30");
    expect(items[0]?.textContent).toContain("30 earlier milestones");
    expect(items[1]?.getAttribute("data-name")).toBe("step 30");
    // "step 0" was reached (among the omitted ones): it is not shown as upcoming.
    const upcoming = items.filter((i) => i.getAttribute("data-status") === "upcoming");
    expect(upcoming.map((i) => i.getAttribute("data-name"))).toEqual(["report"]);
    expect(screen.getByRole("status").textContent).toBe("Milestone reached: step 49");
    const chips = within(screen.getByRole("list", { name: /milestones$/ })).getAllByRole("listitem");
    expect(chips).toHaveLength(21);
    expect(chips[0]?.textContent).toBe("30 earlier milestones");
    expect(chips[0]?.getAttribute("data-status")).toBe("omitted");
    // The next one is still announced once the oldest has left the list.
    agent.deliver(milestone("run", 50));
    expect(screen.getByRole("status").textContent).toBe("Milestone reached: step 50");
    expect(box.ours?.runsById.run?.omittedMilestones).toBe(31);
  });
});
