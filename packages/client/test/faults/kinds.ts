/**
 * Scenario kinds the fault suites replay: what a user does, phase by phase, against the demo agents. A phase
 * is one user action (send, approve, deny) and ends when the server has finished what it started and the tab
 * shows what the next action needs. The reference for a kind is the same phases run without faults.
 */
import type { ChatSessionOptions } from "../../src/chat-session.ts";
import type { Host, Tab } from "./harness.ts";

export interface Phase {
  /** The user's action. */
  act(t: Tab): void | Promise<void>;
  /** The tab shows what the next action needs (default: nothing beyond being idle). */
  ready?(t: Tab): boolean;
}

export interface Kind {
  id: string;
  host: Host;
  phases: Phase[];
  chat?: Partial<ChatSessionOptions>;
  /** Only text is streamed: a recovery after a restart can finish the turn as if nothing happened. */
  textOnly?: boolean;
  /** Child runs take part. */
  runs?: boolean;
}

type ToolPart = { type: string; state?: string; approval?: { id: string } };

const toolParts = (t: Tab) =>
  t.chat
    .getSnapshot()
    .messages.flatMap((m) => m.parts)
    .filter((p) => p.type.startsWith("tool-")) as ToolPart[];

/** Answers the approval request a user sees; fails the run when there is none to answer. */
export function decide(t: Tab, tool: string, approved: boolean) {
  const part = toolParts(t).find((p) => p.type === `tool-${tool}` && p.state === "approval-requested");
  if (!part?.approval) throw new Error(`no approval request for ${tool} is shown`);
  t.chat.addToolApprovalResponse({ id: part.approval.id, approved });
}

const asking = (tool: string) => (t: Tab) =>
  toolParts(t).some((p) => p.type === `tool-${tool}` && p.state === "approval-requested");

const send = (text: string): Phase => ({ act: (t) => t.chat.sendMessage({ text }) });

const lastText = (t: Tab) =>
  (t.chat.getSnapshot().messages.at(-1)?.parts ?? [])
    .map((p) => (p.type === "text" ? (p as { text: string }).text : ""))
    .join("");

/** Chat kinds: plain and long text, a server tool, an approval either way, a client tool. */
export function chatKinds(host: Host): Kind[] {
  return [
    { id: `${host}/hello`, host, textOnly: true, phases: [send("hello")] },
    { id: `${host}/slow`, host, textOnly: true, phases: [send("slow stream please")] },
    { id: `${host}/weather`, host, phases: [send("what's the weather in Lisbon?")] },
    {
      id: `${host}/pay-approve`,
      host,
      phases: [
        { ...send("please pay ACME 250"), ready: asking("processPayment") },
        { act: (t) => decide(t, "processPayment", true) },
      ],
    },
    {
      id: `${host}/pay-deny`,
      host,
      phases: [
        { ...send("please pay ACME 99"), ready: asking("processPayment") },
        { act: (t) => decide(t, "processPayment", false) },
      ],
    },
    {
      id: `${host}/locate`,
      host,
      phases: [send("locate me please")],
      chat: {
        onToolCall: ({ toolCall, addToolOutput }) =>
          addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 38.72, lng: -9.14 } }),
      },
    },
  ];
}

/** Kinds with child runs: one awaited run, three in parallel, failing ones, a detached run with notify. */
export function runKinds(host: Host): Kind[] {
  return [
    { id: `${host}/research`, host, runs: true, phases: [send("research durable objects for me")] },
    { id: `${host}/fanout`, host, runs: true, phases: [send("fanout please")] },
    { id: `${host}/fail`, host, runs: true, phases: [send("this will fail")] },
    {
      id: `${host}/background`,
      host,
      runs: true,
      phases: [
        {
          ...send("start background research on websockets"),
          // The turn ends at once; the phase ends with the follow-up turn the finished run triggers.
          ready: (t) => lastText(t).startsWith("Noted"),
        },
      ],
    },
  ];
}
