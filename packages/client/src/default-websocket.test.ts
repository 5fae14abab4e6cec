import { expect, it } from "vitest";
import { connectsWithoutWebSocketOption } from "../test/default-websocket.ts";

it("connects in Node without a WebSocket option: state arrives, an RPC answers, nothing is reported", async () => {
  expect(typeof window).toBe("undefined");
  await connectsWithoutWebSocketOption();
});
