/**
 * `ChatStatus`: what a person should see about the chat besides its messages (issue 16 §2): a recovery
 * after an eviction, one that gave up, a compaction, a stream the agent or another tab started. The state
 * and its words come from `describeChatStatus` in `@runboard/protocol`; the flags from `useAgentChat()`.
 */

import type { CompactionSummary } from "@runboard/protocol";
import {
  type ChatStatusFlags,
  type ChatStatusState,
  compactionText,
  describeChatStatus,
} from "@runboard/protocol/view";
import {
  type AnnouncerProps,
  createPartContext,
  dataFlag,
  type PrimitiveProps,
  renderAnnouncer,
  renderPart,
  usePartContext,
} from "../primitives/index.ts";

/** What `ChatStatus.Root` reads: `useAgentChat()`'s result, or a `ChatSession` snapshot. */
export type ChatStatusSource = ChatStatusFlags & {
  session?: { phase: string; tokenEstimate: number; tokenThreshold: number | null } | undefined;
};

interface StatusContextValue {
  state: ChatStatusState;
  text: string;
  compaction: CompactionSummary | undefined;
}
const StatusContext = createPartContext<StatusContextValue>("ChatStatus.Root");

/** Props of `ChatStatus.Root`. */
export interface ChatStatusRootProps extends PrimitiveProps<"div"> {
  /** The chat's flags: pass `useAgentChat()`'s result. */
  chat: ChatStatusSource;
}

/**
 * The status region. `data-state`: `gave-up | recovering | compacting | server-streaming | idle` (most urgent
 * first); `data-server-stream` `server | another-tab`, `data-compacted` when the transcript holds compacted
 * messages, `data-token-estimate` / `data-token-threshold` from the memory session. Always rendered, so the
 * announcer inside it is in the page before it speaks.
 */
function Root({ chat, children, ...props }: ChatStatusRootProps) {
  const { state, text } = describeChatStatus(chat);
  const compaction = chat.compaction;
  return (
    <StatusContext.Context.Provider value={{ state, text, compaction }}>
      {renderPart("div", {
        "data-rb-part": "ChatStatus.Root",
        "data-state": state,
        "data-server-stream": chat.serverStream?.source,
        "data-compacted": dataFlag(compaction !== undefined),
        "data-token-estimate": chat.session?.tokenEstimate,
        "data-token-threshold": chat.session?.tokenThreshold ?? undefined,
        children,
        ...props,
      })}
    </StatusContext.Context.Provider>
  );
}
Root.displayName = "ChatStatus.Root";

/** The current status and its words, for parts of your own. */
export function useChatStatus(): StatusContextValue {
  return usePartContext(StatusContext, "useChatStatus");
}

/** Props of `ChatStatus.Message`. */
export type ChatStatusMessageProps = PrimitiveProps<"p">;

/**
 * The words for the current state (`role="alert"` for a recovery that gave up); nothing while idle. Children
 * replace the default words.
 */
function Message(props: ChatStatusMessageProps) {
  const { state, text } = usePartContext(StatusContext, "ChatStatus.Message");
  if (state === "idle") return null;
  return renderPart("p", {
    "data-rb-part": "ChatStatus.Message",
    "data-state": state,
    role: state === "gave-up" ? "alert" : undefined,
    children: text,
    ...props,
  });
}
Message.displayName = "ChatStatus.Message";

/** Props of `ChatStatus.Compaction`. */
export type ChatStatusCompactionProps = PrimitiveProps<"p">;

/** A note that the transcript is compacted (`Earlier messages were summarised; …`); nothing otherwise. */
function Compaction(props: ChatStatusCompactionProps) {
  const { compaction } = usePartContext(StatusContext, "ChatStatus.Compaction");
  if (!compaction) return null;
  return renderPart("p", {
    "data-rb-part": "ChatStatus.Compaction",
    "data-summaries": compaction.summaries,
    "data-tool-outputs": compaction.toolOutputs,
    children: compactionText(compaction),
    ...props,
  });
}
Compaction.displayName = "ChatStatus.Compaction";

/** Props of `ChatStatus.Announcer`. */
export type ChatStatusAnnouncerProps = AnnouncerProps;

/** Speaks each new status to screen readers (the shared polite live region); hidden unless `visible`. */
function Announcer(props: ChatStatusAnnouncerProps) {
  const { text, state } = usePartContext(StatusContext, "ChatStatus.Announcer");
  return renderAnnouncer(text, { "data-rb-part": "ChatStatus.Announcer", "data-state": state, ...props });
}
Announcer.displayName = "ChatStatus.Announcer";

/**
 * The chat's status besides its messages.
 *
 * @example
 * ```tsx
 * const chat = useAgentChat({ agent });
 * <ChatStatus.Root chat={chat}>
 *   <ChatStatus.Message />
 *   <ChatStatus.Compaction />
 *   <ChatStatus.Announcer />
 * </ChatStatus.Root>
 * ```
 */
export const ChatStatus = { Root, Message, Compaction, Announcer };
