/** helix-agents stream adapter: chunk shapes, the run reducer and the persistent children's rules (docs/helix.md). */
export * from "./children.ts";
export * from "./chunks.ts";
export * from "./fixtures.ts";
export * from "./reducer.ts";
export * from "./stream-decoder.ts";
