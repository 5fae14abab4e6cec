import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";

/** A chat written against the official hooks. */
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
