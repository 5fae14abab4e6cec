import { AgentClient, ChatSession } from "@runboard/client";
import { createMockAgentServer, type MockAgentServer, text, tool } from "@runboard/mock-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";

// Waits end as soon as their condition holds; the limit only bounds a real hang (reconnects back off).
const WAIT = { timeout: 30_000 };

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({
    port: 0, // a free port on 127.0.0.1
    delayScale: 0, // play the script as fast as possible
    log: () => {},
    agents: {
      SupportAgent: {
        host: "ai-chat",
        turns: [
          {
            match: /refund/i,
            steps: [
              text("Let me look that up."),
              tool("findOrder", { id: 42 }, { status: "shipped" }),
              text("Order 42 has shipped."),
            ],
          },
        ],
      },
    },
  });
});
afterAll(() => server.close());

it("runs a scripted turn with its tool call", async () => {
  const client = new AgentClient({
    agent: "SupportAgent",
    name: "ticket-1",
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  const chat = new ChatSession({ agent: client, throttleMs: 0 });

  // The server's end of the turn is a frame the controller can wait for.
  const done = server.controller.waitForFrame(
    (f) => f.frame.type === "cf_agent_use_chat_response" && f.frame.done === true,
  );
  await chat.sendMessage({ text: "Where is my refund?" });
  await done;
  await expect.poll(() => chat.getSnapshot().status, WAIT).toBe("ready");

  const reply = chat.getSnapshot().messages.at(-1);
  expect(reply?.parts.map((p) => p.type)).toEqual(expect.arrayContaining(["text", "tool-findOrder"]));
  expect(JSON.stringify(reply?.parts)).toContain("Order 42 has shipped.");

  chat.dispose();
  client.close();
});
