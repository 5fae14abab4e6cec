import { agentUrl, parseServerFrame } from "@runboard/protocol";
import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import "./playground.css";

const host = (import.meta.env.VITE_AGENT_HOST as string | undefined) ?? "127.0.0.1:8787";

/** Connection status and what the agent said about itself. The chat UI comes with the components issue. */
function App() {
  const [status, setStatus] = useState("connecting");
  const [identity, setIdentity] = useState<{ name: string; agent: string }>();
  const [state, setState] = useState<unknown>();
  useEffect(() => {
    const ws = new WebSocket(
      agentUrl({ host, agent: "ChatAgent", name: "playground", pk: crypto.randomUUID() }),
    );
    ws.onopen = () => setStatus("open");
    ws.onclose = () => setStatus("closed");
    ws.onmessage = (e) => {
      const r = parseServerFrame(e.data);
      if (r.kind !== "frame") return;
      if (r.frame.type === "cf_agent_identity") setIdentity({ name: r.frame.name, agent: r.frame.agent });
      if (r.frame.type === "cf_agent_state") setState(r.frame.state);
    };
    return () => ws.close();
  }, []);
  return (
    <main>
      <h1>Runboard playground</h1>
      <p>
        Agent host: <code>{host}</code> — connection <strong data-state={status}>{status}</strong>
      </p>
      <dl>
        <dt>Agent</dt>
        <dd>{identity ? `${identity.agent} / ${identity.name}` : "—"}</dd>
        <dt>State</dt>
        <dd>
          <code>{state === undefined ? "—" : JSON.stringify(state)}</code>
        </dd>
      </dl>
    </main>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
