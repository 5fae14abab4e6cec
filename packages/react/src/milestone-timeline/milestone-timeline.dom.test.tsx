/** MilestoneTimeline from run snapshots: list semantics, the current step, and what the live region says. */
import type { AgentToolMilestone, AgentToolRunState } from "@runboard/protocol";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MilestoneTimeline } from "./milestone-timeline.tsx";

afterEach(cleanup);

const ms = (name: string, sequence: number, data?: unknown): AgentToolMilestone => ({
  name,
  sequence,
  at: Date.UTC(2026, 0, 1, 12, 0, sequence),
  ...(data === undefined ? {} : { data }),
});
const run = (
  milestones: AgentToolMilestone[],
  fraction = 0.1,
): Pick<AgentToolRunState, "milestones" | "progress"> => ({
  milestones,
  progress: { fraction, at: 0 },
});

function Timeline({ r }: { r: Pick<AgentToolRunState, "milestones"> }) {
  return (
    <MilestoneTimeline.Root run={r} expected={["sources", "draft", "review"]}>
      <MilestoneTimeline.List aria-label="Milestones">
        {() => (
          <MilestoneTimeline.Item>
            <MilestoneTimeline.Name /> <MilestoneTimeline.Time />
            <MilestoneTimeline.Data>{(d) => <code>{JSON.stringify(d)}</code>}</MilestoneTimeline.Data>
          </MilestoneTimeline.Item>
        )}
      </MilestoneTimeline.List>
      <MilestoneTimeline.Announcer />
    </MilestoneTimeline.Root>
  );
}

describe("MilestoneTimeline", () => {
  it("lists reached steps in order, marks the latest current and expected ones upcoming", () => {
    render(<Timeline r={run([ms("draft", 1, { words: 300 }), ms("sources", 0)])} />);
    const list = screen.getByRole("list", { name: "Milestones" });
    expect(list.tagName).toBe("OL");
    const items = within(list).getAllByRole("listitem");
    expect(items.map((i) => [i.getAttribute("data-name"), i.getAttribute("data-status")])).toEqual([
      ["sources", "reached"],
      ["draft", "reached"],
      ["review", "upcoming"],
    ]);
    expect(items.map((i) => i.getAttribute("aria-current"))).toEqual([null, "step", null]);
    const time = items[1]?.querySelector("time");
    expect(time?.getAttribute("datetime")).toBe("2026-01-01T12:00:01.000Z");
    expect(items[1]?.textContent).toContain('{"words":300}');
    expect(items[2]?.querySelector("time")).toBeNull();
  });

  it("announces a new milestone once, and neither old ones nor progress ticks", () => {
    const first = run([ms("sources", 0)]);
    const { rerender } = render(<Timeline r={first} />);
    const region = screen.getByRole("status");
    expect(region.getAttribute("aria-live")).toBe("polite");
    expect(region.textContent).toBe("");

    rerender(<Timeline r={{ ...first, progress: { fraction: 0.5, at: 1 } } as typeof first} />);
    expect(region.textContent).toBe("");

    const second = run([ms("sources", 0), ms("draft", 1)]);
    act(() => rerender(<Timeline r={second} />));
    expect(region.textContent).toBe("Milestone reached: draft");

    // A progress tick with a new run object but the same milestones says nothing new.
    act(() => rerender(<Timeline r={{ ...second, milestones: [...second.milestones] }} />));
    expect(region.textContent).toBe("Milestone reached: draft");
    expect(screen.getAllByRole("listitem")[1]?.getAttribute("aria-current")).toBe("step");
  });

  it("List takes nodes as the entry for every step, and the default Item shows name and time", () => {
    render(
      <MilestoneTimeline.Root milestones={[ms("sources", 0)]} expected={["draft"]}>
        <MilestoneTimeline.List aria-label="Steps">
          <MilestoneTimeline.Item className="step" />
        </MilestoneTimeline.List>
      </MilestoneTimeline.Root>,
    );
    const items = within(screen.getByRole("list", { name: "Steps" })).getAllByRole("listitem");
    expect(
      items.map((i) => [i.className, i.getAttribute("data-status"), i.querySelector("span")?.textContent]),
    ).toEqual([
      ["step", "reached", "sources"],
      ["step", "upcoming", "draft"],
    ]);
    expect(items[0]?.querySelector("time")?.getAttribute("datetime")).toBe("2026-01-01T12:00:00.000Z");
  });

  it("names the part and the fix when used outside its root", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<MilestoneTimeline.List />)).toThrow(
      "<MilestoneTimeline.List> must be rendered inside <MilestoneTimeline.Root>",
    );
    spy.mockRestore();
  });
});
