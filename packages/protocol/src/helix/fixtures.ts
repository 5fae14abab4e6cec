/**
 * The nested trace from the helix docs (docs/helix.md#nested-trace), as chunks: orchestrator → processor →
 * sentiment. Shared by the tests, the mock server's helix stream and the stories, so all show the same run.
 */
import type { HelixChunk } from "./chunks.ts";

/** The documented three-agent trace, chunk by chunk. */
export const HELIX_DOCS_TRACE: readonly HelixChunk[] = [
  { type: "text_delta", agentType: "orchestrator", delta: "Let me analyze..." },
  {
    type: "subagent_start",
    agentType: "orchestrator",
    subAgentType: "processor",
    input: { text: "great day" },
  },
  { type: "text_delta", agentType: "processor", delta: "Processing..." },
  { type: "subagent_start", agentType: "processor", subAgentType: "sentiment" },
  { type: "text_delta", agentType: "sentiment", delta: "Analyzing..." },
  { type: "output", agentType: "sentiment", output: { sentiment: "positive" } },
  {
    type: "subagent_end",
    agentType: "processor",
    subAgentType: "sentiment",
    result: { sentiment: "positive" },
  },
  { type: "output", agentType: "processor", output: { processed: "..." } },
  {
    type: "subagent_end",
    agentType: "orchestrator",
    subAgentType: "processor",
    result: { processed: "..." },
  },
  { type: "text_delta", agentType: "orchestrator", delta: "Based on the analysis..." },
];
