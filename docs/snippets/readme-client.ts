import { AgentClient, ChatSession } from "@runboard/client";

/** Connects to an agent, says hello, and logs the conversation as it changes. Returns the chat. */
export async function sayHello(host: string) {
  const client = new AgentClient({ agent: "ChatAgent", name: "room-1", host });
  const chat = new ChatSession({ agent: client });
  chat.subscribe(() => {
    const { status, messages } = chat.getSnapshot();
    console.log(status, messages.length);
  });
  await chat.sendMessage({ text: "hello" });
  return chat;
}
