/** What `AgentToolRun` shows of the child's work: its type, transcript, input, summary and interruption. */
import type { AgentToolRunState, Part } from "@runboard/protocol";
import {
  interruptReasonLabel,
  revealHiddenCharacters,
  runSummaryText,
  valueText,
} from "@runboard/protocol/view";
import { Fragment, type ReactNode } from "react";
import { dataFlag, type PrimitiveProps, renderPart, usePartContext } from "../primitives/index.ts";
import type { NestedRuns } from "./follow.ts";
import { partKey } from "./format.ts";
import { RunContext } from "./root.tsx";

/** Props of `AgentToolRun.AgentType`. */
export type AgentToolRunAgentTypeProps = PrimitiveProps<"span">;
/** Props of `AgentToolRun.Input`. */
export type AgentToolRunInputProps = PrimitiveProps<"pre">;
/** Props of `AgentToolRun.Summary`. */
export type AgentToolRunSummaryProps = PrimitiveProps<"p">;

/** The child's class name (`Researcher`). */
export function AgentType(props: AgentToolRunAgentTypeProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.AgentType");
  return renderPart("span", { "data-rb-part": "AgentToolRun.AgentType", children: run.agentType, ...props });
}
AgentType.displayName = "AgentToolRun.AgentType";

/** Props of `AgentToolRun.Transcript`. */
export interface AgentToolRunTranscriptProps extends Omit<PrimitiveProps<"div">, "children"> {
  /**
   * Renders one part of the child's transcript: pass the renderer the parent chat uses, so text, reasoning
   * and tool parts look the same, and nested runs (a tool part with runs) recurse through it. `nested` holds
   * the runs the child dispatched while the root follows its child (`follow`): look a tool part's runs up
   * with `nested.getRunsForToolCall(part.toolCallId)` and render each in a root with `store={nested.runs}`.
   */
  children: (part: Part, index: number, run: AgentToolRunState, nested: NestedRuns | null) => ReactNode;
}

/** The child's own transcript (`run.parts`), one renderer call per part. */
export function Transcript({ children: renderChild, ...props }: AgentToolRunTranscriptProps) {
  const { run, depth, nested } = usePartContext(RunContext, "AgentToolRun.Transcript");
  return renderPart("div", {
    "data-rb-part": "AgentToolRun.Transcript",
    "data-depth": depth,
    "data-empty": dataFlag(run.parts.length === 0),
    children: run.parts.map((part, i) => (
      <Fragment key={partKey(part as { type: string }, i)}>{renderChild(part, i, run, nested)}</Fragment>
    )),
    ...props,
  });
}
Transcript.displayName = "AgentToolRun.Transcript";

/** The input preview the server sent, as text in a `<pre>`; nothing when there is none. */
export function Input(props: AgentToolRunInputProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Input");
  // A tool's input, marked as on approval cards (issue 26 §4).
  const text = revealHiddenCharacters(valueText(run.inputPreview));
  if (text === "" && props.children === undefined) return null;
  return renderPart("pre", { "data-rb-part": "AgentToolRun.Input", children: text, ...props });
}
Input.displayName = "AgentToolRun.Input";

/**
 * The run's summary (`finished.summary`, its glued text parts as paragraphs: `runSummaryText`); nothing until
 * the run completes with one.
 */
export function Summary(props: AgentToolRunSummaryProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Summary");
  const text = runSummaryText(run);
  if (!text && props.children === undefined) return null;
  return renderPart("p", { "data-rb-part": "AgentToolRun.Summary", children: text, ...props });
}
Summary.displayName = "AgentToolRun.Summary";

/** Props of `AgentToolRun.Interrupted`. */
export interface AgentToolRunInterruptedProps extends PrimitiveProps<"div"> {
  /** Words per interrupt reason, merged over the defaults. */
  reasonLabels?: Record<string, string>;
  /** Said when the child is still running. */
  stillRunningLabel?: ReactNode;
  /** Said when the child stopped. */
  stoppedLabel?: ReactNode;
}

/**
 * Why an interrupted run was sealed and whether its child is still running (`data-reason`,
 * `data-child-still-running`); nothing for any other status.
 */
export function Interrupted({
  reasonLabels,
  stillRunningLabel = "The agent is still working; reconnect to follow it.",
  stoppedLabel = "The agent stopped; retry to run it again.",
  ...props
}: AgentToolRunInterruptedProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Interrupted");
  if (run.status !== "interrupted") return null;
  const reason = typeof run.reason === "string" ? run.reason : undefined;
  const said = (reason && reasonLabels?.[reason]) ?? interruptReasonLabel(reason);
  return renderPart("div", {
    "data-rb-part": "AgentToolRun.Interrupted",
    "data-reason": reason,
    "data-child-still-running": dataFlag(run.childStillRunning === true),
    children: (
      <>
        {said ? <p>{said}</p> : null}
        <p>{run.childStillRunning ? stillRunningLabel : stoppedLabel}</p>
      </>
    ),
    ...props,
  });
}
Interrupted.displayName = "AgentToolRun.Interrupted";
