/** A child run beside its tool call, built from `AgentToolRun`, `Progress` and `MilestoneTimeline`. */
import type { AgentClientOptions, AgentToolRuns } from "@runboard/client";
import type { AgentToolRunState as Run } from "@runboard/protocol";
import { runTitle } from "@runboard/protocol/view";
import { AgentToolRun, MilestoneTimeline, type NestedRuns } from "@runboard/react";
import { createContext, type ReactNode, useContext } from "react";
import { RunProgress } from "./run-progress.tsx";
import { StatusIcon } from "./status-icon.tsx";

/**
 * The address the app's connection was made with. Top-level runs follow their child from it while open, so
 * a child's own runs (the "nested" word) show inside it; without it (tests of the conversation) nothing follows.
 */
export const FollowAddressContext = createContext<AgentClientOptions | null>(null);

type RenderPart = (part: Run["parts"][number], index: number) => ReactNode;

/** A part of a child's transcript, and below a tool call the runs the child dispatched from it. */
function transcriptPart(renderPart: RenderPart) {
  return (part: Run["parts"][number], index: number, _run: Run, nested: NestedRuns | null) => {
    const id = (part as { toolCallId?: unknown }).toolCallId;
    const inner = nested && typeof id === "string" ? nested.getRunsForToolCall(id) : [];
    return (
      <>
        {renderPart(part, index)}
        {nested &&
          inner.map((r) => (
            <RunView key={r.runId} store={nested.runs} run={r} renderPart={renderPart} nested />
          ))}
      </>
    );
  };
}

export function RunView({
  store,
  run,
  renderPart,
  onDrillIn,
  nested = false,
}: {
  store: AgentToolRuns;
  run: Run;
  renderPart: RenderPart;
  /** Drill-in opens a child of the app's own agent; a nested run's child is one level deeper, so none. */
  onDrillIn?: (run: Run) => void;
  /** A run of a followed child: it follows on from its parent run, not from the app's address. */
  nested?: boolean;
}) {
  const address = useContext(FollowAddressContext);
  const follow = !nested && address ? { follow: address } : {};
  // A finished run is read, not watched: its header and result stay, the rest goes behind Details.
  const done = run.status === "completed";
  const title = runTitle(run);
  return (
    <AgentToolRun.Root
      store={store}
      runId={run.runId}
      {...(onDrillIn ? { onDrillIn } : {})}
      {...follow}
      className="run-card"
    >
      <AgentToolRun.Header className="run-header">
        {/* The server's icon is an emoji (no font for it in many browsers): a drawn status glyph instead. */}
        <AgentToolRun.Icon className="run-icon">
          <StatusIcon status={run.status} />
        </AgentToolRun.Icon>
        <AgentToolRun.Title className="run-title" />
        {/* The class name only when it says something the display name does not ("Researcher Researcher"). */}
        {title !== run.agentType && <AgentToolRun.AgentType className="muted" />}
        <AgentToolRun.Status className="badge" />
        <AgentToolRun.Elapsed className="muted" />
        <AgentToolRun.Trigger className="link run-trigger">Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      {!done && <RunProgress run={run} />}
      <MilestoneTimeline.Root run={run}>
        {/* Mounted from the start, so milestones that land later are announced (and earlier ones are not). */}
        <MilestoneTimeline.Announcer />
        {/* While it runs the milestones are its story at a glance; once done they move behind Details. */}
        {!done && run.milestones.length > 0 && <MilestoneTimeline.List className="timeline" />}
      </MilestoneTimeline.Root>
      {/* The result stays readable when the details close on completion; long ones are cut with "Show all". */}
      <AgentToolRun.Result className="run-result" maxLines={6} maxLength={400}>
        <AgentToolRun.ResultText />
        <AgentToolRun.ResultToggle className="link" />
      </AgentToolRun.Result>
      <AgentToolRun.Content className="run-body">
        {done && <RunProgress run={run} />}
        {done && run.milestones.length > 0 && (
          <MilestoneTimeline.Root run={run}>
            <MilestoneTimeline.List className="timeline" />
          </MilestoneTimeline.Root>
        )}
        <AgentToolRun.Transcript className="run-transcript">
          {transcriptPart(renderPart)}
        </AgentToolRun.Transcript>
        {/* An interrupted run with a reason is explained by Interrupted in words; the server's text would repeat it. */}
        {!(run.status === "interrupted" && run.reason) && <AgentToolRun.Error role="alert" />}
        <AgentToolRun.Interrupted />
        <div className="actions run-actions">
          <AgentToolRun.Retry>Retry</AgentToolRun.Retry>
          <AgentToolRun.Reconnect>Reconnect</AgentToolRun.Reconnect>
          {onDrillIn && <AgentToolRun.DrillIn>Open the helper's chat</AgentToolRun.DrillIn>}
        </div>
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}
