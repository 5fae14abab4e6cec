/**
 * What the hooks hand an app at run time, in the shapes the official types promise (issue 30 §2), side by side
 * with the official `useAgent` where it can run here: `onError` gets an `Event` (the socket's errors reach it,
 * as on the official hook, and the kit's own reports arrive as error events carrying `error`), and `stop()`
 * returns a promise, as the AI SDK's.
 */
import { useAgentChat as useOfficialAgentChat } from "@cloudflare/ai-chat/react";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { useAgent as useOfficialAgent } from "agents/react";
import { Suspense } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FakeChatAgent } from "../../../test-support/fake-chat-agent.ts";
import { useAgent } from "./use-agent.ts";
import { useAgentChat } from "./use-agent-chat.ts";

/** A socket that opens at once; the test makes it fail or deliver frames. */
class FakeWebSocket extends EventTarget {
  static all: FakeWebSocket[] = [];
  readyState = 0;
  binaryType = "blob";
  protocol = "";
  extensions = "";
  bufferedAmount = 0;
  constructor(readonly url: string) {
    super();
    FakeWebSocket.all.push(this);
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    });
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

afterEach(() => {
  cleanup();
  FakeWebSocket.all = [];
});

const opened = () => FakeWebSocket.all.filter((s) => s.readyState === 1);

/** Connects with `hook` (the official one or ours) and records what `onError` gets. */
function Agent({ hook, seen }: { hook: typeof useAgent; seen: Event[] }) {
  hook({
    agent: "ChatAgent",
    name: "errors",
    host: "agents.example",
    WebSocket: FakeWebSocket,
    onError: (event: Event) => seen.push(event),
  });
  return null;
}

/** Chats with `hook` (the official one or ours) and records what `stop()` returns. */
function Chat({ hook, results }: { hook: typeof useAgentChat; results: unknown[] }) {
  const chat = hook({ agent: new FakeChatAgent() as never, getInitialMessages: null });
  results.push(chat.stop());
  return null;
}

describe("useAgent's onError, as the official hook's", () => {
  it("gets the socket's error as an Event, on both hooks", async () => {
    for (const hook of [useOfficialAgent as unknown as typeof useAgent, useAgent]) {
      const seen: Event[] = [];
      const { unmount } = render(<Agent hook={hook} seen={seen} />);
      await waitFor(() => expect(opened()).toHaveLength(1));
      act(() => {
        opened()[0]?.dispatchEvent(new Event("error"));
      });
      await waitFor(() => expect(seen.length).toBeGreaterThan(0));
      expect(seen.map((e) => [e instanceof Event, e.type, (e as { error?: Error }).error?.message])).toEqual([
        [true, "error", hook === useAgent ? "WebSocket error" : undefined],
      ]);
      unmount();
      FakeWebSocket.all = [];
    }
  });

  it("gets the kit's own reports as error events carrying the error", async () => {
    const seen: Event[] = [];
    render(<Agent hook={useAgent} seen={seen} />);
    await waitFor(() => expect(opened()).toHaveLength(1));
    act(() => {
      opened()[0]?.dispatchEvent(new MessageEvent("message", { data: "{not json" }));
    });
    await waitFor(() => expect(seen).toHaveLength(1));
    const event = seen[0] as Event & { error?: unknown; message?: unknown };
    expect(event).toBeInstanceOf(Event);
    expect(event.type).toBe("error");
    expect(event.error).toBeInstanceOf(Error);
    expect(event.message).toBe((event.error as Error).message);
  });
});

describe("useAgentChat's stop, as the AI SDK's", () => {
  it("returns a promise on both hooks", async () => {
    const results: unknown[] = [];
    for (const hook of [useOfficialAgentChat as unknown as typeof useAgentChat, useAgentChat]) {
      results.length = 0;
      const { unmount } = render(
        <Suspense fallback={null}>
          <Chat hook={hook} results={results} />
        </Suspense>,
      );
      await waitFor(() => expect(results.length).toBeGreaterThan(0));
      expect(results[0]).toBeInstanceOf(Promise);
      await Promise.all(results);
      unmount();
    }
  });
});
