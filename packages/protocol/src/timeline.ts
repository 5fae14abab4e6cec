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

/** One step of the timeline: a milestone the run reached, or an expected one it has not reached yet. */
export type TimelineItem =
  | { status: "reached"; key: string; name: string; milestone: AgentToolMilestone; current: boolean }
  | { status: "upcoming"; key: string; name: string; milestone?: undefined; current: false };

/**
 * Reached milestones in the child's own order (`sequence`), the last one current, then the `expected`
 * names not reached yet, in the order given (each once).
 */
export function timelineItems(
  milestones: readonly AgentToolMilestone[],
  expected: readonly string[] = [],
): TimelineItem[] {
  const reached = bySequence(milestones);
  const names = new Set(reached.map((m) => m.name));
  const items: TimelineItem[] = reached.map((m, i) => ({
    status: "reached",
    key: `reached:${m.sequence}`,
    name: m.name,
    milestone: m,
    current: i === reached.length - 1,
  }));
  for (const name of expected) {
    if (names.has(name)) continue;
    names.add(name);
    items.push({ status: "upcoming", key: `upcoming:${name}`, name, current: false });
  }
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
