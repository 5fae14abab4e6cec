/** Pure wording for server-injected messages (agent events), so every list names them the same way. */
import { isSyntheticMessage, type SyntheticMessage } from "./synthetic-messages.ts";

/**
 * True when a message list should show `message` as an agent event (`AgentEvent` in `@runboard/react`)
 * rather than as a chat bubble: the same test as `isSyntheticMessage`, named for the component.
 */
export const isAgentEvent: typeof isSyntheticMessage = isSyntheticMessage;

const STATUS_WORDS: Record<string, string> = {
  completed: "finished",
  error: "failed",
  aborted: "was cancelled",
  interrupted: "was interrupted",
};

/**
 * An accessible name for an agent event: `Background run finished (Researcher)`,
 * `Milestone reached: sources-gathered`, `Notice`, `Message from scheduled-task`.
 */
export function agentEventLabel(event: SyntheticMessage): string {
  switch (event.kind) {
    case "detached-completion": {
      // Own keys only: the status comes from the wire, and `constructor` must not name a function.
      const how = Object.hasOwn(STATUS_WORDS, event.status) ? STATUS_WORDS[event.status] : event.status;
      return `Background run ${how}${event.agentType ? ` (${event.agentType})` : ""}`;
    }
    case "milestone":
      return `Milestone reached: ${event.milestone}${event.agentType ? ` (${event.agentType})` : ""}`;
    case "notice":
      return event.deliveryKind === "notice" ? "Notice" : `Notice (${event.deliveryKind})`;
    case "injected":
      return `Message from ${event.source}`;
    case "compaction":
      return "Earlier messages summarised";
  }
}

/** The text parts of a message, joined; other parts (tools, files) are not an event's words. */
export function messageText(message: { parts?: readonly { type: string; text?: unknown }[] }): string {
  return (message.parts ?? [])
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("");
}
