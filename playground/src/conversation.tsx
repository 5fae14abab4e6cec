/**
 * The message list: each message through `MessageParts`, with this app's look for text, reasoning, tool parts,
 * approvals (through the app's renderer, in the tool part), the demo's client tool and child runs; server-injected messages as agent events rather than as
 * anyone's words. Rows subscribe to their own message (`useChatMessage`) and `ChatMessageList` groups them in
 * memoized blocks, so a streaming message re-renders only its row and React walks a few dozen rows, not all.
 */
import type { AgentToolRuns } from "@runboard/client";
import {
  type ApprovalRequest,
  type AgentToolRunState as Run,
  syncAgentToolRun,
  type ToolPartLike,
} from "@runboard/protocol";
import { isAgentEvent } from "@runboard/protocol/view";
import {
  AgentEvent,
  type AgentEventPartProps,
  type AgentToolRunPartProps,
  BranchPicker,
  type BranchSource,
  ChatMessageList,
  type ClientToolPromptProps,
  MessageParts,
  type MessagePartsComponents,
  type MessagePartsRuns,
  type ReasoningPartProps,
  type TextPartProps,
  type ToolPartProps,
  type UseAgentChatResult,
  type UseAgentToolEventsResult,
  useChatMessage,
} from "@runboard/react";
import type { UIMessage } from "ai";
import { Children, createContext, isValidElement, memo, type ReactNode, useContext, useMemo } from "react";
import { Boundary } from "./boundary.tsx";
import { RunView } from "./run-view.tsx";
import { SyncRun } from "./sync-run.tsx";
import { CLIENT_TOOLS, ToolCall } from "./tool-call.tsx";

type Part = UIMessage["parts"][number];

export interface ConversationProps {
  chat: UseAgentChatResult;
  runs: UseAgentToolEventsResult;
  onDrillIn: (run: Run) => void;
  /** What a tool part waiting for a human shows (the approval card). */
  renderApproval: (part: Part & ToolPartLike) => ReactNode;
}

/** What the tool pieces act through; it changes with the app's renders, the rows do not depend on it. */
interface Actions {
  chat: UseAgentChatResult;
  onDrillIn: (run: Run) => void;
  renderApproval: (part: Part & ToolPartLike) => ReactNode;
  store: AgentToolRuns | undefined;
}
const ActionsContext = createContext<Actions | null>(null);
/** Think's answer branches: only the pickers read them, so a new map re-renders them, not the rows. */
const BranchContext = createContext<BranchSource | undefined>(undefined);
const NO_BRANCHES: BranchSource["branches"] = new Map();
/** The runs by tool call: a row re-renders when they change, not on every commit. */
const RunsContext = createContext<MessagePartsRuns | undefined>(undefined);

const useActions = () => useContext(ActionsContext) as Actions;

export function Conversation({ chat, runs, onDrillIn, renderApproval }: ConversationProps) {
  const actions = { chat, onDrillIn, renderApproval, store: runs.store };
  const byToolCall = runs.runsByToolCallId;
  const store = runs.store;
  const runsValue = useMemo(() => ({ runsByToolCallId: byToolCall, store }), [byToolCall, store]);
  const branches = chat.branches ?? NO_BRANCHES;
  const selectBranch = chat.selectBranch;
  const branchValue = useMemo(
    // A test double of the chat may have no branches at all.
    () => (typeof selectBranch === "function" ? { branches, selectBranch } : undefined),
    [branches, selectBranch],
  );
  return (
    <ActionsContext.Provider value={actions}>
      <BranchContext.Provider value={branchValue}>
        <RunsContext.Provider value={runsValue}>
          <section aria-label="Conversation" className="conversation">
            <ChatMessageList chat={chat} row={Row} />
          </section>
        </RunsContext.Provider>
      </BranchContext.Provider>
    </ActionsContext.Provider>
  );
}

const Row = memo(function Row({ id }: { id: string }) {
  const message = useChatMessage(id);
  const runs = useContext(RunsContext);
  if (!message) return null;
  return (
    // One message that cannot be shown must not take the conversation (or the page) down with it.
    <Boundary what="This message" resetKey={message}>
      {isAgentEvent(message) ? (
        <MessageParts message={message} components={components} />
      ) : (
        <article data-role={message.role} aria-label={message.role === "user" ? "You" : "Agent"}>
          <MessageParts
            message={message}
            components={components}
            runs={runs}
            clientTools={CLIENT_TOOLS}
            onError={(e) => console.warn(e.message)}
          />
          {message.role === "assistant" && <Branches id={message.id} />}
        </article>
      )}
    </Boundary>
  );
});

/** Steps between the answers a Think regeneration kept ("2 of 3"); nothing for an answer without siblings. */
function Branches({ id }: { id: string }) {
  const chat = useContext(BranchContext);
  if (!chat) return null;
  return (
    <BranchPicker.Root chat={chat} messageId={id} className="branches">
      {/* The parts' own names ("Previous answer", "Next answer") label the arrows for screen readers. */}
      <BranchPicker.Previous className="branch-step">
        <Chevron dir="left" />
      </BranchPicker.Previous>
      <BranchPicker.Count className="branch-count" />
      <BranchPicker.Next className="branch-step">
        <Chevron dir="right" />
      </BranchPicker.Next>
    </BranchPicker.Root>
  );
}

/** An arrow drawn as SVG, so it has a size and needs no font. */
const Chevron = ({ dir }: { dir: "left" | "right" }) => (
  <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
    <path
      d={dir === "left" ? "M10 3L5 8l5 5" : "M6 3l5 5-5 5"}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

const Text = ({ part, compacted }: TextPartProps) => (
  <p data-compacted={compacted ? "" : undefined}>{part.text}</p>
);
const Reasoning = ({ part }: ReasoningPartProps) => <p className="reasoning">{part.text}</p>;

/**
 * Whether one of the approval cards the app rendered for a call still waits for a decision. Think's durable
 * pause asks while its part already reads `output-available`, so the part's state alone would say "Done".
 */
function awaitsDecision(cards: ReactNode): boolean {
  return Children.toArray(cards).some((card) => {
    const request = isValidElement(card) ? (card.props as { request?: ApprovalRequest }).request : undefined;
    return request?.status === "requested" || request?.status === "interrupted";
  });
}

/** A tool call: its line and disclosure (`ToolCall`), the approval card and child runs in sight below it. */
function Tool(props: ToolPartProps) {
  const { renderApproval } = useActions();
  // A synchronous sub-agent call (the delegate word) has no run events: its part alone is the run.
  const sync = syncAgentToolRun(props.part);
  if (sync) return <SyncRun run={sync} />;
  const cards = renderApproval(props.part);
  return (
    <ToolCall
      {...props}
      clientTool={CLIENT_TOOLS.includes(props.toolName)}
      awaitingApproval={awaitsDecision(cards)}
    >
      {cards}
      {props.children}
    </ToolCall>
  );
}

/** The demo's client tool: a person shares a (fixed, demo) position or declines. */
function LocationPrompt({ part }: ClientToolPromptProps) {
  const { chat } = useActions();
  return (
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
  );
}

function ChildRun({ run, renderPart }: AgentToolRunPartProps) {
  const { store, onDrillIn } = useActions();
  if (!store) return null;
  return <RunView store={store} run={run} onDrillIn={onDrillIn} renderPart={renderPart} />;
}

function Event({ message }: AgentEventPartProps) {
  return (
    <AgentEvent.Root message={message} className="agent-event">
      <AgentEvent.Label className="event-label" />
      <AgentEvent.Text />
    </AgentEvent.Root>
  );
}

const components: MessagePartsComponents = {
  Text,
  Reasoning,
  tools: { Fallback: Tool },
  // The app's renderer matches requests to tool calls itself (chat approvals and Think's paused executions).
  Approval: () => null,
  ClientToolPrompt: LocationPrompt,
  AgentToolRun: ChildRun,
  AgentEvent: Event,
};
