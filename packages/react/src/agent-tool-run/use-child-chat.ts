/**
 * Drill-in: the child of a run is a real sub-agent with its own chat (docs/protocol.md#drill-in). `useChildChat`
 * connects to it only while the app shows it, and closes the connection when it stops showing it.
 */
import {
  type AgentClientOptions,
  type ChatSession,
  type ChatSessionOptions,
  type ChatSnapshot,
  openChildChat,
} from "@runboard/client";
import type { AgentToolRunState } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { useSyncExternalStore } from "react";
import { useOwned } from "../lifetime.ts";

/** What `useChildChat` returns while a child is open. */
export interface ChildChat {
  /** The child's chat store (send, stop, …); its snapshot is `snapshot`. */
  chat: ChatSession<UIMessage>;
  /** The child's messages and stream status, re-rendered as they change. */
  snapshot: ChatSnapshot<UIMessage>;
}

type Opened = ReturnType<typeof openChildChat> | null;

const noop = () => () => {};
const none = () => null;

const lifecycle = {
  start: (o: Opened) => o?.start(),
  dispose: (o: Opened) => o?.close(),
};

/**
 * Opens the chat of `run`'s child agent under the parent agent `parent` (the same address options the
 * parent's `useAgent` got: `agent`, `name`, `host`, …). Returns null while `run` or `parent` is null.
 *
 * @example
 * ```tsx
 * const [drilled, setDrilled] = useState<AgentToolRunState | null>(null);
 * const child = useChildChat({ agent: "ChatAgent", name: "me" }, drilled);
 * child?.snapshot.messages.map((m) => <Message key={m.id} message={m} />);
 * ```
 */
export function useChildChat(
  parent: AgentClientOptions | null,
  run: Pick<AgentToolRunState, "subAgent"> | null | undefined,
  chat: Omit<ChatSessionOptions, "agent"> = {},
): ChildChat | null {
  const key =
    parent && run
      ? JSON.stringify([
          parent.agent,
          parent.name,
          parent.host,
          parent.path,
          parent.basePath,
          parent.sub,
          run.subAgent,
        ])
      : "";
  // The chat options are read once per child: a new object each render must not reconnect. Nothing connects
  // before the effect starts it.
  const opened = useOwned<Opened>(
    key,
    () => (parent && run ? openChildChat(parent, run, chat, { lazy: true }) : null),
    lifecycle,
  );
  const snapshot = useSyncExternalStore(
    opened ? opened.chat.subscribe : noop,
    opened ? opened.chat.getSnapshot : none,
    opened ? opened.chat.getSnapshot : none,
  );
  if (!opened || !snapshot) return null;
  return { chat: opened.chat as ChatSession<UIMessage>, snapshot };
}
