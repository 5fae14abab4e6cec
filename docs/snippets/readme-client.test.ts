/** The @runboard/client README's example, as written, against the mock agent (Node: the client finds `ws`). */
import { createMockAgentServer, demoAgents } from "@runboard/mock-server";
import { expect, it, vi } from "vitest";
import { sayHello } from "./readme-client.ts";

it("says hello and gets the answer", async () => {
  const server = await createMockAgentServer({ agents: demoAgents, port: 0, delayScale: 0, log: () => {} });
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const chat = await sayHello(`127.0.0.1:${server.port}`);
  await expect
    .poll(
      () =>
        chat
          .getSnapshot()
          .messages.at(-1)
          ?.parts.some((p) => p.type === "text" && /Hello!/.test(p.text)),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  expect(log).toHaveBeenCalled();
  log.mockRestore();
  chat.dispose();
  await server.close();
});
