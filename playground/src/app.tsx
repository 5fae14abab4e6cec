/**
 * A complete chat app built only from the public packages: conversation with tool parts and child runs,
 * approvals inline and in a queue, background runs, the Live View, and drill-in to a helper's own chat.
 * The components ship no styles: the optional theme (@runboard/react/styles.css) draws them, playground.css the
 * app's own parts and shell.css the page around them (header, scrolling conversation, composer, side column).
 */
import type { AgentToolRunState as Run } from "@runboard/protocol";
import {
  ChatStatus,
  useAgent,
  useAgentChat,
  useAgentToolEvents,
  useChatApprovals,
  useExecutionApprovals,
  useWorkflowApprovals,
} from "@runboard/react";
import { useRef, useState } from "react";
import { Card, Queue } from "./approvals.tsx";
import { ChildChatPanel } from "./child-chat.tsx";
import { Composer, Suggestions } from "./composer.tsx";
import { AGENT_CLASS, AGENT_HOST, AGENT_NAME, WORDS } from "./config.ts";
import { Conversation } from "./conversation.tsx";
import { LiveViewPanel } from "./live-view-panel.tsx";
import { FollowAddressContext } from "./run-view.tsx";
import { AppHeader } from "./shell.tsx";
import { Tray } from "./tray.tsx";
import { useStickToBottom } from "./use-stick-to-bottom.ts";

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
  const scroll = useRef<HTMLDivElement>(null);
  useStickToBottom(scroll);

  const send = (text: string) => void chat.sendMessage({ text });
  const inline = [...chatApprovals, ...executions];
  const open = agent.status === "open";

  return (
    <div className="shell">
      <AppHeader
        agentClass={AGENT_CLASS}
        agentName={AGENT_NAME}
        host={AGENT_HOST}
        status={agent.status}
        busy={chat.isStreaming}
      />

      {/* The conversation scrolls inside this area (with the side column on narrow screens); the composer is its
          own row below it, so it never covers a message. */}
      <div className="workspace">
        <main className="chat" ref={scroll}>
          <div className="chat-inner">
            {chat.messages.length === 0 && <Suggestions words={WORDS} disabled={!open} onPick={send} />}
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
              <p role="alert" className="chat-error">
                {chat.error.message}{" "}
                <button type="button" onClick={() => chat.clearError()}>
                  Dismiss
                </button>
              </p>
            )}
          </div>
        </main>

        <aside className="side" aria-label="Activity">
          <Queue requests={[...chatApprovals, ...executions, ...workflow]} />
          <Tray runs={runs} onDrillIn={setDrilled} />
          {drilled && <ChildChatPanel run={drilled} onClose={() => setDrilled(null)} />}
        </aside>
      </div>

      <Composer
        canSend={open}
        streaming={chat.isStreaming}
        canRegenerate={!chat.isStreaming && chat.messages.some((m) => m.role === "assistant")}
        canClear={chat.messages.length > 0 && !runs.clearing}
        clearing={runs.clearing}
        onSend={send}
        onStop={() => chat.stop()}
        onRegenerate={() => void chat.regenerate()}
        onClear={() => {
          setClearFailure(null);
          void runs.clearChat(chat);
        }}
        error={clearFailure}
      />
    </div>
  );
}
