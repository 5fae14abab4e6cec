import { MessageParts, useAgent, useAgentChat } from "@runboard/react";

/** A chat whose agent asks the page where the user is: the `getLocation` tool runs here, in the browser. */
export function LocatingChat({ host, name = "locate-demo" }: { host: string; name?: string }) {
  const agent = useAgent({ agent: "ChatAgent", name, host });
  const chat = useAgentChat({
    agent,
    tools: {
      getLocation: {
        description: "Where the user is",
        // Runs by itself when the agent calls the tool; what it returns goes back to the agent.
        execute: async () => ({ city: "Lisbon", country: "PT" }),
      },
    },
  });
  return (
    <section>
      {chat.messages.map((message) => (
        <article key={message.id} data-role={message.role}>
          <MessageParts message={message} clientTools={["getLocation"]} />
        </article>
      ))}
      <button
        type="button"
        disabled={chat.status !== "ready"}
        onClick={() => chat.sendMessage({ text: "locate me" })}
      >
        Where am I?
      </button>
    </section>
  );
}
