/**
 * `@runboard/protocol/helix`: helix-agents sub-agent runs (the stream decoder and the reducer that builds
 * `AgentToolRuns`-shaped snapshots) and persistent children (docs/helix.md). No IO, timers, DOM or React.
 * Listed in `api/exports.json`.
 */
export {
  applyCompanionResult,
  type HelixChild,
  helixChildKey,
  helixChildToRun,
  mergeSubSessionRefs,
  readSubSessionRef,
  type SubSessionRef,
} from "./children.ts";
export type {
  HelixChunk,
  HelixChunkBase,
  HelixChunkRead,
  HelixError,
  HelixOutput,
  HelixSubagentEnd,
  HelixSubagentStart,
  HelixTextDelta,
  HelixToolEnd,
  HelixToolStart,
} from "./chunks.ts";
export { HELIX_DOCS_TRACE } from "./fixtures.ts";
export {
  type HelixApplyResult,
  type HelixInterruptReason,
  type HelixRoot,
  type HelixRun,
  HelixRunsReducer,
  type HelixRunsReducerOptions,
  type HelixRunsState,
} from "./reducer.ts";
export {
  createHelixStreamDecoder,
  type HelixStreamDecoder,
  type HelixStreamFormat,
  helixStreamFormat,
} from "./stream-decoder.ts";
