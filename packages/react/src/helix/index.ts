/** helix-agents runs and persistent children in React (docs/helix.md). */
export * from "./helix-child.tsx";
export * from "./use-helix-runs.ts";
