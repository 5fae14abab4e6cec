/**
 * What the fuzz test renders from the hooks' output, two ways at once:
 *
 * - every message part and every child run as text, the way a typed app would (a text part's `text`, a tool
 *   part's `state`, a run's `display.name` go straight into JSX), so a value that breaks its declared type — an
 *   object where the AI SDK types promise a string — throws during render and hits the error boundary instead
 *   of passing unnoticed;
 * - the kit's headless components fed from the same hooks: `AgentEvent` for messages the classifier marks as
 *   agent events, `AgentToolRun` (with a `MilestoneTimeline` inside) for each tool part's child runs, nested
 *   through the run transcript's part renderer, the chat `ApprovalQueue` / `ApprovalCard` through
 *   `useChatApprovals`, and `RunTray` (with `Progress` bars) over the background runs.
 */
import type { AgentClient } from "@runboard/client";
import type { AgentToolRunState as AgentToolRunData } from "@runboard/protocol";
import { getRunsForToolCall } from "@runboard/protocol/view";
import type { UIMessage } from "ai";
import { createContext, memo, useContext } from "react";
import { AgentEvent } from "../../src/agent-event/index.ts";
import { AgentToolRun, useAgentToolRunContext } from "../../src/agent-tool-run/index.ts";
import { ApprovalCard, ApprovalQueue, useChatApprovals } from "../../src/approval/index.ts";
import { MilestoneTimeline } from "../../src/milestone-timeline/index.ts";
import { Progress } from "../../src/progress/index.ts";
import { RunTray } from "../../src/run-tray/index.ts";
import type { UseAgentChatResult } from "../../src/use-agent-chat.ts";
import { type UseAgentToolEventsResult, useAgentToolRun } from "../../src/use-agent-tool-events.ts";

export interface FuzzTreeProps {
  agent: AgentClient;
  chat: UseAgentChatResult;
  runs: UseAgentToolEventsResult;
}

/** The render tree the fuzz test mounts inside its error boundary. */
export function FuzzTree({ agent, chat, runs }: FuzzTreeProps) {
  return (
    <RunStore.Provider value={runs.store}>
      <ChatAsText chat={chat} runs={runs} />
      <RunsAsText runs={runs} />
      <Approvals agent={agent} chat={chat} />
      <BackgroundRuns agent={agent} runs={runs} />
    </RunStore.Provider>
  );
}

/** The run store, for `AgentToolRun.Root` wherever a tool part shows its child runs. */
const RunStore = createContext<UseAgentToolEventsResult["store"] | null>(null);

const noop = () => {};

// ───────────────────────────── chat ─────────────────────────────

function ChatAsText({ chat, runs }: Omit<FuzzTreeProps, "agent">) {
  return (
    <section
      data-testid="chat"
      data-status={chat.status}
      data-streaming={String(chat.isStreaming)}
      data-server-streaming={String(chat.isServerStreaming)}
    >
      {chat.error ? <p role="alert">{chat.error.message}</p> : null}
      {chat.isRecovering ? <p>recovering</p> : null}
      <ol>
        {chat.messages.map((m) => (
          <MessageAsText key={m.id} message={m} runsByToolCallId={runs.runsByToolCallId} />
        ))}
      </ol>
    </section>
  );
}

/** Unchanged messages keep their identity across snapshots, so memo skips them as an app's list would. */
const MessageAsText = memo(function MessageAsText({
  message,
  runsByToolCallId,
}: {
  message: UIMessage;
  runsByToolCallId: UseAgentToolEventsResult["runsByToolCallId"];
}) {
  return (
    <li data-message-id={message.id} data-role={message.role}>
      {/* An app shows a server-injected message as an agent event instead of a bubble; the fuzz tree
          renders its parts as well, so their fields are exercised whatever the classifier says. */}
      <AgentEvent.Match message={message}>
        <AgentEvent.Root message={message}>
          <AgentEvent.Label /> <AgentEvent.Text />
        </AgentEvent.Root>
      </AgentEvent.Match>
      {message.parts.map((part, i) => (
        // Parts have no ids; their position is their identity within a message.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <PartAsText key={i} part={part} runsByToolCallId={runsByToolCallId} ancestors={NO_ANCESTORS} />
      ))}
    </li>
  );
});

type Part = UIMessage["parts"][number];
type ToolPart = Extract<Part, { toolCallId: string }> & {
  state: string;
  errorText?: string;
  approval?: { id: string; approved?: boolean };
};

const isToolPart = (p: Part): p is ToolPart => p.type.startsWith("tool-") || p.type === "dynamic-tool";

/** Child runs are nested this deep at most (a run inside a run's transcript inside …). */
const MAX_RUN_DEPTH = 3;
const NO_ANCESTORS: readonly string[] = Object.freeze([]);

function PartAsText({
  part,
  runsByToolCallId,
  ancestors,
}: {
  part: Part;
  runsByToolCallId: UseAgentToolEventsResult["runsByToolCallId"];
  /** Run ids whose transcript this part is in, outermost first. */
  ancestors: readonly string[];
}) {
  if (part.type === "text" || part.type === "reasoning")
    return (
      <p data-part={part.type} data-status={part.state}>
        {part.text}
      </p>
    );
  if (isToolPart(part)) {
    // As an app shows a child run beside the tool call that spawned it (docs/protocol.md#agent-tool-grouping). A run's own
    // transcript can hold the tool call that spawned it (ids come from the wire), so a run already open
    // further out is not rendered again: that would recurse forever.
    const childRuns =
      ancestors.length >= MAX_RUN_DEPTH
        ? []
        : getRunsForToolCall({ runsByToolCallId }, part).filter((r) => !ancestors.includes(r.runId));
    return (
      <div data-part="tool" data-status={part.state}>
        <span>{part.type}</span> <span>{part.toolCallId}</span> <span>{part.state}</span>
        {part.errorText !== undefined ? <span>{part.errorText}</span> : null}
        {part.approval ? <span>{part.approval.id}</span> : null}
        <pre>{preview("input" in part ? part.input : undefined)}</pre>
        {"output" in part ? <pre>{preview(part.output)}</pre> : null}
        {childRuns.map((r) => (
          <span key={r.runId}>
            {r.runId} {r.status}
          </span>
        ))}
        {childRuns.map((r) => (
          <ChildRun
            key={r.runId}
            runId={r.runId}
            runsByToolCallId={runsByToolCallId}
            ancestors={[...ancestors, r.runId]}
          />
        ))}
      </div>
    );
  }
  switch (part.type) {
    case "file":
      return (
        <p data-part="file">
          {part.mediaType} {part.url}
        </p>
      );
    case "source-url":
      return (
        <p data-part="source-url">
          {part.url} {part.title}
        </p>
      );
    case "source-document":
      return (
        <p data-part="source-document">
          {part.title} {part.mediaType} {part.filename}
        </p>
      );
    case "step-start":
      return <hr />;
    default:
      return (
        <p data-part={part.type}>
          {part.type} {"data" in part ? preview(part.data) : null}
        </p>
      );
  }
}

// ───────────────────────────── components ─────────────────────────────

/** `AgentToolRun` with every part, its transcript rendered through the same part renderer as the chat. */
function ChildRun({
  runId,
  runsByToolCallId,
  ancestors,
}: {
  runId: string;
  runsByToolCallId: UseAgentToolEventsResult["runsByToolCallId"];
  ancestors: readonly string[];
}) {
  const store = useContext(RunStore);
  if (!store) return null;
  return (
    <AgentToolRun.Root store={store} runId={runId} onRetry={noop} onReconnect={noop} onDrillIn={noop}>
      <AgentToolRun.Header>
        <AgentToolRun.Icon /> <AgentToolRun.Title /> <AgentToolRun.AgentType /> <AgentToolRun.Status />{" "}
        <AgentToolRun.Elapsed /> <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      {/* Mounted while closed too, so a completed run's parts are rendered as well. */}
      <AgentToolRun.Content forceMount>
        <AgentToolRun.Input />
        <AgentToolRun.Transcript>
          {(part) => <PartAsText part={part} runsByToolCallId={runsByToolCallId} ancestors={ancestors} />}
        </AgentToolRun.Transcript>
        <RunMilestones />
        <AgentToolRun.Summary />
        <AgentToolRun.Result maxLength={200} maxLines={4} />
        <AgentToolRun.Error />
        <AgentToolRun.Interrupted />
        <AgentToolRun.Retry /> <AgentToolRun.Reconnect /> <AgentToolRun.DrillIn />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

/** Milestone names the generator uses, so some are reached and some stay upcoming. */
const EXPECTED_MILESTONES = ["sources-gathered", "drafted", "reviewed"];

/** The surrounding run's milestones, as `MilestoneTimeline` with its live region. */
function RunMilestones() {
  const { run } = useAgentToolRunContext();
  return (
    <>
      <MilestoneTimeline.Root run={run} expected={EXPECTED_MILESTONES}>
        <MilestoneTimeline.List aria-label="Milestones">
          {() => (
            <MilestoneTimeline.Item>
              <MilestoneTimeline.Name /> <MilestoneTimeline.Time /> <MilestoneTimeline.Data />
            </MilestoneTimeline.Item>
          )}
        </MilestoneTimeline.List>
      </MilestoneTimeline.Root>
      <MilestoneTimeline.Announcer run={run} />
    </>
  );
}

/** The chat's approval requests, pending and decided, through the chat adapter. */
function Approvals({ agent, chat }: { agent: AgentClient; chat: UseAgentChatResult }) {
  const requests = useChatApprovals(chat, { agent });
  return (
    <ApprovalQueue.Root requests={requests} include="all" data-testid="approvals">
      <h2>
        Waiting: <ApprovalQueue.Count />
      </h2>
      <ApprovalQueue.ApproveAll /> <ApprovalQueue.DenyAll />
      <ApprovalQueue.List>
        {(r) => (
          <ApprovalQueue.Item request={r}>
            <ApprovalCard.Root request={r}>
              <ApprovalCard.Title /> <ApprovalCard.Summary /> <ApprovalCard.Risk />
              <ApprovalCard.Permissions /> <ApprovalCard.Arguments /> <ApprovalCard.Expiry />
              <ApprovalCard.Approve /> <ApprovalCard.Deny /> <ApprovalCard.Confirm />
              <ApprovalCard.Status />
            </ApprovalCard.Root>
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}

/**
 * `RunTray` over the runs no tool call spawned, open and mounted so every item renders; Cancel goes out as
 * the agent's `cancelAgentTool` call. A short stall time, so runs the fuzz leaves running show as stalled.
 */
function BackgroundRuns({ agent, runs }: { agent: AgentClient; runs: UseAgentToolEventsResult }) {
  return (
    <RunTray.Root
      runs={runs.unboundRuns}
      agent={agent}
      onError={noop}
      onDrillIn={noop}
      defaultOpen
      stallAfterMs={2_000}
    >
      <RunTray.Trigger>
        Background runs <RunTray.Badge />
      </RunTray.Trigger>
      <RunTray.List forceMount>
        {() => (
          <RunTray.Item>
            <RunTray.Icon />
            <RunTray.Title /> <RunTray.Status /> <RunTray.Elapsed />
            <RunTray.Progress>
              <Progress.Indicator />
            </RunTray.Progress>
            <RunTray.Phase /> <RunTray.Message /> <RunTray.Milestones /> <RunTray.Stalled /> <RunTray.Error />
            <RunTray.Cancel /> <RunTray.DrillIn /> <RunTray.Dismiss />
          </RunTray.Item>
        )}
      </RunTray.List>
      <RunTray.Empty />
      <RunTray.Announcer />
    </RunTray.Root>
  );
}

// ───────────────────────────── runs ─────────────────────────────

function RunsAsText({ runs }: { runs: UseAgentToolEventsResult }) {
  return (
    <section data-testid="runs">
      <ul>
        {Object.keys(runs.runsById).map((id) => (
          <RunById key={id} runs={runs} runId={id} />
        ))}
      </ul>
      <ul data-testid="unbound">
        {runs.unboundRuns.map((r) => (
          <li key={r.runId}>{r.runId}</li>
        ))}
      </ul>
    </section>
  );
}

/** Through the selector hook, as a component showing one run would read it. */
function RunById({ runs, runId }: { runs: UseAgentToolEventsResult; runId: string }) {
  const run = useAgentToolRun(runs.store, runId);
  if (!run) return <li data-missing-run={runId}>missing</li>;
  return <RunAsText run={run} />;
}

const RunAsText = memo(function RunAsText({ run }: { run: AgentToolRunData }) {
  const p = run.progress;
  return (
    <li data-run-id={run.runId} data-status={run.status}>
      <span>{run.display?.icon}</span> <span>{run.display?.name ?? run.agentType}</span>{" "}
      <span>{run.status}</span> <span>{run.order}</span>
      {run.summary !== undefined ? <span>{run.summary}</span> : null}
      {run.error !== undefined ? <span>{run.error}</span> : null}
      {run.reason !== undefined ? <span>{run.reason}</span> : null}
      {p ? (
        <span data-progress={p.fraction}>
          {p.fraction} {p.message} {p.phase} {p.milestone}
        </span>
      ) : null}
      <ol>
        {run.milestones.map((m) => (
          <li key={m.sequence}>
            {m.name} {m.fraction} {m.message} {m.phase}
          </li>
        ))}
      </ol>
      <pre>{preview(run.inputPreview)}</pre>
      {run.parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids (see MessageAsText)
        <PartAsText key={i} part={part} runsByToolCallId={EMPTY} ancestors={NO_ANCESTORS} />
      ))}
    </li>
  );
});

// Without a prototype, like the store's own index: a child's tool call id may be `__proto__` or `valueOf`.
const EMPTY: UseAgentToolEventsResult["runsByToolCallId"] = Object.freeze(Object.create(null));

/**
 * A short text for a value of unknown shape (tool input and output, data parts), as an app would show it.
 * Bounded in depth and length so the test measures the library, not the cost of printing megabytes.
 */
export function preview(value: unknown, depth = 0): string {
  if (typeof value === "string") return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (value === null || typeof value !== "object") return String(value);
  if (depth >= 3) return Array.isArray(value) ? "[…]" : "{…}";
  if (Array.isArray(value))
    return `[${value
      .slice(0, 5)
      .map((v) => preview(v, depth + 1))
      .join(", ")}${value.length > 5 ? ", …" : ""}]`;
  const entries = Object.entries(value).slice(0, 5);
  return `{${entries.map(([k, v]) => `${k}: ${preview(v, depth + 1)}`).join(", ")}}`;
}
