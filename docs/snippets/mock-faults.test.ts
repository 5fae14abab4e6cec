import { AgentClient, ChatSession } from "@runboard/client";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";

// Waits end as soon as their condition holds; the limit only bounds a real hang (reconnects back off).
const WAIT = { timeout: 30_000 };

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, port: 0, delayScale: 0, log: () => {} });
});
afterAll(() => server.close());

const replyText = (chat: ChatSession) =>
  chat
    .getSnapshot()
    .messages.filter((m) => m.role === "assistant")
    .flatMap((m) => m.parts)
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("");

it("holds the agent's frames, then lets them through", async () => {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: "held",
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  await expect.poll(() => client.status, WAIT).toBe("open");

  server.controller.hold(); // from now on, frames wait in the controller
  await chat.sendMessage({ text: "hello" });
  await expect.poll(() => server.controller.heldCount, WAIT).toBeGreaterThan(0);
  expect(replyText(chat)).toBe(""); // nothing reached the client yet

  server.controller.release(); // everything held goes out, in order
  await expect.poll(() => replyText(chat), WAIT).toBe("Hello! How can I help you today?");

  chat.dispose();
  client.close();
});

it("restarts the agent: the client reconnects and keeps the conversation", async () => {
  const client = new AgentClient({
    agent: "ChatAgent",
    name: "restarted",
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });
  await chat.sendMessage({ text: "hello" });
  await expect.poll(() => replyText(chat), WAIT).toBe("Hello! How can I help you today?");

  const closed = new Promise<void>((resolve) => {
    const onClose = () => {
      client.removeEventListener("close", onClose);
      resolve();
    };
    client.addEventListener("close", onClose);
  });
  server.controller.restart("ChatAgent", "restarted"); // sockets close with 1012, the transcript survives
  await closed;
  await expect.poll(() => client.status, WAIT).toBe("open");

  await chat.sendMessage({ text: "hello again" });
  await expect.poll(() => chat.getSnapshot().messages.length, WAIT).toBe(4);
  expect(server.controller.instance("ChatAgent", "restarted")?.messages).toHaveLength(4);

  chat.dispose();
  client.close();
});
