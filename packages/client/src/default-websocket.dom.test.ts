import { expect, it } from "vitest";
import { connectsWithoutWebSocketOption } from "../test/default-websocket.ts";

it("connects under jsdom without a WebSocket option: state arrives, an RPC answers, nothing is reported", async () => {
  expect(navigator.userAgent).toMatch(/jsdom/);
  await connectsWithoutWebSocketOption();
});
