/**
 * `useAgent<State>` as most apps write it: every connection option and callback, and every field of the object
 * it returns that the official docs use.
 */
import type { MCPServersState } from "agents";
import { type UseAgentOptions, useAgent } from "agents/react";
import { useCallback, useEffect, useState } from "react";
import type { CounterState } from "./server";

type Log = { level: "info" | "error"; text: string };

async function fetchToken(): Promise<string> {
  const res = await fetch("/api/token");
  return res.text();
}

type CounterConnection = ReturnType<typeof useAgent<CounterState>>;

function Badge({ agent }: { agent: CounterConnection }) {
  return <span>{agent.identified ? agent.name : "…"}</span>;
}

export function Counter({ room, token }: { room: string; token: string }) {
  const [logs, setLogs] = useState<Log[]>([]);
  const [mcp, setMcp] = useState<MCPServersState>({ servers: {}, tools: [], prompts: [], resources: [] });
  const [identity, setIdentity] = useState<{ name: string; agent: string } | null>(null);
  const log = useCallback((level: Log["level"], text: string) => setLogs((l) => [...l, { level, text }]), []);

  const agent = useAgent<CounterState>({
    agent: "counter-agent",
    name: room,
    host: "counter.example.workers.dev",
    query: { token },
    onOpen: () => log("info", "connected"),
    onClose: (event) => log("info", `closed ${event.code} ${event.reason}`),
    onError: (event) => log("error", `socket error: ${event.type}`),
    onMessage: (message) => {
      if (typeof message.data === "string") log("info", message.data.slice(0, 40));
    },
    onStateUpdate: (state, source) => log("info", `${source}: ${state.count}`),
    onStateUpdateError: (error) => log("error", error),
    onMcpUpdate: (servers) => setMcp(servers),
    onIdentity: (name, agentClass) => setIdentity({ name, agent: agentClass }),
    onIdentityChange: (oldName, newName) => log("info", `${oldName} -> ${newName}`),
    onConnectionError: (error) => log("error", `${error.code} ${error.reason} ${error.wasClean}`),
    shouldReconnectOnClose: (event) => event.code !== 4001,
    maxRetries: 10,
    minReconnectionDelay: 500,
    maxReconnectionDelay: 5000,
    reconnectionDelayGrowFactor: 1.5,
    connectionTimeout: 4000,
    minUptime: 5000,
    maxEnqueuedMessages: 50,
    startClosed: false,
    enabled: room !== "",
    defaultCallTimeout: 10_000,
    debug: false,
  });

  // Callbacks typed with the official types, memoized as the examples do.
  const onMcpUpdate = useCallback((state: MCPServersState) => setMcp(state), []);
  const onError = useCallback((error: Event) => console.error("WebSocket error:", error), []);
  const onClose = useCallback((event: CloseEvent) => console.info(event.wasClean), []);

  // Async query with deps and a cache lifetime, and the routing options.
  const routed = useAgent<CounterState>({
    agent: "counter-agent",
    onMcpUpdate,
    onError,
    onClose,
    basePath: "counters/current",
    path: "live",
    query: async () => ({ token: await fetchToken(), locale: null }),
    queryDeps: [room],
    cacheTtl: 60_000,
  });
  const nested = useAgent({
    agent: "inbox",
    name: "alice",
    sub: [{ agent: "counter-agent", name: room }],
    protocol: "wss",
  });

  useEffect(() => {
    let live = true;
    void agent.ready.then(() => {
      if (live) log("info", `ready as ${agent.name} (${agent.agent}), identified=${agent.identified}`);
    });
    const onRaw = (e: MessageEvent) => log("info", String(e.data));
    agent.addEventListener("message", onRaw);
    return () => {
      live = false;
      agent.removeEventListener("message", onRaw);
    };
  }, [agent, log]);

  const count: number = agent.state?.count ?? 0;
  const increment = () => agent.setState({ count: count + 1, updatedBy: identity?.name });
  const viaRpc = async () => {
    const next = await agent.call<number>("increment", [2]);
    const untyped = await agent.call("increment");
    const streamed = await agent.call("exportAll", ["json"], {
      onChunk: (chunk: unknown) => log("info", String(chunk)),
      onDone: (final: unknown) => log("info", String(final)),
      onError: (message: string) => log("error", message),
    });
    const timed = await agent.call("count", [], { timeout: 5000, stream: { onChunk: () => {} } });
    const fromStub = await agent.stub.increment(3);
    log("info", JSON.stringify([next + 1, untyped, streamed, timed, fromStub]));
  };

  const open = agent.readyState === WebSocket.OPEN;
  const url: string = agent.getHttpUrl();
  const chain: ReadonlyArray<{ agent: string; name: string }> = nested.path;
  const refused = agent.connectionError
    ? `${agent.connectionError.code}: ${agent.connectionError.reason}`
    : null;

  return (
    <section>
      <p>
        {count} {open ? "online" : "offline"} {url} {chain.length} {refused} {routed.state?.updatedBy}
        {Object.keys(mcp.servers).length} {agent.id}
      </p>
      <Badge agent={agent} />
      <button type="button" onClick={increment}>
        +1
      </button>
      <button type="button" onClick={() => void viaRpc()}>
        rpc
      </button>
      <button type="button" onClick={() => agent.send(JSON.stringify({ type: "ping" }))}>
        ping
      </button>
      <button type="button" onClick={() => agent.reconnect()}>
        reconnect
      </button>
      <button type="button" onClick={() => agent.close(1000, "bye")}>
        close
      </button>
      <ul>
        {logs.map((l, i) => (
          <li key={i}>{l.text}</li>
        ))}
      </ul>
    </section>
  );
}

/** Options typed through the exported type, as apps that wrap the hook write them. */
export function useCounter(options: UseAgentOptions<CounterState>) {
  return useAgent<CounterState>({ ...options, agent: "counter-agent" });
}
