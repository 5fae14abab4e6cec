/**
 * A `setState` made before the server's initial state (issue 30 §1): held, and sent once the connect frames say
 * where the state stands, on each kind of server (docs/protocol.md#connect-frames): one that sends its state
 * (identity with `stateFollows`), one without state (identity alone, as Think), one without identity (MCP list
 * only), one without any connect frame (protocol messages off: sent after a while), and across a reconnect.
 * Also: a call rejected by a close tells its streaming `onError`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeWebSocket, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";

const socket = () => FakeWebSocket.last as FakeWebSocket;
const mcp = { type: "cf_agent_mcp_servers", mcp: { servers: {}, tools: [], prompts: [], resources: [] } };
const identity = (stateFollows?: boolean) => ({
  type: "cf_agent_identity",
  name: "room",
  agent: "chat-agent",
  ...(stateFollows ? { stateFollows } : {}),
});
const setStateFrames = (s: FakeWebSocket) => s.sent.filter((f) => f.includes('"cf_agent_state"'));

async function connected() {
  const updates: string[] = [];
  const client = new AgentClient<{ n: number }>({
    agent: "ChatAgent",
    name: "room",
    host: "agents.example",
    WebSocket: FakeWebSocket,
    minReconnectionDelay: 1,
    maxReconnectionDelay: 5,
    onStateUpdate: (s, source) => updates.push(`${source} ${s.n}`),
  });
  await until(() => client.status === "open", "open");
  return { client, updates, s: socket() };
}

afterEach(() => vi.useRealTimers());

describe("setState before the initial state", () => {
  it("a server with state: held until the state frame, then sent; identified after that state", async () => {
    const { client, updates, s } = await connected();
    client.setState({ n: 1 });
    expect([client.state, setStateFrames(s)]).toEqual([{ n: 1 }, []]);
    s.push(identity(true));
    expect([client.identified, setStateFrames(s)]).toEqual([false, []]);
    s.push({ type: "cf_agent_state", state: { n: 5 } });
    expect(client.identified).toBe(true);
    expect(client.state).toEqual({ n: 1 });
    expect(setStateFrames(s)).toEqual(['{"type":"cf_agent_state","state":{"n":1}}']);
    expect(updates).toEqual(["client 1", "server 5", "client 1"]);
    client.setState({ n: 2 });
    expect(setStateFrames(s)).toHaveLength(2);
    client.close();
  });

  it("a server without state (identity alone, as Think): sent on the identity frame", async () => {
    const { client, s } = await connected();
    client.setState({ n: 1 });
    s.push(identity());
    expect(setStateFrames(s)).toEqual(['{"type":"cf_agent_state","state":{"n":1}}']);
    client.close();
  });

  it("a server that sends no identity (sendIdentityOnConnect: false): sent after its MCP list", async () => {
    const { client, s } = await connected();
    client.setState({ n: 1 });
    s.push({ type: "cf_agent_state", state: { n: 5 } });
    expect(client.state).toEqual({ n: 1 });
    expect(setStateFrames(s)).toHaveLength(1);
    client.close();
    const next = await connected();
    next.client.setState({ n: 2 });
    next.s.push(mcp);
    expect(setStateFrames(next.s)).toHaveLength(1);
    next.client.close();
  });

  it("a server that sends no connect frames (protocol messages off): sent after a while", async () => {
    const { client, s } = await connected();
    vi.useFakeTimers();
    client.setState({ n: 1 });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(setStateFrames(s)).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(setStateFrames(s)).toEqual(['{"type":"cf_agent_state","state":{"n":1}}']);
    client.close();
  });

  it("across a reconnect: held again until the next connection's state, ready replaced", async () => {
    const { client, updates, s } = await connected();
    s.push(identity(true));
    s.push({ type: "cf_agent_state", state: { n: 5 } });
    const firstReady = client.ready;
    expect(client.identified).toBe(true);
    s.drop();
    expect(client.identified).toBe(false);
    expect(client.ready).not.toBe(firstReady);
    client.setState({ n: 7 });
    await until(() => socket() !== s && client.status === "open", "reconnected");
    const s2 = socket();
    expect(setStateFrames(s2)).toEqual([]);
    s2.push(identity(true));
    s2.push({ type: "cf_agent_state", state: { n: 6 } });
    expect(setStateFrames(s2)).toEqual(['{"type":"cf_agent_state","state":{"n":7}}']);
    expect(client.state).toEqual({ n: 7 });
    expect(updates).toEqual(["server 5", "client 7", "server 6", "client 7"]);
    await client.ready;
    client.close();
  });
});

describe("a call rejected by a close", () => {
  it("tells its streaming onError too, as upstream's clients do", async () => {
    const { client, s } = await connected();
    const errors: string[] = [];
    const call = client.call("countdown", [3], { stream: { onError: (e) => errors.push(e) } });
    s.drop();
    await expect(call).rejects.toThrow("Connection closed");
    expect(errors).toEqual(["Connection closed"]);
    client.close();
  });
});
