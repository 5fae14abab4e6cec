/** `MilestoneTimeline`: the milestones a run reached, upcoming expected ones, and a live announcement. */
export * from "./milestone-timeline.tsx";
