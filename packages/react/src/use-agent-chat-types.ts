/**
 * The types of `useAgentChat`, shaped as the official `@cloudflare/ai-chat/react` and `@cloudflare/think/react`
 * hooks type them (two type arguments, mutable `messages`, the AI SDK's `sendMessage` forms), so code written
 * for those hooks compiles against these unchanged (packages/react/test/drop-in-types).
 */
import type {
  AddToolOutputOptions,
  AgentConnectionError,
  CHAT_SESSION,
  ChatRequestOptions,
  ChatSession,
  ChatSessionOptions,
  ChatSnapshot,
  SendMessageInput,
} from "@runboard/client";
import type { UIMessage } from "ai";

/**
 * The options of `useAgentChat`: the official hook's, with the same names and meanings (each one is documented
 * on `ChatSessionOptions`). They are read fresh on every render. `State` is the agent's state type, as in the
 * official `UseAgentChatOptions<State, ChatMessage>`; it types nothing here either.
 */
export type UseAgentChatOptions<
  // biome-ignore lint/correctness/noUnusedVariables: the official type's first argument, kept for drop-in code
  State = unknown,
  M extends UIMessage = UIMessage,
> = ChatSessionOptions<M>;

/** Think's options (`@cloudflare/think/react`): `useAgentChat`'s, without `syncMessagesToServer`. */
export type ThinkChatOptions<State = unknown, M extends UIMessage = UIMessage> = Omit<
  UseAgentChatOptions<State, M>,
  "syncMessagesToServer"
>;

/** The other name `@cloudflare/think/react` exports for `ThinkChatOptions`. */
export type UseThinkChatOptions<State = unknown, M extends UIMessage = UIMessage> = ThinkChatOptions<
  State,
  M
>;

/** What `addToolResult` takes: the AI SDK's form of a tool result (`tool` for the tool's name). */
export interface AddToolResultOptions {
  /** The tool's name. */
  tool: string;
  /** The call answered. */
  toolCallId: string;
  /** The result (with `state: "output-available"`, the default). */
  output?: unknown;
  /** `output-error` sends a failure or denial with `errorText`. */
  state?: "output-available" | "output-error";
  /** Why the call failed. */
  errorText?: string;
  /** Accepted for compatibility (the AI SDK's per-request options of an automatic send). */
  options?: ChatRequestOptions;
}

/**
 * What `useAgentChat` returns, as the official hook (the AI SDK's `useChat` helpers plus the agent's fields):
 * the chat's state (`messages`, `status`, `error`, the streaming flags) and its actions, each keeping its
 * identity across renders. Runboard adds the statuses a person should see (`serverStream`, `recoveryGaveUp`,
 * `session`, `isCompacting`, `compaction`) and Think's branches (`branches`, `selectBranch`, `refreshBranches`).
 */
export type UseAgentChatResult<M extends UIMessage = UIMessage> = Omit<
  ChatSnapshot<M>,
  "messages" | "experimental_queuedMessages"
> & {
  /** The transcript; a message that did not change keeps its identity. Read it; the chat owns it. */
  messages: M[];
  /** Messages waiting to be sent (`experimental_queue`), in sending order. */
  experimental_queuedMessages: M[];
  /** See `ChatSession.sendMessage`: text, files, a whole message (with or without an `id`), an edit. */
  sendMessage: (message?: SendMessageInput<M>, options?: ChatRequestOptions) => Promise<void>;
  /** See `ChatSession.regenerate`. */
  regenerate: (options?: { messageId?: string } & ChatRequestOptions) => Promise<void>;
  /** Stops whatever stream is live (see `ChatSession.stop`); resolves once the stop is sent. */
  stop: () => Promise<void>;
  /** Clears the transcript here, on the server and in the other tabs. */
  clearHistory: () => void;
  /** Replaces the transcript (see `ChatSession.setMessages`). */
  setMessages: (messages: M[] | ((messages: M[]) => M[])) => void;
  /** A client tool's result, or a denial with `state: "output-error"`. */
  addToolOutput: (options: AddToolOutputOptions) => void;
  /**
   * The AI SDK's older name for a tool result (see `ChatSession.addToolResult`).
   * @deprecated As upstream: use `addToolOutput`.
   */
  addToolResult: (options: AddToolResultOptions) => void;
  /**
   * A human's decision on an approval request (`id` is the approval id). `options` is accepted for
   * compatibility and not used.
   */
  addToolApprovalResponse: (response: {
    id: string;
    approved: boolean;
    reason?: string;
    options?: ChatRequestOptions;
  }) => void;
  /**
   * Asks the server for a stream to resume; resolves with its id, or undefined when there is none. `options`
   * is accepted for compatibility (a resume request carries no body).
   */
  resumeStream: (options?: ChatRequestOptions) => Promise<string | undefined>;
  /** Clears `error` (and an `error` status) without sending anything. */
  clearError: () => void;
  /** Drops a queued message before it is sent (`experimental_queue`). */
  experimental_removeQueuedMessage: (id: string) => void;
  /** Stops the running response and sends this queued message next; the rest follow it. */
  experimental_sendQueuedMessageNow: (id: string) => Promise<void>;
  /** See `ChatSession.selectBranch`. Runboard addition. */
  selectBranch: ChatSession<M>["selectBranch"];
  /** See `ChatSession.refreshBranches`. Runboard addition. */
  refreshBranches: ChatSession<M>["refreshBranches"];
  /** The chat's id. */
  id: string;
  /**
   * The connection's error from `useAgent` (a refused socket: `code`, `reason`, `wasClean`), as the official
   * hook returns it.
   */
  connectionError: AgentConnectionError | null;
  /** The session behind the result, for the approval stores (not an official field). */
  [CHAT_SESSION]: ChatSession<M>;
};
