/**
 * The Failure part of `AgentToolRun` and `RunTray`: what happened to a run that did not complete, in words a
 * person understands, from its failure envelope (docs/protocol.md#agent-tool-failure-envelope). The Error part
 * stays the server's bare text; Failure says the status, the reason and the server's text together.
 */
import {
  type AgentToolFailureStatus,
  describeAgentToolFailure,
  failureOfRunEnd,
} from "@runboard/protocol/view";
import type { ReactElement } from "react";
import { dataFlag, type PrimitiveProps, renderPart } from "../primitives/index.ts";
import type { RunPartNames } from "./run-parts.tsx";
import { useRunScope } from "./run-scope.ts";

/** Props of `AgentToolRun.Failure` and `RunTray.Failure`. */
export interface RunFailureProps extends PrimitiveProps<"div"> {
  /** Headline per status, over the defaults ("The helper failed.", …). */
  statusLabels?: Partial<Record<AgentToolFailureStatus, string>>;
  /** Words per interrupt reason, over the defaults ("The helper stopped making progress.", …). */
  reasonLabels?: Partial<Record<string, string>>;
}

/**
 * A `<div>` with the headline, the reason in words (when there is one) and the server's text, each a `<p>`,
 * all as text; nothing for a running or completed run. `data-status` (the failure's status), `data-reason`,
 * (`concurrency-limit` for a run the agent's `maxConcurrentAgentTools` refused),
 * and flags `data-retryable`, `data-child-still-running`, `data-malformed` (an envelope that could not be read,
 * shown with its raw text).
 */
export function useRunFailure(
  { statusLabels, reasonLabels, ...props }: RunFailureProps,
  names: RunPartNames,
): ReactElement | null {
  const { run } = useRunScope(`${names.ns}.Failure`, names.root);
  if (run.status === "running" || run.status === "completed") return null;
  // A run handed in by the app (not from the store) may lack `failure`: its status and error still say enough.
  const failure = run.failure ?? failureOfRunEnd(run);
  const words = describeAgentToolFailure(failure, {
    ...(statusLabels ? { status: statusLabels } : {}),
    ...(reasonLabels ? { reason: reasonLabels } : {}),
  });
  return renderPart("div", {
    "data-rb-part": `${names.ns}.Failure`,
    "data-status": failure.status,
    // A run the concurrency limit refused has no interrupt reason of its own; it is named so it can be styled.
    "data-reason": failure.reason ?? (words.concurrencyLimit === undefined ? undefined : "concurrency-limit"),
    "data-retryable": dataFlag(run.retryable ?? failure.retryable),
    "data-child-still-running": dataFlag(failure.childStillRunning === true),
    "data-malformed": dataFlag(failure.malformed === true),
    children: (
      <>
        <p>{words.headline}</p>
        {words.reason ? <p>{words.reason}</p> : null}
        {words.detail ? <p>{words.detail}</p> : null}
      </>
    ),
    ...props,
  });
}
