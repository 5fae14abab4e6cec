import * as net from "node:net";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { until } from "../test/helpers.ts";
import { AgentClient, type AgentClientOptions, AgentConnectionError } from "./agent-client.ts";

let server: MockAgentServer;
const serverLog: string[] = [];
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0, log: (l) => serverLog.push(l) });
});
afterAll(() => server.close());

type Counter = { counter: number };
type Methods = { increment(by: number): number; getInfo(): { name: string; messageCount: number } };

function client(name: string, extra: Partial<AgentClientOptions<Counter>> = {}) {
  return new AgentClient<Counter, Methods>({
    agent: "ChatAgent",
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket,
    reconnect: { minDelayMs: 20, maxDelayMs: 50 },
    ...extra,
  });
}

describe("AgentClient against the mock server", () => {
  it("connects to the official URL and learns identity, state and the MCP list", async () => {
    const updates: Array<[Counter, string]> = [];
    const c = client("ac-connect", { onStateUpdate: (s, src) => updates.push([s, src]) });
    await until(() => c.mcp !== undefined);
    expect(c.status).toBe("open");
    expect(c.identity).toEqual({ name: "ac-connect", agent: "chat-agent" });
    expect(c.state).toEqual({ counter: 0 });
    expect(updates).toEqual([[{ counter: 0 }, "server"]]);
    expect(c.getHttpUrl("get-messages")).toBe(
      `http://127.0.0.1:${server.port}/agents/chat-agent/ac-connect/get-messages`,
    );
    c.close();
    expect(c.status).toBe("closed");
  });

  it("calls methods through call() and the typed stub, and rejects with the server's message", async () => {
    const c = client("ac-rpc");
    await expect(c.stub.increment(2)).resolves.toBe(2);
    await expect(c.call("getInfo")).resolves.toMatchObject({ name: "ac-rpc", messageCount: 0 });
    await expect(c.call("onChatMessage")).rejects.toThrow("Method onChatMessage is not callable");
    await expect(c.call("nope")).rejects.toThrow("Method nope does not exist");
    // Probes made by promise machinery and test tools are not RPCs.
    expect((c.stub as unknown as Record<string, unknown>).then).toBeUndefined();
    c.close();
  });

  it("streams RPC chunks, then resolves with the final result", async () => {
    const c = client("ac-stream");
    const chunks: unknown[] = [];
    let done: unknown;
    const result = await c.call("countdown", [3], {
      onChunk: (x) => chunks.push(x),
      onDone: (r) => (done = r),
    });
    expect(chunks).toEqual([3, 2, 1]);
    expect(result).toBe("liftoff");
    expect(done).toBe("liftoff");
    c.close();
  });

  it("applies setState optimistically and the other tabs receive it; server state reaches every tab", async () => {
    const a = client("ac-state");
    const b = client("ac-state");
    await until(() => a.state !== undefined && b.state !== undefined);
    a.setState({ counter: 41 });
    expect(a.state).toEqual({ counter: 41 });
    await until(() => b.state?.counter === 41);
    await a.stub.increment(1);
    await until(() => a.state?.counter === 42 && b.state?.counter === 42);
    a.close();
    b.close();
  });

  it("times out a call, and ignores a reply that comes after", async () => {
    const c = client("ac-timeout");
    await until(() => c.status === "open");
    server.controller.delay((f) => f.frame.type === "rpc" && f.name === "ac-timeout", 200);
    await expect(c.call("getInfo", [], { timeoutMs: 20 })).rejects.toThrow("timed out after 20ms");
    await new Promise((r) => setTimeout(r, 250));
    server.controller.clearFaults();
    await expect(c.call("getInfo")).resolves.toMatchObject({ name: "ac-timeout" });
    c.close();
  });

  it("plain calls time out after defaultCallTimeout, streaming calls do not; both official option forms work", async () => {
    const c = client("ac-default-timeout", { defaultCallTimeout: 30 });
    await until(() => c.status === "open");
    server.controller.delay((f) => f.frame.type === "rpc" && f.name === "ac-default-timeout", 120);
    await expect(c.call("getInfo")).rejects.toThrow("RPC call to getInfo timed out after 30ms");
    const errors: string[] = [];
    const timedOut = c.call("getInfo", [], { stream: { onError: (e) => errors.push(e) }, timeout: 10 });
    await expect(timedOut).rejects.toThrow("timed out after 10ms");
    expect(errors).toEqual(["RPC call to getInfo timed out after 10ms"]);
    // Streaming callbacks alone: no default timeout, so the delayed answer still arrives.
    const chunks: unknown[] = [];
    await expect(c.call("countdown", [2], { onChunk: (x) => chunks.push(x) })).resolves.toBeDefined();
    expect(chunks.length).toBeGreaterThan(0);
    server.controller.clearFaults();
    c.close();
  });

  it("onIdentity gets (name, agent) as the official callback does", async () => {
    const seen: string[][] = [];
    const c = client("ac-identity", { onIdentity: (name, agent) => seen.push([name, agent]) });
    await until(() => c.identified);
    expect(seen).toEqual([["ac-identity", "chat-agent"]]);
    c.close();
  });

  it("shouldReconnectOnClose declining, or maxRetries spent, ends reconnecting with onConnectionError", async () => {
    const reported: AgentConnectionError[] = [];
    const c = client("ac-decline", {
      shouldReconnectOnClose: (e) => e.code !== 4321 && e.code !== 1011,
      onConnectionError: (e) => reported.push(e),
    });
    await until(() => c.status === "open");
    for (const conn of server.controller.instance("ChatAgent", "ac-decline")?.conns ?? [])
      conn.close(1011, "Server error");
    await until(() => reported.length === 1);
    expect(reported[0]).toMatchObject({ code: 1011 });
    await new Promise((r) => setTimeout(r, 80));
    expect(c.status).toBe("closed");
    c.close();

    const spent: AgentConnectionError[] = [];
    const d = new AgentClient({
      agent: "NoSuchAgent",
      name: "x",
      host: `127.0.0.1:${server.port}`,
      WebSocket,
      minReconnectionDelay: 5,
      maxReconnectionDelay: 5,
      maxRetries: 2,
      onConnectionError: (e) => spent.push(e),
      onError: () => {},
    });
    await until(() => spent.length === 1);
    expect(d.connectionError).toBe(spent[0]);
    d.close();
  });

  it("reconnects after a dropped socket, and rejects the calls the drop cut off", async () => {
    const c = client("ac-drop");
    await until(() => c.status === "open");
    const urlBefore = server.controller.instance("ChatAgent", "ac-drop")?.conns.size;
    let opens = 0;
    c.addEventListener("open", () => opens++);
    server.controller.hold(); // the reply is held, then the socket drops before it is sent
    const call = c.call("getInfo");
    await new Promise((r) => setTimeout(r, 20));
    for (const conn of server.controller.instance("ChatAgent", "ac-drop")?.conns ?? []) conn.terminate();
    server.controller.release();
    await expect(call).rejects.toThrow("Connection closed");
    await until(() => opens === 1 && c.status === "open");
    await expect(c.stub.getInfo()).resolves.toMatchObject({ name: "ac-drop" });
    expect(urlBefore).toBe(1);
    const sent = server.controller.sent.filter(
      (f) => f.name === "ac-drop" && f.frame.type === "cf_agent_identity",
    );
    expect(sent).toHaveLength(2); // one connect per socket, same instance
    c.close();
  });

  it("a call made while the socket is down waits through failed attempts for the reconnect, and runs once", async () => {
    // A front door that refuses the first two connections outright (no open), then lets them through.
    let refused = 0;
    const door = net.createServer((inbound) => {
      if (refused < 2) {
        refused++;
        inbound.destroy();
        return;
      }
      const outbound = net.connect(server.port, "127.0.0.1");
      inbound.pipe(outbound).pipe(inbound);
      inbound.on("error", () => outbound.destroy());
      outbound.on("error", () => inbound.destroy());
    });
    await new Promise<void>((r) => door.listen(0, "127.0.0.1", r));
    const c = client("ac-offline", { host: `127.0.0.1:${(door.address() as net.AddressInfo).port}` });
    let closes = 0;
    c.addEventListener("close", () => closes++);
    const call = c.stub.increment(10);
    await expect(call).resolves.toBe(10);
    expect(closes).toBe(2);
    await expect(c.stub.increment(0)).resolves.toBe(10);
    c.close();
    door.close();
  });

  it("close() rejects every call, waiting or sent; none of them runs after a later reconnect()", async () => {
    const c = client("ac-closed", { startClosed: true });
    const waiting = c.stub.increment(5);
    c.close();
    await expect(waiting).rejects.toThrow("Connection closed");
    await expect(c.stub.increment(7)).rejects.toThrow("Connection closed");
    c.reconnect();
    await until(() => c.status === "open");
    await expect(c.stub.increment(0)).resolves.toBe(0);
    c.close();
  });

  it("stops reconnecting on a terminal close code and reports it", async () => {
    const errors: Error[] = [];
    const c = new AgentClient({
      agent: "NoSuchAgent",
      name: "x",
      host: `127.0.0.1:${server.port}`,
      WebSocket,
      reconnect: { minDelayMs: 10, maxDelayMs: 10, maxRetries: 3 },
      onError: (e) => errors.push(e),
    });
    // An unknown agent fails the upgrade (404): the socket retries, then gives up after maxRetries.
    await until(() => c.status === "closed");
    c.close();
    const d = client("ac-terminal", { onError: (e) => errors.push(e) });
    await until(() => d.status === "open");
    let closes = 0;
    d.addEventListener("close", () => closes++);
    for (const conn of server.controller.instance("ChatAgent", "ac-terminal")?.conns ?? [])
      conn.close(4001, "Kicked");
    await until(() => d.error !== null);
    expect(d.error).toBeInstanceOf(AgentConnectionError);
    expect(d.error).toMatchObject({ code: 4001, reason: "Kicked" });
    await new Promise((r) => setTimeout(r, 100));
    expect(d.status).toBe("closed");
    expect(closes).toBe(1);
    d.reconnect();
    await until(() => d.status === "open");
    expect(d.error).toBeNull();
    d.close();
  });

  it("an async query is fetched once per connection and again after a disconnect (fresh token)", async () => {
    let calls = 0;
    const c = client("ac-query", { query: async () => ({ token: `t${++calls}` }), cacheTtl: 60_000 });
    await c.ready;
    expect(c.identified).toBe(true);
    expect(calls).toBe(1);
    expect(c.getHttpUrl("get-messages")).toContain("token=t1");
    for (const conn of server.controller.instance("ChatAgent", "ac-query")?.conns ?? []) conn.terminate();
    await until(() => calls === 2 && c.status === "open");
    expect(c.getHttpUrl("get-messages")).toContain("token=t2");
    c.close();
  });

  it("reports a malformed frame through onError and keeps going", async () => {
    const errors: Error[] = [];
    const c = client("ac-bad", { onError: (e) => errors.push(e) });
    await until(() => c.status === "open");
    for (const conn of server.controller.instance("ChatAgent", "ac-bad")?.conns ?? [])
      conn.send('{"type":"cf_agent_state"}');
    await until(() => errors.length > 0);
    expect(errors[0]?.message).toContain("cf_agent_state");
    expect(c.state).toEqual({ counter: 0 });
    await expect(c.stub.increment(1)).resolves.toBe(1);
    c.close();
  });
});
