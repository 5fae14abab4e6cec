/**
 * The shared run parts under one namespace's names. `AgentToolRun` and `RunTray` show the same parts of a run
 * (title, status, progress, …) from one implementation (`run-parts.tsx`); this names each component for its
 * namespace, so DevTools and misuse errors say `RunTray.Title` or `AgentToolRun.Title`.
 */
import type { ReactElement } from "react";
import { createActionButton } from "../primitives/index.ts";
import { type RunFailureProps, useRunFailure } from "./failure-part.tsx";
import {
  type RunCancelProps,
  type RunElapsedProps,
  type RunErrorProps,
  type RunIconProps,
  type RunMessageProps,
  type RunMilestoneProps,
  type RunMilestonesProps,
  type RunPartNames,
  type RunPhaseProps,
  type RunProgressProps,
  type RunStatusProps,
  type RunTitleProps,
  useRunCancel,
  useRunElapsed,
  useRunError,
  useRunIcon,
  useRunMessage,
  useRunMilestone,
  useRunMilestones,
  useRunPhase,
  useRunProgress,
  useRunStatus,
  useRunTitle,
} from "./run-parts.tsx";

type Part<P> = ((props: P) => ReactElement | null) & { displayName: string };

function named<P>(displayName: string, render: (props: P) => ReactElement | null): Part<P> {
  const part = (props: P) => render(props);
  part.displayName = displayName;
  return part;
}

/** The run parts of one namespace, each a component named `<ns>.<Part>`. */
export interface RunPartSet {
  Icon: Part<RunIconProps>;
  Title: Part<RunTitleProps>;
  Status: Part<RunStatusProps>;
  RunProgress: Part<RunProgressProps>;
  Phase: Part<RunPhaseProps>;
  Message: Part<RunMessageProps>;
  Milestones: Part<RunMilestonesProps>;
  Milestone: Part<RunMilestoneProps>;
  Elapsed: Part<RunElapsedProps>;
  ErrorPart: Part<RunErrorProps>;
  Failure: Part<RunFailureProps>;
  Cancel: ReturnType<typeof createActionButton<RunCancelProps>>;
}

/** Names the shared run parts for the namespace in `names` (its parts must sit inside `names.root`). */
export function createRunParts(names: RunPartNames): RunPartSet {
  const n = (part: string) => `${names.ns}.${part}`;
  const Milestone = named<RunMilestoneProps>(n("Milestone"), (p) => useRunMilestone(p, names));
  return {
    Icon: named(n("Icon"), (p: RunIconProps) => useRunIcon(p, names)),
    Title: named(n("Title"), (p: RunTitleProps) => useRunTitle(p, names)),
    Status: named(n("Status"), (p: RunStatusProps) => useRunStatus(p, names)),
    RunProgress: named(n("Progress"), (p: RunProgressProps) => useRunProgress(p, names)),
    Phase: named(n("Phase"), (p: RunPhaseProps) => useRunPhase(p, names)),
    Message: named(n("Message"), (p: RunMessageProps) => useRunMessage(p, names)),
    Milestones: named(n("Milestones"), (p: RunMilestonesProps) => useRunMilestones(p, names, Milestone)),
    Milestone,
    Elapsed: named(n("Elapsed"), (p: RunElapsedProps) => useRunElapsed(p, names)),
    ErrorPart: named(n("Error"), (p: RunErrorProps) => useRunError(p, names)),
    Failure: named(n("Failure"), (p: RunFailureProps) => useRunFailure(p, names)),
    Cancel: createActionButton<RunCancelProps>(n("Cancel"), () => useRunCancel(names)),
  };
}
