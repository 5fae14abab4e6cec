import type { AgentClient } from "@runboard/client";
import type { AgentToolRun as Run } from "@runboard/protocol";
import type { UseAgentToolEventsResult } from "@runboard/react";

export function Tray(_: {
  agent: AgentClient<Record<string, unknown>>;
  runs: UseAgentToolEventsResult;
  onDrillIn: (r: Run) => void;
}) {
  return null;
}
