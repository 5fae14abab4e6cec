/** `useAgent`'s `maxFrameBytes`: an oversized frame is reported once through the hook's `onError` and dropped. */
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { useAgent } from "./use-agent.ts";

/** A socket that opens at once and delivers what the test pushes. */
class FakeWebSocket extends EventTarget {
  static last: FakeWebSocket | undefined;
  readyState = 0;
  binaryType = "blob";
  constructor(readonly url: string) {
    super();
    FakeWebSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    });
  }
  send() {}
  close() {
    this.readyState = 3;
  }
  push(data: string) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
}

afterEach(cleanup);

interface Box {
  status?: string;
  state?: unknown;
  errors: string[];
  messages: unknown[];
}

function Agent({ box }: { box: Box }) {
  const agent = useAgent<{ n: number }>({
    agent: "ChatAgent",
    name: "limits",
    host: "agents.example",
    WebSocket: FakeWebSocket,
    maxFrameBytes: 1_000,
    onError: (e) => box.errors.push(e.message),
    onMessage: (e) => box.messages.push(e.data),
  });
  box.status = agent.status;
  box.state = agent.state;
  return null;
}

it("useAgent passes maxFrameBytes: a larger frame is reported once and dropped, later frames apply", async () => {
  const box: Box = { errors: [], messages: [] };
  render(<Agent box={box} />);
  await waitFor(() => expect(box.status).toBe("open"));
  const socket = FakeWebSocket.last as FakeWebSocket;
  const big = JSON.stringify({ type: "cf_agent_state", state: { n: 1, pad: "x".repeat(2_000) } });
  act(() => socket.push(big));
  expect(box.errors).toEqual([`frame of at least ${big.length} bytes exceeds the limit of 1000 bytes`]);
  expect(box.messages).toEqual([]);
  expect(box.state).toBeUndefined();
  act(() => socket.push(JSON.stringify({ type: "cf_agent_state", state: { n: 2 } })));
  expect(box.state).toEqual({ n: 2 });
  expect(box.status).toBe("open");
  expect(box.errors).toHaveLength(1);
});
