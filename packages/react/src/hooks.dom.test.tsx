/** The hooks under React (StrictMode), against the mock server, as an app would use them. */
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { useAgent as useOfficialAgent } from "agents/react";
import type { UIMessage } from "ai";
import { StrictMode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { renderSettled } from "../test/support/render.tsx";
import { useAgent } from "./use-agent.ts";
import { type UseAgentChatResult, useAgentChat } from "./use-agent-chat.ts";
import { type UseAgentToolEventsResult, useAgentToolEvents } from "./use-agent-tool-events.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

const room = () => `rh-${Math.random().toString(36).slice(2, 10)}`;
const textOf = (m: UIMessage | undefined) =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");
const until = (pred: () => boolean, timeout = 30_000) =>
  waitFor(() => expect(pred()).toBe(true), { timeout });

/** What the components below expose to the tests. */
interface Box {
  name: string;
  chat?: UseAgentChatResult;
  runs?: UseAgentToolEventsResult;
  state?: unknown;
}

function OurChat({ box }: { box: Box }) {
  const agent = useAgent<{ counter: number }>({
    agent: "ChatAgent",
    name: box.name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  box.state = agent.state;
  box.chat = useAgentChat({ agent, throttleMs: 0 });
  box.runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  return null;
}

function OfficialAgentOurChat({ box }: { box: Box }) {
  const agent = useOfficialAgent({
    agent: "ChatAgent",
    name: box.name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
  });
  box.chat = useAgentChat({ agent, throttleMs: 0 });
  return null;
}

describe("hooks", () => {
  it("useAgent + useAgentChat in StrictMode: one connection, state re-renders, a full turn", {
    timeout: 120_000,
  }, async () => {
    const box: Box = { name: room() };
    const errors = vi.spyOn(console, "error");
    await renderSettled(
      <StrictMode>
        <OurChat box={box} />
      </StrictMode>,
    );
    await until(() => (box.state as { counter: number } | undefined)?.counter === 0);
    // Suspending under StrictMode's double render must not upset React (a `use` that the second call skips).
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
    errors.mockRestore();
    await act(() => box.chat?.sendMessage({ text: "hello" }));
    await until(() => box.chat?.status === "ready" && textOf(box.chat.messages.at(-1)) !== "");
    expect(textOf(box.chat?.messages.at(-1))).toBe("Hello! How can I help you today?");
    // StrictMode mounted twice, but the instance saw one lasting socket.
    await new Promise((r) => setTimeout(r, 50));
    expect(server.controller.instance("ChatAgent", box.name)?.conns.size).toBe(1);
  });

  it("useAgentChat works with the official useAgent object", { timeout: 120_000 }, async () => {
    const box: Box = { name: room() };
    await renderSettled(<OfficialAgentOurChat box={box} />);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100));
    });
    await act(() => box.chat?.sendMessage({ text: "what's the weather in Lisbon?" }));
    await until(() => box.chat?.status === "ready" && textOf(box.chat.messages.at(-1)).endsWith("Done."));
    const part = box.chat?.messages.at(-1)?.parts.find((p) => p.type === "tool-getWeather") as {
      output: unknown;
    };
    expect(part.output).toEqual({ city: "Lisbon", temperatureC: 21, condition: "sunny" });
  });

  it("useAgentToolEvents shows the research run beside its tool call", { timeout: 120_000 }, async () => {
    const box: Box = { name: room() };
    await renderSettled(
      <StrictMode>
        <OurChat box={box} />
      </StrictMode>,
    );
    await act(() => box.chat?.sendMessage({ text: "research durable objects for me" }));
    await until(() => box.chat?.status === "ready" && textOf(box.chat.messages.at(-1)).endsWith("Done."));
    const call = box.chat?.messages.at(-1)?.parts.find((p) => p.type === "tool-research") as {
      toolCallId: string;
    };
    const [run] = box.runs?.getRunsForToolCall(call.toolCallId) ?? [];
    expect(run).toMatchObject({ status: "completed", agentType: "Researcher" });
    expect(run?.milestones.map((m) => m.name)).toEqual(["sources-gathered"]);
  });
});

function Gated({ enabled, out }: { enabled: boolean; out: { status?: string } }) {
  const agent = useAgent({
    agent: "ChatAgent",
    name: "gated",
    host: `127.0.0.1:${server.port}`,
    WebSocket,
    enabled,
  });
  out.status = agent.status;
  return null;
}

describe("useAgent's enabled option", () => {
  it("keeps the socket closed while false and connects once it turns true", async () => {
    const out: { status?: string } = {};
    const view = render(<Gated enabled={false} out={out} />);
    await new Promise((r) => setTimeout(r, 100));
    expect(out.status).toBe("closed");
    expect(server.controller.instance("ChatAgent", "gated")?.conns.size ?? 0).toBe(0);
    view.rerender(<Gated enabled out={out} />);
    await until(() => out.status === "open");
    expect(server.controller.instance("ChatAgent", "gated")?.conns.size).toBe(1);
  });
});
