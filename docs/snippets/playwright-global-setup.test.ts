/** The mock server page's Playwright global setup, as written: it serves the demo agents until torn down. */
import { expect, it } from "vitest";
import globalSetup from "./playwright-global-setup.ts";

it("serves the mock agent at AGENT_HOST until the teardown", async () => {
  const teardown = await globalSetup();
  const host = process.env.AGENT_HOST;
  const res = await fetch(`http://${host}/agents/chat-agent/pw-check/get-messages`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual([]);
  await teardown();
  await expect(fetch(`http://${host}/agents/chat-agent/pw-check/get-messages`)).rejects.toThrow();
});
