/** A child run beside its tool call, built from `AgentToolRun`, `Progress` and `MilestoneTimeline`. */
import type { AgentToolRuns } from "@runboard/client";
import type { AgentToolRun as Run } from "@runboard/protocol";
import { AgentToolRun, MilestoneTimeline } from "@runboard/react";
import type { ReactNode } from "react";
import { RunProgress } from "./run-progress.tsx";

export function RunView({
  store,
  run,
  renderPart,
  onDrillIn,
}: {
  store: AgentToolRuns;
  run: Run;
  renderPart: (part: Run["parts"][number], index: number) => ReactNode;
  onDrillIn: (run: Run) => void;
}) {
  return (
    <AgentToolRun.Root runs={store} runId={run.runId} onDrillIn={onDrillIn} className="run-card">
      <AgentToolRun.Header className="run-header">
        <AgentToolRun.Icon /> <AgentToolRun.Title className="run-title" />{" "}
        {run.display?.name && <AgentToolRun.AgentType className="muted" />}{" "}
        <AgentToolRun.Status className="badge" /> <AgentToolRun.Elapsed className="muted" />
        <AgentToolRun.Trigger className="link">Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <RunProgress run={run} />
      <MilestoneTimeline.Root run={run}>
        {/* Mounted from the start, so milestones that land later are announced (and earlier ones are not). */}
        <MilestoneTimeline.Announcer />
        {/* Milestones stay in sight when the details are closed: they are the run's story at a glance. */}
        {run.milestones.length > 0 && <MilestoneTimeline.List className="timeline" />}
      </MilestoneTimeline.Root>
      {/* The result stays readable when the details close on completion; long ones are cut with "Show all". */}
      <AgentToolRun.Result className="run-result" maxLines={3} maxLength={240}>
        <AgentToolRun.ResultText />
        <AgentToolRun.ResultToggle className="link" />
      </AgentToolRun.Result>
      <AgentToolRun.Content className="run-body">
        <AgentToolRun.Input />
        <AgentToolRun.Transcript>{renderPart}</AgentToolRun.Transcript>
        <AgentToolRun.Error role="alert" />
        <AgentToolRun.Interrupted />
        <div className="actions run-actions">
          <AgentToolRun.Retry>Retry</AgentToolRun.Retry>
          <AgentToolRun.Reconnect>Reconnect</AgentToolRun.Reconnect>
          <AgentToolRun.DrillIn>Open the helper's chat</AgentToolRun.DrillIn>
        </div>
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}
