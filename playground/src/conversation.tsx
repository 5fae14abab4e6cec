/**
 * The message list: text, reasoning and tool parts, child runs beside the tool call that spawned them,
 * approvals inline, and server-injected messages as agent events rather than as anyone's words.
 */
import type { AgentToolRuns } from "@runboard/client";
import {
  getRunsForToolCall,
  getToolName,
  isToolUIPart,
  parseLiveViewSession,
  type AgentToolRun as Run,
  type ToolPartLike,
  toolValueText,
} from "@runboard/protocol";
import { AgentEvent, type UseAgentChatResult, type UseAgentToolEventsResult } from "@runboard/react";
import type { UIMessage } from "ai";
import type { ReactNode } from "react";
import { Boundary } from "./boundary.tsx";
import { RunView } from "./run-view.tsx";

type Part = UIMessage["parts"][number];

export interface ConversationProps {
  chat: UseAgentChatResult;
  runs: UseAgentToolEventsResult;
  onDrillIn: (run: Run) => void;
  /** What a tool part waiting for a human shows (the approval card). */
  renderApproval: (part: Part & ToolPartLike) => ReactNode;
}

export function Conversation({ chat, runs, onDrillIn, renderApproval }: ConversationProps) {
  const renderPart = (part: Part, key: string): ReactNode => {
    if (part.type === "text") return <p key={key}>{part.text}</p>;
    if (part.type === "reasoning")
      return (
        <p key={key} className="reasoning">
          {part.text}
        </p>
      );
    if (!isToolUIPart(part)) return null;
    return (
      <ToolPart
        key={key}
        part={part}
        chat={chat}
        childRuns={getRunsForToolCall(runs, part)}
        store={runs.store}
        onDrillIn={onDrillIn}
        renderApproval={renderApproval}
        renderPart={renderPart}
      />
    );
  };
  return (
    <section aria-label="Conversation" className="conversation">
      {chat.messages.map((m) => (
        // One message that cannot be shown must not take the conversation (or the page) down with it.
        <Boundary key={m.id} what="This message" resetKey={m}>
          <AgentEvent.Match message={m} fallback={<Message message={m} renderPart={renderPart} />}>
            <AgentEvent.Root message={m} className="agent-event">
              <AgentEvent.Label className="event-label" />
              <AgentEvent.Text />
            </AgentEvent.Root>
          </AgentEvent.Match>
        </Boundary>
      ))}
    </section>
  );
}

function Message({
  message,
  renderPart,
}: {
  message: UIMessage;
  renderPart: (p: Part, key: string) => ReactNode;
}) {
  return (
    <article data-role={message.role} aria-label={message.role === "user" ? "You" : "Agent"}>
      {/* Parts have no ids of their own; their position in a message never changes once shown. */}
      {message.parts.map((p, i) => renderPart(p, `${message.id}:${i}`))}
    </article>
  );
}

function ToolPart({
  part,
  chat,
  childRuns,
  store,
  onDrillIn,
  renderApproval,
  renderPart,
}: {
  part: Part & ToolPartLike;
  chat: UseAgentChatResult;
  childRuns: readonly Run[];
  store: AgentToolRuns;
  onDrillIn: (run: Run) => void;
  renderApproval: (part: Part & ToolPartLike) => ReactNode;
  renderPart: (p: Part, key: string) => ReactNode;
}) {
  const name = getToolName(part);
  // The parser checks a tool part's string fields only: input and output may be null, a string, megabytes.
  const input = toolValueText(part.input);
  const done = part.state === "output-available";
  const liveView = done && parseLiveViewSession(part.output) !== undefined;
  const output = done && !liveView && childRuns.length === 0 ? toolValueText(part.output) : "";
  const waitsForClient = part.state === "input-available" && name === "getLocation";
  return (
    <div className="tool" data-status={part.state} data-tool={name}>
      <div className="tool-head">
        <strong>{name}</strong> <span className="badge">{part.state}</span>
      </div>
      {input && <pre className="muted">{input}</pre>}
      {renderApproval(part)}
      {waitsForClient && (
        // The demo's client tool: a person shares a (fixed, demo) position or declines.
        <fieldset className="actions client-tool">
          <legend>The agent asks for your location.</legend>
          <button
            type="button"
            onClick={() =>
              chat.addToolOutput({ toolCallId: part.toolCallId, output: { lat: 38.72, lng: -9.14 } })
            }
          >
            Share location
          </button>
          <button
            type="button"
            onClick={() =>
              chat.addToolOutput({
                toolCallId: part.toolCallId,
                state: "output-error",
                errorText: "The user declined",
              })
            }
          >
            Decline
          </button>
        </fieldset>
      )}
      {/* A child run shows its own result; the tool's raw output would repeat it. */}
      {/* A Live View session is shown in the browser panel; its URLs are credentials, not reading matter. */}
      {liveView && <p className="output muted">Live view session opened: see the agent's browser below.</p>}
      {output && <pre className="output">{output}</pre>}
      {part.state === "output-error" && <p role="alert">{part.errorText}</p>}
      {childRuns.map((r) => (
        <RunView
          key={r.runId}
          store={store}
          run={r}
          onDrillIn={onDrillIn}
          renderPart={(p, i) => renderPart(p, `${r.runId}:${i}`)}
        />
      ))}
    </div>
  );
}
