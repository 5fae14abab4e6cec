/** The helix subpath as an app imports it: `@runboard/client/helix` resolves under bundler and nodenext. */
import { HelixChildren, HelixRuns, type HelixRunsState } from "@runboard/client/helix";

/** A store fed one chunk, read through the subpath's types. */
export function helixRootType(): string | undefined {
  const runs = new HelixRuns({ throttleMs: 0 });
  runs.apply({ type: "text_delta", agentType: "orchestrator", delta: "hi" });
  const state: HelixRunsState = runs.getSnapshot();
  new HelixChildren().setRefs([]);
  return state.root.agentType;
}
