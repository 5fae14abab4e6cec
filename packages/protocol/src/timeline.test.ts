import { describe, expect, it } from "vitest";
import type { AgentToolMilestone } from "./agent-tool-runs.ts";
import { milestoneAnnouncement, timelineItems, unseenMilestones } from "./timeline.ts";

const ms = (name: string, sequence: number): AgentToolMilestone => ({ name, sequence, at: 1000 + sequence });

describe("timelineItems", () => {
  it("orders reached milestones by sequence and marks only the latest current", () => {
    const items = timelineItems([ms("b", 1), ms("a", 0)]);
    expect(items.map((i) => [i.name, i.status, i.current])).toEqual([
      ["a", "reached", false],
      ["b", "reached", true],
    ]);
  });

  it("appends expected names not reached yet as upcoming, once each, in the given order", () => {
    const items = timelineItems([ms("sources", 0)], ["sources", "draft", "review", "draft"]);
    expect(items.map((i) => [i.name, i.status])).toEqual([
      ["sources", "reached"],
      ["draft", "upcoming"],
      ["review", "upcoming"],
    ]);
    expect(new Set(items.map((i) => i.key)).size).toBe(3);
  });

  it("has no current step before any milestone", () => {
    expect(timelineItems([], ["a"]).some((i) => i.current)).toBe(false);
  });

  it("counts the earlier milestones a run no longer keeps in one first entry", () => {
    const items = timelineItems([ms("draft", 40), ms("step", 41)], ["sources", "draft", "review"], 1500);
    expect(items.map((i) => [i.name, i.status])).toEqual([
      ["1,500 earlier milestones", "omitted"],
      ["draft", "reached"],
      ["step", "reached"],
      // "sources" comes before "draft", reached: it was among the omitted ones, so it is not upcoming.
      ["review", "upcoming"],
    ]);
    expect(items[0]).toMatchObject({ count: 1500, current: false });
    expect(items.filter((i) => i.current).map((i) => i.name)).toEqual(["step"]);
    expect(timelineItems([ms("a", 9)], [], 1)[0]?.name).toBe("1 earlier milestone");
  });
});

describe("announcements", () => {
  it("finds only milestones not seen before", () => {
    expect(unseenMilestones(new Set([0]), [ms("a", 0), ms("b", 1)]).map((m) => m.name)).toEqual(["b"]);
    expect(unseenMilestones(new Set([0, 1]), [ms("a", 0), ms("b", 1)])).toEqual([]);
  });
  it("says one milestone or lists several", () => {
    expect(milestoneAnnouncement([ms("a", 0)])).toBe("Milestone reached: a");
    expect(milestoneAnnouncement([ms("a", 0), ms("b", 1)])).toBe("Milestones reached: a, b");
    expect(milestoneAnnouncement([])).toBe("");
  });
});
