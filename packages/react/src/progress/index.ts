/** `Progress`: a progress bar for a fraction or a run's latest progress, with phase and message spoken. */
export * from "./progress.tsx";
