/**
 * A page that uses every hook and every component of `@runboard/react`, written as an app would after reading
 * the READMEs: a live chat with the agent (messages, tool parts, child runs, approvals inline and in a
 * queue, background runs, drill-in), and the components that need an agent to have done something first,
 * fed from fixture data. It renders on the server and hydrates in the browser.
 */
import type { AgentToolRuns } from "@runboard/client";
import { type ApprovalRequest, isToolUIPart, type AgentToolRunState as Run } from "@runboard/protocol";
import {
  AgentEvent,
  type AgentEventMessage,
  AgentToolRun,
  ApprovalCard,
  ApprovalQueue,
  LiveView,
  MilestoneTimeline,
  Progress,
  RunTray,
  useAgent,
  useAgentChat,
  useAgentToolEvents,
  useAgentToolRun,
  useChatApprovals,
  useChildChat,
  useExecutionApprovals,
  useWorkflowApprovals,
} from "@runboard/react";
import type { UIMessage } from "ai";
import { type FormEvent, useMemo, useState } from "react";
import { agentEvents, approvalRequest, finishedRun, liveViewSession, runningRun } from "./fixtures.ts";
import type { PageProps } from "./props.ts";

type Part = UIMessage["parts"][number];

/** The whole page. */
export function Page(props: PageProps) {
  const address = { agent: "ChatAgent", name: props.agentName, host: props.agentHost };
  const agent = useAgent<Record<string, unknown>>(address);
  const chat = useAgentChat({ agent });
  const runs = useAgentToolEvents({ agent });
  const chatApprovals = useChatApprovals(chat, { agent });
  const executions = useExecutionApprovals(agent, { messages: chat.messages });
  const workflow = useWorkflowApprovals(agent);
  const [drilled, setDrilled] = useState<Run | null>(null);
  const child = useChildChat(drilled ? address : null, drilled);
  const [draft, setDraft] = useState("");

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    void chat.sendMessage({ text: draft.trim() });
    setDraft("");
  };
  const inline = [...chatApprovals, ...executions];

  return (
    <div className="app">
      <header>
        <h1>Consumer app</h1>
        <p>
          Connection: <strong data-testid="connection">{agent.status}</strong>
          {chat.isStreaming ? " · answering…" : ""}
        </p>
      </header>

      <main>
        <section aria-label="Conversation">
          {chat.messages.map((m) => (
            <AgentEvent.Match key={m.id} message={m} fallback={<Message message={m} />}>
              <AgentEvent.Root message={m}>
                <AgentEvent.Label /> <AgentEvent.Text />
              </AgentEvent.Root>
            </AgentEvent.Match>
          ))}
          {chat.messages.flatMap((m) =>
            m.parts.filter(isToolUIPart).map((part) => (
              <div key={part.toolCallId} data-tool-state={part.state}>
                {inline
                  .filter((r) => r.toolCallId === part.toolCallId)
                  .map((r) => (
                    <Card key={r.id} request={r} />
                  ))}
                {runs.getRunsForToolCall(part.toolCallId).map((r) => (
                  <LiveRun key={r.runId} store={runs.store} runId={r.runId} onDrillIn={setDrilled} />
                ))}
              </div>
            )),
          )}
        </section>
        {chat.error && <p role="alert">{chat.error.message}</p>}
        <form onSubmit={send}>
          <label htmlFor="draft">Message</label>
          <input id="draft" value={draft} onChange={(e) => setDraft(e.target.value)} autoComplete="off" />
          <button type="submit" disabled={agent.status !== "open"}>
            Send
          </button>
          <button type="button" onClick={() => chat.stop()} disabled={!chat.isStreaming}>
            Stop
          </button>
        </form>
        {child && (
          <section aria-label="Helper's chat">
            <button type="button" onClick={() => setDrilled(null)}>
              Close
            </button>
            {child.snapshot.messages.map((m) => (
              <Message key={m.id} message={m} />
            ))}
          </section>
        )}
      </main>

      <aside>
        <Queue label="Waiting for you" requests={[...chatApprovals, ...executions, ...workflow]} />
        <Tray label="Background runs" runs={runs.unboundRuns} agent={agent} onDrillIn={setDrilled} />
      </aside>

      <Showcase {...props} />
    </div>
  );
}

function Message({ message }: { message: UIMessage }) {
  return (
    <article data-role={message.role} aria-label={message.role === "user" ? "You" : "Agent"}>
      {message.parts.map((p: Part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; a part never moves once shown.
        p.type === "text" ? <p key={`${message.id}:${i}`}>{p.text}</p> : null,
      )}
    </article>
  );
}

/** One approval card with every part. */
function Card({ request }: { request: ApprovalRequest }) {
  return (
    <ApprovalCard.Root request={request}>
      <ApprovalCard.Title /> <ApprovalCard.Risk />
      <ApprovalCard.Summary />
      <ApprovalCard.Permissions />
      <ApprovalCard.Arguments />
      <ApprovalCard.Expiry />
      <ApprovalCard.Approve>Approve</ApprovalCard.Approve>
      <ApprovalCard.Deny>Deny</ApprovalCard.Deny>
      <ApprovalCard.DenyReason>
        <ApprovalCard.DenyReasonInput placeholder="Reason (optional)" rows={1} />
        <ApprovalCard.Deny>Deny with this reason</ApprovalCard.Deny>
      </ApprovalCard.DenyReason>
      <ApprovalCard.Confirm>
        <ApprovalCard.ConfirmOverlay />
        <ApprovalCard.ConfirmContent>
          <ApprovalCard.ConfirmTitle />
          <ApprovalCard.ConfirmDescription />
          <ApprovalCard.ConfirmCancel>Cancel</ApprovalCard.ConfirmCancel>
          <ApprovalCard.ConfirmAction>Approve</ApprovalCard.ConfirmAction>
        </ApprovalCard.ConfirmContent>
      </ApprovalCard.Confirm>
      <ApprovalCard.Status />
    </ApprovalCard.Root>
  );
}

function Queue({ label, requests }: { label: string; requests: ApprovalRequest[] }) {
  return (
    <ApprovalQueue.Root requests={requests} aria-label={label}>
      <h2>
        {label} (<ApprovalQueue.Count />)
      </h2>
      <ApprovalQueue.ApproveAll>Approve all</ApprovalQueue.ApproveAll>
      <ApprovalQueue.DenyAll>Deny all</ApprovalQueue.DenyAll>
      <ApprovalQueue.List>
        {(request) => (
          <ApprovalQueue.Item key={request.id} request={request}>
            <Card request={request} />
          </ApprovalQueue.Item>
        )}
      </ApprovalQueue.List>
    </ApprovalQueue.Root>
  );
}

function Tray({
  label,
  runs,
  agent,
  onCancel,
  onDrillIn,
}: {
  label: string;
  runs: readonly Run[];
  agent?: Parameters<typeof RunTray.Root>[0]["agent"];
  onCancel?: (run: Run) => void;
  onDrillIn?: (run: Run) => void;
}) {
  return (
    <RunTray.Root
      runs={runs}
      agent={agent}
      onCancel={onCancel}
      onDrillIn={onDrillIn}
      defaultOpen
      aria-label={label}
    >
      <RunTray.Trigger>
        {label} <RunTray.Badge />
      </RunTray.Trigger>
      <RunTray.List>
        {() => (
          <RunTray.Item>
            <RunTray.Icon />
            <RunTray.Title /> <RunTray.Status /> <RunTray.Elapsed />
            <RunTray.Progress>
              <Progress.Indicator />
            </RunTray.Progress>
            <RunTray.Phase /> <RunTray.Message />
            <RunTray.Milestones />
            <RunTray.Stalled />
            <RunTray.Error />
            <RunTray.Cancel />
            <RunTray.DrillIn />
            <RunTray.Dismiss />
          </RunTray.Item>
        )}
      </RunTray.List>
      <RunTray.Empty>No background runs.</RunTray.Empty>
      <RunTray.Announcer />
    </RunTray.Root>
  );
}

/** A child run from the live store, re-rendered only when that run changes (`useAgentToolRun`). */
function LiveRun({
  store,
  runId,
  onDrillIn,
}: {
  store: AgentToolRuns;
  runId: string;
  onDrillIn: (run: Run) => void;
}) {
  const run = useAgentToolRun(store, runId);
  if (!run) return null;
  return <RunCard run={run} onDrillIn={onDrillIn} />;
}

/** A child run with every part, its progress bar and its milestones. */
function RunCard({ run, onDrillIn }: { run: Run; onDrillIn?: (run: Run) => void }) {
  return (
    <AgentToolRun.Root run={run} onDrillIn={onDrillIn}>
      <AgentToolRun.Header>
        <AgentToolRun.Icon /> <AgentToolRun.Title /> <AgentToolRun.AgentType /> <AgentToolRun.Status />{" "}
        <AgentToolRun.Elapsed />
        <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <Progress.Root run={run}>
        <Progress.Indicator />
      </Progress.Root>
      <MilestoneTimeline.Announcer run={run} />
      <MilestoneTimeline.Root run={run} expected={["sources-gathered", "outline-done", "report-written"]}>
        <MilestoneTimeline.List>
          {() => (
            <MilestoneTimeline.Item>
              <MilestoneTimeline.Name /> <MilestoneTimeline.Time /> <MilestoneTimeline.Data />
            </MilestoneTimeline.Item>
          )}
        </MilestoneTimeline.List>
      </MilestoneTimeline.Root>
      <AgentToolRun.Summary />
      <AgentToolRun.Result maxLines={3} maxLength={240}>
        <AgentToolRun.ResultText />
        <AgentToolRun.ResultToggle />
      </AgentToolRun.Result>
      <AgentToolRun.Content>
        <AgentToolRun.Input />
        <AgentToolRun.Transcript>
          {(part: Part, i: number) => (part.type === "text" ? <p key={i}>{part.text}</p> : null)}
        </AgentToolRun.Transcript>
        <AgentToolRun.Error />
        <AgentToolRun.Interrupted />
        <AgentToolRun.Retry>Retry</AgentToolRun.Retry>
        <AgentToolRun.Reconnect>Reconnect</AgentToolRun.Reconnect>
        <AgentToolRun.DrillIn>Open the helper's chat</AgentToolRun.DrillIn>
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

/** The components in the states an agent would bring them to, from fixture data. */
function Showcase(props: PageProps) {
  const [actions, setActions] = useState<string[]>([]);
  const request = useMemo(
    () => approvalRequest(props, (d) => setActions((all) => [...all, d.approved ? "approved" : "denied"])),
    [props],
  );
  const running = useMemo(() => runningRun(props), [props]);
  const finished = useMemo(() => finishedRun(props), [props]);
  const session = useMemo(() => liveViewSession(props), [props]);
  const events = useMemo<AgentEventMessage[]>(() => agentEvents(), []);
  return (
    <section aria-label="Showcase">
      <h2>Showcase</h2>
      <RunCard run={running} />
      <RunCard run={finished} />
      <Progress.Root value={null} aria-label="Waiting for the first progress">
        <Progress.Indicator />
      </Progress.Root>
      <Tray
        label="Fixture runs"
        runs={[running, finished]}
        onCancel={(run) => setActions((all) => [...all, `cancel ${run.runId}`])}
      />
      <Card request={request} />
      <Queue label="Fixture approvals" requests={[request]} />
      <p>Actions taken: {actions.join(", ") || "none"}</p>
      <LiveView.Root
        session={session}
        allowedOrigins={[props.liveViewOrigin]}
        allowLoopbackHttp
        aria-label="The agent's browser"
      >
        <LiveView.ModeSwitch />
        <LiveView.TakeOver />
        <LiveView.Continue />
        <LiveView.OpenInNewTab />
        <LiveView.TabList />
        <LiveView.Panels>
          {() => (
            <LiveView.Panel>
              <LiveView.Frame title="Remote browser" />
              <LiveView.Refused />
            </LiveView.Panel>
          )}
        </LiveView.Panels>
        <LiveView.Error />
        <LiveView.Status />
      </LiveView.Root>
      {events.map((m) => (
        <AgentEvent.Root key={m.id} message={m}>
          <AgentEvent.Label /> <AgentEvent.Text />
        </AgentEvent.Root>
      ))}
    </section>
  );
}
