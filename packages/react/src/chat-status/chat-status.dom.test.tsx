/**
 * ChatStatus and BranchPicker against the mock server through `useAgentChat`: the statuses a person should
 * see (issue 16 §2) and Think's branch navigation (§3), as a user sees and announces them.
 */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { renderSettled } from "../../test/support/render.tsx";
import { BranchPicker } from "../branch-picker/index.ts";
import { MessageParts } from "../message-parts/index.ts";
import { useAgent } from "../use-agent.ts";
import { useAgentChat } from "../use-agent-chat.ts";
import { ChatStatus } from "./chat-status.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

type Chat = ReturnType<typeof useAgentChat>;
const room = (p: string) => `${p}-${Math.random().toString(36).slice(2, 9)}`;

function App({ agent, name, onChat }: { agent: string; name: string; onChat: (c: Chat) => void }) {
  const a = useAgent({ agent, name, host: `127.0.0.1:${server.port}`, WebSocket });
  const chat = useAgentChat({
    agent: a,
    throttleMs: 0,
    getBranches: (id: string) => a.call("getResponseVersions", [id]),
  });
  onChat(chat);
  return (
    <>
      <ChatStatus.Root chat={chat} data-testid="status">
        <ChatStatus.Message />
        <ChatStatus.Compaction data-testid="compaction" />
        <ChatStatus.Announcer />
      </ChatStatus.Root>
      {chat.messages.map((m) => (
        <div key={m.id} data-testid="message" data-role={m.role}>
          <MessageParts message={m} />
          <BranchPicker.Root chat={chat} messageId={m.id}>
            <BranchPicker.Previous />
            <BranchPicker.Count />
            <BranchPicker.Next />
          </BranchPicker.Root>
        </div>
      ))}
    </>
  );
}

async function mount(agent: "ChatAgent" | "ThinkAgent", name = room("s")) {
  let chat: Chat | undefined;
  const states = new Set<string>();
  const spoken = new Set<string>();
  await renderSettled(
    <App
      agent={agent}
      name={name}
      onChat={(c) => {
        chat = c;
      }}
    />,
  );
  const observer = new MutationObserver(() => {
    const region = screen.queryByTestId("status");
    if (region) states.add(region.getAttribute("data-state") ?? "");
    const live = document.querySelector('[role="status"][aria-live="polite"]');
    if (live?.textContent) spoken.add(live.textContent);
  });
  observer.observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  return { chat: () => chat as Chat, states, spoken, stop: () => observer.disconnect() };
}

describe("ChatStatus", () => {
  // The frames as the hosts send them (docs/protocol.md#recovering), straight from the server's socket: the
  // mock's eviction scenarios are raced by the hook's reconnect timing, the client tests cover them end to end.
  it("shows and announces a recovery, then a recovery that gave up as an alert with the server's words", async () => {
    const name = room("recovery");
    const m = await mount("ThinkAgent", name);
    await waitFor(() => expect(m.chat()?.messages).toBeDefined());
    await waitFor(() => expect(server.controller.instance("ThinkAgent", name)?.conns.size).toBe(1));
    const inject = (frame: object) => {
      for (const c of server.controller.instance("ThinkAgent", name)?.conns ?? [])
        c.send(JSON.stringify(frame));
    };
    inject({ type: "cf_agent_chat_recovering", recovering: true, id: "rec-1" });
    await waitFor(() => expect(screen.getByTestId("status").getAttribute("data-state")).toBe("recovering"));
    expect(
      screen.getByText("The agent was interrupted and is recovering its answer…", { selector: "p" }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(m.spoken.has("The agent was interrupted and is recovering its answer…")).toBe(true),
    );
    inject({
      type: "cf_agent_use_chat_response",
      id: "rec-1",
      body: "The assistant was interrupted and could not recover. Please try again.",
      done: true,
      error: true,
    });
    inject({ type: "cf_agent_chat_recovering", recovering: false, id: "rec-1" });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("The assistant was interrupted and could not recover. Please try again.");
    expect(screen.getByTestId("status").getAttribute("data-state")).toBe("gave-up");
    // The next turn of this tab clears it.
    await act(() => m.chat().sendMessage({ text: "hello" }));
    await waitFor(() => expect(screen.getByTestId("status").getAttribute("data-state")).not.toBe("gave-up"));
    expect(screen.queryByRole("alert")).toBeNull();
    m.stop();
  });

  it("shows compaction: the summary as an agent event and the compacted note", async () => {
    const m = await mount("ThinkAgent");
    await waitFor(() => expect(m.chat()).toBeDefined());
    await act(() => m.chat().sendMessage({ text: "hello" }));
    await screen.findByText("Hello! How can I help you today?");
    await act(() => m.chat().sendMessage({ text: "compact now" }));
    await screen.findByText("I compacted our earlier conversation into a summary.");
    expect(m.states.has("compacting")).toBe(true);
    const note = screen.getByRole("note", { name: "Earlier messages summarised" });
    expect(note.getAttribute("data-kind")).toBe("compaction");
    expect(note.textContent).toContain("Summary of the earlier conversation");
    expect(screen.getByTestId("compaction").textContent).toBe("Earlier messages were summarised.");
    expect(screen.getByTestId("status").hasAttribute("data-compacted")).toBe(true);
    m.stop();
  });

  it("renders Think's notify turn as an agent event, not as the user's bubble", async () => {
    const m = await mount("ThinkAgent");
    await waitFor(() => expect(m.chat()).toBeDefined());
    await act(() => m.chat().sendMessage({ text: "start background research on websockets" }));
    const note = await screen.findByRole(
      "note",
      { name: "Background run finished (Researcher)" },
      { timeout: 30_000 },
    );
    expect(note.getAttribute("data-role")).toBe("user");
    expect(note.hasAttribute("data-inferred")).toBe(true);
    m.stop();
  });
});

describe("BranchPicker", () => {
  it("steps between the answers a Think regeneration kept", async () => {
    const m = await mount("ThinkAgent");
    await waitFor(() => expect(m.chat()).toBeDefined());
    await act(() => m.chat().sendMessage({ text: "an idea please" }));
    await waitFor(() => expect(m.chat().status).toBe("ready"));
    await waitFor(() => expect(screen.getAllByTestId("message")).toHaveLength(2));
    const first = screen.getAllByTestId("message")[1]?.textContent ?? "";
    expect(screen.queryByRole("group")).toBeNull();
    await act(() => m.chat().regenerate());
    const group = await screen.findByRole("group", { name: "Answer 2 of 2" }, { timeout: 8000 });
    const previous = screen.getByRole("button", { name: "Previous answer" }) as HTMLButtonElement;
    const next = screen.getByRole("button", { name: "Next answer" }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    expect(previous.disabled).toBe(false);
    expect(group.textContent).toContain("2 of 2");
    const second = screen.getAllByTestId("message")[1]?.textContent ?? "";
    expect(second).not.toBe(first);
    fireEvent.click(previous);
    await screen.findByRole("group", { name: "Answer 1 of 2" });
    expect(screen.getAllByTestId("message")[1]?.textContent?.startsWith(first.slice(0, 20))).toBe(true);
    expect((screen.getByRole("button", { name: "Previous answer" }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole("button", { name: "Next answer" }));
    await screen.findByRole("group", { name: "Answer 2 of 2" });
    m.stop();
  });
});
