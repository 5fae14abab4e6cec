/**
 * `useAgentChat` re-renders a component for the fields it has read, not for every snapshot: an app component
 * that takes only `status` and the actions and hands the chat to `ChatMessageList` is not re-rendered by a
 * streamed message (its rows are), a field read later (in a handler or a later render) is followed from then
 * on, every read returns the store's current value, and spreading the result copies plain values.
 */
import { act, cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import { memo, useState } from "react";
import { afterEach, expect, it } from "vitest";
import { FakeChatAgent as FakeAgent } from "../../../test-support/fake-chat-agent.ts";
import { ChatMessageList, useChatMessage } from "./chat-messages.tsx";
import { MessageParts } from "./message-parts/index.ts";
import { type UseAgentChatResult, useAgentChat } from "./use-agent-chat.ts";

afterEach(cleanup);

const history: UIMessage[] = [
  { id: "u0", role: "user", parts: [{ type: "text", text: "earlier question" }] },
  { id: "a0", role: "assistant", parts: [{ type: "text", text: "earlier answer" }] },
];

const Row = memo(function Row({ id }: { id: string }) {
  const message = useChatMessage(id);
  return <article data-id={id}>{message && <MessageParts message={message} />}</article>;
});

/** Streams an answer of `deltas` text deltas to the message the test sent. */
async function streamAnswer(agent: FakeAgent, deltas: number) {
  await act(async () => agent.chunk({ type: "start", messageId: "a1" }));
  await act(async () => agent.chunk({ type: "text-start", id: "t" }));
  for (let i = 0; i < deltas; i++)
    await act(async () => agent.chunk({ type: "text-delta", id: "t", delta: `w${i} ` }));
  await act(async () => agent.chunk({ type: "text-end", id: "t" }));
  await act(async () => agent.chunk({ type: "finish" }));
  await act(async () => agent.chunk(null, true));
}

/** What a test reads of its component: the chat, and one entry per render. */
interface Box {
  chat?: UseAgentChatResult;
  statuses: Array<string | number>;
}
interface Props {
  agent: FakeAgent;
  box: Box;
}

/** An app shell: the status and the actions; the transcript through `ChatMessageList`. */
function Shell({ agent, box }: Props) {
  const chat = useAgentChat({ agent, getInitialMessages: null, messages: history, throttleMs: 0 });
  box.chat = chat;
  box.statuses.push(chat.status);
  return (
    <main>
      <p data-testid="status">{chat.status}</p>
      <ChatMessageList chat={chat} row={Row} />
    </main>
  );
}

/** Reads `messages` while rendering: one entry per render (the last message's part count). */
function Transcript({ agent, box }: Props) {
  const chat = useAgentChat({ agent, getInitialMessages: null, messages: history, throttleMs: 0 });
  box.chat = chat;
  const last = chat.messages.at(-1);
  box.statuses.push(last?.parts.length ?? 0);
  return <p data-testid="last">{last?.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}</p>;
}

/** Reads nothing while rendering; its button reads `messages` when clicked. */
function Counter({ agent, box }: Props) {
  const chat = useAgentChat({ agent, getInitialMessages: null, messages: history, throttleMs: 0 });
  box.chat = chat;
  box.statuses.push("render");
  const [count, setCount] = useState<number | undefined>(undefined);
  return (
    <button type="button" onClick={() => setCount(box.chat?.messages.length)}>
      {count === undefined ? "count" : `${count} messages`}
    </button>
  );
}

const expected = (deltas: number) => Array.from({ length: deltas }, (_, i) => `w${i} `).join("");

it("a component reading only status and the actions is not re-rendered by a streamed message; its rows are", async () => {
  const agent = new FakeAgent();
  const box: Box = { statuses: [] };
  const view = render(<Shell agent={agent} box={box} />);
  await act(async () => box.chat?.sendMessage({ text: "go" }));
  const statuses = box.statuses;
  const before = statuses.length;
  await streamAnswer(agent, 40);
  const rows = view.container.querySelectorAll("article");
  expect([...rows].map((r) => r.dataset.id)).toEqual(["u0", "a0", expect.any(String), "a1"]);
  expect(rows[3]?.textContent).toBe(expected(40));
  expect(view.getByTestId("status").textContent).toBe("ready");
  // 45 snapshots were published (throttleMs 0); the shell re-rendered only when its status changed
  // (streaming, then ready), not once per delta as when every snapshot re-rendered it.
  const during = statuses.slice(before);
  expect(during.length).toBeLessThanOrEqual(4);
  expect(during.at(-1)).toBe("ready");
  expect(during).toContain("streaming");
});

it("a component that reads messages re-renders with each change, as the official hook's does", async () => {
  const agent = new FakeAgent();
  const box: Box = { statuses: [] };
  const view = render(<Transcript agent={agent} box={box} />);
  await act(async () => box.chat?.sendMessage({ text: "go" }));
  const lengths = box.statuses;
  const before = lengths.length;
  await streamAnswer(agent, 10);
  expect(view.getByTestId("last").textContent).toBe(expected(10));
  // Every delta changed the transcript, and each change re-rendered the reader.
  expect(lengths.length - before).toBeGreaterThanOrEqual(10);
});

it("a field first read in a handler is current and is followed from then on; spreading copies values", async () => {
  const agent = new FakeAgent();
  const box: Box = { statuses: [] };
  const seen: number[] = [];
  const view = render(<Counter agent={agent} box={box} />);
  const renders = () => box.statuses.length;
  // Nothing read: a new transcript from the server does not re-render the component.
  const quiet = renders();
  await act(async () =>
    agent.frame({
      type: "cf_agent_chat_messages",
      messages: [...history, { id: "u1", role: "user", parts: [{ type: "text", text: "from another tab" }] }],
    }),
  );
  expect(renders()).toBe(quiet);
  // A handler reads the transcript the store holds now, not the one of the last render.
  await act(async () => view.getByRole("button").click());
  expect(view.getByRole("button").textContent).toBe("3 messages");
  seen.push(box.chat?.messages.length ?? -1);
  // From then on `messages` is followed: the next transcript re-renders the component.
  const followed = renders();
  await act(async () => agent.frame({ type: "cf_agent_chat_messages", messages: history }));
  expect(renders()).toBeGreaterThan(followed);
  expect(box.chat?.messages.map((m) => m.id)).toEqual(["u0", "a0"]);
  // A spread copies values, as from a plain object (the getters are enumerable own properties).
  const copy = { ...(box.chat as UseAgentChatResult) };
  expect(Object.getOwnPropertyDescriptor(copy, "messages")?.value).toEqual(box.chat?.messages);
  expect(copy.status).toBe("ready");
  expect(typeof copy.sendMessage).toBe("function");
  expect(seen).toEqual([3]);
});
