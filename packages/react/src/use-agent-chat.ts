/**
 * `useAgentChat`: the official hook's options and return values over a `ChatSession`. Works with our
 * `useAgent` result and with the official one. The session takes the app's options on every render (nothing
 * goes stale), its actions keep their identity, and it starts listening in an effect: a server render or a
 * discarded render leaves no listener or timer. Like the official hook it suspends while the first transcript
 * loads, except while hydrating server HTML (then the transcript loads after mount, so the markup matches).
 */
import {
  type AgentConnectionError,
  CHAT_SESSION,
  ChatSession,
  type ChatSnapshot,
  chatThreadKey,
  type TranscriptResult,
} from "@runboard/client";
import type { UIMessage } from "ai";
import { use, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useOwned } from "./lifetime.ts";
import { useHydrated } from "./primitives/use-hydrated.ts";
import type { UseAgentChatOptions, UseAgentChatResult } from "./use-agent-chat-types.ts";

export * from "./use-agent-chat-types.ts";

type Actions =
  | "sendMessage"
  | "regenerate"
  | "stop"
  | "clearHistory"
  | "setMessages"
  | "addToolOutput"
  | "addToolResult"
  | "addToolApprovalResponse"
  | "resumeStream"
  | "selectBranch"
  | "refreshBranches"
  | "clearError"
  | "experimental_removeQueuedMessage"
  | "experimental_sendQueuedMessageNow";

/**
 * First transcripts in flight or loaded, by thread, kept across the renders of one mount (a render that
 * suspends is thrown away with its session, the retry finds the answer here). Dropped once a chat has mounted
 * with it.
 */
const firstTranscripts = new Map<string, Promise<TranscriptResult<UIMessage>>>();
/** The first-transcript load each session waits for (`null`: none), fixed at its first render. */
const firstLoadOf = new WeakMap<object, Promise<TranscriptResult<UIMessage>> | null>();

const chatLifecycle = {
  start: (s: ChatSession<UIMessage>) => {
    s.attach();
  },
  dispose: (s: ChatSession<UIMessage>) => s.dispose(),
};

/**
 * Chats with an agent over its connection (`useAgent`'s result, or the official `useAgent`'s), as
 * `@cloudflare/ai-chat/react`'s `useAgentChat` does: streaming, resume after reconnect, tool approvals,
 * client tools, several tabs on one thread. The store behind it is `ChatSession` from `@runboard/client`.
 *
 * Like the official hook it suspends while the first transcript loads (render it inside `<Suspense>`, and
 * keep what names the thread above the boundary); while hydrating server HTML it does not suspend, the
 * transcript loads after mount. The chat is keyed as upstream keys it (`chatThreadKey`: agent path and route,
 * never the query): another `name` is another chat even when the URL path stays (custom routing), while a new
 * agent object for the same thread (a rotated token) keeps the chat.
 * Deliberate differences: `stop()` stops any live stream (also a resumed one or another tab's); failures,
 * including exceptions thrown by the app's callbacks, go to `onError` instead of being thrown or only
 * logged; client tools with `execute` run without `experimental_automaticToolResolution`; streamed chunks are
 * coalesced to one render per animation frame (`throttleMs`; app actions show at once); every action keeps its
 * identity. The README of
 * `@runboard/react` lists them all.
 *
 * @example
 * ```tsx
 * function Chat({ room }: { room: string }) {
 *   const agent = useAgent({ agent: "ChatAgent", name: room });
 *   const { messages, sendMessage, status, stop } = useAgentChat({ agent });
 *   return (
 *     <form onSubmit={(e) => { e.preventDefault(); void sendMessage({ text: "hello" }); }}>
 *       {messages.map((m) => <p key={m.id}>{m.role}</p>)}
 *       {status === "streaming" ? <button type="button" onClick={stop}>Stop</button> : <button>Send</button>}
 *     </form>
 *   );
 * }
 * // <Suspense fallback="Loading…"><Chat room="room-1" /></Suspense>
 * ```
 */
export function useAgentChat<State = unknown, M extends UIMessage = UIMessage>(
  options: UseAgentChatOptions<State, M>,
): UseAgentChatResult<M> {
  // Keyed as the official hook keys its chat: agent path and route, never the URL's query (`chatThreadKey`).
  const thread = chatThreadKey(options.agent);
  // An address not known yet (an async query resolving, a URL still `""`) keeps the chat it had; the first
  // known one names it.
  const named = useRef<{ thread: string | undefined; generation: number }>({ thread, generation: 0 });
  if (thread !== undefined && thread !== named.current.thread) {
    named.current = {
      thread,
      generation: named.current.generation + (named.current.thread === undefined ? 0 : 1),
    };
  }
  const key = `${named.current.generation}:${options.resume !== false}`;
  const session = useOwned(
    key,
    () => {
      const s = new ChatSession<M>(options, false);
      s.hookManaged = true;
      return s;
    },
    chatLifecycle as unknown as { start: (s: ChatSession<M>) => void; dispose: (s: ChatSession<M>) => void },
  );
  session.setOptions(options);

  // The official hook suspends until the first transcript is in; so does this one, outside hydration. Which
  // load a session waits for is decided once, at its first render: every later render of it (StrictMode's
  // second call, a replay) must call `use` on the same promise, or React rejects the render.
  const hydrating = !useHydrated();
  let loading = firstLoadOf.get(session);
  if (loading === undefined) {
    loading = null;
    if (!hydrating && thread !== undefined && session.wantsInitialTranscript) {
      loading = firstTranscripts.get(thread) ?? null;
      if (!loading) {
        loading = session.loadInitialTranscript() as Promise<TranscriptResult<UIMessage>>;
        firstTranscripts.set(thread, loading);
      }
    }
    firstLoadOf.set(session, loading);
  }
  if (loading) session.seedTranscript(use(loading) as TranscriptResult<M>);
  useEffect(() => {
    // Used: the next chat mounted on this thread (another tab in the page, a remount) loads a fresh one.
    if (thread !== undefined) firstTranscripts.delete(thread);
  }, [thread]);

  useEffect(() => {
    session.followAgent();
    session.loadWhenAddressReady();
  });

  const [snapshot, reads] = useReadSnapshot(session);
  const actions = useMemo(
    // The session's methods take what the official types allow; the object's type says it as they do.
    () =>
      ({
        sendMessage: session.sendMessage.bind(session),
        regenerate: session.regenerate.bind(session),
        // A promise, as the AI SDK's `stop`, so `stop().then(…)` works.
        stop: () => Promise.resolve(session.stop()),
        clearHistory: session.clearHistory.bind(session),
        setMessages: session.setMessages.bind(session),
        addToolOutput: session.addToolOutput.bind(session),
        addToolResult: session.addToolResult.bind(session),
        addToolApprovalResponse: session.addToolApprovalResponse.bind(session),
        resumeStream: session.resumeStream.bind(session),
        selectBranch: session.selectBranch.bind(session),
        refreshBranches: session.refreshBranches.bind(session),
        clearError: session.clearError.bind(session),
        experimental_removeQueuedMessage: session.experimental_removeQueuedMessage.bind(session),
        experimental_sendQueuedMessageNow: session.experimental_sendQueuedMessageNow.bind(session),
      }) as unknown as ChatActions<M>,
    [session],
  );
  const connectionError =
    (options.agent as { connectionError?: AgentConnectionError | null }).connectionError ?? null;
  // A new result object whenever a field this component read changed (`snapshot` is then a new object), so
  // memoized children that are handed the chat re-render; otherwise the same object.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `snapshot` is the change signal, read through `reads`
  return useMemo(
    () => resultOf(reads, actions, connectionError),
    [snapshot, reads, actions, connectionError],
  );
}

/** The snapshot's fields, each read through a getter of the result (checked against `ChatSnapshot` below). */
const SNAPSHOT_FIELDS = [
  "messages",
  "status",
  "error",
  "isStreaming",
  "isServerStreaming",
  "isToolContinuation",
  "isRecovering",
  "experimental_queuedMessages",
  "serverStream",
  "recoveryGaveUp",
  "session",
  "isCompacting",
  "compaction",
  "branches",
] as const;
type SnapshotField = (typeof SNAPSHOT_FIELDS)[number];
// A field added to `ChatSnapshot` and not listed above would be missing from the result: this fails to compile.
const _everyField: Record<Exclude<keyof ChatSnapshot, SnapshotField>, never> = {};
void _everyField;

/** What one mounted hook has read of its result, and the snapshot it last rendered. */
interface Reads<M extends UIMessage> {
  session: ChatSession<M>;
  used: Set<SnapshotField>;
  shown: ChatSnapshot<M> | undefined;
}

/**
 * The session's snapshot, re-rendering only when a field this component has read changed. An app component
 * that calls `useAgentChat` for `sendMessage` and `status`, and hands the chat to `ChatMessageList`, is not
 * re-rendered by every streamed frame: only the row whose message changed is (issue 16: in the paced bench the
 * app's re-render per frame was a quarter of all the work). A field counts as read from its first read,
 * whenever it happens (render, effect, handler), and every read returns the store's current value, so a
 * handler never sees an older transcript than the store holds.
 */
function useReadSnapshot<M extends UIMessage>(session: ChatSession<M>): [ChatSnapshot<M>, Reads<M>] {
  const reads = useRef<Reads<M> | null>(null);
  if (reads.current?.session !== session) reads.current = { session, used: new Set(), shown: undefined };
  const r = reads.current;
  const select = useCallback((): ChatSnapshot<M> => {
    const next = r.session.getSnapshot();
    const shown = r.shown;
    if (shown !== undefined && shown !== next) {
      let same = true;
      for (const k of r.used)
        if (!Object.is(shown[k], next[k])) {
          same = false;
          break;
        }
      if (same) return shown;
    }
    r.shown = next;
    return next;
  }, [r]);
  return [useSyncExternalStore(session.subscribe, select, select), r];
}

type ChatActions<M extends UIMessage> = Pick<UseAgentChatResult<M>, Actions>;

/**
 * The hook's result: the snapshot's fields as enumerable getters (so `{ ...chat }` and destructuring work as
 * on a plain object) that record what was read, the actions, the id and the session.
 */
function resultOf<M extends UIMessage>(
  r: Reads<M>,
  actions: ChatActions<M>,
  connectionError: AgentConnectionError | null,
): UseAgentChatResult<M> {
  const { session } = r;
  const read = <K extends SnapshotField>(k: K): ChatSnapshot<M>[K] => {
    r.used.add(k);
    return session.getSnapshot()[k];
  };
  return {
    get messages() {
      return read("messages") as M[];
    },
    get status() {
      return read("status");
    },
    get error() {
      return read("error");
    },
    get isStreaming() {
      return read("isStreaming");
    },
    get isServerStreaming() {
      return read("isServerStreaming");
    },
    get isToolContinuation() {
      return read("isToolContinuation");
    },
    get isRecovering() {
      return read("isRecovering");
    },
    get experimental_queuedMessages() {
      return read("experimental_queuedMessages") as M[];
    },
    get serverStream() {
      return read("serverStream");
    },
    get recoveryGaveUp() {
      return read("recoveryGaveUp");
    },
    get session() {
      return read("session");
    },
    get isCompacting() {
      return read("isCompacting");
    },
    get compaction() {
      return read("compaction");
    },
    get branches() {
      return read("branches");
    },
    ...actions,
    id: session.id,
    // Not an official field: lets the approval stores read the live transcript (see CHAT_SESSION).
    [CHAT_SESSION]: session,
    connectionError,
  };
}
