/** `Progress`: a progress bar for a fraction or a run's latest progress, with phase and message spoken. */
export * from "./progress.tsx";
export {
  type NormalizedFraction,
  normalizeFraction,
  type ProgressReading,
  type ProgressState,
  progressPercent,
  progressState,
  progressValueText,
} from "./progress-value.ts";
