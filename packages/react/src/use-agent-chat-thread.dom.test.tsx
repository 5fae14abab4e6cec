/**
 * `useAgentChat` over the kit's own `AgentClient` (what `useAgent` returns) with custom routing: every thread
 * has the URL `/<basePath>`, so the chat is keyed on the client's address options, as the official hook keys it
 * on the official object's `path` and route: another `name` is another chat, a new token is not, and the
 * instance name the server's identity frame reports does not re-key it.
 */
import { AGENT_THREAD_KEY, AgentClient, chatThreadKey } from "@runboard/client";
import { act, cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import { Suspense } from "react";
import { afterEach, expect, it, vi } from "vitest";
import { type UseAgentChatResult, useAgentChat } from "./use-agent-chat.ts";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const thread = (name: string): UIMessage[] => [
  { id: `u-${name}`, role: "user", parts: [{ type: "text", text: `question in ${name}` }] },
  { id: `a-${name}`, role: "assistant", parts: [{ type: "text", text: `answer in ${name}` }] },
];

/** A client for thread `name`, routed by `basePath` with the thread in the query; never connected. */
const clientFor = (name: string, token = "t1") =>
  new AgentClient({
    agent: "ChatAgent",
    name,
    host: "app.example",
    basePath: "chat",
    query: { thread: name, token },
    lazy: true,
  });

function Chat({ agent, box }: { agent: AgentClient; box: { chat?: UseAgentChatResult } }) {
  box.chat = useAgentChat({ agent, throttleMs: 0, resume: false });
  return null;
}

it("another name on the same path is a new chat that loads its thread; a new token keeps the chat", async () => {
  const fetches: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      fetches.push(input);
      const name = new URL(input).searchParams.get("thread") as string;
      return new Response(JSON.stringify(thread(name)));
    }),
  );
  const a = clientFor("a");
  const b = clientFor("b");
  // Same URL path for both threads: only the query tells them apart.
  expect(new URL(a.getHttpUrl()).pathname).toBe(new URL(b.getHttpUrl()).pathname);
  const box: { chat?: UseAgentChatResult } = {};
  const ui = (agent: AgentClient) => (
    <Suspense fallback={null}>
      <Chat agent={agent} box={box} />
    </Suspense>
  );
  const view = await act(async () => render(ui(a)));
  expect(box.chat?.messages.map((m) => m.id)).toEqual(["u-a", "a-a"]);
  await act(async () => view.rerender(ui(b)));
  expect(fetches.map((u) => new URL(u).searchParams.get("thread"))).toEqual(["a", "b"]);
  expect(box.chat?.messages.map((m) => m.id)).toEqual(["u-b", "a-b"]);
  // A rotated token for thread b: the same chat, nothing read again.
  const chatBefore = box.chat?.id;
  await act(async () => view.rerender(ui(clientFor("b", "t2"))));
  expect(fetches).toHaveLength(2);
  expect(box.chat?.id).toBe(chatBefore);
  expect(box.chat?.messages.map((m) => m.id)).toEqual(["u-b", "a-b"]);
});

it("the key comes from the client's options: the instance name the identity frame reports does not change it", () => {
  const a = clientFor("a");
  const key = chatThreadKey(a);
  expect(key).toBe(a[AGENT_THREAD_KEY]);
  // What the identity frame does to `name` when the server picks the instance (custom routing).
  (a as unknown as { name: string }).name = "picked-by-the-server";
  expect(chatThreadKey(a)).toBe(key);
  expect(chatThreadKey(clientFor("a", "t2"))).toBe(key);
  expect(chatThreadKey(clientFor("b"))).not.toBe(key);
  // `ChatAgent` and `chat-agent` are the same agent.
  const kebab = new AgentClient({
    agent: "chat-agent",
    name: "a",
    host: "app.example",
    basePath: "chat",
    lazy: true,
  });
  expect(chatThreadKey(kebab)).toBe(key);
});
