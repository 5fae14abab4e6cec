// A client that stops reading is dropped once too much waits for it; the other clients keep receiving. Many
// clients that stop reading are dropped, the ones holding the most first, once too much waits for all of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as wsModule from "ws";
import { encodeTextFrames } from "../src/outbox.ts";
import { room, startServer, type TestServer, until } from "./ws-client.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({
    agents: { ChatAgent: { host: "ai-chat", initialState: { n: 0 } } },
    maxBufferedBytes: 1 << 20,
  });
});
afterAll(() => t.close());

describe("mock server backpressure", () => {
  it("drops a client that stops reading, frees it, and keeps serving the others in order", async () => {
    const path = `/agents/chat-agent/${room("paused")}`;
    const stalled = await t.open(path);
    const reader = await t.open(path);
    const writer = await t.open(path);
    await until(() => stalled.frames.length >= 3 && reader.frames.length >= 3, "connect frames");
    // The stalled client's process stops reading: the kernel buffers fill, then the server's would.
    (stalled.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const instance = t.server.controller.instance("ChatAgent", path.split("/").at(-1) ?? "");
    expect(instance?.conns.size).toBe(3);

    // 300 state updates of 100 kB: 30 MB fanned out to each of the other two sockets.
    const blob = "x".repeat(100_000);
    const before = reader.frames.length;
    for (let i = 0; i < 300; i++) {
      writer.ws.send(JSON.stringify({ type: "cf_agent_state", state: { n: i, blob } }));
      // As a live writer would: wait until the reading client has the last few.
      if (i % 5 === 4)
        await until(() => reader.frames.length >= before + i + 1, "the reading client keeps up");
    }
    await until(
      () => reader.frames.length >= before + 300,
      "every state frame at the reading client",
      20_000,
    );
    const states = reader.frames.slice(before).map((f) => (f.state as { n: number }).n);
    expect(states).toEqual(Array.from({ length: 300 }, (_, i) => i));

    await until(() => instance?.conns.size === 2, "the stalled client dropped");
    expect(t.logs.some((l) => /dropped, \d+ bytes unread/.test(l))).toBe(true);
  }, 30_000);

  it("writes the very bytes ws would for each text frame, at every length encoding", () => {
    const texts = ["", "a".repeat(125), "b".repeat(126), "é€😀", "c".repeat(65_535), "d".repeat(65_536)];
    const frame = (t: string) =>
      Buffer.concat(
        // ws exports its Sender, though its type declarations do not.
        (wsModule as unknown as { Sender: { frame(d: Buffer, o: object): Buffer[] } }).Sender.frame(
          Buffer.from(t),
          {
            fin: true,
            opcode: 1,
            mask: false,
            readOnly: false,
            rsv1: false,
          },
        ),
      );
    expect(encodeTextFrames(texts).equals(Buffer.concat(texts.map(frame)))).toBe(true);
  });
});

describe("mock server total backpressure", () => {
  it("keeps what many stalled clients hold under the total cap: the ones holding the most are closed with 1013", async () => {
    const total = 4 << 20;
    const many = await startServer({
      agents: { ChatAgent: { host: "ai-chat", initialState: { n: 0 } } },
      // No single client reaches its own cap here: only the total one can stop the growth.
      maxBufferedBytes: 256 << 20,
      maxTotalBufferedBytes: total,
    });
    try {
      const name = room("many-paused");
      const path = `/agents/chat-agent/${name}`;
      const stalled = await Promise.all(Array.from({ length: 16 }, () => many.open(path)));
      const reader = await many.open(path);
      const writer = await many.open(path);
      await until(() => [...stalled, reader].every((c) => c.frames.length >= 3), "connect frames");
      for (const c of stalled) (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const instance = many.server.controller.instance("ChatAgent", name);

      // 48 state updates of 200 kB: about 9.6 MB fanned out to each client, far past what the kernel takes
      // for one that does not read, so without a total cap the server would hold most of it for each.
      const blob = "x".repeat(200_000);
      const before = reader.frames.length;
      let peak = 0;
      for (let i = 0; i < 48; i++) {
        writer.ws.send(JSON.stringify({ type: "cf_agent_state", state: { n: i, blob } }));
        await until(() => reader.frames.length >= before + i + 1, "the reading client keeps up", 20_000);
        peak = Math.max(peak, many.server.bufferedBytes());
      }
      // Bytes held, not time: what waited across every socket never passed twice the cap (the dropped ones
      // keep what they hold until they are freed), and the reading client got everything in order.
      expect(peak).toBeLessThanOrEqual(2 * total + 2 * 200_100);
      const states = reader.frames.slice(before).map((f) => (f.state as { n: number }).n);
      expect(states).toEqual(Array.from({ length: 48 }, (_, i) => i));
      // The stalled clients were dropped (every one of them ends up holding the most at some point).
      await until(() => instance?.conns.size === 2, "the stalled clients dropped", 20_000);
      expect(many.logs.filter((l) => /dropped \(close 1013\)/.test(l))).toHaveLength(16);
      for (const c of stalled) c.ws.terminate();
    } finally {
      await many.close();
    }
  }, 60_000);
});
