/** AgentEvent against the mock server's background run (a real injected message) and classified fixtures. */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { isAgentEvent } from "@runboard/protocol/view";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import type { UIMessage } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { useAgentChat } from "../use-agent-chat.ts";
import { AgentEvent } from "./agent-event.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

function List({ messages }: { messages: readonly UIMessage[] }) {
  return (
    <>
      {messages.map((m) => (
        <AgentEvent.Match key={m.id} message={m} fallback={<div data-testid="bubble" data-role={m.role} />}>
          <AgentEvent.Root message={m}>
            <AgentEvent.Label />
            <AgentEvent.Text />
          </AgentEvent.Root>
        </AgentEvent.Match>
      ))}
    </>
  );
}

const box: { send?: (t: string) => Promise<void> } = {};
function Chat({ name }: { name: string }) {
  const agent = useAgent({ agent: "ChatAgent", name, host: `127.0.0.1:${server.port}`, WebSocket });
  const chat = useAgentChat({ agent, throttleMs: 0 });
  box.send = (t) => chat.sendMessage({ text: t });
  return (
    <>
      <output data-testid="conn">{agent.status}</output>
      <List messages={chat.messages} />
    </>
  );
}

const msg = (id: string, role: UIMessage["role"], metadata?: unknown, text = "hi"): UIMessage => ({
  id,
  role,
  ...(metadata === undefined ? {} : { metadata }),
  parts: [{ type: "text", text }],
});

describe("AgentEvent", () => {
  it("shows a background run's completion as a note, not as a user bubble", {
    timeout: 120_000,
  }, async () => {
    await renderSettled(<Chat name={`ev-${Math.random().toString(36).slice(2)}`} />);
    await waitFor(() => expect(screen.getByTestId("conn").textContent).toBe("open"), { timeout: 30_000 });
    await act(() => box.send?.("background research about queues"));
    const note = await screen.findByRole("note", { name: /^Background run finished/ }, { timeout: 30_000 });
    expect(note.getAttribute("data-kind")).toBe("detached-completion");
    expect(note.getAttribute("data-status")).toBe("completed");
    expect(note.getAttribute("data-role")).toBe("user");
    expect(within(note).getByText(/Background run finished \(Researcher\)/)).toBeTruthy();
    // The user's own message and the assistant's replies stay bubbles.
    expect(screen.getAllByTestId("bubble").some((b) => b.getAttribute("data-role") === "user")).toBe(true);
  });

  it("classifies narration and notices, and leaves ordinary messages alone", () => {
    const messages = [
      msg(
        "detached-ms:run1:draft-ready",
        "assistant",
        { source: "detached-agent-tool", runId: "run1" },
        "Draft ready",
      ),
      msg("n1", "assistant", { deliveryKind: "notice" }, "<b>maintenance</b> at 5"),
      msg("u1", "user"),
    ];
    expect(messages.map(isAgentEvent)).toEqual([true, true, false]);
    render(<List messages={messages} />);
    const notes = screen.getAllByRole("note");
    expect(notes.map((n) => [n.getAttribute("data-kind"), n.getAttribute("aria-label")])).toEqual([
      ["milestone", "Milestone reached: draft-ready"],
      ["notice", "Notice"],
    ]);
    expect(notes[0]?.getAttribute("data-run-id")).toBe("run1");
    // Server text is text: markup in it is not rendered.
    expect(notes[1]?.querySelector("b")).toBeNull();
    expect(notes[1]?.textContent).toContain("<b>maintenance</b> at 5");
    expect(screen.getAllByTestId("bubble")).toHaveLength(1);
  });
});
