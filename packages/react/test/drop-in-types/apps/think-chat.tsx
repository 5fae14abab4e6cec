/**
 * `@cloudflare/think/react`'s `useAgentChat` (Think agents: the transcript is the server's) with its option
 * types, and the helpers it re-exports.
 */
import {
  getToolPartState,
  type ThinkChatOptions,
  type UseThinkChatOptions,
  useAgentChat,
} from "@cloudflare/think/react";
import { useAgent } from "agents/react";
import type { UIMessage } from "ai";

type Pref = { theme: "light" | "dark" };

function Transcript({ messages }: { messages: UIMessage[] }) {
  return (
    <div>
      {messages.map((m) => (
        <div key={m.id}>
          {m.parts.map((p, i) =>
            p.type === "text" ? (
              <span key={`${m.id}-${i}`}>{p.text}</span>
            ) : (
              <span key={`${m.id}-${i}`}>{p.type.startsWith("tool-") ? getToolPartState(p) : p.type}</span>
            ),
          )}
        </div>
      ))}
    </div>
  );
}

export function ThinkChat({ thread }: { thread: string }) {
  const agent = useAgent<Pref>({ agent: "think-agent", name: thread });
  const options: ThinkChatOptions<Pref> = {
    agent,
    onTurnEnd: ({ outcome, messageIds }) => console.info(outcome, messageIds?.length),
    onError: (e) => console.warn(e),
  };
  const { messages, sendMessage, status, stop, clearHistory, isRecovering, connectionError } =
    useAgentChat<Pref>(options);
  return (
    <div data-theme={agent.state?.theme}>
      <Transcript messages={messages} />
      {isRecovering ? "recovering" : status} {connectionError?.reason}
      <button type="button" onClick={() => void sendMessage({ text: "go" })}>
        Go
      </button>
      <button
        type="button"
        onClick={() => void sendMessage({ role: "user", parts: [{ type: "text", text: "!" }] })}
      >
        Parts
      </button>
      <button type="button" onClick={() => void stop()}>
        Stop
      </button>
      <button type="button" onClick={() => clearHistory()}>
        Clear
      </button>
    </div>
  );
}

/** The other exported name of the options, with both type arguments. */
export function useThread(options: UseThinkChatOptions<Pref, UIMessage>) {
  return useAgentChat<Pref, UIMessage>(options);
}
