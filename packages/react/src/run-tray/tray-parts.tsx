/** The shared run parts of `AgentToolRun` (`run-parts.tsx`) as `RunTray` names them: `RunTray.Title`, … */
import { createRunParts } from "../agent-tool-run/run-part-set.tsx";

/** `RunTray.Icon`, `.Title`, `.Status`, `.Progress`, `.Phase`, `.Message`, `.Milestones`, `.Milestone`, `.Elapsed`, `.Error`, `.Cancel`. */
export const runTrayParts = createRunParts({
  ns: "RunTray",
  root: "RunTray.List",
  cancelHint: "pass onCancel, or agent (useAgent()) to RunTray.Root.",
});
