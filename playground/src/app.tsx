import { useAgentSocket } from "./use-agent-socket.ts";

/** The mock server's host:port, injected by `npm run dev`; the CLI default otherwise. */
const AGENT_HOST = import.meta.env.VITE_AGENT_HOST || "127.0.0.1:8787";

const counterOf = (state: unknown) =>
  typeof state === "object" && state !== null && typeof (state as { counter?: unknown }).counter === "number"
    ? (state as { counter: number }).counter
    : undefined;

/** Connection status and what the agent says about itself. The chat UI comes with the components issue. */
export function App() {
  const agent = useAgentSocket(AGENT_HOST, "ChatAgent", "playground");
  const counter = counterOf(agent.state);
  return (
    <main>
      <h1>Runboard playground</h1>
      <p>
        Agent host <code>{AGENT_HOST}</code>: connection{" "}
        <strong data-state={agent.status} aria-live="polite">
          {agent.status}
        </strong>
      </p>
      <section aria-labelledby="agent-heading">
        <h2 id="agent-heading">Agent</h2>
        <dl>
          <dt>Identity</dt>
          <dd>{agent.identity ? `${agent.identity.agent} / ${agent.identity.name}` : "—"}</dd>
          <dt>State</dt>
          <dd>
            <pre>{agent.state === undefined ? "—" : JSON.stringify(agent.state, null, 2)}</pre>
          </dd>
        </dl>
        {counter !== undefined && (
          <button
            type="button"
            disabled={agent.status !== "open"}
            onClick={() => agent.setState({ ...(agent.state as object), counter: counter + 1 })}
          >
            Increment counter
          </button>
        )}
        {agent.problem && <p role="alert">Ignored a malformed frame: {agent.problem}</p>}
      </section>
    </main>
  );
}
