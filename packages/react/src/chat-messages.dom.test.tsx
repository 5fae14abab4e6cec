/**
 * The selector hooks on a real chat store fed server frames: a streaming message re-renders its own row only,
 * and the list of ids does not change while a message streams. `ChatMessageList` shows every message in order,
 * makes React walk a few dozen fibers per delta instead of every row, and keeps rows mounted.
 */
import { ChatSession } from "@runboard/client";
import { MessageList } from "@runboard/protocol";
import { act, cleanup, render } from "@testing-library/react";
import type { UIMessage } from "ai";
import { memo, useEffect, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FakeChatAgent as FakeAgent } from "../../../test-support/fake-chat-agent.ts";
import { countReads } from "../../client/test/helpers.ts";
import {
  ChatMessageList,
  ChatMessagesProvider,
  type ChatMessagesSource,
  useChatMessage,
  useChatMessageIds,
} from "./chat-messages.tsx";
import { MessageParts } from "./message-parts/index.ts";

afterEach(cleanup);

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

/** Streams `n` text deltas `w0 `, `w1 `, … into the open text block, one commit each. */
async function streamDeltas(agent: FakeAgent, n: number) {
  for (let i = 0; i < n; i++)
    await act(async () => {
      agent.chunk({ type: "text-delta", id: "t", delta: `w${i} ` });
    });
}

describe("useChatMessageIds / useChatMessage", () => {
  it("a streaming delta re-renders only the row of the message it writes", async () => {
    const { agent, session, renders, view } = setup();
    await act(async () => {
      agent.chunk({ type: "start", messageId: "m3" });
      agent.chunk({ type: "text-start", id: "t" });
    });
    renders.clear();
    await streamDeltas(agent, 10);
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
      agent.chunk({ type: "start", messageId: "a1" });
      agent.chunk({ type: "text-start", id: "t" });
    });
    const afterAdd = idLists.at(-1);
    expect(afterAdd).toEqual(["m0", "m1", "m2", "m3", "m4", "a1"]);
    const renderedBefore = idLists.length;
    await streamDeltas(agent, 5);
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

// ───────────── ChatMessageList: the rows in memoized blocks ─────────────

const transcript = (n: number): UIMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? "assistant" : "user",
    parts: [{ type: "text", text: `message ${i}` }],
  }));

const listRenders = new Map<string, number>();
const mounts = new Map<string, number>();

const ListRow = memo(function ListRow({ id }: { id: string }) {
  listRenders.set(id, (listRenders.get(id) ?? 0) + 1);
  // State of the row's own (an open disclosure, a draft): lost if the row is remounted.
  const [mountedAs] = useState(() => `${id}#${(mounts.get(id) ?? 0) + 1}`);
  useEffect(() => {
    mounts.set(id, (mounts.get(id) ?? 0) + 1);
  }, [id]);
  const message = useChatMessage(id);
  return (
    <article data-id={id} data-mounted-as={mountedAs}>
      {message && <MessageParts message={message} />}
    </article>
  );
});

function FlatList() {
  return useChatMessageIds().map((id) => <ListRow key={id} id={id} />);
}

function listSetup(n: number) {
  const agent = new FakeAgent();
  const chat = new ChatSession({
    agent: agent as never,
    messages: transcript(n),
    getInitialMessages: null,
    resume: false,
    throttleMs: 0,
  });
  listRenders.clear();
  mounts.clear();
  return { agent, chat };
}

const shownIds = (container: HTMLElement) =>
  [...container.querySelectorAll("article")].map((a) => a.getAttribute("data-id"));

/** React's current fiber tree under a `render()` container (test-only: reads React's internal fields). */
type Fiber = { child: Fiber | null; sibling: Fiber | null };
function fibers(container: HTMLElement): Set<Fiber> {
  const key = Object.keys(container).find((k) => k.startsWith("__reactContainer$")) as string;
  const hostRoot = (container as unknown as Record<string, { stateNode: { current: Fiber } }>)[key];
  const all = new Set<Fiber>();
  const stack: Fiber[] = [hostRoot?.stateNode.current as Fiber];
  while (stack.length) {
    const f = stack.pop() as Fiber;
    all.add(f);
    if (f.child) stack.push(f.child);
    if (f.sibling) stack.push(f.sibling);
  }
  return all;
}

/**
 * Fibers React worked on in the commits `step` causes: each one it visits is swapped for its alternate, one it
 * skips (a block it never entered) stays the same object.
 */
async function fibersVisited(container: HTMLElement, step: () => void): Promise<number> {
  const before = fibers(container);
  await act(async () => step());
  let visited = 0;
  for (const f of fibers(container)) if (!before.has(f)) visited++;
  return visited;
}

describe("ChatMessageList", () => {
  it("renders every message in order through the row, and a delta renders only its row", async () => {
    const { agent, chat } = listSetup(300);
    const view = render(<ChatMessageList chat={chat} row={ListRow} />);
    expect(shownIds(view.container)).toEqual(transcript(300).map((m) => m.id));
    await act(async () => {
      agent.chunk({ type: "start", messageId: "a1" });
      agent.chunk({ type: "text-start", id: "t" });
    });
    listRenders.clear();
    await streamDeltas(agent, 5);
    expect(view.container.querySelector('[data-id="a1"]')?.textContent).toBe("w0 w1 w2 w3 w4 ");
    expect([...listRenders.keys()]).toEqual(["a1"]);
    expect(shownIds(view.container).at(-1)).toBe("a1");
    chat.dispose();
  });

  it("makes React walk a few dozen fibers per delta at 2,000 messages, a flat list of ids every row", async () => {
    const visitedPerDelta = async (list: "flat" | "blocks") => {
      const { agent, chat } = listSetup(2_000);
      const view = render(
        list === "flat" ? (
          <ChatMessagesProvider chat={chat}>
            <FlatList />
          </ChatMessagesProvider>
        ) : (
          <ChatMessageList chat={chat} row={ListRow} />
        ),
      );
      await act(async () => {
        agent.chunk({ type: "start", messageId: "a1" });
        agent.chunk({ type: "text-start", id: "t" });
      });
      const visited = await fibersVisited(view.container, () =>
        agent.chunk({ type: "text-delta", id: "t", delta: "hello" }),
      );
      expect(view.container.querySelector('[data-id="a1"]')?.textContent).toBe("hello");
      chat.dispose();
      view.unmount();
      return visited;
    };
    const flat = await visitedPerDelta("flat");
    const blocks = await visitedPerDelta("blocks");
    // The flat list walks all 2,001 rows to re-render one (2,010 fibers here); the blocks a few dozen (25).
    expect(flat).toBeGreaterThan(2_000);
    expect(blocks).toBeLessThan(200);
  });

  it("keeps every row mounted while messages are added and removed elsewhere", async () => {
    const { agent, chat } = listSetup(500);
    const view = render(
      <ChatMessagesProvider chat={chat}>
        <ChatMessageList row={ListRow} />
      </ChatMessagesProvider>,
    );
    await act(async () => {
      agent.chunk({ type: "start", messageId: "a1" });
      agent.chunk({ type: "text-start", id: "t" });
      agent.chunk({ type: "text-delta", id: "t", delta: "hi" });
    });
    await act(async () => {
      chat.setMessages((prev) => [...prev.slice(0, 250), ...prev.slice(251)]);
    });
    const ids = shownIds(view.container);
    expect(ids).toHaveLength(500);
    expect(ids).not.toContain("m250");
    expect(ids.at(-1)).toBe("a1");
    // Appending a1 and removing m250 remounted no row before m250 (rows after it may move block, see the docs).
    const remounted = [...mounts].filter(([id, n]) => n > 1 && Number(id.slice(1)) < 250);
    expect(remounted).toEqual([]);
    for (const a of view.container.querySelectorAll("article"))
      expect(a.getAttribute("data-mounted-as")).toMatch(/#1$/);
    chat.dispose();
  });
});

// ───────────── the store's record of what changed (`publishedChanges`) ─────────────

/** The message each row was last given, per id. */
const given = new Map<string, UIMessage | undefined>();
const GivenRow = memo(function GivenRow({ id }: { id: string }) {
  const message = useChatMessage(id);
  given.set(id, message);
  return <article data-id={id}>{message && <MessageParts message={message} />}</article>;
});

function hintSetup(messages: UIMessage[], throttleMs?: number) {
  const agent = new FakeAgent();
  const chat = new ChatSession({
    agent: agent as never,
    messages,
    getInitialMessages: null,
    resume: false,
    ...(throttleMs === undefined ? {} : { throttleMs }),
  });
  const view = render(<ChatMessageList chat={chat} row={GivenRow} />);
  given.clear();
  const frame = (f: unknown) => agent.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) }));
  /** Every row was last given the very message the store holds now. */
  const expectRowsCurrent = () => {
    for (const m of chat.getSnapshot().messages) if (given.has(m.id)) expect(given.get(m.id)).toBe(m);
  };
  return { agent, chat, view, frame, expectRowsCurrent };
}

/** What a component reading one id outside the list was last given, per id. */
const waiting = new Map<string, UIMessage | undefined>();
function Waiting({ id, chat }: { id: string; chat: ChatMessagesSource }) {
  waiting.set(id, useChatMessage(id, chat));
  return null;
}

/** Waits for the next animation frame, when the store publishes what changed since the last one. */
const nextFrame = () => act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

describe("rows follow the store's record of what changed", () => {
  it("a tool result for an earlier message and a delta in the same frame re-render exactly those two rows", async () => {
    const withCall: UIMessage = {
      id: "m1",
      role: "assistant",
      parts: [{ type: "tool-x", toolCallId: "call_1", state: "input-available", input: {} } as never],
    };
    const messages = [...transcript(6)];
    messages[1] = withCall;
    // Published once per animation frame, as in a browser.
    const { agent, chat, view, expectRowsCurrent } = hintSetup(messages, undefined);
    agent.chunk({ type: "start", messageId: "m5" });
    agent.chunk({ type: "text-start", id: "t" });
    await nextFrame();
    given.clear();
    agent.chunk({ type: "text-delta", id: "t", delta: "streamed" });
    agent.chunk({ type: "tool-output-available", toolCallId: "call_1", output: "done" });
    await nextFrame();
    expect([...given.keys()].sort()).toEqual(["m1", "m5"]);
    expect(given.get("m1")?.parts[0]).toMatchObject({ state: "output-available", output: "done" });
    expect(view.container.querySelector('[data-id="m5"]')?.textContent).toBe("streamed");
    expectRowsCurrent();
    chat.dispose();
  });

  it("a metadata merge on a message in the middle reaches its row only", async () => {
    const { agent, chat, expectRowsCurrent } = hintSetup(transcript(9), 0);
    await act(async () => agent.chunk({ type: "start", messageId: "m3" }));
    given.clear();
    await act(async () => agent.chunk({ type: "message-metadata", messageMetadata: { rating: 5 } }));
    expect([...given.keys()]).toEqual(["m3"]);
    expect(given.get("m3")?.metadata).toEqual({ rating: 5 });
    expectRowsCurrent();
    chat.dispose();
  });

  it("a server snapshot that edits one message (same ids) and one that adds one reach the rows", async () => {
    const { chat, view, frame, expectRowsCurrent } = hintSetup(transcript(9), 0);
    const edited = transcript(9);
    edited[4] = { id: "m4", role: "user", parts: [{ type: "text", text: "edited on the server" }] };
    await act(async () => frame({ type: "cf_agent_chat_messages", messages: edited }));
    expect(view.container.querySelector('[data-id="m4"]')?.textContent).toBe("edited on the server");
    expectRowsCurrent();
    const added = [...edited, { id: "m9", role: "assistant", parts: [{ type: "text", text: "new" }] }];
    await act(async () => frame({ type: "cf_agent_chat_messages", messages: added }));
    expect(shownIds(view.container)).toEqual(added.map((m) => m.id));
    expect(view.container.querySelector('[data-id="m9"]')?.textContent).toBe("new");
    expectRowsCurrent();
    // A delta after the snapshot is still told to its row only.
    given.clear();
    await act(async () => chat.setMessages((prev) => prev.map((m) => (m.id === "m2" ? { ...m } : m))));
    expect([...given.keys()]).toEqual(["m2"]);
    expectRowsCurrent();
    chat.dispose();
  });

  it("a streamed delta makes the hub and the store read the one changed message of the last snapshot", async () => {
    const { agent, chat } = hintSetup(transcript(200), 0);
    await act(async () => {
      agent.chunk({ type: "start", messageId: "m101" });
      agent.chunk({ type: "text-start", id: "t" });
    });
    // Count every read of the snapshot the rows were last given (it stays the same array).
    const reads = countReads(chat.getSnapshot().messages);
    await act(async () => agent.chunk({ type: "text-delta", id: "t", delta: "one" }));
    expect(given.get("m101")?.parts.at(-1)).toMatchObject({ text: "one" });
    // The row hub and the compaction count each read message 101; comparing every message read all 200, twice.
    expect(reads()).toBeLessThanOrEqual(2);
    chat.dispose();
  });

  it("a message appended by a stream reaches the row waiting for its id, and no other row is asked", async () => {
    // A store over a MessageList that counts how often React reads it: each row told of a change reads once.
    const list = new MessageList(transcript(500));
    const listeners = new Set<() => void>();
    let reads = 0;
    const store = {
      subscribe(fn: () => void) {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      getSnapshot() {
        reads++;
        return { messages: list.messages };
      },
    };
    const publish = () =>
      act(async () => {
        for (const fn of listeners) fn();
      });
    const view = render(
      <>
        <Waiting id="a1" chat={store} />
        <ChatMessageList chat={store} row={GivenRow} />
      </>,
    );
    given.clear();
    reads = 0;
    list.applyChunk("s", { type: "start", messageId: "a1" });
    list.applyChunk("s", { type: "text-start", id: "t" });
    list.applyChunk("s", { type: "text-delta", id: "t", delta: "new" });
    await publish();
    expect(waiting.get("a1")?.parts).toEqual([{ type: "text", text: "new", state: "streaming" }]);
    expect(shownIds(view.container)).toHaveLength(501);
    expect(view.container.querySelector('[data-id="a1"]')?.textContent).toBe("new");
    expect([...given.keys()]).toEqual(["a1"]);
    // Telling all 500 rows (each reads the store to find its message unchanged) read it over 500 times.
    expect(reads).toBeLessThan(50);
  });
});
