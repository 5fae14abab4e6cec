/**
 * What a tray item says about its run beyond status and progress — the input it was dispatched with, its
 * summary, why it was interrupted — and the recovery buttons: Retry (re-dispatch the same run id) and
 * Reconnect (re-attach to a child still running), through the root's run actions
 * (docs/protocol.md#retry-and-reconnect). Every text is the server's, rendered as text, never as HTML.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import {
  interruptReasonLabel,
  recoveryFor,
  revealHiddenCharacters,
  runSummaryText,
  runTitle,
  toolValueText,
} from "@runboard/protocol/view";
import { useRunReconnect, useRunRetry } from "../agent-tool-run/run-hooks.ts";
import { useRunScope } from "../agent-tool-run/run-scope.ts";
import {
  type ActionButtonProps,
  createActionButton,
  type PrimitiveProps,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";
import { TrayContext } from "./tray-root.tsx";

/** Props of `RunTray.Input`. */
export interface RunTrayInputProps extends PrimitiveProps<"span"> {
  /** Characters shown at most (the rest is cut with an ellipsis). Default 120. */
  maxLength?: number;
}

/** Props of `RunTray.Summary`. */
export interface RunTraySummaryProps extends PrimitiveProps<"p"> {
  /** Characters shown at most. Default 400. */
  maxLength?: number;
}

/** Props of `RunTray.Interrupted`. */
export interface RunTrayInterruptedProps extends PrimitiveProps<"p"> {
  /** Your words per interrupt reason (`no-progress`, `window-exceeded`, …); the defaults for the rest. */
  reasonLabels?: Partial<Record<string, string>>;
}

/** Props of `RunTray.Retry` and `RunTray.Reconnect`. */
export type RunTrayRecoveryProps = ActionButtonProps;

/** The input the run was dispatched with (`inputPreview`), as one bounded line of text; nothing without one. */
export function Input({ maxLength = 120, ...props }: RunTrayInputProps) {
  const { run } = useRunScope("RunTray.Input", "RunTray.List");
  // A tool's input, marked as on approval cards (issue 26 §4).
  const text = revealHiddenCharacters(toolValueText(run.inputPreview, maxLength));
  if (!text) return null;
  return renderPart("span", { "data-rb-part": "RunTray.Input", title: text, children: text, ...props });
}
Input.displayName = "RunTray.Input";

/**
 * The summary of a completed run (its glued text parts as paragraphs: `runSummaryText`), bounded; nothing
 * before the run completes or without a summary.
 */
export function Summary({ maxLength = 400, ...props }: RunTraySummaryProps) {
  const { run } = useRunScope("RunTray.Summary", "RunTray.List");
  if (run.status !== "completed") return null;
  const text = toolValueText(runSummaryText(run), maxLength);
  if (!text) return null;
  return renderPart("p", { "data-rb-part": "RunTray.Summary", children: text, ...props });
}
Summary.displayName = "RunTray.Summary";

/**
 * Why an interrupted run stopped, in words (`interruptReasonLabel`, or your `reasonLabels`); a reason not known
 * is shown as sent. `data-reason` carries the reason as sent; `data-child-still-running` is present while the child
 * still works. Nothing unless the run is interrupted with a reason (`RunTray.Error` shows the server's text).
 */
export function Interrupted({ reasonLabels, ...props }: RunTrayInterruptedProps) {
  const { run } = useRunScope("RunTray.Interrupted", "RunTray.List");
  const reason = run.status === "interrupted" ? run.reason || undefined : undefined;
  if (reason === undefined) return null;
  return renderPart("p", {
    "data-rb-part": "RunTray.Interrupted",
    "data-reason": reason,
    "data-child-still-running": run.childStillRunning ? "" : undefined,
    children: reasonLabels?.[reason] ?? interruptReasonLabel(reason),
    ...props,
  });
}
Interrupted.displayName = "RunTray.Interrupted";

/** `Retry` / `Retrying…`, named for the run; disabled when `useRunRetry` returns null. */
export const Retry = createActionButton<RunTrayRecoveryProps>("RunTray.Retry", () => {
  const { run } = useRunScope("RunTray.Retry", "RunTray.List");
  const { actions } = usePartContext(TrayContext, "RunTray.Retry");
  const action = useRunRetry();
  const label = actions.isRecovering(run.runId) ? "Retrying…" : "Retry";
  return { action, label, attributes: { "aria-label": `${label} ${runTitle(run)}` } };
});

/** `Reconnect` / `Reconnecting…`, named for the run; disabled when `useRunReconnect` returns null. */
export const Reconnect = createActionButton<RunTrayRecoveryProps>("RunTray.Reconnect", () => {
  const { run } = useRunScope("RunTray.Reconnect", "RunTray.List");
  const { actions } = usePartContext(TrayContext, "RunTray.Reconnect");
  const action = useRunReconnect();
  const label = actions.isRecovering(run.runId) ? "Reconnecting…" : "Reconnect";
  return { action, label, attributes: { "aria-label": `${label} ${runTitle(run)}` } };
});

/** The default item's recovery button: Retry or Reconnect as the run's recovery calls for, else nothing. */
export function Recovery() {
  const { run } = useRunScope("RunTray.Item", "RunTray.List");
  const recovery = recoveryFor(run);
  if (recovery === "retry") return <Retry />;
  if (recovery === "reconnect") return <Reconnect />;
  return null;
}
