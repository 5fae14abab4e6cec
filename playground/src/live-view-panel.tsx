import type { AgentClient } from "@runboard/client";
import type { ApprovalRequest, UseAgentChatResult } from "@runboard/react";

export function LiveViewPanel(_: {
  agent: AgentClient<Record<string, unknown>>;
  chat: UseAgentChatResult;
  approvals: ApprovalRequest[];
}) {
  return null;
}
