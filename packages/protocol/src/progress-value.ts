/**
 * The rules of a progress bar: which values are usable fractions, which state a bar is in, and what a
 * screen reader hears. Pure, so any view of a run's progress reads the same.
 */

/** `indeterminate` (no fraction known), `loading` (a fraction below 1) or `complete`. */
export type ProgressState = "indeterminate" | "loading" | "complete";

/** A fraction made safe to show, and why the given one was not, for the dev warning. */
export interface NormalizedFraction {
  /** 0..1, or null when unknown. */
  value: number | null;
  /** Set when the input had to be changed (clamped or dropped). */
  problem?: string;
}

/**
 * `null`/`undefined` stay unknown; NaN and non-numbers become unknown; values outside 0..1 are clamped.
 * A value between 1 and 100 is most likely a percentage, and the problem text says so.
 */
export function normalizeFraction(value: unknown): NormalizedFraction {
  if (value === undefined || value === null) return { value: null };
  if (typeof value !== "number" || Number.isNaN(value))
    return {
      value: null,
      problem: `got ${String(value)}, which is not a number; showing it as indeterminate`,
    };
  if (value < 0) return { value: 0, problem: `got ${value}, below 0; clamped to 0` };
  if (value > 1) {
    const hint = value <= 100 ? ` (pass a fraction such as ${value / 100}, not a percentage)` : "";
    return { value: 1, problem: `got ${value}, above 1; clamped to 1${hint}` };
  }
  return { value };
}

/** Complete when told so or at 1; indeterminate without a fraction; loading otherwise. */
export function progressState(value: number | null, complete = false): ProgressState {
  if (complete || (value !== null && value >= 1)) return "complete";
  return value === null ? "indeterminate" : "loading";
}

/** The whole percent `aria-valuenow` takes (the bar's scale is 0..100). */
export function progressPercent(value: number): number {
  return Math.round(value * 100);
}

/** What the bar shows, for the value text and for `getValueLabel`. */
export interface ProgressReading {
  /** 0..1; null while indeterminate. A complete bar reads 1 even when no fraction was sent. */
  value: number | null;
  state: ProgressState;
  phase?: string | undefined;
  message?: string | undefined;
}

/**
 * `comparing: Comparing 3 sources, 50%`: phase and message first (they say what is happening), then the
 * percentage when known. Undefined when there is nothing to add to the bare value.
 */
export function progressValueText({ value, state, phase, message }: ProgressReading): string | undefined {
  const p = phase?.trim() || undefined;
  const m = message?.trim() || undefined;
  const head = p && m ? `${p}: ${m}` : (m ?? p);
  const percent = state !== "indeterminate" && value !== null ? `${progressPercent(value)}%` : undefined;
  const text = [head, percent].filter((s) => s !== undefined).join(", ");
  return text === "" ? undefined : text;
}
