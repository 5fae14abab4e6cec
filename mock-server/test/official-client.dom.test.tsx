/**
 * The official client (agents/react `useAgent` + @cloudflare/ai-chat/react `useAgentChat`) against the mock
 * server, driven like a user. Each test ends with the messages the official client holds and compares them
 * with the transcript the REAL server ended with for the same script (the recorded snapshot), ids normalised.
 */
import { useAgentChat } from "@cloudflare/ai-chat/react";
import { MessageList } from "@runboard/protocol";
import { act, cleanup, render, waitFor } from "@testing-library/react";
import { useAgent, useAgentToolEvents } from "agents/react";
import type { UIMessage } from "ai";
import { StrictMode, Suspense } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as WS } from "ws";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "../src/index.ts";
import { loadTranscript, Normalizer } from "./normalize.ts";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

type Chat = ReturnType<typeof useAgentChat>;
/** What the tests read from the official `useAgent` result. */
type Agent = { readyState: number; reconnect(): void };

/** Renders the official hooks and exposes their latest return values. */
async function mount(
  agent: "ChatAgent" | "ThinkAgent",
  name: string,
  opts: Partial<Parameters<typeof useAgentChat>[0]> = {},
) {
  const box: { chat?: Chat; agent?: Agent; runs?: ReturnType<typeof useAgentToolEvents> } = {};
  function App() {
    // jsdom's WebSocket cannot dispatch its events here; PartySocket takes an implementation, as in Node.
    const a = useAgent({ agent, name, host: `127.0.0.1:${server.port}`, WebSocket: WS });
    box.agent = a;
    box.chat = useAgentChat({ agent: a, ...opts });
    box.runs = useAgentToolEvents({ agent: a });
    return null;
  }
  await act(async () => {
    render(
      <StrictMode>
        <Suspense fallback={null}>
          <App />
        </Suspense>
      </StrictMode>,
    );
  });
  return box;
}

const lastTextOf = (m: UIMessage | undefined) =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

/** The last transcript snapshot the real server sent in a recording. */
function realFinal(host: "ai-chat" | "think", scenario: string): UIMessage[] {
  const snaps = loadTranscript(host, scenario)
    .filter((r) => r.dir === "in" && r.raw?.includes("cf_agent_chat_messages"))
    .map((r) => JSON.parse(r.raw as string) as { messages: UIMessage[] });
  const last = snaps.at(-1);
  if (!last) throw new Error(`${host}/${scenario} has no snapshot`);
  return last.messages;
}

/**
 * What is compared: roles, part types, texts, tool names, states, inputs, outputs and approval decisions.
 * Ids are normalised; `state` of text parts, `metadata` and `preliminary` are dropped because the client's
 * own copy legitimately differs there from the server's persisted copy (the AI SDK keeps finish metadata
 * and streaming flags the server strips).
 */
function comparable(messages: readonly UIMessage[]) {
  const norm = new Normalizer();
  norm.learn(messages);
  return messages.map((m) => ({
    role: m.role,
    parts: m.parts
      .filter((p) => p.type !== "step-start")
      .map((p) => {
        const kept = Object.entries(p).filter(
          ([k]) => !CLIENT_ONLY.has(k) && !(p.type === "text" && k === "state"),
        );
        return norm.apply(Object.fromEntries(kept));
      }),
  }));
}

/**
 * Part fields where a client's copy and the server's persisted copy differ by design: the AI SDK client
 * omits `toolName` on static tool parts (the type carries it) and adds provider fields; the server strips
 * `preliminary` on streamed outputs.
 */
const CLIENT_ONLY = new Set([
  "toolName",
  "providerExecuted",
  "preliminary",
  "callProviderMetadata",
  "title",
  "providerMetadata",
]);

const until = (pred: () => boolean, timeout = 15_000) =>
  waitFor(() => expect(pred()).toBe(true), { timeout });

/** The transcript a client ends with from the real server's recorded stream (no snapshot was sent to it). */
function realStreamed(host: "ai-chat" | "think", scenario: string, conn = "main"): UIMessage[] {
  const list = new MessageList();
  for (const r of loadTranscript(host, scenario)) {
    if (r.conn !== conn || !r.raw) continue;
    const f = JSON.parse(r.raw) as Record<string, unknown>;
    if (r.dir === "out" && f.type === "cf_agent_use_chat_request") {
      const body = JSON.parse((f.init as { body: string }).body) as { messages: UIMessage[] };
      for (const m of body.messages) list.upsert(m);
    }
    if (r.dir === "in" && f.type === "cf_agent_use_chat_response" && typeof f.body === "string" && f.body) {
      list.applyChunk(String(f.id), JSON.parse(f.body), { continuation: f.continuation === true });
    }
  }
  return [...list.messages];
}

const ROOM = () => `oc-${Math.random().toString(36).slice(2, 10)}`;

async function ask(box: { chat?: Chat }, text: string) {
  await act(async () => {
    await box.chat?.sendMessage({ text });
  });
}

function toolPart(m: UIMessage | undefined, name: string) {
  return m?.parts.find((p) => p.type === `tool-${name}`) as
    | { toolCallId: string; state: string; approval?: { id: string }; output?: unknown }
    | undefined;
}

const settled = (box: { chat?: Chat }) => box.chat?.status === "ready" && !box.chat.isServerStreaming;

/** Lets late frames (the end snapshot, a restored protection) land before the final state is read. */
const quiet = () => act(() => new Promise<void>((r) => setTimeout(r, 400)));

async function approvePayment(agent: "ChatAgent" | "ThinkAgent") {
  const box = await mount(agent, ROOM());
  await until(() => box.agent?.readyState === 1);
  await ask(box, "please pay ACME 250");
  await until(() => toolPart(box.chat?.messages.at(-1), "processPayment")?.state === "approval-requested");
  const part = toolPart(box.chat?.messages.at(-1), "processPayment");
  await act(async () => {
    await box.chat?.addToolApprovalResponse({ id: part?.approval?.id ?? "", approved: true });
  });
  await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)).endsWith("Done."));
  await quiet();
  return box;
}

describe("official useAgentChat against the mock server ends where it ends against the real server", () => {
  it("ai-chat: hello", { timeout: 30_000 }, async () => {
    const box = await mount("ChatAgent", ROOM());
    await until(() => box.agent?.readyState === 1);
    await ask(box, "hello");
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)) !== "");
    await quiet();
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realStreamed("ai-chat", "hello")));
  });

  it("ai-chat: weather (server tool)", { timeout: 30_000 }, async () => {
    const box = await mount("ChatAgent", ROOM());
    await until(() => box.agent?.readyState === 1);
    await ask(box, "what's the weather in Lisbon?");
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)).endsWith("Done."));
    await quiet();
    expect(toolPart(box.chat?.messages.at(-1), "getWeather")?.output).toEqual({
      city: "Lisbon",
      temperatureC: 21,
      condition: "sunny",
    });
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realStreamed("ai-chat", "weather")));
  });

  it("ai-chat: pay (approval, approved through addToolApprovalResponse)", { timeout: 30_000 }, async () => {
    const box = await approvePayment("ChatAgent");
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realFinal("ai-chat", "pay")));
  });

  it("think: pay — the official client keeps the continuation twice (upstream), as it would on the real server", {
    timeout: 30_000,
  }, async () => {
    const box = await approvePayment("ThinkAgent");
    // Think persists the continuation as a new message and sends that snapshot to everyone; the official
    // client appends the continuation to the tool message AND keeps the snapshot's copy. The frames it got
    // are the real server's (fidelity test think/pay), so this is what it shows against a real Think agent.
    const real = realFinal("think", "pay");
    const [user, tool, cont] = real as [UIMessage, UIMessage, UIMessage];
    const doubled = [user, { ...tool, parts: [...tool.parts, ...cont.parts] }, cont];
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(doubled));
  });

  it("ai-chat: locate — the official client keeps the continuation twice (upstream)", {
    timeout: 30_000,
  }, async () => {
    const box = await mount("ChatAgent", ROOM(), {
      onToolCall: ({ toolCall, addToolOutput }) => {
        if (toolCall.toolName === "getLocation")
          addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 38.72, lng: -9.14 } });
      },
    });
    await until(() => box.agent?.readyState === 1);
    await ask(box, "locate me please");
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)).endsWith("Done."));
    await quiet();
    // ai >= 7.0.62 starts a resumed stream from an empty message and a continuation's `start` has no
    // messageId, so the client pushes a new message (reference §3.4(a)); the end snapshot (the server's
    // copy, continuation appended to the tool's message) is merged in beside it instead of replacing it.
    const real = realFinal("ai-chat", "locate");
    const last = real.at(-1) as UIMessage;
    const continuation = { ...last, id: "client-copy", parts: last.parts.filter((p) => p.type === "text") };
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable([...real, continuation]));
  });

  it("ai-chat: research (agent tool): chat and the official run reducer end complete", {
    timeout: 30_000,
  }, async () => {
    const box = await mount("ChatAgent", ROOM());
    await until(() => box.agent?.readyState === 1);
    await ask(box, "research durable objects for me");
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)).endsWith("Done."));
    await quiet();
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realStreamed("ai-chat", "research")));

    const call = toolPart(box.chat?.messages.at(-1), "research")?.toolCallId ?? "";
    const run = box.runs?.getRunsForToolCall(call)[0];
    expect(run).toMatchObject({ runId: `agent-tool:${call}`, agentType: "Researcher", status: "completed" });
    expect(run?.summary).toBe(
      "Researching now.Summary: found 2 sources; durable objects give each agent its own SQLite.",
    );
    // The real server reuses sequence 10 for two progress frames, the milestone and the tool output; agents
    // 0.32's hook keys those by progress id and milestone sequence, so nothing is lost (the key the reference
    // describes, (parent, runId, sequence), would have dropped the tool output and the milestone).
    const gather = run?.parts.find((p) => p.type === "tool-gatherSources") as { state?: string } | undefined;
    expect(gather?.state).toBe("output-available");
    expect(run?.milestones?.map((m) => m.name)).toEqual(["sources-gathered"]);
    expect(run?.progress).toMatchObject({ fraction: 0.75, message: "Reading 2 sources" });
  });

  it("think: hello", { timeout: 30_000 }, async () => {
    const box = await mount("ThinkAgent", ROOM());
    await until(() => box.agent?.readyState === 1);
    await ask(box, "hello");
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)) !== "");
    await quiet();
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realFinal("think", "hello")));
  });

  it("ai-chat: a reconnect in the middle of a long stream loses and repeats nothing", {
    timeout: 40_000,
  }, async () => {
    const box = await mount("ChatAgent", ROOM());
    await until(() => box.agent?.readyState === 1);
    await ask(box, "slow stream please");
    await until(() => lastTextOf(box.chat?.messages.at(-1)).includes("word5"));
    act(() => box.agent?.reconnect());
    await until(() => settled(box) && lastTextOf(box.chat?.messages.at(-1)).endsWith("word39"), 30_000);
    expect(lastTextOf(box.chat?.messages.at(-1))).toBe(
      Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "),
    );
    expect(comparable(box.chat?.messages ?? [])).toEqual(comparable(realFinal("ai-chat", "reconnect")));
  });
});
