import {
  MessageParts,
  RunTray,
  useAgent,
  useAgentChat,
  useAgentToolEvents,
  useChatApprovals,
} from "@runboard/react";
import { type FormEvent, useState } from "react";

/** A whole chat: messages with their tool calls, approval cards and helper runs, a tray for background runs. */
export function Chat({ host, name = "my-first-chat" }: { host: string; name?: string }) {
  const agent = useAgent({ agent: "ChatAgent", name, host });
  const chat = useAgentChat({ agent });
  const runs = useAgentToolEvents({ agent });
  const approvals = useChatApprovals(chat, { agent });
  const [draft, setDraft] = useState("");

  const send = (event: FormEvent) => {
    event.preventDefault();
    void chat.sendMessage({ text: draft });
    setDraft("");
  };

  return (
    <main className="chat">
      <p>Connection: {agent.status}</p>
      {chat.messages.map((message) => (
        <article key={message.id} data-role={message.role}>
          <MessageParts message={message} runs={runs} approvals={approvals} />
        </article>
      ))}
      {/* Runs that go on after the answer (`background`): status, progress, milestones, Cancel. */}
      {runs.unboundRuns.length > 0 && (
        <RunTray.Root store={runs.store} defaultOpen>
          <RunTray.Trigger>
            Background runs <RunTray.Badge />
          </RunTray.Trigger>
          <RunTray.List />
        </RunTray.Root>
      )}
      <form onSubmit={send}>
        <input aria-label="Message" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" disabled={chat.status !== "ready" || draft === ""}>
          Send
        </button>
      </form>
    </main>
  );
}
