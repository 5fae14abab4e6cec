/**
 * A run's result, possibly long: cut to a length and a number of lines, with a toggle to show all of it (a
 * disclosure: `data-state` `open` when whole, `closed` when cut).
 */
import { runSummaryText, truncateText, valueText } from "@runboard/protocol/view";
import { type MouseEvent, type ReactNode, useId } from "react";
import {
  composeEventHandlers,
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderPart,
  useControllableState,
  usePartContext,
} from "../primitives/index.ts";
import { RunContext } from "./root.tsx";

interface ResultContextValue {
  shown: string;
  truncated: boolean;
  expanded: boolean;
  setExpanded: (v: boolean) => void;
  textId: string;
}
const ResultContext = createPartContext<ResultContextValue>("AgentToolRun.Result");

/** Props of `AgentToolRun.Result`. */
export interface AgentToolRunResultProps extends PrimitiveProps<"div"> {
  /** The result to show; default the run's summary (`runSummaryText`: its text parts as paragraphs). Pass the tool part's output to show that instead. */
  value?: unknown;
  /** Characters shown before "Show all". Default 400. */
  maxLength?: number;
  /** Lines shown before "Show all". Default 8. */
  maxLines?: number;
  /** Controlled: the whole result is shown. */
  expanded?: boolean;
  /** Initial `expanded` when uncontrolled. Default false. */
  defaultExpanded?: boolean;
  /** Called when the whole result is shown or cut again. */
  onExpandedChange?: (expanded: boolean) => void;
}

/** Props of `AgentToolRun.ResultText`. */
export type AgentToolRunResultTextProps = PrimitiveProps<"pre">;

/** `open` when the whole text shows, `closed` while it is cut. */
const stateOf = (truncated: boolean, expanded: boolean) => (truncated && !expanded ? "closed" : "open");

/**
 * A possibly long result, cut to `maxLength` / `maxLines` with a toggle to show all of it. Without
 * children it renders `ResultText` and `ResultToggle`. `data-truncated` when cut, `data-state` `open`
 * (whole) or `closed` (cut). Nothing while there is no result.
 */
export function Result({
  value,
  maxLength = 400,
  maxLines = 8,
  expanded: expandedProp,
  defaultExpanded = false,
  onExpandedChange,
  children,
  ...props
}: AgentToolRunResultProps) {
  const { run } = usePartContext(RunContext, "AgentToolRun.Result");
  const [expanded, setExpanded] = useControllableState({
    prop: expandedProp,
    defaultProp: defaultExpanded,
    onChange: onExpandedChange,
    part: "AgentToolRun.Result",
  });
  const textId = `${useId()}-result`;
  // The summary agents glued from the child's text parts reads as paragraphs again (runSummaryText).
  const full = valueText(value === undefined ? runSummaryText(run) : value);
  if (full === "") return null;
  const cut = truncateText(full, maxLength, maxLines);
  const ctx: ResultContextValue = {
    shown: cut.truncated && !expanded ? cut.text : full,
    truncated: cut.truncated,
    expanded,
    setExpanded,
    textId,
  };
  return (
    <ResultContext.Context.Provider value={ctx}>
      {renderPart("div", {
        "data-rb-part": "AgentToolRun.Result",
        "data-truncated": dataFlag(cut.truncated),
        "data-state": stateOf(cut.truncated, expanded),
        children: children ?? (
          <>
            <ResultText />
            <ResultToggle />
          </>
        ),
        ...props,
      })}
    </ResultContext.Context.Provider>
  );
}
Result.displayName = "AgentToolRun.Result";

/** The result text, cut or whole, in a `<pre>` (never HTML); `data-state` `open | closed`. */
export function ResultText(props: AgentToolRunResultTextProps) {
  const { shown, textId, truncated, expanded } = usePartContext(ResultContext, "AgentToolRun.ResultText");
  return renderPart("pre", {
    "data-rb-part": "AgentToolRun.ResultText",
    id: textId,
    "data-state": stateOf(truncated, expanded),
    children: shown,
    ...props,
  });
}
ResultText.displayName = "AgentToolRun.ResultText";

/** Props of `AgentToolRun.ResultToggle`. */
export interface AgentToolRunResultToggleProps extends PrimitiveProps<"button"> {
  /** Label while cut. Default "Show all". */
  showAllLabel?: ReactNode;
  /** Label while whole. Default "Show less". */
  showLessLabel?: ReactNode;
}

/** "Show all" / "Show less": `aria-expanded` on the text it controls. Renders nothing for a short result. */
export function ResultToggle({
  showAllLabel = "Show all",
  showLessLabel = "Show less",
  onClick,
  ...props
}: AgentToolRunResultToggleProps) {
  const { truncated, expanded, setExpanded, textId } = usePartContext(
    ResultContext,
    "AgentToolRun.ResultToggle",
  );
  if (!truncated) return null;
  return renderPart("button", {
    "data-rb-part": "AgentToolRun.ResultToggle",
    type: "button",
    "aria-expanded": expanded,
    "aria-controls": textId,
    "data-state": expanded ? "open" : "closed",
    children: expanded ? showLessLabel : showAllLabel,
    onClick: composeEventHandlers(onClick, (_e: MouseEvent<HTMLButtonElement>) => setExpanded(!expanded)),
    ...props,
  });
}
ResultToggle.displayName = "AgentToolRun.ResultToggle";
