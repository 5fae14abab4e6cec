/**
 * The rules of a milestone timeline: the order of reached and upcoming steps, which one is current, and
 * which milestones are new enough to announce. Pure, for any view of a run's milestones.
 */
import type { AgentToolMilestone } from "./agent-tool-runs.ts";

/**
 * The milestones by `sequence`. The reducer keeps them sorted already, so this is a check, not a sort: a render
 * no longer sorts the run's whole history again.
 */
function bySequence(milestones: readonly AgentToolMilestone[]): readonly AgentToolMilestone[] {
  for (let i = 1; i < milestones.length; i++)
    if ((milestones[i - 1] as AgentToolMilestone).sequence > (milestones[i] as AgentToolMilestone).sequence)
      return [...milestones].sort((a, b) => a.sequence - b.sequence);
  return milestones;
}

/**
 * One step of the timeline: a milestone the run reached, an expected one it has not reached yet, or (first)
 * the earlier milestones the run reached but no longer keeps (`AgentToolRun.omittedMilestones`), as one entry.
 */
export type TimelineItem =
  | { status: "reached"; key: string; name: string; milestone: AgentToolMilestone; current: boolean }
  | { status: "upcoming"; key: string; name: string; milestone?: undefined; current: false }
  | { status: "omitted"; key: string; name: string; count: number; milestone?: undefined; current: false };

/** `1 earlier milestone`, `1,500 earlier milestones`: the name of the omitted entry. */
export const omittedMilestonesText = (count: number): string =>
  `${count.toLocaleString("en")} earlier milestone${count === 1 ? "" : "s"}`;

/**
 * Reached milestones in the child's own order (`sequence`), the last one current, then the `expected`
 * names not reached yet, in the order given (each once). With `omitted` (earlier milestones the run no
 * longer keeps) an entry counting them comes first, and an expected name listed before one reached is not
 * shown as upcoming: it was reached among the omitted ones.
 */
export function timelineItems(
  milestones: readonly AgentToolMilestone[],
  expected: readonly string[] = [],
  omitted = 0,
): TimelineItem[] {
  const reached = bySequence(milestones);
  const names = new Set(reached.map((m) => m.name));
  const items: TimelineItem[] = [];
  if (omitted > 0)
    items.push({
      status: "omitted",
      key: "omitted",
      name: omittedMilestonesText(omitted),
      count: omitted,
      current: false,
    });
  reached.forEach((m, i) => {
    items.push({
      status: "reached",
      key: `reached:${m.sequence}`,
      name: m.name,
      milestone: m,
      current: i === reached.length - 1,
    });
  });
  let lastReached = -1;
  if (omitted > 0) for (const [i, name] of expected.entries()) if (names.has(name)) lastReached = i;
  expected.forEach((name, i) => {
    if (names.has(name) || i < lastReached) return;
    names.add(name);
    items.push({ status: "upcoming", key: `upcoming:${name}`, name, current: false });
  });
  return items;
}

/** Milestones whose sequence is not in `seen`, in order: what a live region should say now. */
export function unseenMilestones(
  seen: ReadonlySet<number>,
  milestones: readonly AgentToolMilestone[],
): AgentToolMilestone[] {
  return bySequence(milestones).filter((m) => !seen.has(m.sequence));
}

/** Default announcement: `Milestone reached: sources-gathered`, several joined in one sentence. */
export function milestoneAnnouncement(fresh: readonly AgentToolMilestone[]): string {
  if (fresh.length === 0) return "";
  const names = fresh.map((m) => m.name);
  return fresh.length === 1 ? `Milestone reached: ${names[0]}` : `Milestones reached: ${names.join(", ")}`;
}
