/**
 * What `AgentToolRun` shows of a synchronous sub-agent call (caliban's `AgentTool`, docs/helix.md#synchronous-agenttool-caliban):
 * the run comes from `syncAgentToolRun(part)`, with no agent-tool events, so its prompt, allowed tools and model
 * are read from the call, the parent's wait is shown while it runs, and a result the agent cut is marked so.
 * Each part renders nothing for a run that is not such a call.
 */

import type { SyncAgentToolCall } from "@runboard/protocol";
import { SYNC_AGENT_TOOL_LIMIT, SYNC_AGENT_TOOL_NAME } from "@runboard/protocol/view";
import type { ReactNode } from "react";
import { dataFlag, type PrimitiveProps, renderPart, usePartContext } from "../primitives/index.ts";
import { RunContext } from "./root.tsx";

/** The synchronous call a run was read from, if any. */
function useSync(part: string): SyncAgentToolCall | undefined {
  const { run } = usePartContext(RunContext, part);
  return (run as { sync?: SyncAgentToolCall }).sync;
}

/** Props of `AgentToolRun.Prompt`. */
export type AgentToolRunPromptProps = PrimitiveProps<"pre">;

/** The prompt the parent gave the child, as text in a `<pre>` (`data-empty` when it sent none). */
export function Prompt(props: AgentToolRunPromptProps) {
  const sync = useSync("AgentToolRun.Prompt");
  if (!sync) return null;
  return renderPart("pre", {
    "data-rb-part": "AgentToolRun.Prompt",
    "data-empty": dataFlag(sync.prompt === ""),
    children: sync.prompt,
    ...props,
  });
}
Prompt.displayName = "AgentToolRun.Prompt";

/** Props of `AgentToolRun.AllowedTools`. */
export interface AgentToolRunAllowedToolsProps extends PrimitiveProps<"ul"> {
  /** Said when the allowlist was omitted. Default "All tools but AgentTool". */
  allButLabel?: ReactNode;
}

/**
 * The tools the child may use, one `<li>` each (`data-tool`), or one item saying "All tools but AgentTool" when
 * the call gave no allowlist (`data-all-but-agent-tool`). `aria-label` "Allowed tools".
 */
export function AllowedTools({ allButLabel, ...props }: AgentToolRunAllowedToolsProps) {
  const sync = useSync("AgentToolRun.AllowedTools");
  if (!sync) return null;
  const all = sync.allowedTools === "all-but-agent-tool";
  return renderPart("ul", {
    "data-rb-part": "AgentToolRun.AllowedTools",
    "aria-label": "Allowed tools",
    "data-all-but-agent-tool": dataFlag(all),
    "data-count": all ? undefined : sync.allowedTools.length,
    children: all ? (
      <li>{allButLabel ?? `All tools but ${SYNC_AGENT_TOOL_NAME}`}</li>
    ) : (
      (sync.allowedTools as readonly string[]).map((t) => (
        <li key={t} data-tool={t}>
          {t}
        </li>
      ))
    ),
    ...props,
  });
}
AllowedTools.displayName = "AgentToolRun.AllowedTools";

/** Props of `AgentToolRun.Model`. */
export type AgentToolRunModelProps = PrimitiveProps<"span">;

/** The model the child runs on (`data-model`); "the parent's model" when the call named none (`data-default`). */
export function Model(props: AgentToolRunModelProps) {
  const sync = useSync("AgentToolRun.Model");
  if (!sync) return null;
  return renderPart("span", {
    "data-rb-part": "AgentToolRun.Model",
    "data-model": sync.model,
    "data-default": dataFlag(sync.model === undefined),
    children: sync.model ?? "the parent's model",
    ...props,
  });
}
Model.displayName = "AgentToolRun.Model";

/** Props of `AgentToolRun.Blocked`. */
export type AgentToolRunBlockedProps = PrimitiveProps<"p">;

/**
 * While the child runs: the parent waits for it (its turn is blocked). `data-blocked`; nothing once the result
 * came. Not a live region of its own: `AgentToolRun.Status` already says when the run ends.
 */
export function Blocked({ children, ...props }: AgentToolRunBlockedProps) {
  const sync = useSync("AgentToolRun.Blocked");
  if (sync?.state !== "running") return null;
  return renderPart("p", {
    "data-rb-part": "AgentToolRun.Blocked",
    "data-blocked": "",
    children: children ?? "The agent waits for this sub-agent to finish.",
    ...props,
  });
}
Blocked.displayName = "AgentToolRun.Blocked";

/** Props of `AgentToolRun.CutByAgent`. */
export type AgentToolRunCutByAgentProps = PrimitiveProps<"p">;

/**
 * The mark on a result the agent cut at its limit (about 5,000 characters): the rest of the child's text never
 * reached the parent, so "Show all" cannot bring it back. `data-cut-by-agent`, `data-length` (characters kept).
 * Nothing for a whole result.
 */
export function CutByAgent({ children, ...props }: AgentToolRunCutByAgentProps) {
  const sync = useSync("AgentToolRun.CutByAgent");
  if (!sync?.cutByAgent) return null;
  const kept = sync.result?.length ?? 0;
  return renderPart("p", {
    "data-rb-part": "AgentToolRun.CutByAgent",
    "data-cut-by-agent": "",
    "data-length": kept,
    children:
      children ??
      `Cut by the agent: it keeps about ${SYNC_AGENT_TOOL_LIMIT.toLocaleString("en-US")} characters of the sub-agent's answer (${kept.toLocaleString("en-US")} shown); the rest was not returned.`,
    ...props,
  });
}
CutByAgent.displayName = "AgentToolRun.CutByAgent";
