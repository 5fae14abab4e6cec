/**
 * A complete chat app built only from the public packages: conversation with tool parts and child runs,
 * approvals inline and in a queue, background runs, the Live View, and drill-in to a helper's own chat.
 * Styling is this app's own (playground.css); the components ship none.
 */
import type { AgentToolRun as Run } from "@runboard/protocol";
import {
  ChatStatus,
  useAgent,
  useAgentChat,
  useAgentToolEvents,
  useChatApprovals,
  useExecutionApprovals,
  useWorkflowApprovals,
} from "@runboard/react";
import { type FormEvent, useState } from "react";
import { Card, Queue } from "./approvals.tsx";
import { ChildChatPanel } from "./child-chat.tsx";
import { AGENT_CLASS, AGENT_HOST, AGENT_NAME, WORDS } from "./config.ts";
import { Conversation } from "./conversation.tsx";
import { LiveViewPanel } from "./live-view-panel.tsx";
import { FollowAddressContext } from "./run-view.tsx";
import { Tray } from "./tray.tsx";

const ADDRESS = { agent: AGENT_CLASS, name: AGENT_NAME, host: AGENT_HOST };

export function App() {
  const agent = useAgent<Record<string, unknown>>(ADDRESS);
  // Think keeps the answers a regeneration replaced; the Worker and the mock read them with the
  // `getResponseVersions` callable of upstream's assistant example (docs/protocol.md#branches).
  const chat = useAgentChat({
    agent,
    ...(AGENT_CLASS === "ThinkAgent"
      ? { getBranches: (id: string) => agent.call("getResponseVersions", [id]) }
      : {}),
  });
  const [clearFailure, setClearFailure] = useState<string | null>(null);
  // Clear deletes the runs on the agent (its clearHelperRuns callable) before the history, so no tab replays them.
  const runs = useAgentToolEvents({
    agent,
    onClearError: (e) => setClearFailure(`Could not clear: ${e instanceof Error ? e.message : String(e)}`),
  });
  const chatApprovals = useChatApprovals(chat, { agent });
  const executions = useExecutionApprovals(agent, { messages: chat.messages });
  const workflow = useWorkflowApprovals(agent);
  const [drilled, setDrilled] = useState<Run | null>(null);
  const [draft, setDraft] = useState("");

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    void chat.sendMessage({ text: draft.trim() });
    setDraft("");
  };
  const inline = [...chatApprovals, ...executions];

  return (
    <div className="layout">
      <header className="status-bar">
        <h1>Runboard playground</h1>
        <p>
          <code>
            {AGENT_CLASS} / {AGENT_NAME}
          </code>{" "}
          at <code>{AGENT_HOST}</code> · connection{" "}
          <strong className="connection" data-status={agent.status} aria-live="polite">
            {agent.status}
          </strong>
          {chat.isStreaming && <span className="muted"> · the agent is answering…</span>} ·{" "}
          <a href="?view=helix">helix view</a>
        </p>
      </header>

      <main>
        {chat.messages.length === 0 && <p className="hint">Say one of: {WORDS.join(", ")}.</p>}
        <ChatStatus.Root chat={chat} className="chat-status">
          <ChatStatus.Message />
          <ChatStatus.Compaction className="muted" />
          <ChatStatus.Announcer />
        </ChatStatus.Root>
        <FollowAddressContext.Provider value={ADDRESS}>
          <Conversation
            chat={chat}
            runs={runs}
            onDrillIn={setDrilled}
            renderApproval={(part) =>
              inline
                .filter((r) => r.toolCallId === part.toolCallId)
                .map((r) => <Card key={r.id} request={r} />)
            }
          />
        </FollowAddressContext.Provider>
        <LiveViewPanel agent={agent} chat={chat} approvals={chatApprovals} />
        {chat.error && (
          <p role="alert">
            {chat.error.message}{" "}
            <button type="button" onClick={() => chat.clearError()}>
              Dismiss
            </button>
          </p>
        )}
        <form onSubmit={send} className="composer">
          <label htmlFor="draft">Message</label>
          <input
            id="draft"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="hello"
            autoComplete="off"
          />
          <button type="submit" className="primary" disabled={agent.status !== "open"}>
            Send
          </button>
          <button type="button" onClick={() => chat.stop()} disabled={!chat.isStreaming}>
            Stop
          </button>
          <button
            type="button"
            onClick={() => void chat.regenerate()}
            disabled={chat.isStreaming || !chat.messages.some((m) => m.role === "assistant")}
          >
            Regenerate
          </button>
          <button
            type="button"
            onClick={() => {
              setClearFailure(null);
              void runs.clearChat(chat);
            }}
            disabled={chat.messages.length === 0 || runs.clearing}
          >
            {runs.clearing ? "Clearing…" : "Clear"}
          </button>
          {clearFailure && <p role="alert">{clearFailure}</p>}
        </form>
      </main>

      <aside className="side">
        <Queue requests={[...chatApprovals, ...executions, ...workflow]} />
        <Tray agent={agent} runs={runs} onDrillIn={setDrilled} />
        {drilled && <ChildChatPanel run={drilled} onClose={() => setDrilled(null)} />}
      </aside>
    </div>
  );
}
