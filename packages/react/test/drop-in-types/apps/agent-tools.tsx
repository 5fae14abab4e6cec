/**
 * `useAgentToolEvents` (agents-as-tools): the runs typed with the AI SDK's part union through the hook's type
 * argument, handed to components typed with the official `AgentToolRunState`.
 */
import { useAgentChat } from "@cloudflare/ai-chat/react";
import type { AgentToolRunState } from "agents/chat";
import { useAgent, useAgentToolEvents } from "agents/react";
import type { UIMessage } from "ai";

type Part = UIMessage["parts"][number];

function statusLabel(status: AgentToolRunState["status"]): string {
  return status === "running" ? "Working…" : status;
}

function Progress({ progress }: { progress: NonNullable<AgentToolRunState["progress"]> }) {
  return <progress value={progress.fraction ?? 0} max={1} title={progress.message ?? progress.phase} />;
}

function PartView({ parts }: { parts: Part[] }) {
  return <>{parts.map((p, i) => (p.type === "text" ? <p key={`${p.type}-${i}`}>{p.text}</p> : null))}</>;
}

function RunCard({ run }: { run: AgentToolRunState<Part> }) {
  return (
    <article>
      <h3>
        {run.display?.name ?? run.agentType} {statusLabel(run.status)} #{run.order}
      </h3>
      {run.progress ? <Progress progress={run.progress} /> : null}
      {run.milestones?.map((m) => (
        <span key={m.sequence}>{m.name}</span>
      ))}
      <PartView parts={run.parts} />
      {run.error ?? run.summary} {run.reason} {run.childStillRunning ? "still running" : null}
      <a href={`/agents/${run.subAgent.agent}/${run.subAgent.name}`}>open</a>
    </article>
  );
}

function Runs({ runs }: { runs: AgentToolRunState[] }) {
  return <p>{runs.filter((r) => r.status === "running").length} running</p>;
}

function Chat({ messages }: { messages: UIMessage[] }) {
  return <p>{messages.length}</p>;
}

export function Research() {
  const agent = useAgent({ agent: "research-agent" });
  const chat = useAgentChat({ agent });
  const tools = useAgentToolEvents<Part>({ agent });
  const plain = useAgentToolEvents({ agent });
  const byCall: Record<string, AgentToolRunState<Part>[]> = tools.runsByToolCallId;
  const all: AgentToolRunState<Part>[] = Object.values(tools.runsById);
  return (
    <div>
      <Chat messages={chat.messages} />
      {chat.messages.flatMap((m) =>
        m.parts.map((p) =>
          "toolCallId" in p
            ? tools.getRunsForToolCall(p.toolCallId).map((run) => <RunCard key={run.runId} run={run} />)
            : null,
        ),
      )}
      <Runs runs={plain.unboundRuns} />
      <Runs runs={all} />
      {Object.keys(byCall).length}
      <button type="button" onClick={() => tools.resetLocalState()}>
        Forget
      </button>
    </div>
  );
}
