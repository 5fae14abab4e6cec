/**
 * Every headless component in every state its TSDoc lists that a first render can show, as an app composes it
 * (every part), for the server-render and hydration tests. Inputs are plain data and test doubles: nothing
 * here opens a connection. States that need an interaction or time to pass first (cancelling, stalled, a
 * failed refresh, a frame that loaded) start from one of these on the client and are not server-rendered.
 */
import type { AgentClientOptions, AgentToolRuns, CallableConnection } from "@runboard/client";
import { type HelixChild as HelixChildData, HelixChildren } from "@runboard/client/helix";
import {
  type AgentToolMilestone,
  type AgentToolRunsState,
  type ApprovalRequest,
  type LiveViewSession,
  type MessageBranch,
  type Part,
  type AgentToolRunState as RunData,
  type SyncAgentToolRun,
  syncAgentToolRun,
} from "@runboard/protocol";
import { getRunsForToolCall, SYNC_AGENT_TOOL_LIMIT } from "@runboard/protocol/view";
import type { UIMessage } from "ai";
import type { ReactElement, ReactNode } from "react";
import { AgentEvent } from "../../src/agent-event/index.ts";
import { AgentToolRun, useChildChat } from "../../src/agent-tool-run/index.ts";
import {
  ApprovalCard,
  ApprovalQueue,
  useChatApprovals,
  useExecutionApprovals,
  useWorkflowApprovals,
} from "../../src/approval/index.ts";
import { BranchPicker, type BranchSource } from "../../src/branch-picker/index.ts";
import { ChatStatus, type ChatStatusSource } from "../../src/chat-status/index.ts";
import { HelixChild } from "../../src/helix/index.ts";
import { LiveView, type LiveViewRootProps } from "../../src/live-view/index.ts";
import { MilestoneTimeline } from "../../src/milestone-timeline/index.ts";
import { Progress } from "../../src/progress/index.ts";
import { RunTray, type RunTrayRootProps } from "../../src/run-tray/index.ts";
import { useAgent } from "../../src/use-agent.ts";
import { useAgentChat } from "../../src/use-agent-chat.ts";
import { useAgentToolEvents } from "../../src/use-agent-tool-events.ts";

/** One component in one state. */
export interface StateCase {
  name: string;
  render: () => ReactElement;
  /** Development warnings the kit gives on purpose in this state (they are not hydration problems). */
  expectedWarnings?: readonly RegExp[];
}

// Fixed once per test process, so the server render and the hydration see the same inputs even when a test
// loads these modules afresh for each render.
const clock = globalThis as { __ssrStatesLoadedAt?: number };
clock.__ssrStatesLoadedAt ??= Date.now();
const LOADED_AT = clock.__ssrStatesLoadedAt;
/** A time of day in the past (milestones, progress). */
const AT = Date.UTC(2026, 0, 1, 9, 30, 5);

// ───────────────────────────── test doubles ─────────────────────────────

type Listener = (e: Event) => void;

/** A connection (`useAgent()`-like) that never opens a socket: events, a status, callables that never answer. */
export function connection(status: "open" | "connecting" | "closed", state?: unknown): CallableConnection {
  const listeners = new Set<Listener>();
  return {
    status,
    state,
    addEventListener: (_type: string, fn: Listener) => void listeners.add(fn),
    removeEventListener: (_type: string, fn: Listener) => void listeners.delete(fn),
    call: () => new Promise<never>(() => {}),
  };
}

/** The chat half of `useAgentChat()` the approval adapter reads. */
function chat(messages: UIMessage[]) {
  return { messages, addToolApprovalResponse: () => {}, addToolOutput: () => {} };
}

/** A run store (`useAgentToolEvents().store`) holding fixed runs. */
function runStore(runs: RunData[]): AgentToolRuns {
  const state: AgentToolRunsState = {
    runsById: Object.fromEntries(runs.map((r) => [r.runId, r])),
    runsByToolCallId: {},
    unboundRuns: runs,
  };
  return { subscribe: () => () => {}, getSnapshot: () => state } as unknown as AgentToolRuns;
}

// ───────────────────────────── runs ─────────────────────────────

const run = (runId: string, extra: Partial<RunData> = {}): RunData => ({
  runId,
  agentType: "Researcher",
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Researcher", name: runId },
  ...extra,
});

const milestones: AgentToolMilestone[] = [
  { name: "outline", sequence: 0, at: AT, data: { sections: 4 } },
  { name: "sources-gathered", sequence: 1, at: AT + 65_000, data: { sources: 3 } },
];

const LONG = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the report`).join("\n");

const nested = run("child-1", {
  agentType: "Fetcher",
  display: { name: "Fetch", icon: "⤓" },
  parentToolCallId: "tc-fetch",
  parts: [{ type: "text", text: "Fetched 3 pages.", state: "done" } as Part],
});

const RUNS = {
  running: run("r-running", {
    display: { name: "Research", icon: "🔎" },
    inputPreview: { topic: "queues" },
    progress: { fraction: 0.6, phase: "reading", message: "Reading 2 sources", at: AT },
    milestones,
    parts: [
      { type: "text", text: "Looking for sources.", state: "done" } as Part,
      { type: "tool-fetch", toolCallId: "tc-fetch", state: "input-available", input: {} } as unknown as Part,
    ],
  }),
  starting: run("r-starting", { display: { name: "Crawl", icon: "🕷" } }),
  completed: run("r-completed", {
    display: { name: "Summary" },
    status: "completed",
    progress: { fraction: 0.9, message: "Writing", at: AT },
    summary: LONG,
    milestones,
  }),
  error: run("r-error", { display: { name: "Fact check" }, status: "error", error: "Upstream timeout" }),
  aborted: run("r-aborted", {
    display: { name: "Translate" },
    status: "aborted",
    error: "Cancelled by the user",
  }),
  reconnectable: run("r-interrupted-live", {
    agentType: "Tailer",
    status: "interrupted",
    reason: "no-progress",
    childStillRunning: true,
    error: "No progress for 30 seconds",
  }),
  retryable: run("r-interrupted-stopped", {
    agentType: "Tailer",
    status: "interrupted",
    reason: "window-exceeded",
    childStillRunning: false,
  }),
};

const byToolCall = { runsByToolCallId: { "tc-fetch": [nested] } };

/** The app's part renderer, handed to child transcripts too, so nested runs recurse through it. */
function renderChatPart(part: Part): ReactNode {
  if (part.type === "text") return <p>{part.text}</p>;
  return getRunsForToolCall(byToolCall, part as { toolCallId?: unknown }).map((r) => (
    <FullRun key={r.runId} run={r} />
  ));
}

/** Every part of `AgentToolRun`. */
function FullRun(
  props: Parameters<typeof AgentToolRun.Root>[0] & { elapsed?: { startedAt?: number; endedAt?: number } },
) {
  const { elapsed, ...root } = props;
  return (
    <AgentToolRun.Root
      onRetry={() => {}}
      onReconnect={() => {}}
      onDrillIn={() => {}}
      onCancel={() => new Promise(() => {})}
      {...root}
    >
      <AgentToolRun.Header>
        <AgentToolRun.Icon /> <AgentToolRun.Title /> <AgentToolRun.AgentType /> <AgentToolRun.Status />{" "}
        <AgentToolRun.Elapsed {...elapsed} />
        <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Progress />
      <AgentToolRun.Phase /> <AgentToolRun.Message />
      <AgentToolRun.Milestones />
      <AgentToolRun.Content>
        <AgentToolRun.Input />
        <AgentToolRun.Transcript>{renderChatPart}</AgentToolRun.Transcript>
        <AgentToolRun.Summary />
        <AgentToolRun.Result maxLines={4} />
        <AgentToolRun.Error />
        <AgentToolRun.Interrupted />
      </AgentToolRun.Content>
      <AgentToolRun.Cancel /> <AgentToolRun.Retry /> <AgentToolRun.Reconnect /> <AgentToolRun.DrillIn />
    </AgentToolRun.Root>
  );
}

// ───────────────────────────── trays ─────────────────────────────

function FullTray(props: Partial<RunTrayRootProps>) {
  return (
    <RunTray.Root runs={[]} onCancel={() => new Promise(() => {})} onDrillIn={() => {}} {...props}>
      <RunTray.Trigger>
        Background runs <RunTray.Badge />
      </RunTray.Trigger>
      <RunTray.List>
        {() => (
          <RunTray.Item>
            <RunTray.Icon />
            <RunTray.Title /> <RunTray.Status /> <RunTray.Elapsed />
            <RunTray.Progress />
            <RunTray.Phase /> <RunTray.Message />
            <RunTray.Milestones />
            <RunTray.Stalled />
            <RunTray.Error />
            <RunTray.Cancel /> <RunTray.DrillIn /> <RunTray.Dismiss />
          </RunTray.Item>
        )}
      </RunTray.List>
      <RunTray.Empty />
      <RunTray.Announcer />
    </RunTray.Root>
  );
}

const ALL_RUNS = Object.values(RUNS);

// ───────────────────────────── approvals ─────────────────────────────

const request = (over: Partial<ApprovalRequest> & { id: string }): ApprovalRequest => ({
  source: "chat",
  key: over.id,
  name: "processPayment",
  arguments: { amount: 40, recipient: "Bob" },
  argumentsComplete: true,
  status: "requested",
  online: true,
  decide: () => false,
  ...over,
});

const deploy = {
  name: "deploy",
  summary: "Deploy web-app to production",
  risk: "high",
  permissions: ["deploy:production", "secrets:read"],
  arguments: { service: "web-app", environment: "production" },
};

const REQUESTS: Record<string, ApprovalRequest> = {
  requested: request({ id: "a-requested" }),
  "high risk": request({ id: "a-high", source: "execution", ...deploy }),
  "arguments loading": request({ id: "a-loading", source: "execution", ...deploy, argumentsComplete: false }),
  submitting: request({ id: "a-submitting", status: "submitting", outcome: { approved: true, by: "here" } }),
  approved: request({ id: "a-approved", status: "approved", outcome: { approved: true, by: "here" } }),
  denied: request({
    id: "a-denied",
    status: "denied",
    outcome: { approved: false, reason: "Bob is not a vendor", by: "here" },
  }),
  "answered elsewhere": request({
    id: "a-elsewhere",
    status: "answered-elsewhere",
    outcome: { approved: true, by: "elsewhere" },
  }),
  "expiring in ten minutes": request({
    id: "a-expiring",
    name: "transferFunds",
    expiresAt: LOADED_AT + 600_000,
  }),
  expired: request({ id: "a-expired", name: "transferFunds", expiresAt: Date.UTC(2024, 0, 1) }),
  "decided, with an expiry": request({
    id: "a-decided-expiry",
    status: "approved",
    expiresAt: LOADED_AT + 600_000,
    outcome: { approved: true, by: "here" },
  }),
  offline: request({ id: "a-offline", online: false }),
  "workflow item": request({
    id: "a-workflow",
    source: "workflow",
    name: "Expense: team lunch (120 EUR)",
    title: "Expense: team lunch (120 EUR)",
    arguments: { amount: 120 },
  }),
};

/** Every part of `ApprovalCard`. */
export function FullCard({
  request: r,
  defaultConfirmOpen,
}: {
  request: ApprovalRequest;
  defaultConfirmOpen?: boolean;
}) {
  return (
    <ApprovalCard.Root request={r} {...(defaultConfirmOpen ? { defaultConfirmOpen } : {})}>
      <ApprovalCard.Title />
      <ApprovalCard.Risk />
      <ApprovalCard.Summary />
      <ApprovalCard.Permissions aria-label="Required permissions" />
      <ApprovalCard.Arguments />
      <ApprovalCard.Expiry />
      <ApprovalCard.Approve />
      <ApprovalCard.Deny />
      <ApprovalCard.DenyReason>
        <ApprovalCard.DenyReasonInput />
        <ApprovalCard.Deny>Deny with reason</ApprovalCard.Deny>
      </ApprovalCard.DenyReason>
      <ApprovalCard.Confirm>
        <ApprovalCard.ConfirmOverlay />
        <ApprovalCard.ConfirmContent>
          <ApprovalCard.ConfirmTitle />
          <ApprovalCard.ConfirmDescription />
          <ApprovalCard.ConfirmCancel />
          <ApprovalCard.ConfirmAction />
        </ApprovalCard.ConfirmContent>
      </ApprovalCard.Confirm>
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  );
}

function FullQueue({
  requests,
  include,
}: {
  requests: readonly ApprovalRequest[];
  include?: "pending" | "all";
}) {
  return (
    <ApprovalQueue.Root requests={requests} {...(include ? { include } : {})}>
      <h2>
        Waiting for you (<ApprovalQueue.Count />)
      </h2>
      <ApprovalQueue.ApproveAll />
      <ApprovalQueue.DenyAll reason="Not now" />
      <ApprovalQueue.List>
        {(r) => (
          <ApprovalQueue.Item request={r}>
            <FullCard request={r} />
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}

const toolPart = (id: string, state: string, extra: Record<string, unknown> = {}) => ({
  type: "tool-processPayment",
  toolCallId: `tc-${id}`,
  state,
  input: { amount: 40, recipient: "Bob" },
  approval: { id: `ap-${id}` },
  ...extra,
});

const CHAT_MESSAGES = [
  {
    id: "m1",
    role: "assistant",
    parts: [
      { type: "text", text: "I need two approvals." },
      toolPart("1", "approval-requested"),
      toolPart("2", "approval-requested", { input: { amount: 900, expiresAt: LOADED_AT + 600_000 } }),
      toolPart("3", "approval-responded", { approval: { id: "ap-3", approved: true } }),
      toolPart("4", "output-error", { errorText: "Too expensive" }),
    ],
  },
] as unknown as UIMessage[];

const THINK_MESSAGES = [
  {
    id: "t1",
    role: "assistant",
    parts: [
      {
        type: "tool-deploy",
        toolCallId: "tc-deploy",
        state: "output-available",
        input: { service: "web-app" },
        output: { status: "paused", executionId: "ex1", action: "deploy" },
        approvalDescriptor: { action: "deploy", risk: "high", kind: "durable-pause", requestId: "ex1" },
      },
    ],
  },
] as unknown as UIMessage[];

export const WORKFLOW_STATE = {
  pendingApprovals: [
    { id: "exp-1", title: "Expense: team lunch (120 EUR)", amount: 120, requestedAt: AT },
    { id: "exp-2", title: "Expense: taxi", amount: 30, expiresAt: LOADED_AT + 600_000 },
  ],
  resolvedApprovals: [{ id: "exp-0", title: "Expense: coffee", amount: 4, approved: true }],
};

// One connection for every render: the adapters own a store per connection object, as an app's `useAgent` is one.
const FIXED_CONNECTION = connection("open");

/** The three adapters together, as one page lists every approval. */
export function Approvals({ agent }: { agent: CallableConnection | undefined }) {
  const fromChat = useChatApprovals(chat(CHAT_MESSAGES), agent ? { agent } : {});
  const conn = agent ?? FIXED_CONNECTION;
  const fromThink = useExecutionApprovals(conn, { messages: THINK_MESSAGES });
  const fromWorkflow = useWorkflowApprovals(conn, agent ? {} : { state: WORKFLOW_STATE });
  return <FullQueue requests={[...fromChat, ...fromThink, ...fromWorkflow]} include="all" />;
}

// ───────────────────────────── live view ─────────────────────────────

const LIVE_ORIGIN = "http://127.0.0.1:9";

const SESSION: LiveViewSession = {
  sessionId: "s1",
  expiresInMs: 300_000,
  targets: [
    {
      targetId: "LOGIN",
      url: `${LIVE_ORIGIN}/live/login`,
      pageUrl: "https://shop.example/login",
      title: "Sign in",
      type: "page",
    },
    {
      targetId: "SW",
      url: `${LIVE_ORIGIN}/live/sw`,
      pageUrl: "https://shop.example/sw.js",
      title: "",
      type: "service_worker",
    },
    {
      targetId: "ORDERS",
      url: `${LIVE_ORIGIN}/live/orders`,
      pageUrl: "https://shop.example/orders",
      title: "",
      type: "page",
    },
  ],
};

const REFUSED: LiveViewSession = {
  sessionId: "refused",
  expiresInMs: 300_000,
  targets: [
    {
      targetId: "JS",
      url: "javascript:alert(1)",
      pageUrl: "https://shop.example/login",
      title: "Script address",
      type: "page",
    },
    {
      targetId: "FOREIGN",
      url: "https://evil.example/live",
      pageUrl: "https://shop.example/orders",
      title: "Foreign origin",
      type: "page",
    },
  ],
};

function FullLiveView(props: Partial<LiveViewRootProps>) {
  return (
    <LiveView.Root allowedOrigins={[LIVE_ORIGIN]} allowLoopbackHttp aria-label="Browser" {...props}>
      <LiveView.ModeSwitch />
      <LiveView.TabList />
      <LiveView.Panels>
        {() => (
          <LiveView.Panel>
            <LiveView.Frame />
            <LiveView.Refused />
            <LiveView.OpenInNewTab />
          </LiveView.Panel>
        )}
      </LiveView.Panels>
      <LiveView.OpenInNewTab />
      <LiveView.TakeOver />
      <LiveView.Continue />
      <LiveView.Error />
      <LiveView.Status />
    </LiveView.Root>
  );
}

const never = () => new Promise<never>(() => {});

// ───────────────────────────── events ─────────────────────────────

const EVENTS: UIMessage[] = [
  {
    id: "detached-ms:run-7:sources-gathered",
    role: "assistant",
    metadata: {
      source: "detached-agent-tool",
      runId: "run-7",
      agentType: "Researcher",
      milestone: "sources-gathered",
    },
    parts: [{ type: "text", text: "Reached sources-gathered." }],
  },
  {
    id: "detached-finish:run-7:completed",
    role: "user",
    metadata: { source: "detached-agent-tool", runId: "run-7", agentType: "Researcher", status: "completed" },
    parts: [{ type: "text", text: "Queues are ordered per key." }],
  },
  {
    id: "detached-finish:run-8:error",
    role: "user",
    metadata: { source: "detached-agent-tool", runId: "run-8", status: "error" },
    parts: [{ type: "text", text: "Upstream timeout" }],
  },
  {
    id: "n-1",
    role: "assistant",
    metadata: { deliveryKind: "notice" },
    parts: [{ type: "text", text: "Maintenance at 22:00." }],
  },
  {
    id: "s-1",
    role: "user",
    metadata: { source: "scheduled-task" },
    parts: [{ type: "text", text: "Daily summary." }],
  },
  { id: "u-1", role: "user", parts: [{ type: "text", text: "An ordinary message." }] },
];

function Events() {
  return (
    <>
      {EVENTS.map((m) => (
        <AgentEvent.Match key={m.id} message={m} fallback={<p data-role={m.role}>{m.id}</p>}>
          <AgentEvent.Root message={m}>
            <AgentEvent.Label />
            <AgentEvent.Text />
          </AgentEvent.Root>
        </AgentEvent.Match>
      ))}
    </>
  );
}

// ───────────────────────────── drill-in ─────────────────────────────

/** `useChildChat` for a run, as a drill-in panel shows the child's chat. */
export function ChildChatPanel({ parent }: { parent: AgentClientOptions }) {
  const child = useChildChat(parent, RUNS.running, { getInitialMessages: null });
  return <section aria-label="Agent chat" data-messages={child?.snapshot.messages.length ?? 0} />;
}

// ───────────────────────────── the hooks ─────────────────────────────

/**
 * A page as the README builds it: the connection, chat and run hooks feeding every component, the three
 * approval adapters, and a drill-in panel. `WebSocket` is the implementation the connections get (default:
 * the global one, as in an app).
 */
export function HooksPage({ host, WebSocket }: { host: string; WebSocket?: unknown }) {
  const address = { agent: "ChatAgent", name: "ssr-page", host, ...(WebSocket ? { WebSocket } : {}) };
  const agent = useAgent(address);
  const chat = useAgentChat({ agent, getInitialMessages: null });
  const runs = useAgentToolEvents({ agent });
  const requests = [
    ...useChatApprovals(chat, { agent }),
    ...useExecutionApprovals(agent, { messages: chat.messages }),
    ...useWorkflowApprovals(agent),
  ];
  return (
    <main data-status={agent.status} data-chat={chat.status}>
      {chat.messages.map((m) => (
        <p key={m.id}>{m.id}</p>
      ))}
      <FullTray runs={runs.unboundRuns} agent={agent} />
      {Object.values(runs.runsById).map((r) => (
        <FullRun key={r.runId} store={runs.store} runId={r.runId} />
      ))}
      <FullQueue requests={requests} />
      <ChildChatPanel parent={address} />
    </main>
  );
}

// ───────────────────────────── chat status and branches ─────────────────────────────

const IDLE: ChatStatusSource = { isRecovering: false };

/** `useAgentChat()`'s status flags in each state `ChatStatus` shows (issue 16 §2). */
const STATUSES: Record<string, ChatStatusSource> = {
  recovering: { ...IDLE, isRecovering: true },
  "gave up": {
    ...IDLE,
    recoveryGaveUp: { reason: "The assistant was interrupted and could not recover. Please try again." },
  },
  compacting: {
    ...IDLE,
    isCompacting: true,
    session: { phase: "compacting", tokenEstimate: 9100, tokenThreshold: 8000 },
  },
  "a stream the agent started": { ...IDLE, serverStream: { source: "server" } },
  "a stream another tab started": { ...IDLE, serverStream: { source: "another-tab" } },
  "compacted, idle": { ...IDLE, compaction: { summaries: 1, toolOutputs: 2, textParts: 0 } },
};

/** Every part of `ChatStatus`. */
function FullStatus({ chat }: { chat: ChatStatusSource }) {
  return (
    <ChatStatus.Root chat={chat}>
      <ChatStatus.Message />
      <ChatStatus.Compaction />
      <ChatStatus.Announcer />
    </ChatStatus.Root>
  );
}

/** The branch steps the pickers asked for (`messageId → index`), for the hydration test to see a click land. */
export const BRANCH_STEPS: string[] = [];

/** `useAgentChat()`'s branch data for one answer shown at `index` of `count`. */
function branches(messageId: string, index: number, count: number): BranchSource {
  const ids = Array.from({ length: count }, (_, i) => `${messageId}-v${i + 1}`);
  const branch: MessageBranch = { userMessageId: `${messageId}-question`, index, count, ids };
  return {
    branches: new Map([[messageId, branch]]),
    selectBranch: (id, to) => {
      BRANCH_STEPS.push(`${id} → ${to}`);
      return true;
    },
  };
}

/** An answer with its picker, as a chat renders one under a regenerated reply. */
function Answer({ id, index, count }: { id: string; index: number; count: number }) {
  return (
    <article>
      <p>Idea number {index + 1}.</p>
      <BranchPicker.Root chat={branches(id, index, count)} messageId={id}>
        <BranchPicker.Previous /> <BranchPicker.Count /> <BranchPicker.Next />
      </BranchPicker.Root>
    </article>
  );
}

// ───────────────────────────── synchronous AgentTool runs ─────────────────────────────

const SYNC_PROMPT = "Read the last build logs and list every failing test with its first error line.";
/** A child's answer the agent cut at its limit: exactly as long as the agent keeps. */
const CUT_ANSWER = Array.from(
  { length: 120 },
  (_, i) => `${i + 1}. case-${i + 1}.test.ts: expected 200, got 500`,
)
  .join("\n")
  .slice(0, SYNC_AGENT_TOOL_LIMIT);

const SYNC_RUNS = {
  // No allowlist and no model: every tool but AgentTool, on the parent's model.
  blocked: syncAgentToolRun({
    type: "tool-AgentTool",
    toolCallId: "call-sync-running",
    state: "input-available",
    input: { prompt: SYNC_PROMPT },
  }) as SyncAgentToolRun,
  cut: syncAgentToolRun({
    type: "tool-AgentTool",
    toolCallId: "call-sync-cut",
    state: "output-available",
    input: { prompt: SYNC_PROMPT, tool_allowlist: ["Read", "Grep", "Glob"], model: "claude-haiku" },
    output: { type: "text", text: CUT_ANSWER },
  }) as SyncAgentToolRun,
};

/** A synchronous sub-agent call with every part it has, as the story and the playground compose it. */
function SyncRun({ run }: { run: SyncAgentToolRun }) {
  return (
    <AgentToolRun.Root run={run} defaultOpen>
      <AgentToolRun.Header>
        <AgentToolRun.Title /> <AgentToolRun.Status />
        <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Blocked />
      <AgentToolRun.Content>
        <AgentToolRun.Prompt />
        <AgentToolRun.AllowedTools />
        <p>
          Model: <AgentToolRun.Model />
        </p>
      </AgentToolRun.Content>
      <AgentToolRun.Result maxLines={6} />
      <AgentToolRun.CutByAgent />
    </AgentToolRun.Root>
  );
}

// ───────────────────────────── helix persistent children ─────────────────────────────

/** The messages the helix trays sent, for the hydration test to see a send land. */
export const HELIX_SENT: string[] = [];

/** A `HelixChildren` store holding one persistent child (a `SubSessionRef`) in `status`, with both callbacks. */
function helixChildren(name: string, status: string): HelixChildren {
  const kids = new HelixChildren({
    onSendMessage: (child: HelixChildData, message: string) =>
      void HELIX_SENT.push(`${child.name}: ${message}`),
    onTerminate: never,
    now: () => AT,
  });
  kids.setRefs([
    {
      subSessionId: `p-agent-${name}`,
      agentType: "researcher",
      status,
      startedAt: AT,
      mode: "persistent",
      name,
    },
  ]);
  return kids;
}

const HELIX = {
  running: helixChildren("researcher-1", "running"),
  completed: helixChildren("researcher-2", "completed"),
};

/** A tray listing helix persistent children with Send message and Terminate, as the playground's helix view. */
function HelixTray({ store }: { store: HelixChildren }) {
  return (
    <RunTray.Root runs={store.getSnapshot().runs} defaultOpen aria-label="Persistent children">
      <RunTray.Trigger>
        Persistent children <RunTray.Badge />
      </RunTray.Trigger>
      <RunTray.List>
        <RunTray.Item>
          <RunTray.Title /> <RunTray.Status />
          <RunTray.Summary />
          <RunTray.Error />
          <HelixChild.SendMessage store={store} /> <HelixChild.Terminate store={store} />
        </RunTray.Item>
      </RunTray.List>
      <RunTray.Empty>No persistent children yet.</RunTray.Empty>
    </RunTray.Root>
  );
}

// ───────────────────────────── the cases ─────────────────────────────

const timeline = (extra: Partial<Parameters<typeof MilestoneTimeline.Root>[0]> = {}) => (
  <>
    <MilestoneTimeline.Root
      milestones={milestones}
      expected={["outline", "sources-gathered", "draft"]}
      {...extra}
    >
      <MilestoneTimeline.List aria-label="Milestones">
        {() => (
          <MilestoneTimeline.Item>
            <MilestoneTimeline.Name /> <MilestoneTimeline.Time />
            <MilestoneTimeline.Data />
          </MilestoneTimeline.Item>
        )}
      </MilestoneTimeline.List>
    </MilestoneTimeline.Root>
    <MilestoneTimeline.Announcer milestones={milestones} />
  </>
);

export const CASES: StateCase[] = [
  // AgentEvent: every kind, and an ordinary message left to the app.
  { name: "AgentEvent: every kind", render: () => <Events /> },

  // AgentToolRun: every status, open and closed, from a run or from the store, with elapsed times.
  { name: "AgentToolRun: running, first seen now", render: () => <FullRun run={RUNS.running} /> },
  {
    name: "AgentToolRun: running since a known start",
    render: () => <FullRun run={RUNS.running} elapsed={{ startedAt: LOADED_AT - 95_000 }} />,
  },
  {
    name: "AgentToolRun: completed, long result",
    render: () => <FullRun run={RUNS.completed} defaultOpen />,
  },
  {
    name: "AgentToolRun: completed with known start and end",
    render: () => <FullRun run={RUNS.completed} elapsed={{ startedAt: AT, endedAt: AT + 65_000 }} />,
  },
  { name: "AgentToolRun: failed", render: () => <FullRun run={RUNS.error} defaultOpen /> },
  { name: "AgentToolRun: cancelled", render: () => <FullRun run={RUNS.aborted} /> },
  {
    name: "AgentToolRun: interrupted, child still running",
    render: () => <FullRun run={RUNS.reconnectable} defaultOpen />,
  },
  {
    name: "AgentToolRun: interrupted, child stopped",
    render: () => <FullRun run={RUNS.retryable} defaultOpen />,
  },
  {
    name: "AgentToolRun: closed",
    render: () => <FullRun run={RUNS.starting} open={false} onOpenChange={() => {}} />,
  },
  {
    name: "AgentToolRun: from the store",
    render: () => <FullRun store={runStore(ALL_RUNS)} runId={RUNS.running.runId} />,
  },

  // Progress: indeterminate, loading, complete; from a run.
  {
    name: "Progress: indeterminate, loading, complete",
    render: () => (
      <>
        <Progress.Root aria-label="Unknown">
          <Progress.Indicator />
        </Progress.Root>
        <Progress.Root value={0.4} phase="comparing" message="Comparing 3 sources" aria-label="Fact check">
          <Progress.Indicator />
        </Progress.Root>
        <Progress.Root value={0.75} complete aria-label="Done">
          <Progress.Indicator />
        </Progress.Root>
        <Progress.Root run={RUNS.running}>
          <Progress.Indicator />
        </Progress.Root>
        <Progress.Root run={RUNS.completed}>
          <Progress.Indicator />
        </Progress.Root>
      </>
    ),
  },

  // MilestoneTimeline: reached, current, upcoming, with data and times; empty.
  { name: "MilestoneTimeline: reached, current and upcoming", render: () => timeline() },
  {
    name: "MilestoneTimeline: from a run",
    render: () => timeline({ milestones: undefined, run: RUNS.completed }),
  },
  {
    name: "MilestoneTimeline: not started",
    render: () => (
      <MilestoneTimeline.Root milestones={[]} expected={["outline", "draft"]}>
        <MilestoneTimeline.List aria-label="Not started" />
      </MilestoneTimeline.Root>
    ),
  },

  // RunTray: empty, closed, open with every status, dismissed, kept mounted while closed.
  { name: "RunTray: empty and open", render: () => <FullTray defaultOpen /> },
  { name: "RunTray: closed with runs", render: () => <FullTray runs={ALL_RUNS} /> },
  { name: "RunTray: open, every status", render: () => <FullTray runs={ALL_RUNS} defaultOpen /> },
  {
    name: "RunTray: open, finished runs dismissed",
    render: () => (
      <FullTray runs={ALL_RUNS} defaultOpen defaultDismissed={[RUNS.completed.runId, RUNS.error.runId]} />
    ),
  },
  {
    name: "RunTray: stall detection off, default item",
    render: () => (
      <RunTray.Root runs={ALL_RUNS} defaultOpen stallAfterMs={0} onCancel={never}>
        <RunTray.List />
        <RunTray.Announcer />
      </RunTray.Root>
    ),
  },

  // ApprovalCard: every state; the confirm dialog open.
  ...Object.entries(REQUESTS).map(([state, r]) => ({
    name: `ApprovalCard: ${state}`,
    render: () => <FullCard request={r} />,
  })),
  {
    name: "ApprovalCard: high risk, confirm dialog open",
    render: () => <FullCard request={REQUESTS["high risk"] as ApprovalRequest} defaultConfirmOpen />,
  },

  // ApprovalQueue: pending (with an expiry), all, empty.
  { name: "ApprovalQueue: pending", render: () => <FullQueue requests={Object.values(REQUESTS)} /> },
  {
    name: "ApprovalQueue: all",
    render: () => <FullQueue requests={Object.values(REQUESTS)} include="all" />,
  },
  { name: "ApprovalQueue: empty", render: () => <FullQueue requests={[]} /> },

  // The adapters, over test doubles: connected, still connecting, and without a connection.
  {
    name: "Approval adapters: open connection",
    render: () => <Approvals agent={connection("open", WORKFLOW_STATE)} />,
  },
  {
    name: "Approval adapters: connection still opening",
    render: () => <Approvals agent={connection("connecting", WORKFLOW_STATE)} />,
  },
  { name: "Approval adapters: no connection", render: () => <Approvals agent={undefined} /> },

  // LiveView: idle, loading, a session (loading frames), DevTools, the human in control, refused, expired.
  { name: "LiveView: idle", render: () => <FullLiveView /> },
  { name: "LiveView: loading its first session", render: () => <FullLiveView refresh={never} /> },
  { name: "LiveView: a session", render: () => <FullLiveView session={SESSION} refresh={never} /> },
  {
    name: "LiveView: DevTools, human in control, waiting to continue",
    render: () => (
      <FullLiveView
        session={SESSION}
        refresh={never}
        defaultMode="devtools"
        defaultControl="human"
        defaultValue="ORDERS"
        onContinue={() => {}}
      />
    ),
  },
  {
    name: "LiveView: refused",
    render: () => <FullLiveView session={REFUSED} />,
    expectedWarnings: [/LiveView: a target's URL was not embedded/],
  },
  { name: "LiveView: expired", render: () => <FullLiveView session={{ ...SESSION, expiresInMs: 0 }} /> },

  // ChatStatus: every state it shows (issue 16 §2), and compacted while idle.
  ...Object.entries(STATUSES).map(([state, chat]) => ({
    name: `ChatStatus: ${state}`,
    render: () => <FullStatus chat={chat} />,
  })),

  // BranchPicker: the first of two answers (nothing older), the middle of three.
  { name: "BranchPicker: 1 of 2", render: () => <Answer id="answer-a" index={0} count={2} /> },
  { name: "BranchPicker: 2 of 3", render: () => <Answer id="answer-b" index={1} count={3} /> },

  // A synchronous AgentTool call (issue 19 §2): the parent blocked on it; its result cut by the agent.
  {
    name: "AgentToolRun (sync): running, the parent blocked",
    render: () => <SyncRun run={SYNC_RUNS.blocked} />,
  },
  { name: "AgentToolRun (sync): completed, cut by the agent", render: () => <SyncRun run={SYNC_RUNS.cut} /> },

  // RunTray with a helix persistent child (issue 19 §1): running (both actions), completed (neither).
  { name: "RunTray (helix): persistent child running", render: () => <HelixTray store={HELIX.running} /> },
  {
    name: "RunTray (helix): persistent child completed",
    render: () => <HelixTray store={HELIX.completed} />,
  },
];
