/** The shared run parts (`run-parts.tsx`) as `AgentToolRun` names them: `AgentToolRun.Title`, … */
import { createRunParts } from "./run-part-set.tsx";

/** `AgentToolRun.Icon`, `.Title`, `.Status`, `.Progress`, `.Phase`, `.Message`, `.Milestones`, `.Milestone`, `.Elapsed`, `.Error`, `.Cancel`. */
export const agentToolRunParts = createRunParts({
  ns: "AgentToolRun",
  root: "AgentToolRun.Root",
  cancelHint:
    "pass onCancel, or agent (useAgent()) to AgentToolRun.Root, or runs (useAgentToolEvents({ agent }).store).",
});
