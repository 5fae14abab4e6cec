/** A child run's progress bar with its phase and message, from the `Progress` component. */
import type { AgentToolRunState as Run } from "@runboard/protocol";
import { Progress } from "@runboard/react";

export function RunProgress({ run }: { run: Run }) {
  // A run that never reported progress shows no bar: an indeterminate one for every quick helper is noise.
  if (!run.progress && run.status !== "running") return null;
  return (
    <div className="progress-row">
      <Progress.Root run={run} className="progress">
        <Progress.Indicator className="progress-indicator" />
      </Progress.Root>
      {(run.progress?.phase || run.progress?.message) && (
        <span className="muted">
          {run.progress.phase && <span className="phase">{run.progress.phase}</span>} {run.progress.message}
        </span>
      )}
    </div>
  );
}
