/**
 * Data for the components that need an agent to have done something first (a child run with progress and
 * milestones, a background run, an approval with an expiry, a Live View session, server-injected messages).
 * Everything is derived from the props, so the server and the browser build the very same objects.
 */
import type {
  AgentToolRunState,
  ApprovalDecision,
  ApprovalRequest,
  LiveViewSession,
} from "@runboard/protocol";
import type { AgentEventMessage } from "@runboard/react";
import type { PageProps } from "./props.ts";

/** A child run still working: progress at 60 %, two milestones reached. */
export function runningRun(props: PageProps): AgentToolRunState {
  const { now } = props;
  return {
    runId: "agent-tool:call-research",
    agentType: "Researcher",
    parentToolCallId: "call-research",
    inputPreview: { query: "durable objects" },
    order: 0,
    display: { name: "Research", icon: "🔎" },
    status: "running",
    parts: [{ type: "text", text: "Reading the second source.", state: "streaming" }],
    progress: { fraction: 0.6, phase: "reading", message: "Reading 2 sources", at: now - 2_000 },
    milestones: [
      { name: "sources-gathered", sequence: 1, at: now - 40_000, data: { sources: 2 } },
      { name: "outline-done", sequence: 2, at: now - 20_000, fraction: 0.5 },
    ],
    subAgent: { agent: "Researcher", name: "agent-tool:call-research" },
  };
}

/** A background run that finished with a summary. */
export function finishedRun(props: PageProps): AgentToolRunState {
  const { now } = props;
  return {
    runId: "agent-tool:call-summary",
    agentType: "Writer",
    order: 1,
    display: { name: "Summary", icon: "✎" },
    status: "completed",
    parts: [{ type: "text", text: "Durable Objects give every agent its own state.", state: "done" }],
    summary: "Durable Objects give every agent its own state.",
    progress: { fraction: 1, phase: "done", at: now - 5_000 },
    milestones: [{ name: "draft-written", sequence: 1, at: now - 8_000 }],
    subAgent: { agent: "Writer", name: "agent-tool:call-summary" },
  };
}

/** A workflow-style approval that expires in ten minutes; deciding it only records the decision here. */
export function approvalRequest(props: PageProps, onDecide: (d: ApprovalDecision) => void): ApprovalRequest {
  const { now } = props;
  return {
    id: "workflow:refund-42",
    source: "workflow",
    key: "refund-42",
    name: "refundOrder",
    title: "Refund order 42",
    summary: "Refunds 120 EUR to the customer's card",
    risk: "medium",
    permissions: ["payments:refund"],
    arguments: { orderId: 42, amount: 120, currency: "EUR" },
    argumentsComplete: true,
    requestedAt: now - 60_000,
    expiresAt: now + 10 * 60_000,
    status: "requested",
    online: true,
    decide: (decision) => {
      onDecide(decision);
      return true;
    },
  };
}

/** A Live View session whose one tab is a page this app's own server answers. */
export function liveViewSession(props: PageProps): LiveViewSession {
  return {
    sessionId: "session-1",
    targets: [
      {
        targetId: "target-1",
        type: "page",
        title: "Sign in",
        pageUrl: "https://shop.example/login",
        url: `${props.liveViewOrigin}/live-view/target-1`,
      },
    ],
    expiresInMs: 60 * 60_000,
  };
}

/** Two messages the server injects: a background run's completion and a milestone narration. */
export function agentEvents(): AgentEventMessage[] {
  return [
    {
      id: "detached-ms:agent-tool:call-summary:draft-written",
      role: "assistant",
      metadata: {
        source: "detached-agent-tool",
        runId: "agent-tool:call-summary",
        agentType: "Writer",
        milestone: "draft-written",
      },
      parts: [{ type: "text", text: "The writer finished a draft." }],
    },
    {
      id: "detached-finish:agent-tool:call-summary:completed",
      role: "assistant",
      metadata: {
        source: "detached-agent-tool",
        runId: "agent-tool:call-summary",
        agentType: "Writer",
        status: "completed",
      },
      parts: [{ type: "text", text: "The background summary is ready." }],
    },
  ];
}
