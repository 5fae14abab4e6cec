/**
 * The selector hooks on a real chat store fed server frames: a streaming message re-renders its own row only,
 * and the list of ids does not change while a message streams.
 */
import { ChatSession } from "@runboard/client";
import { act, cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import { memo } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ChatMessagesProvider, useChatMessage, useChatMessageIds } from "./chat-messages.tsx";
import { MessageParts } from "./message-parts/index.ts";

afterEach(cleanup);

/** What `useAgent` returns, minus the network: the test pushes the server's frames. */
class FakeAgent extends EventTarget {
  agent = "chat-agent";
  name = `t-${Math.random().toString(36).slice(2)}`;
  readyState = 1;
  send() {}
  getHttpUrl() {
    return `http://localhost/agents/chat-agent/${this.name}`;
  }
  push(body: unknown, done = false) {
    const frame = {
      type: "cf_agent_use_chat_response",
      id: "req1",
      body: body ? JSON.stringify(body) : "",
      done,
    };
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }
}

const history: UIMessage[] = Array.from({ length: 5 }, (_, i) => ({
  id: `m${i}`,
  role: i % 2 ? "assistant" : "user",
  parts: [{ type: "text", text: `message ${i}` }],
}));

/** Renders per row id, and every ids array the list rendered with. */
const renders = new Map<string, number>();
const idLists: Array<readonly string[]> = [];

const Row = memo(function Row({ id }: { id: string }) {
  renders.set(id, (renders.get(id) ?? 0) + 1);
  const message = useChatMessage(id);
  return <article data-id={id}>{message && <MessageParts message={message} />}</article>;
});

function List() {
  const ids = useChatMessageIds();
  idLists.push(ids);
  return ids.map((id) => <Row key={id} id={id} />);
}

function Orphan() {
  useChatMessageIds();
  return null;
}

function setup() {
  const agent = new FakeAgent();
  const session = new ChatSession({
    agent: agent as never,
    messages: history,
    getInitialMessages: null,
    resume: false,
    throttleMs: 0,
  });
  renders.clear();
  idLists.length = 0;
  const view = render(
    <ChatMessagesProvider chat={session}>
      <List />
    </ChatMessagesProvider>,
  );
  return { agent, session, renders, idLists, view };
}

describe("useChatMessageIds / useChatMessage", () => {
  it("a streaming delta re-renders only the row of the message it writes", async () => {
    const { agent, session, renders, view } = setup();
    await act(async () => {
      agent.push({ type: "start", messageId: "m3" });
      agent.push({ type: "text-start", id: "t" });
    });
    renders.clear();
    for (let i = 0; i < 10; i++)
      await act(async () => {
        agent.push({ type: "text-delta", id: "t", delta: `w${i} ` });
      });
    expect(view.container.querySelector('[data-id="m3"]')?.textContent).toContain("w9");
    // Ten deltas into message m3: its row rendered for them, no other row did.
    expect([...renders.keys()]).toEqual(["m3"]);
    expect(renders.get("m3")).toBeGreaterThan(0);
    expect(renders.get("m3")).toBeLessThanOrEqual(10);
    session.dispose();
  });

  it("keeps the same ids array while a message streams, and a new one when a message is added", async () => {
    const { agent, session, idLists } = setup();
    await act(async () => {
      agent.push({ type: "start", messageId: "a1" });
      agent.push({ type: "text-start", id: "t" });
    });
    const afterAdd = idLists.at(-1);
    expect(afterAdd).toEqual(["m0", "m1", "m2", "m3", "m4", "a1"]);
    const renderedBefore = idLists.length;
    for (let i = 0; i < 5; i++)
      await act(async () => {
        agent.push({ type: "text-delta", id: "t", delta: `w${i} ` });
      });
    // The list did not render again, and the ids it read are the very same array.
    expect(idLists.length).toBe(renderedBefore);
    expect(
      session
        .getSnapshot()
        .messages.at(-1)
        ?.parts.some((p) => p.type === "text"),
    ).toBe(true);
    expect(idLists.at(-1)).toBe(afterAdd);
    session.dispose();
  });

  it("says what is missing when there is no chat to read", () => {
    expect(() => render(<Orphan />)).toThrow(/ChatMessagesProvider/);
  });
});
