/**
 * Selector hooks over the chat store behind `useAgentChat`, so a long conversation re-renders only what
 * changed: the list re-renders when messages are added or removed, each row when its own message changes.
 * They rely on the store keeping the object of every message that did not change (`MessageList` does).
 */
import { CHAT_SESSION } from "@runboard/client";
import { publishedChanges } from "@runboard/protocol";
import type { UIMessage } from "ai";
import {
  type ComponentType,
  createContext,
  memo,
  type ReactNode,
  useCallback,
  useContext,
  useSyncExternalStore,
} from "react";
import { type MessageBlock, messageBlocks } from "./message-blocks.ts";

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

/** Per published messages array: its ids, kept as the same array while the ids are the same. */
const idsOf = new WeakMap<readonly UIMessage[], readonly string[]>();
/** The ids last handed out per store: kept while the ids are the same, so deltas do not change them. */
const lastIds = new WeakMap<object, readonly string[]>();
/** Position of each id, per ids array (built once per change of the ids, not per delta). */
const positions = new WeakMap<readonly string[], Map<string, number>>();

function idsFor(source: ChatMessagesSource, messages: readonly UIMessage[]): readonly string[] {
  let ids = idsOf.get(messages);
  if (ids) return ids;
  const before = lastIds.get(source);
  if (before && before.length === messages.length && messages.every((m, i) => m.id === before[i]))
    ids = before;
  else {
    ids = messages.map((m) => m.id);
    lastIds.set(source, ids);
  }
  idsOf.set(messages, ids);
  return ids;
}

function messageAt(source: ChatMessagesSource, messages: readonly UIMessage[], id: string) {
  const ids = idsFor(source, messages);
  let at = positions.get(ids);
  if (!at) {
    at = new Map(ids.map((x, i) => [x, i]));
    positions.set(ids, at);
  }
  const i = at.get(id);
  return i === undefined ? undefined : messages[i];
}

/**
 * One subscription to the store per chat, fanned out: on each change the rows whose message object changed
 * are told, the others are not called at all (with 2,000 rows, calling every row's check per delta would
 * cost more than rendering the one that changed).
 */
interface Hub {
  messages: readonly UIMessage[];
  ids: Set<() => void>;
  rows: Map<string, Set<() => void>>;
  stop: (() => void) | undefined;
}
const hubs = new WeakMap<ChatMessagesSource, Hub>();

function hubOf(source: ChatMessagesSource): Hub {
  let hub = hubs.get(source);
  if (!hub) {
    hub = { messages: source.getSnapshot().messages, ids: new Set(), rows: new Map(), stop: undefined };
    hubs.set(source, hub);
  }
  return hub;
}

/**
 * The ids of `next` when they are those of `prev` (same length, and every message that is a new object keeps
 * its id): one pass comparing message objects, which reads only the messages that changed. Reading every
 * message's id instead (2,000 objects per streamed commit) was most of this hook's cost in the paced bench.
 */
function sameIdsAs(source: ChatMessagesSource, prev: readonly UIMessage[], next: readonly UIMessage[]) {
  if (idsOf.has(next) || prev.length !== next.length) return undefined;
  const ids = idsOf.get(prev);
  if (!ids) return undefined;
  for (let i = 0; i < next.length; i++) {
    const m = next[i] as UIMessage;
    if (m !== prev[i] && m.id !== ids[i]) return undefined;
  }
  idsOf.set(next, ids);
  lastIds.set(source, ids);
  return ids;
}

/**
 * The ids of `next`, which is `prev` with messages appended (their ids new, see `publishedChanges`): those of
 * `prev` plus the new ones. The positions map of `prev`'s ids is extended and shared: a lookup through the
 * shorter ids finds an appended id past the end of its messages, that is, not there.
 */
function appendedIds(source: ChatMessagesSource, prev: readonly UIMessage[], next: readonly UIMessage[]) {
  const before = idsFor(source, prev);
  if (next.length === before.length) return before;
  const ids = before.slice();
  for (let i = before.length; i < next.length; i++) ids.push((next[i] as UIMessage).id);
  const at = positions.get(before);
  if (at && ids.slice(before.length).every((id) => !at.has(id))) {
    for (let i = before.length; i < ids.length; i++) at.set(ids[i] as string, i);
    positions.set(ids, at);
  }
  return ids;
}

function changed(source: ChatMessagesSource, hub: Hub) {
  const prev = hub.messages;
  const next = source.getSnapshot().messages;
  if (next === prev) return;
  hub.messages = next;
  // The store's own record of what it changed or appended (a `MessageList` snapshot): no pass over the
  // transcript, and on an append only the new rows are told (the others' messages are the same objects).
  const hinted = publishedChanges(next, prev);
  if (hinted) {
    if (!idsOf.has(next)) {
      const ids = appendedIds(source, prev, next);
      idsOf.set(next, ids);
      lastIds.set(source, ids);
    }
    if (next.length !== prev.length) for (const fn of [...hub.ids]) fn();
    tellRows(hub, prev, next, hinted);
    return;
  }
  const kept = sameIdsAs(source, prev, next);
  const idsChanged = !kept && idsFor(source, prev) !== idsFor(source, next);
  if (idsChanged) {
    for (const fn of [...hub.ids]) fn();
    // Rare (a message added or removed): every row checks its own message.
    for (const set of [...hub.rows.values()]) for (const fn of [...set]) fn();
    return;
  }
  tellRows(hub, prev, next, undefined);
}

/** Calls the rows whose message object changed: at the indices `at` when known, else found by comparing. */
function tellRows(
  hub: Hub,
  prev: readonly UIMessage[],
  next: readonly UIMessage[],
  at: readonly number[] | undefined,
) {
  const n = at ? at.length : next.length;
  for (let k = 0; k < n; k++) {
    const i = at ? (at[k] as number) : k;
    const m = next[i] as UIMessage;
    if (m === prev[i]) continue;
    const set = hub.rows.get(m.id);
    if (set) for (const fn of [...set]) fn();
  }
}

function listen(source: ChatMessagesSource, add: (hub: Hub) => () => void): () => void {
  const hub = hubOf(source);
  if (!hub.stop) {
    hub.messages = source.getSnapshot().messages;
    hub.stop = source.subscribe(() => changed(source, hub));
  }
  const remove = add(hub);
  return () => {
    remove();
    if (hub.ids.size === 0 && hub.rows.size === 0) {
      hub.stop?.();
      hub.stop = undefined;
    }
  };
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
  const subscribe = useCallback(
    (fn: () => void) =>
      listen(source, (hub) => {
        hub.ids.add(fn);
        return () => hub.ids.delete(fn);
      }),
    [source],
  );
  const get = () => idsFor(source, source.getSnapshot().messages);
  return useSyncExternalStore(subscribe, get, get);
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
  const subscribe = useCallback(
    (fn: () => void) =>
      listen(source, (hub) => {
        const set = hub.rows.get(id) ?? new Set<() => void>();
        hub.rows.set(id, set);
        set.add(fn);
        return () => {
          set.delete(fn);
          if (set.size === 0) hub.rows.delete(id);
        };
      }),
    [source, id],
  );
  const get = () => messageAt(source, source.getSnapshot().messages, id) as M | undefined;
  return useSyncExternalStore(subscribe, get, get);
}

/** Props of `ChatMessageList`. */
export interface ChatMessageListProps {
  /** `useAgentChat()`'s result (or its session); without it, the chat of the nearest `ChatMessagesProvider`. */
  chat?: ChatMessagesInput;
  /**
   * Renders one message, given its id (read it with `useChatMessage(id)`). A component defined once, outside
   * render (a new one per render would re-render, and remount, every row), usually wrapped in `memo`.
   */
  row: Row;
}

/**
 * Blocks per ids array, and the blocks last handed out per store with the ids they were made from (reused
 * where their content is the same; on an append only the last block is built again).
 */
const blocksOf = new WeakMap<readonly string[], readonly MessageBlock[]>();
const lastBlocks = new WeakMap<object, { ids: readonly string[]; blocks: readonly MessageBlock[] }>();

function blocksFor(source: ChatMessagesSource, ids: readonly string[]) {
  let blocks = blocksOf.get(ids);
  if (!blocks) {
    const last = lastBlocks.get(source);
    blocks = messageBlocks(ids, last?.blocks, last?.ids);
    blocksOf.set(ids, blocks);
    lastBlocks.set(source, { ids, blocks });
  }
  return blocks;
}

type Row = ComponentType<{ id: string }>;

/** A block of rows or of blocks; skipped while its object is the same (see `message-blocks.ts`). */
const Block = memo(function Block({ block, row: Row }: { block: MessageBlock; row: Row }) {
  if (block.blocks) return block.blocks.map((b) => <Block key={b.key} block={b} row={Row} />);
  return block.ids?.map((id) => <Row key={id} id={id} />);
});

/**
 * Every message of the chat in order, one `row` per id: `useChatMessageIds().map(…)` for long conversations.
 * The rows are grouped in memoized blocks (no element of their own), so a streamed commit makes React visit
 * the blocks and the rows of one block instead of every row (a flat list of 2,000 rows is walked in full on
 * every commit, even when only one row renders). A row keeps its state while messages are added or removed
 * elsewhere; only removing the first message of a block moves the rows after it into the previous block
 * (remounting them). Renders no element; re-renders only when messages are added or removed, or `row` changes.
 *
 * @example
 * ```tsx
 * const Row = memo(function Row({ id }: { id: string }) {
 *   const message = useChatMessage(id);
 *   return message ? <article data-role={message.role}><MessageParts message={message} /></article> : null;
 * });
 * // <ChatMessageList chat={useAgentChat({ agent })} row={Row} />
 * ```
 */
export const ChatMessageList = memo(
  function ChatMessageList({ chat, row }: ChatMessageListProps) {
    const source = useSource(chat, "ChatMessageList");
    const ids = useChatMessageIds(source);
    return (
      <SourceContext.Provider value={source}>
        {blocksFor(source, ids).map((b) => (
          <Block key={b.key} block={b} row={row} />
        ))}
      </SourceContext.Provider>
    );
  },
  // `useAgentChat()`'s result is a new object on every commit; its store is the same one.
  (a, b) =>
    a.row === b.row && (a.chat === b.chat || (!!a.chat && !!b.chat && sourceOf(a.chat) === sourceOf(b.chat))),
);
