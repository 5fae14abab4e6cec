import { useAgent, useAgentChat } from "@runboard/react";

/** The same chat on Runboard: only the import line changed. */
export function SupportChat() {
  const agent = useAgent({ agent: "ChatAgent", name: "support" });
  const { messages, sendMessage, status } = useAgentChat({ agent });
  return (
    <section>
      {messages.map((m) => (
        <p key={m.id}>{m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}</p>
      ))}
      <button type="button" disabled={status !== "ready"} onClick={() => sendMessage({ text: "hello" })}>
        Say hello
      </button>
    </section>
  );
}
