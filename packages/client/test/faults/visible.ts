/**
 * What a user sees of a chat and its child runs, with every id the server or client mints per run replaced
 * by a placeholder numbered by first appearance: two runs of the same scenario compare equal exactly when a
 * user could not tell them apart.
 */
import type { AgentToolRunState, AgentToolRunsState } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { Normalizer } from "../../../../test-support/normalize.ts";
import type { ChatSnapshot } from "../../src/chat-session.ts";

type Part = Record<string, unknown> & { type: string };

/** A message part as shown: text and its streaming state, tool state, input, output, error, decision. */
function visiblePart(p: Part): Record<string, unknown> {
  if (p.type === "text" || p.type === "reasoning") return { type: p.type, text: p.text, state: p.state };
  if (p.type.startsWith("tool-") || p.type === "dynamic-tool") {
    const approval = p.approval as { approved?: unknown } | undefined;
    return {
      type: p.type,
      toolCallId: p.toolCallId,
      state: p.state,
      input: p.input,
      output: p.output,
      errorText: p.errorText,
      ...(approval ? { approved: approval.approved } : {}),
    };
  }
  if (p.type.startsWith("data-")) return { type: p.type, data: p.data };
  return { type: p.type };
}

/** Parts without the step markers a UI never renders. */
export const visibleParts = (parts: readonly unknown[]) =>
  (parts as Part[]).filter((p) => p.type !== "step-start").map(visiblePart);

export const visibleMessages = (messages: readonly UIMessage[]) =>
  messages.map((m) => ({ role: m.role, parts: visibleParts(m.parts) }));

/** A run as a run tray shows it: status, transcript, result, progress bar and milestone timeline. */
function visibleRun(r: AgentToolRunState) {
  const { progress } = r;
  return {
    runId: r.runId,
    parentToolCallId: r.parentToolCallId,
    agentType: r.agentType,
    order: r.order,
    status: r.status,
    parts: visibleParts(r.parts),
    summary: r.summary,
    error: r.error,
    reason: r.reason,
    childStillRunning: r.childStillRunning,
    progress: progress && {
      fraction: progress.fraction,
      message: progress.message,
      phase: progress.phase,
      milestone: progress.milestone,
    },
    milestones: r.milestones.map((m) => ({ name: m.name, sequence: m.sequence, data: m.data })),
  };
}

const byDisplay = (a: AgentToolRunState, b: AgentToolRunState) =>
  a.order - b.order || a.agentType.localeCompare(b.agentType);

/** The chat flags a UI renders (spinner, stop button, banners) and its transcript. */
export function visibleChat(s: ChatSnapshot) {
  return {
    status: s.status,
    error: s.error?.message,
    isStreaming: s.isStreaming,
    isServerStreaming: s.isServerStreaming,
    isToolContinuation: s.isToolContinuation,
    isRecovering: s.isRecovering,
    messages: visibleMessages(s.messages),
  };
}

/** Runs in display order, each with the group it is listed in (beside its tool call, or unbound). */
export function visibleRuns(s: AgentToolRunsState) {
  return Object.values(s.runsById)
    .sort(byDisplay)
    .map((r) => ({
      ...visibleRun(r),
      group: (r.parentToolCallId === undefined
        ? s.unboundRuns
        : (s.runsByToolCallId[r.parentToolCallId] ?? [])
      ).map((x) => x.runId),
    }));
}

/** Replaces minted ids (messages, tool calls, approvals, runs, executions) and timestamps by placeholders. */
export function normalised<T>(value: T): unknown {
  const norm = new Normalizer();
  norm.learn(value);
  return norm.apply(value);
}
