/**
 * `Progress`: a progress bar (`role="progressbar"`) for a fraction 0..1, or for an agent-tool run's latest
 * progress. Unstyled: the indicator exposes `--rb-progress` and `data-*` state for CSS to draw with.
 */
import type { AgentToolRunState } from "@runboard/protocol";
import {
  normalizeFraction,
  type ProgressReading,
  type ProgressState,
  progressPercent,
  progressState,
  progressValueText,
  runTitle,
} from "@runboard/protocol/view";
import type { CSSProperties, ReactNode } from "react";
import {
  createPartContext,
  type PrimitiveProps,
  renderPart,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";

interface ProgressContextValue {
  value: number | null;
  state: ProgressState;
  /** The progress's `data` (the app's own shape), undefined when there is none. */
  data: unknown;
}

const ProgressContext = createPartContext<ProgressContextValue>("Progress.Root");

/** The run fields `Progress` reads. */
export type ProgressRun = Pick<AgentToolRunState, "progress" | "status" | "display" | "agentType">;

/** Props of `Progress.Root`. */
export interface ProgressRootProps extends PrimitiveProps<"div"> {
  /** Fraction done, 0..1. `null` or absent: indeterminate. Out-of-range values are clamped (dev warning). */
  value?: number | null;
  /** What the work is doing now (`comparing`), for the value text. */
  phase?: string;
  /** A sentence about it (`Comparing 3 sources`), for the value text. */
  message?: string;
  /** Done, whatever the fraction says (the bar then reads 100%). */
  complete?: boolean;
  /** The progress's own data (any shape), for `Progress.Data`. Default: the run's `progress.data`. */
  data?: unknown;
  /**
   * A run to read `value`, `phase` and `message` from (its latest progress); complete when the run completed.
   * Explicit props win. Also names the bar `<display name> progress` when no `aria-label` is given.
   */
  run?: ProgressRun;
  /** The spoken value (`aria-valuetext`). Default `phase: message, 50%`. */
  getValueLabel?: (reading: ProgressReading) => string | undefined;
}

/**
 * The bar. `aria-valuenow` (0..100) only while a fraction is known: an indeterminate bar must not claim a
 * value. `data-state` `indeterminate | loading | complete`, `data-value` (the fraction) and `data-max` (1).
 */
function Root({
  value: valueProp,
  phase: phaseProp,
  message: messageProp,
  complete: completeProp,
  data: dataProp,
  run,
  getValueLabel = progressValueText,
  ...props
}: ProgressRootProps) {
  const raw = valueProp !== undefined ? valueProp : run?.progress?.fraction;
  const normalized = normalizeFraction(raw);
  if (normalized.problem)
    warnOnce(
      "Progress.Root:value",
      `Progress.Root value ${normalized.problem}. Pass a fraction between 0 and 1, or null while unknown.`,
    );
  const complete = completeProp ?? run?.status === "completed";
  const state = progressState(normalized.value, complete);
  // A finished bar is full even when the last progress frame said 75%.
  const value = state === "complete" ? 1 : normalized.value;
  const phase = phaseProp ?? run?.progress?.phase;
  const message = messageProp ?? run?.progress?.message;
  const named = props["aria-label"] !== undefined || props["aria-labelledby"] !== undefined;
  if (!named && !run)
    warnOnce(
      "Progress.Root:name",
      "Progress.Root has no accessible name. Pass aria-label or aria-labelledby (or a run, to use its name).",
    );
  const determinate = value !== null;
  return (
    <ProgressContext.Context.Provider value={{ value, state, data: dataProp ?? run?.progress?.data }}>
      {renderPart("div", {
        "data-rb-part": "Progress.Root",
        role: "progressbar",
        "aria-label": named || !run ? undefined : `${runTitle(run)} progress`,
        "aria-valuemin": determinate ? 0 : undefined,
        "aria-valuemax": determinate ? 100 : undefined,
        "aria-valuenow": determinate ? progressPercent(value) : undefined,
        "aria-valuetext": getValueLabel({ value, state, phase, message }),
        "data-state": state,
        "data-value": value ?? undefined,
        "data-max": 1,
        ...props,
      })}
    </ProgressContext.Context.Provider>
  );
}
Root.displayName = "Progress.Root";

/** Props of `Progress.Indicator`. */
export type ProgressIndicatorProps = PrimitiveProps<"div">;

/**
 * What fills the bar: a `div` with the root's `data-state` / `data-value` and the fraction as the CSS custom
 * property `--rb-progress` (unset while indeterminate), e.g. `transform: scaleX(var(--rb-progress, 0))`.
 */
function Indicator({ style, ...props }: ProgressIndicatorProps) {
  const { value, state } = usePartContext(ProgressContext, "Progress.Indicator");
  const withValue = value === null ? style : ({ ...style, "--rb-progress": String(value) } as CSSProperties);
  return renderPart("div", {
    "data-rb-part": "Progress.Indicator",
    "data-state": state,
    "data-value": value ?? undefined,
    "data-max": 1,
    style: withValue,
    ...props,
  });
}
Indicator.displayName = "Progress.Indicator";

/** Props of `Progress.Data`. */
export interface ProgressDataProps extends Omit<PrimitiveProps<"div">, "children"> {
  /**
   * Renders the progress's `data` (whatever the child sent: counts, the item being worked on, …). Default: the
   * data as JSON text, cut at 200 characters. Server values are yours to render as text, never as HTML.
   */
  children?: (data: unknown) => ReactNode;
}

const DATA_TEXT_MAX = 200;

function dataText(data: unknown): string {
  let text: string;
  try {
    text = typeof data === "string" ? data : (JSON.stringify(data) ?? String(data));
  } catch {
    text = String(data);
  }
  return text.length > DATA_TEXT_MAX ? `${text.slice(0, DATA_TEXT_MAX - 1)}…` : text;
}

/**
 * The progress's `data` through a render prop: `<Progress.Data>{(d) => …}</Progress.Data>`. A `div` with
 * `data-state` of the bar; nothing while the progress has no data. Place it inside `Progress.Root`.
 */
function Data({ children, ...props }: ProgressDataProps) {
  const { data, state } = usePartContext(ProgressContext, "Progress.Data");
  if (data === undefined || data === null) return null;
  return renderPart("div", {
    "data-rb-part": "Progress.Data",
    "data-state": state,
    children: children ? children(data) : dataText(data),
    ...props,
  });
}
Data.displayName = "Progress.Data";

/**
 * A progress bar.
 *
 * @example
 * ```tsx
 * <Progress.Root value={0.5} phase="comparing" message="Comparing 3 sources" aria-label="Fact check">
 *   <Progress.Indicator className="bar" />
 * </Progress.Root>
 * // Or straight from a run: named "Fact checker progress", complete when the run completed.
 * <Progress.Root run={run}><Progress.Indicator /></Progress.Root>
 * // The run's own progress data, your way.
 * <Progress.Root run={run}>
 *   <Progress.Indicator />
 *   <Progress.Data>{(d) => `${(d as { checked: number }).checked} checked`}</Progress.Data>
 * </Progress.Root>
 * ```
 * ```css
 * .bar { transform-origin: left; transform: scaleX(var(--rb-progress, 0)); }
 * .bar[data-state="indeterminate"] { animation: slide 1s infinite; }
 * ```
 */
export const Progress = { Root, Indicator, Data };
