/**
 * `AgentEvent`: a message the server injected (a background run's completion, milestone narration, a
 * notice) shown as an event of the agent, not as words the user typed or the model said. The protocol's
 * classifier decides; a note (`role="note"`) named for what happened carries it.
 */

import {
  type ClassifiableMessage,
  classifySyntheticMessage,
  type SyntheticMessage,
} from "@runboard/protocol";
import { agentEventLabel, messageText } from "@runboard/protocol/view";
import type { UIMessage } from "ai";
import type { ReactNode } from "react";
import {
  createPartContext,
  type PrimitiveProps,
  renderPart,
  usePartContext,
  warnOnce,
} from "../primitives/index.ts";

/** The message fields the classifier and the parts read. */
export type AgentEventMessage = Pick<UIMessage, "id" | "metadata" | "role" | "parts">;

interface EventContextValue {
  message: AgentEventMessage;
  event: SyntheticMessage;
  label: string;
}
const EventContext = createPartContext<EventContextValue>("AgentEvent.Root");

/** Props of `AgentEvent.Root`. */
export interface AgentEventRootProps extends PrimitiveProps<"div"> {
  /** The server-injected message to show (a message list's entry). */
  message: AgentEventMessage;
  /** Accessible name; default from the event (`Background run finished (Researcher)`). */
  label?: string;
}

/**
 * The event (`role="note"`, named by `label`): `data-kind` `detached-completion | milestone | notice |
 * injected | compaction`, `data-inferred` when only Think's wording marked it, plus `data-status`, `data-run-id`, `data-milestone`, `data-delivery-kind`, `data-source`
 * when known. Renders nothing for an ordinary message (use `AgentEvent.Match` to choose).
 */
function Root({ message, label, ...props }: AgentEventRootProps) {
  const event = classifySyntheticMessage(message);
  if (!event) {
    warnOnce(
      "AgentEvent.Root:ordinary",
      "AgentEvent.Root got an ordinary user/assistant message and rendered nothing. Check isAgentEvent(message) (from @runboard/protocol) or use <AgentEvent.Match> first.",
    );
    return null;
  }
  const name = label ?? agentEventLabel(event);
  return (
    <EventContext.Context.Provider value={{ message, event, label: name }}>
      {renderPart("div", {
        "data-rb-part": "AgentEvent.Root",
        role: "note",
        "aria-label": name,
        "data-kind": event.kind,
        "data-role": message.role,
        "data-status": event.kind === "detached-completion" ? event.status : undefined,
        "data-run-id": "runId" in event ? event.runId : undefined,
        "data-milestone": event.kind === "milestone" ? event.milestone : undefined,
        "data-delivery-kind": event.kind === "notice" ? event.deliveryKind : undefined,
        "data-source": "source" in event ? event.source : undefined,
        // Recognised by Think's default wording only (no id or metadata marks it; docs/protocol.md#synthetic-messages-gap).
        "data-inferred": "fromText" in event && event.fromText ? "" : undefined,
        ...props,
      })}
    </EventContext.Context.Provider>
  );
}
Root.displayName = "AgentEvent.Root";

/** The classified event of the surrounding root, for parts of your own. */
export function useAgentEvent(): SyntheticMessage & { label: string } {
  const { event, label } = usePartContext(EventContext, "useAgentEvent");
  return { ...event, label };
}

/** Props of `AgentEvent.Label`. */
export type AgentEventLabelProps = PrimitiveProps<"span">;

/** A visible heading-like label for the event; default the same words as its accessible name. */
function Label(props: AgentEventLabelProps) {
  const { label, event } = usePartContext(EventContext, "AgentEvent.Label");
  return renderPart("span", {
    "data-rb-part": "AgentEvent.Label",
    "data-kind": event.kind,
    children: label,
    ...props,
  });
}
Label.displayName = "AgentEvent.Label";

/** Props of `AgentEvent.Text`. */
export type AgentEventTextProps = PrimitiveProps<"div">;

/** The message's text, as text (never HTML); nothing when it has none. */
function Text(props: AgentEventTextProps) {
  const { message } = usePartContext(EventContext, "AgentEvent.Text");
  const text = messageText(message);
  if (text === "" && props.children === undefined) return null;
  return renderPart("div", { "data-rb-part": "AgentEvent.Text", children: text, ...props });
}
Text.displayName = "AgentEvent.Text";

/** Props of `AgentEvent.Match`. */
export interface AgentEventMatchProps {
  /** The message to classify (with `role` and `parts`, Think's user-role notify turns are recognised too). */
  message: ClassifiableMessage;
  /** Rendered for a server-injected message; a function gets the classified event. */
  children: ReactNode | ((event: SyntheticMessage) => ReactNode);
  /** Rendered for an ordinary message (the app's chat bubble). */
  fallback?: ReactNode;
}

/** Chooses in a message list: `children` for an agent event, `fallback` for a user/assistant message. */
function Match({ message, children, fallback = null }: AgentEventMatchProps) {
  const event = classifySyntheticMessage(message);
  if (!event) return <>{fallback}</>;
  return <>{typeof children === "function" ? children(event) : children}</>;
}
Match.displayName = "AgentEvent.Match";

/**
 * Server-injected messages shown as agent events.
 *
 * @example
 * ```tsx
 * {messages.map((m) => (
 *   <AgentEvent.Match key={m.id} message={m} fallback={<Bubble message={m} />}>
 *     <AgentEvent.Root message={m}>
 *       <AgentEvent.Label />
 *       <AgentEvent.Text />
 *     </AgentEvent.Root>
 *   </AgentEvent.Match>
 * ))}
 * ```
 */
export const AgentEvent = { Root, Label, Text, Match };
