import type { AgentToolRun as Run } from "@runboard/protocol";

export function RunProgress(_: { run: Run }) {
  return null;
}
