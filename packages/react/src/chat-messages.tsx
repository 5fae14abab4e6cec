/**
 * Selector hooks over the chat store behind `useAgentChat`, so a long conversation re-renders only what
 * changed: the list re-renders when messages are added or removed, each row when its own message changes.
 * They rely on the store keeping the object of every message that did not change (`MessageList` does).
 */
import { CHAT_SESSION } from "@runboard/client";
import type { UIMessage } from "ai";
import { createContext, type ReactNode, useCallback, useContext, useSyncExternalStore } from "react";

/** What the hooks read: `useAgentChat()`'s result, a `ChatSession`, or any store with the same two calls. */
export interface ChatMessagesSource<M extends UIMessage = UIMessage> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): { messages: readonly M[] };
}

/** `useAgentChat()`'s result (its session is read) or a store. */
export type ChatMessagesInput<M extends UIMessage = UIMessage> =
  | ChatMessagesSource<M>
  | { readonly [CHAT_SESSION]: ChatMessagesSource<M> };

const SourceContext = createContext<ChatMessagesSource | null>(null);

function sourceOf<M extends UIMessage>(chat: ChatMessagesInput<M>): ChatMessagesSource<M> {
  return CHAT_SESSION in chat ? chat[CHAT_SESSION] : chat;
}

/** Props of `ChatMessagesProvider`. */
export interface ChatMessagesProviderProps {
  /** `useAgentChat()`'s result (or its session). */
  chat: ChatMessagesInput;
  children?: ReactNode;
}

/**
 * Makes a chat the one `useChatMessageIds()` and `useChatMessage(id)` read below it. The value is the chat's
 * store, which keeps its identity across renders, so the provider itself re-renders nothing.
 */
export function ChatMessagesProvider({ chat, children }: ChatMessagesProviderProps) {
  return <SourceContext.Provider value={sourceOf(chat)}>{children}</SourceContext.Provider>;
}

function useSource<M extends UIMessage>(chat: ChatMessagesInput<M> | undefined, hook: string) {
  const fromContext = useContext(SourceContext);
  const source = chat ? sourceOf(chat) : fromContext;
  if (!source)
    throw new Error(
      `${hook} needs a chat: pass useAgentChat()'s result, or render inside <ChatMessagesProvider>`,
    );
  return source as ChatMessagesSource<M>;
}

/** The source's `subscribe`, bound and stable per source (a store's method may rely on `this`). */
function useSubscribe(source: ChatMessagesSource) {
  return useCallback((fn: () => void) => source.subscribe(fn), [source]);
}

interface Derived {
  ids: readonly string[];
  byId: Map<string, UIMessage> | undefined;
}
/** Per published messages array: its ids and (built on first use) its index by id. */
const derived = new WeakMap<readonly UIMessage[], Derived>();
/** The ids last handed out per store: kept while the ids are the same, so deltas do not change them. */
const lastIds = new WeakMap<object, readonly string[]>();

function derive(source: ChatMessagesSource, messages: readonly UIMessage[]): Derived {
  let d = derived.get(messages);
  if (d) return d;
  const before = lastIds.get(source);
  let ids: readonly string[];
  if (before && before.length === messages.length && messages.every((m, i) => m.id === before[i]))
    ids = before;
  else {
    ids = messages.map((m) => m.id);
    lastIds.set(source, ids);
  }
  d = { ids, byId: undefined };
  derived.set(messages, d);
  return d;
}

/**
 * The ids of the chat's messages, in order. The array keeps its identity until a message is added, removed
 * or moved, so a list built from it does not re-render while a message streams. Pass `useAgentChat()`'s
 * result, or render inside `<ChatMessagesProvider>`.
 *
 * @example
 * ```tsx
 * const Row = memo(function Row({ id }: { id: string }) {
 *   const message = useChatMessage(id);
 *   return message ? <MessageParts message={message} /> : null;
 * });
 * function Transcript() {
 *   return useChatMessageIds().map((id) => <Row key={id} id={id} />);
 * }
 * // <ChatMessagesProvider chat={useAgentChat({ agent })}><Transcript /></ChatMessagesProvider>
 * ```
 */
export function useChatMessageIds(chat?: ChatMessagesInput): readonly string[] {
  const source = useSource(chat, "useChatMessageIds");
  const get = () => derive(source, source.getSnapshot().messages).ids;
  return useSyncExternalStore(useSubscribe(source), get, get);
}

/**
 * The message with this id (undefined when there is none). It changes only when that message changes, so a
 * row that reads it re-renders only for its own message. Pass `useAgentChat()`'s result as `chat`, or render
 * inside `<ChatMessagesProvider>`.
 */
export function useChatMessage<M extends UIMessage = UIMessage>(
  id: string,
  chat?: ChatMessagesInput<M>,
): M | undefined {
  const source = useSource(chat, "useChatMessage");
  const get = () => {
    const messages = source.getSnapshot().messages;
    const d = derive(source, messages);
    if (!d.byId) {
      d.byId = new Map();
      for (const m of messages) d.byId.set(m.id, m);
    }
    return d.byId.get(id) as M | undefined;
  };
  return useSyncExternalStore(useSubscribe(source), get, get);
}
