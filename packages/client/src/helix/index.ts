/**
 * `@runboard/client/helix`: helix-agents sub-agent runs and persistent children as stores with the
 * `AgentToolRuns` snapshot shape, so Runboard's components render them (docs/helix.md).
 */
export type {
  HelixChild,
  HelixRoot,
  HelixRun,
  HelixRunsState,
  SubSessionRef,
} from "@runboard/protocol/helix";
export * from "./helix-children.ts";
export * from "./helix-runs.ts";
