import { useAgent, useAgentChat, useAgentToolEvents } from "@runboard/react";
import type { UIMessage } from "ai";
import { type FormEvent, useState } from "react";

/** The mock server's host:port, injected by `npm run dev`; the CLI default otherwise. */
const AGENT_HOST = import.meta.env.VITE_AGENT_HOST || "127.0.0.1:8787";
const WORDS = [
  "hello",
  "weather in Lisbon",
  "pay ACME 250",
  "locate me",
  "research durable objects",
  "fanout",
  "background research on queues",
  "slow",
];

type ToolPart = {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean };
};
const isTool = (p: UIMessage["parts"][number]): p is UIMessage["parts"][number] & ToolPart =>
  p.type.startsWith("tool-");

/** A chat against the agent, built only from the public hooks. Components proper come with issue #5. */
export function App() {
  const agent = useAgent<{ counter?: number }>({ agent: "ChatAgent", name: "playground", host: AGENT_HOST });
  const chat = useAgentChat({
    agent,
    // The demo's client tool: the browser answers with a fixed position (no permission prompt in a demo).
    onToolCall: ({ toolCall, addToolOutput }) => {
      if (toolCall.toolName === "getLocation")
        addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 38.72, lng: -9.14 } });
    },
  });
  const runs = useAgentToolEvents({ agent });
  const [draft, setDraft] = useState("");

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    void chat.sendMessage({ text: draft.trim() });
    setDraft("");
  };

  return (
    <main>
      <h1>Runboard playground</h1>
      <p>
        Agent <code>ChatAgent / playground</code> at <code>{AGENT_HOST}</code>: connection{" "}
        <strong data-state={agent.status} aria-live="polite">
          {agent.status}
        </strong>
        {agent.state?.counter !== undefined && <> · counter {agent.state.counter}</>}
      </p>

      <section aria-label="Conversation" className="conversation">
        {chat.messages.length === 0 && <p className="hint">Say one of: {WORDS.join(", ")}.</p>}
        {chat.messages.map((m) => (
          <article key={m.id} data-role={m.role} aria-label={m.role === "user" ? "You" : "Agent"}>
            {m.parts.map((p, i) => {
              // biome-ignore lint/suspicious/noArrayIndexKey: text parts have no id, and parts are only ever appended.
              if (p.type === "text") return <p key={`${m.id}-${i}`}>{p.text}</p>;
              if (!isTool(p)) return null;
              const childRuns = runs.getRunsForToolCall(p.toolCallId);
              return (
                <div key={p.toolCallId} className="tool" data-state={p.state}>
                  <strong>{p.type.slice(5)}</strong> <span className="badge">{p.state}</span>
                  {p.input !== undefined && <pre>{JSON.stringify(p.input)}</pre>}
                  {p.state === "approval-requested" && p.approval && (
                    <div className="actions">
                      <button
                        type="button"
                        onClick={() =>
                          chat.addToolApprovalResponse({ id: p.approval?.id ?? "", approved: true })
                        }
                      >
                        Approve
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          chat.addToolApprovalResponse({ id: p.approval?.id ?? "", approved: false })
                        }
                      >
                        Deny
                      </button>
                    </div>
                  )}
                  {p.output !== undefined && <pre className="output">{JSON.stringify(p.output)}</pre>}
                  {p.errorText && <p role="alert">{p.errorText}</p>}
                  {childRuns.map((r) => (
                    <div key={r.runId} className="run" data-state={r.status}>
                      ↳ {r.display?.name ?? r.agentType}: {r.status}
                      {r.progress?.fraction !== undefined && (
                        <progress
                          max={1}
                          value={r.progress.fraction}
                          aria-label={`${r.agentType} progress`}
                        />
                      )}
                      {r.progress?.message && <span> {r.progress.message}</span>}
                      {r.milestones.length > 0 && (
                        <span> · milestones: {r.milestones.map((x) => x.name).join(", ")}</span>
                      )}
                    </div>
                  ))}
                </div>
              );
            })}
          </article>
        ))}
        {runs.unboundRuns.length > 0 && (
          <aside aria-label="Background runs">
            <h2>Background runs</h2>
            <ul>
              {runs.unboundRuns.map((r) => (
                <li key={r.runId} data-state={r.status}>
                  {r.agentType} {r.runId}: {r.status}
                  {r.milestones.length > 0 && ` · ${r.milestones.map((x) => x.name).join(", ")}`}
                </li>
              ))}
            </ul>
          </aside>
        )}
      </section>

      <form onSubmit={send} className="composer">
        <label htmlFor="draft">Message</label>
        <input
          id="draft"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="hello"
          autoComplete="off"
        />
        <button type="submit" disabled={agent.status !== "open"}>
          Send
        </button>
        <button type="button" onClick={() => chat.stop()} disabled={!chat.isStreaming}>
          Stop
        </button>
        <button type="button" onClick={() => chat.clearHistory()}>
          Clear
        </button>
      </form>
      {chat.error && <p role="alert">{chat.error.message}</p>}
    </main>
  );
}
