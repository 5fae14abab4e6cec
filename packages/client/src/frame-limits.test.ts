/** The frame limits on a connection: a frame too large or too deep is refused once, unparsed, and the rest flow. */
import { parseServerFrame } from "@runboard/protocol";
import { afterEach, expect, it, vi } from "vitest";
import { FakeWebSocket, textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { AgentToolRuns } from "./agent-tool-runs.ts";
import { AgentStateStore, ChatApprovals } from "./approvals/index.ts";
import { ChatSession } from "./chat-session.ts";

// Counts the frame parses (size check, nesting scan and JSON.parse happen inside) while keeping them real.
vi.mock("@runboard/protocol", async (importOriginal) => {
  const m = await importOriginal<typeof import("@runboard/protocol")>();
  return { ...m, parseServerFrame: vi.fn(m.parseServerFrame) };
});

afterEach(() => vi.restoreAllMocks());

const transcript = (text: string) =>
  JSON.stringify({
    type: "cf_agent_chat_messages",
    messages: [{ id: "m1", role: "user", parts: [{ type: "text", text }] }],
  });

/** A connection with every kind of store listening, and what each reported. */
async function connection(maxFrameBytes?: number) {
  const errors = { client: [] as Error[], chat: [] as Error[], runs: [] as Error[] };
  const client = new AgentClient<{ n: number }>({
    agent: "ChatAgent",
    name: "limits",
    host: "agents.example",
    WebSocket: FakeWebSocket,
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
    onError: (e) => errors.client.push(e),
  });
  const chat = new ChatSession({
    agent: client,
    getInitialMessages: null,
    resume: false,
    throttleMs: 0,
    onError: (e) => errors.chat.push(e),
  });
  const runs = new AgentToolRuns({ agent: client, storage: null, onError: (e) => errors.runs.push(e) });
  const approvals = new ChatApprovals({ chat, agent: client });
  const unsubscribeState = new AgentStateStore(client).subscribe(() => {});
  const heard: unknown[] = [];
  client.addEventListener("message", (e) => heard.push((e as MessageEvent).data));
  await until(() => client.status === "open");
  const socket = FakeWebSocket.last as FakeWebSocket;
  const dispose = () => {
    for (const s of [chat, runs, approvals]) s.dispose();
    unsubscribeState();
    client.close();
  };
  return { client, chat, errors, heard, socket, dispose };
}

it("drops a frame over maxFrameBytes unparsed, reports it once without its content, and goes on", async () => {
  const { client, chat, errors, heard, socket, dispose } = await connection(2_000);
  const big = transcript(`secret ${"x".repeat(3_000)}`);
  const parse = vi.spyOn(JSON, "parse");
  socket.push(big);
  expect(parse.mock.calls.some(([text]) => text === big)).toBe(false);
  expect(errors.client.map((e) => e.message)).toEqual([
    `frame of at least ${big.length} bytes exceeds the limit of 2000 bytes`,
  ]);
  expect(errors.chat).toEqual([]);
  expect(errors.runs).toEqual([]);
  // Dropped: the app's message listeners never hear it, so nothing parses it after all.
  expect(heard).toEqual([]);
  expect(chat.getSnapshot().messages).toEqual([]);

  // The connection stays open and later frames still reach the chat and the state.
  socket.push(transcript("small"));
  socket.push(JSON.stringify({ type: "cf_agent_state", state: { n: 1 } }));
  expect(client.status).toBe("open");
  expect(textOf(chat.getSnapshot().messages[0])).toBe("small");
  expect(client.state).toEqual({ n: 1 });
  expect(heard).toHaveLength(2);
  expect(errors.client).toHaveLength(1);
  dispose();
});

it("applies a 16 MiB limit by default", async () => {
  const { errors, socket, dispose } = await connection();
  socket.push(`{"type":"cf_agent_future","x":"${"x".repeat(16 * 1024 * 1024)}"}`);
  expect(errors.client.map((e) => e.message)).toEqual([
    `frame of at least ${16 * 1024 * 1024 + 33} bytes exceeds the limit of 16777216 bytes`,
  ]);
  dispose();
});

it("refuses a deeply nested frame once, before JSON.parse, however many stores listen", async () => {
  const { client, chat, errors, socket, dispose } = await connection();
  const n = 200_000;
  const deep = `{"type":"cf_agent_chat_messages","messages":${"[".repeat(n)}${"]".repeat(n)}}`;
  const parse = vi.spyOn(JSON, "parse");
  socket.push(deep);
  // One parse for the connection, the chat, the run store, the approvals and the state store together, and
  // it stopped at the nesting scan.
  expect(vi.mocked(parseServerFrame).mock.calls.filter(([raw]) => raw === deep)).toHaveLength(1);
  expect(parse.mock.calls.some(([text]) => text === deep)).toBe(false);
  const reason = "frame is nested more than 1000 levels deep";
  expect(errors.client.map((e) => e.message)).toEqual([reason]);
  // A chat frame is also the chat's to report (its type is read by the scan, not by parsing).
  expect(errors.chat.map((e) => e.message)).toEqual([reason]);
  expect(errors.runs).toEqual([]);

  socket.push(transcript("after"));
  socket.push(JSON.stringify({ type: "cf_agent_state", state: { n: 2 } }));
  expect(textOf(chat.getSnapshot().messages[0])).toBe("after");
  expect(client.state).toEqual({ n: 2 });
  dispose();
});
