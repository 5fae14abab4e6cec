import { agentUrl, type IdentityFrame, parseServerFrame } from "@runboard/protocol";
import { useCallback, useEffect, useRef, useState } from "react";

/** What the playground knows about its agent connection. */
export interface AgentSocketView {
  status: "connecting" | "open" | "closed";
  identity?: Pick<IdentityFrame, "agent" | "name">;
  state?: unknown;
  /** The last frame the parser rejected, for display; the connection keeps going. */
  problem?: string;
  /** Sends a new state; the server applies it and tells the other connections. */
  setState(state: unknown): void;
}

/**
 * One WebSocket to an agent, read with the protocol parser. A stopgap until `@runboard/client` lands;
 * then the playground switches to `useAgent` like any app would.
 */
export function useAgentSocket(host: string, agent: string, name: string): AgentSocketView {
  const [view, setView] = useState<Omit<AgentSocketView, "setState">>({ status: "connecting" });
  const socket = useRef<WebSocket | null>(null);

  useEffect(() => {
    const ws = new WebSocket(agentUrl({ host, agent, name, pk: crypto.randomUUID() }));
    socket.current = ws;
    const patch = (p: Partial<AgentSocketView>) => setView((v) => ({ ...v, ...p }));
    setView({ status: "connecting" });
    ws.onopen = () => patch({ status: "open" });
    ws.onclose = () => patch({ status: "closed" });
    ws.onmessage = (e) => {
      const r = parseServerFrame(e.data);
      if (r.kind === "error") patch({ problem: r.reason });
      if (r.kind !== "frame") return;
      if (r.frame.type === "cf_agent_identity")
        patch({ identity: { agent: r.frame.agent, name: r.frame.name } });
      if (r.frame.type === "cf_agent_state") patch({ state: r.frame.state });
    };
    return () => {
      // Detach first: under StrictMode the first socket closes late and would mark the second one closed.
      ws.onclose = ws.onmessage = null;
      // Closing while still connecting makes the browser log an error; close it once it has opened instead.
      if (ws.readyState === WebSocket.CONNECTING) ws.onopen = () => ws.close();
      else {
        ws.onopen = null;
        ws.close();
      }
      if (socket.current === ws) socket.current = null;
    };
  }, [host, agent, name]);

  const setState = useCallback((state: unknown) => {
    const ws = socket.current;
    if (ws?.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: "cf_agent_state", state }));
    // The server does not echo a client's own state back, so apply it here.
    setView((v) => ({ ...v, state }));
  }, []);

  return { ...view, setState };
}
