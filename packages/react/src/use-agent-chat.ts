/**
 * `useAgentChat`: the official hook's options and return values over a `ChatSession`. Works with our
 * `useAgent` result and with the official one. Callbacks are read through a latest-value ref, so they never
 * see stale props, and the session survives StrictMode's double mount.
 */
import { ChatSession, type ChatSessionOptions, type ChatSnapshot } from "@runboard/client";
import type { UIMessage } from "ai";
import { useCallback, useSyncExternalStore } from "react";
import { idOf, useLatest, useOwned } from "./lifetime.ts";

export type UseAgentChatOptions<M extends UIMessage = UIMessage> = ChatSessionOptions<M>;

export type UseAgentChatResult<M extends UIMessage = UIMessage> = ChatSnapshot<M> &
  Pick<
    ChatSession<M>,
    | "sendMessage"
    | "regenerate"
    | "stop"
    | "clearHistory"
    | "setMessages"
    | "addToolOutput"
    | "addToolResult"
    | "addToolApprovalResponse"
    | "resumeStream"
    | "clearError"
    | "experimental_removeQueuedMessage"
    | "experimental_sendQueuedMessageNow"
  > & {
    /** The chat's id. */
    id: string;
    /** The connection's error from `useAgent` (a refused or failed socket), as the official hook returns it. */
    connectionError: Error | null;
  };

export function useAgentChat<M extends UIMessage = UIMessage>(
  options: UseAgentChatOptions<M>,
): UseAgentChatResult<M> {
  const latest = useLatest(options);
  const dispose = useCallback((s: ChatSession<M>) => s.dispose(), []);
  const session = useOwned(
    `${idOf(options.agent)}:${options.resume !== false}`,
    () =>
      new ChatSession<M>({
        ...latest.current,
        ...(latest.current.body && typeof latest.current.body === "function"
          ? { body: () => (latest.current.body as () => Record<string, unknown>)() }
          : {}),
        onToolCall:
          latest.current.onToolCall || latest.current.tools
            ? (o) => latest.current.onToolCall?.(o)
            : undefined,
        onData: (p) => latest.current.onData?.(p),
        onFinish: (f) => latest.current.onFinish?.(f),
        onError: (e) => latest.current.onError?.(e),
      } as ChatSessionOptions<M>),
    dispose,
  );
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return {
    ...snapshot,
    sendMessage: session.sendMessage.bind(session),
    regenerate: session.regenerate.bind(session),
    stop: session.stop.bind(session),
    clearHistory: session.clearHistory.bind(session),
    setMessages: session.setMessages.bind(session),
    addToolOutput: session.addToolOutput.bind(session),
    addToolResult: session.addToolResult.bind(session),
    addToolApprovalResponse: session.addToolApprovalResponse.bind(session),
    resumeStream: session.resumeStream.bind(session),
    clearError: session.clearError.bind(session),
    experimental_removeQueuedMessage: session.experimental_removeQueuedMessage.bind(session),
    experimental_sendQueuedMessageNow: session.experimental_sendQueuedMessageNow.bind(session),
    id: session.id,
    connectionError: (options.agent as { connectionError?: Error | null }).connectionError ?? null,
  };
}
