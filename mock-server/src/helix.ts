/**
 * A scripted helix-agents stream (docs/helix.md): the documented nested trace (orchestrator → processor →
 * sentiment), two parallel researchers of the same type (one fails), and two persistent children spawned and
 * listed through the companion tools. The Node server serves it as SSE at `GET /helix/stream` (`?cut=<n>` ends
 * it after n chunks, mid-run); the stories play it in the page with `helixDemoStream`. No Node imports here.
 */
import { HELIX_DOCS_TRACE, type HelixChunk } from "@runboard/protocol/helix";

/** One chunk and the pause before it, in ms (scaled by the server's `delayScale`). */
export interface HelixScriptStep {
  delayMs: number;
  chunk: HelixChunk;
}

const ROOT = "orchestrator";
const ref = (name: string, agentType: string, startedAt: number) => ({
  subSessionId: `demo-session-agent-${name}`,
  agentType,
  parentToolCallId: `spawn-${name}`,
  status: "running",
  startedAt,
  mode: "persistent",
  name,
});

const tools = (name: string, toolCallId: string, input: unknown, output: unknown): HelixChunk[] => [
  { type: "tool_start", agentType: ROOT, toolName: name, toolCallId, input },
  { type: "tool_end", agentType: ROOT, toolName: name, toolCallId, output },
];

/** The demo stream's chunks, in order. */
export const HELIX_DEMO_CHUNKS: readonly HelixChunk[] = [
  // The documented trace, but for its closing line.
  ...HELIX_DOCS_TRACE.slice(0, -1),
  { type: "text_delta", agentType: ROOT, delta: " Now two researchers, in parallel." },
  // Two of one type at once, no ids: each end closes the oldest open one (docs/helix.md#pairing).
  { type: "subagent_start", agentType: ROOT, subAgentType: "researcher", input: { query: "pricing" } },
  { type: "subagent_start", agentType: ROOT, subAgentType: "researcher", input: { query: "competitors" } },
  { type: "text_delta", agentType: "researcher", delta: "Looking up pricing pages…" },
  { type: "tool_start", agentType: "researcher", toolName: "search", input: { q: "pricing" } },
  { type: "tool_end", agentType: "researcher", toolName: "search", output: ["https://example.com/pricing"] },
  { type: "output", agentType: "researcher", output: { pricing: "$20 per seat" } },
  { type: "subagent_end", agentType: ROOT, subAgentType: "researcher", result: { pricing: "$20 per seat" } },
  { type: "text_delta", agentType: "researcher", delta: "Comparing competitors…" },
  {
    type: "subagent_end",
    agentType: ROOT,
    subAgentType: "researcher",
    result: { success: false, error: "Rate limited by the search API" },
  },
  // Persistent children, through the companion tools.
  ...tools(
    "companion__spawnAgent",
    "spawn-monitor-1",
    { agent: "monitor", initialMessage: "Watch the pricing page", name: "monitor-1" },
    ref("monitor-1", "monitor", 1_000),
  ),
  ...tools(
    "companion__spawnAgent",
    "spawn-writer-1",
    { agent: "writer", initialMessage: "Draft the report", name: "writer-1" },
    ref("writer-1", "writer", 2_000),
  ),
  ...tools(
    "companion__getChildStatus",
    "status-writer-1",
    { name: "writer-1" },
    { name: "writer-1", status: "completed", result: "Report drafted: 3 sections." },
  ),
  { type: "text_delta", agentType: ROOT, delta: "Based on the analysis..." },
  { type: "output", agentType: ROOT, output: { sentiment: "positive", pricing: "$20 per seat" } },
];

/** The demo stream with its pacing: a short pause before each chunk, longer before a sub-agent ends. */
export const HELIX_DEMO_SCRIPT: readonly HelixScriptStep[] = HELIX_DEMO_CHUNKS.map((chunk) => ({
  delayMs: chunk.type === "subagent_end" || chunk.type === "tool_end" ? 400 : 150,
  chunk,
}));

/** The SSE text of one chunk. */
export const helixSseEvent = (chunk: HelixChunk) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * The demo stream as an async iterable of chunks (for `HelixRuns.consume` in a page or a test), paced by
 * `delayScale` (0: no pauses) and cut after `cut` chunks when given (a stream that ends mid-run).
 */
export async function* helixDemoStream(
  options: { delayScale?: number; cut?: number } = {},
): AsyncGenerator<HelixChunk> {
  const scale = options.delayScale ?? 1;
  const steps = HELIX_DEMO_SCRIPT.slice(0, options.cut ?? HELIX_DEMO_SCRIPT.length);
  for (const step of steps) {
    const ms = step.delayMs * scale;
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    yield step.chunk;
  }
}
