/**
 * A synchronous sub-agent call (caliban's `AgentTool`, the `delegate` word): a plain tool part with no agent-tool
 * events, shown as a run with its prompt, allowed tools, model, the parent's wait, and a result the agent cut.
 */
import type { SyncAgentToolRun } from "@runboard/protocol";
import { AgentToolRun } from "@runboard/react";
import { StatusIcon } from "./status-icon.tsx";

export function SyncRun({ run }: { run: SyncAgentToolRun }) {
  return (
    <AgentToolRun.Root run={run} className="run-card sync-run" defaultOpen>
      <AgentToolRun.Header className="run-header">
        <AgentToolRun.Icon className="run-icon">
          <StatusIcon status={run.status} />
        </AgentToolRun.Icon>
        <AgentToolRun.Title className="run-title" /> <span className="muted">sub-agent</span>{" "}
        <AgentToolRun.Status className="badge" />
        <AgentToolRun.Trigger className="link run-trigger">Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Blocked className="muted" />
      <AgentToolRun.Content className="run-body">
        <dl className="sync-facts">
          <dt>Prompt</dt>
          <dd>
            <AgentToolRun.Prompt />
          </dd>
          <dt>Allowed tools</dt>
          <dd>
            <AgentToolRun.AllowedTools className="tool-list" />
          </dd>
          <dt>Model</dt>
          <dd>
            <AgentToolRun.Model />
          </dd>
        </dl>
        <AgentToolRun.Error role="alert" />
      </AgentToolRun.Content>
      {/* The result stays in sight when the details close on completion. */}
      <AgentToolRun.Result className="run-result" maxLines={6} maxLength={400}>
        <AgentToolRun.ResultText />
        <AgentToolRun.ResultToggle className="link" />
      </AgentToolRun.Result>
      <AgentToolRun.CutByAgent className="cut-mark" />
    </AgentToolRun.Root>
  );
}
