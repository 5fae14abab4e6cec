/**
 * `makeRun`: one builder for the `AgentToolRunState` objects tests feed the run components and hooks, so a
 * test names only what it is about (`makeRun({ status: "error", error: "quota" })`) and a new required field
 * is added here once.
 */
import type { AgentToolRunState } from "@runboard/protocol";

/** A running run of a `Researcher` child (`runId` "r1" unless given), with `extra` fields over the defaults. */
export function makeRun(extra: Partial<AgentToolRunState> = {}): AgentToolRunState {
  const runId = extra.runId ?? "r1";
  return {
    runId,
    agentType: "Researcher",
    display: { name: "Research" },
    order: 0,
    status: "running",
    parts: [],
    milestones: [],
    subAgent: { agent: "Researcher", name: runId },
    ...extra,
  };
}
