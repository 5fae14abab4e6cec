/**
 * `useAgentChat<State, ChatMessage>`: an app's own message type (metadata, data parts, typed tools) through
 * both type arguments, over a typed `useAgent<AgentClass, State>` connection.
 */
import { useAgentChat } from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import type { UIMessage } from "ai";
import type { TodoAgent, TodoState } from "./server";

type Meta = { createdAt: number; model?: string };
type Data = { weather: { city: string; degrees: number }; status: { text: string } };
type Tools = {
  getWeather: { input: { city: string }; output: { degrees: number } };
};
export type AppMessage = UIMessage<Meta, Data, Tools>;

function Bubbles({ messages }: { messages: AppMessage[] }) {
  return (
    <ul>
      {messages.map((m) => (
        <li key={m.id}>
          {new Date(m.metadata?.createdAt ?? 0).toISOString()}{" "}
          {m.parts.map((p, i) => {
            const key = `${m.id}-${i}`;
            switch (p.type) {
              case "text":
                return <span key={key}>{p.text}</span>;
              case "data-weather":
                return (
                  <span key={key}>
                    {p.data.city}: {p.data.degrees}
                  </span>
                );
              case "tool-getWeather":
                return (
                  <span key={key}>{p.state === "output-available" ? p.output.degrees : p.input?.city}</span>
                );
              default:
                return null;
            }
          })}
        </li>
      ))}
    </ul>
  );
}

export function TypedChat() {
  const agent = useAgent<TodoAgent, TodoState>({ agent: "todo-agent", name: "typed" });
  const chat = useAgentChat<TodoState, AppMessage>({
    agent,
    messages: [{ id: "welcome", role: "assistant", parts: [{ type: "text", text: "Hi" }] }],
    onData: (part) => {
      if (part.type === "data-status") console.info(part.data.text);
    },
    onFinish: ({ message }) => console.info(message.metadata?.model),
    onToolCall: ({ toolCall, addToolOutput }) => {
      if (toolCall.toolName === "getWeather") addToolOutput({ toolCallId: toolCall.toolCallId, output: 21 });
    },
    prepareSendMessagesRequest: ({ messages }) => ({ body: { last: messages.at(-1)?.metadata?.createdAt } }),
    getInitialMessages: async () => [],
    sendAutomaticallyWhen: ({ messages }) => messages.every((m) => m.metadata !== undefined),
  });
  const first: AppMessage | undefined = chat.messages[0];
  const todos = agent.state?.todos.length ?? 0;
  return (
    <div>
      <Bubbles messages={chat.messages} />
      <button
        type="button"
        onClick={() => void chat.sendMessage({ text: "weather?", metadata: { createdAt: 1 } })}
      >
        Ask ({todos})
      </button>
      <button
        type="button"
        onClick={() =>
          void chat.sendMessage({
            role: "user",
            parts: [{ type: "text", text: "hello" }],
            metadata: { createdAt: Date.now() },
          })
        }
      >
        Hello
      </button>
      <button
        type="button"
        onClick={() => void chat.addToolOutput({ toolCallId: "c-1", output: { degrees: 3 } })}
      >
        Answer
      </button>
      <button
        type="button"
        onClick={() => chat.setMessages((prev) => prev.filter((m) => m.metadata?.model !== "old"))}
      >
        Drop old
      </button>
      {first?.id}
    </div>
  );
}
