/**
 * Background runs (detached `runAgentTool` runs, not tied to a tool call in the chat) in a `RunTray`: cancel
 * through the agent's `cancelAgentTool` callable, retry or reconnect an interrupted one through its
 * `retryAgentTool` callable, open a run's own chat, dismiss finished ones.
 */
import type { AgentToolRunState as Run } from "@runboard/protocol";
import { recoveryFor, toolInputGist } from "@runboard/protocol/view";
import { Progress, RunTray, type UseAgentToolEventsResult } from "@runboard/react";
import { useState } from "react";
import { StatusIcon } from "./status-icon.tsx";

/** The first plain values of a run's input preview (a JSON text, or any value), as a short line. */
export function inputGist(preview: unknown): string {
  if (typeof preview !== "string") return toolInputGist(preview, 3);
  try {
    return toolInputGist(JSON.parse(preview), 3);
  } catch {
    return toolInputGist(preview);
  }
}

export function Tray({ runs, onDrillIn }: { runs: UseAgentToolEventsResult; onDrillIn: (r: Run) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <RunTray.Root
      // The store, as the inline run cards have it: a cancel sent here reads there too, and is sent once.
      store={runs.store}
      onDrillIn={onDrillIn}
      onError={(e, run) =>
        setFailure(
          `Could not ${run.status === "running" ? "cancel" : "retry"} ${run.display?.name ?? run.agentType}: ${
            e instanceof Error ? e.message : e
          }`,
        )
      }
      stallAfterMs={15_000}
      defaultOpen
      className="panel tray"
    >
      <h2 className="tray-heading">
        <RunTray.Trigger className="tray-trigger">
          Background runs <RunTray.Badge className="tray-badge" />
        </RunTray.Trigger>
      </h2>
      <RunTray.List className="tray-list">
        {(run) => (
          <RunTray.Item className="tray-item">
            <div className="tray-head">
              {/* A drawn status glyph, not the server's emoji icon (no font for it in many browsers). */}
              <RunTray.Icon className="run-icon">
                <StatusIcon status={run.status} />
              </RunTray.Icon>
              <RunTray.Title className="run-title" /> <RunTray.Status className="badge" />{" "}
              <RunTray.Elapsed className="muted" />
            </div>
            {/* What it was asked, in words ("queues"), not the dispatch's JSON; the whole input on hover. */}
            {inputGist(run.inputPreview) ? (
              <RunTray.Input className="muted tray-input">{inputGist(run.inputPreview)}</RunTray.Input>
            ) : (
              <RunTray.Input className="muted tray-input" />
            )}
            <RunTray.Progress className="progress">
              <Progress.Indicator className="progress-indicator" />
            </RunTray.Progress>
            {/* A finished run's last phase ("crawling …") would read as if it still ran; a stopped one keeps it. */}
            {run.status !== "completed" && (
              <p className="tray-text">
                <RunTray.Phase className="phase" /> <RunTray.Message className="muted" />
              </p>
            )}
            <RunTray.Milestones className="chips" />
            <RunTray.Stalled className="stalled" />
            <RunTray.Interrupted className="tray-text" />
            <RunTray.Error className="tray-error" />
            <RunTray.Summary className="tray-text" maxLength={240} />
            <div className="actions">
              {/* A completed run has nothing to cancel; a cancelled one keeps its (disabled) button in place. */}
              {run.status !== "completed" && <RunTray.Cancel />}
              {recoveryFor(run) === "retry" && <RunTray.Retry />}
              {recoveryFor(run) === "reconnect" && <RunTray.Reconnect />}
              <RunTray.DrillIn />
              <RunTray.Dismiss />
            </div>
          </RunTray.Item>
        )}
      </RunTray.List>
      <RunTray.ClearFinished className="tray-clear" />
      <RunTray.Empty className="muted">No background runs. Try “background”.</RunTray.Empty>
      {failure && <p role="alert">{failure}</p>}
      <RunTray.Announcer />
    </RunTray.Root>
  );
}
