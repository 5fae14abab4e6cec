/**
 * ChatApprovals without React: fed by a ChatSession replaying what the real AIChatAgent sent in the recorded
 * pay scenario, and by chat doubles; what it sends is counted on the wire (the frames the connection got).
 */
import type { UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  replayTranscript,
  type ScriptedAgent,
  scriptedAgent,
} from "../../../../test-support/scripted-agent.ts";
import { loadTranscript } from "../../../../test-support/transcripts.ts";
import { until } from "../../test/helpers.ts";
import { ChatSession } from "../chat-session.ts";
import { CHAT_SESSION, ChatApprovals, type ChatApprovalsTarget } from "./chat-approvals.ts";

const msg = (id: string, parts: unknown[]): UIMessage =>
  ({ id, role: "assistant", parts }) as unknown as UIMessage;
const requested = (tc: string, extra: Record<string, unknown> = {}) => ({
  type: "tool-processPayment",
  toolCallId: tc,
  state: "approval-requested",
  input: { amount: 1 },
  approval: { id: `ap-${tc}` },
  ...extra,
});
const responded = (tc: string, approved: boolean) => ({
  ...requested(tc),
  state: "approval-responded",
  approval: { id: `ap-${tc}`, approved },
});

/** A chat hook's result as a test double: the messages, and every decision sent through it. */
function chatDouble(messages: UIMessage[]) {
  const sent: unknown[] = [];
  const chat: ChatApprovalsTarget & { sent: unknown[] } = {
    messages,
    sent,
    addToolApprovalResponse: (r) => void sent.push({ approval: r }),
    addToolOutput: (o) => void sent.push({ output: o }),
  };
  return chat;
}

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const d of disposers.splice(0)) d();
});

function session(agent: ScriptedAgent) {
  const chat = new ChatSession({ agent, getInitialMessages: null, throttleMs: 0 });
  disposers.push(() => chat.dispose());
  return chat;
}
function approvals(...args: ConstructorParameters<typeof ChatApprovals>) {
  const store = new ChatApprovals(...args);
  disposers.push(() => store.dispose());
  return store;
}

describe("ChatApprovals against the real server's pay transcript", () => {
  it("lists the approval, sends one decision for two stores on the connection, and is approved once the server says so", async () => {
    const agent = scriptedAgent();
    const played = replayTranscript(agent, loadTranscript("ai-chat", "pay"));
    const chat = session(agent);
    const a = approvals({ chat, agent });
    const b = approvals({ chat, agent });
    await chat.sendMessage({ text: "please pay ACME 250" });
    await until(() => a.getSnapshot().length === 1, "the approval request");
    const [request] = a.getSnapshot();
    expect(request).toMatchObject({
      source: "chat",
      name: "processPayment",
      arguments: { amount: 250, recipient: "ACME" },
      status: "requested",
      online: true,
    });

    // Approve through one store and Deny through the other in the same tick: only the first goes out.
    expect(a.getSnapshot()[0]?.decide({ approved: true })).toBe(true);
    expect(b.getSnapshot()[0]?.decide({ approved: false })).toBe(false);
    expect(a.getSnapshot()[0]?.decide({ approved: true })).toBe(false);
    expect(agent.sent.filter((f) => f.type === "cf_agent_tool_approval")).toEqual([
      expect.objectContaining({ approved: true, toolCallId: request?.toolCallId }),
    ]);
    expect(b.getSnapshot()[0]).toMatchObject({
      status: "submitting",
      outcome: { approved: true, by: "here" },
    });

    await played;
    await until(() => a.getSnapshot()[0]?.status === "approved", "approved");
    expect(b.getSnapshot()[0]?.status).toBe("approved");
    expect(agent.sent.filter((f) => f.type === "cf_agent_tool_approval")).toHaveLength(1);
    expect(agent.sent.filter((f) => f.type === "cf_agent_tool_result")).toHaveLength(0);
  });
});

describe("ChatApprovals with a chat double", () => {
  it("a store on another connection keeps its own decisions", () => {
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const one = approvals({ chat, agent: scriptedAgent() });
    const other = approvals({ chat, agent: scriptedAgent() });
    expect(one.decide("ap-t1", { approved: true })).toBe(true);
    expect(other.decide("ap-t1", { approved: true })).toBe(true);
    expect(chat.sent).toHaveLength(2);
  });

  it("submitting until a frame shows the tool call settled; frames about other calls do not confirm", () => {
    const agent = scriptedAgent();
    const chat = chatDouble([msg("m", [requested("t1"), requested("t2")])]);
    const store = approvals({ chat, agent });
    let changes = 0;
    store.subscribe(() => changes++);
    const update = (...parts: unknown[]) => ({ type: "cf_agent_message_updated", message: msg("m", parts) });
    agent.receive(update(responded("t1", true), requested("t2")));
    expect(store.decide("ap-t1", { approved: true })).toBe(true);
    // The chat applies its local patch; the server has not said anything yet.
    chat.messages = [msg("m", [responded("t1", true), requested("t2")])];
    store.setOptions({ chat });
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    agent.receive(update(requested("t1"), responded("t2", true)));
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    const before = changes;
    agent.receive(update(responded("t1", true), requested("t2")));
    expect(store.getSnapshot()[0]).toMatchObject({ status: "approved", outcome: { by: "here" } });
    expect(changes).toBeGreaterThan(before);
  });

  it("a continuation's tool output confirms the decision", () => {
    const agent = scriptedAgent();
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = approvals({ chat, agent });
    store.decide("ap-t1", { approved: true });
    chat.messages = [msg("m", [responded("t1", true)])];
    store.setOptions({ chat });
    const body = JSON.stringify({ type: "tool-output-available", toolCallId: "t1", output: { ok: true } });
    agent.receive({ type: "cf_agent_use_chat_response", id: "r", body, done: false });
    expect(store.getSnapshot()[0]?.status).toBe("approved");
  });

  it("Deny with a reason goes out as an output-error tool output", () => {
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = approvals({ chat });
    expect(store.getSnapshot()[0]?.decide({ approved: false, reason: " Unknown payee " })).toBe(true);
    expect(chat.sent).toEqual([
      {
        output: {
          toolCallId: "t1",
          tool: "processPayment",
          toolName: "processPayment",
          state: "output-error",
          errorText: "Unknown payee",
        },
      },
    ]);
  });

  it("checks a click against the live transcript, not the last render's (a snapshot removed the approval)", () => {
    // The render still shows the request; the session behind it already adopted a transcript without it.
    const chat = chatDouble([msg("a1", [requested("t1")])]);
    let live: UIMessage[] = [msg("a1", [requested("t1")])];
    chat[CHAT_SESSION] = {
      getSnapshot: () => ({ messages: live }),
      subscribe: () => () => {},
      addToolApprovalResponse: chat.addToolApprovalResponse,
      addToolOutput: chat.addToolOutput,
    };
    const store = approvals({ chat });
    expect(store.getSnapshot().map((r) => r.status)).toEqual(["requested"]);
    live = [];
    expect(store.decide("ap-t1", { approved: true })).toBe(false);
    expect(chat.sent).toEqual([]);
  });

  it("sends nothing the chat store would refuse: a repeated approval id whose latest part has no tool call id", () => {
    const chat = chatDouble([
      msg("a1", [requested("t1")]),
      msg("a2", [{ ...requested("t1"), toolCallId: "" }]),
    ]);
    const store = approvals({ chat });
    expect(store.decide("ap-t1", { approved: true })).toBe(false);
    expect(chat.sent).toEqual([]);
  });

  it("refuses while offline, after expiry, and once the part is no longer pending", () => {
    const agent = scriptedAgent({}, "closed");
    const chat = chatDouble([
      msg("m", [requested("t1", { input: { expiresAt: 5_000 } }), responded("t2", true)]),
    ]);
    const store = approvals({ chat, agent });
    expect(store.getSnapshot()[0]).toMatchObject({ online: false, expiresAt: 5_000_000 });
    expect(store.decide("ap-t1", { approved: true }, 0)).toBe(false);
    agent.setStatus("open");
    expect(store.getSnapshot()[0]?.online).toBe(true);
    expect(store.decide("ap-t1", { approved: true }, 5_000_000)).toBe(false);
    expect(store.decide("ap-t2", { approved: true }, 0)).toBe(false);
    expect(chat.sent).toEqual([]);
    expect(store.decide("ap-t1", { approved: true }, 0)).toBe(true);
  });

  it("decided without this tab: answered elsewhere if it was shown pending, else history", () => {
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = approvals({ chat });
    expect(store.getSnapshot()[0]?.status).toBe("requested");
    chat.messages = [msg("m", [responded("t1", false), responded("t2", true)])];
    store.setOptions({ chat });
    expect(store.getSnapshot().map((r) => [r.key, r.status, r.outcome?.by])).toEqual([
      ["ap-t1", "answered-elsewhere", "elsewhere"],
      ["ap-t2", "approved", "unknown"],
    ]);
  });

  it("the same snapshot until something changes; a server render counts the connection as down", () => {
    const agent = scriptedAgent();
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = new ChatApprovals({ chat, agent }, false);
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    expect(store.getServerSnapshot()[0]?.online).toBe(false);
    expect(store.getSnapshot()[0]?.online).toBe(true);
    // Made without attaching: nothing listens until a view mounts it.
    expect(agent.listenerCount("message")).toBe(0);
    store.attach();
    expect(agent.listenerCount("message")).toBe(1);
    store.dispose();
    expect(agent.listenerCount("message")).toBe(0);
  });
});

describe("ChatApprovals when the socket closes with a decision unconfirmed (the agent restarted)", () => {
  const update = (...parts: unknown[]) => ({ type: "cf_agent_message_updated", message: msg("m", parts) });

  it("the transcript read back still asks: interrupted, asked again once, nothing resent by itself", () => {
    const agent = scriptedAgent();
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = approvals({ chat, agent });
    expect(store.decide("ap-t1", { approved: true })).toBe(true);
    chat.messages = [msg("m", [responded("t1", true)])];
    store.setOptions({ chat });
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    agent.setStatus("closed");
    agent.setStatus("open");
    // After the restart the server's transcript has the part still asking: the decision never landed.
    chat.messages = [msg("m", [requested("t1")])];
    store.setOptions({ chat });
    const [lost] = store.getSnapshot();
    expect(lost).toMatchObject({ status: "interrupted", outcome: { approved: true, by: "here" } });
    expect(lost?.error).toMatch(/restarted/);
    expect(chat.sent).toHaveLength(1);
    // Asked again: one more decision goes out, and only one.
    expect(lost?.decide({ approved: false })).toBe(true);
    expect(store.decide("ap-t1", { approved: true })).toBe(false);
    expect(chat.sent).toEqual([
      { approval: { id: "ap-t1", approved: true } },
      { approval: { id: "ap-t1", approved: false } },
    ]);
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    const denied = { ...requested("t1"), state: "output-denied", approval: { id: "ap-t1", approved: false } };
    chat.messages = [msg("m", [denied])];
    store.setOptions({ chat });
    agent.receive(update(denied));
    expect(store.getSnapshot()[0]).toMatchObject({ status: "denied", outcome: { approved: false } });
  });

  it("the server applied it before the drop: a frame after the reconnect settles it, and it is not asked again", () => {
    const agent = scriptedAgent();
    const chat = chatDouble([msg("m", [requested("t1")])]);
    const store = approvals({ chat, agent });
    store.decide("ap-t1", { approved: true });
    chat.messages = [msg("m", [responded("t1", true)])];
    store.setOptions({ chat });
    agent.setStatus("closed");
    agent.setStatus("open");
    expect(store.getSnapshot()[0]?.status).toBe("submitting");
    expect(store.decide("ap-t1", { approved: false })).toBe(false);
    agent.receive(update(responded("t1", true)));
    expect(store.getSnapshot()[0]).toMatchObject({ status: "approved", outcome: { by: "here" } });
    expect(chat.sent).toHaveLength(1);
  });
});

describe("ChatApprovals and an approval stored without an id (issue 30)", () => {
  it("lists it under its tool call id, and a decision reaches the server for that call", () => {
    // An older or hand-seeded transcript: the part asks for approval but carries no `approval` record. The
    // servers answer it by its tool call id (docs/protocol.md#approvals).
    const agent = scriptedAgent();
    const seeded = msg("a1", [
      {
        type: "tool-processPayment",
        toolCallId: "tc-old",
        state: "approval-requested",
        input: { amount: 1 },
      },
    ]);
    const chat = new ChatSession({
      agent,
      getInitialMessages: null,
      resume: false,
      throttleMs: 0,
      messages: [seeded],
    });
    disposers.push(() => chat.dispose());
    const store = approvals({ chat, agent });
    const [request] = store.getSnapshot();
    expect(request).toMatchObject({ key: "tc-old", status: "requested" });
    expect(request?.decide({ approved: true })).toBe(true);
    expect(agent.sent.filter((f) => f.type === "cf_agent_tool_approval")).toEqual([
      { type: "cf_agent_tool_approval", toolCallId: "tc-old", approved: true, autoContinue: true },
    ]);
    expect(chat.getSnapshot().messages[0]?.parts[0]).toMatchObject({
      state: "approval-responded",
      approval: { id: "tc-old", approved: true },
    });
  });

  it("the chat store's addToolApprovalResponse takes the tool call id as the approval id", () => {
    const agent = scriptedAgent();
    const errors: string[] = [];
    const chat = new ChatSession({
      agent,
      getInitialMessages: null,
      resume: false,
      throttleMs: 0,
      onError: (e) => errors.push(e.message),
      messages: [
        msg("a1", [
          { type: "tool-processPayment", toolCallId: "tc-old", state: "approval-requested", input: {} },
        ]),
      ],
    });
    disposers.push(() => chat.dispose());
    chat.addToolApprovalResponse({ id: "tc-old", approved: false });
    expect(errors).toEqual([]);
    expect(agent.sent.filter((f) => f.type === "cf_agent_tool_approval")).toEqual([
      { type: "cf_agent_tool_approval", toolCallId: "tc-old", approved: false, autoContinue: true },
    ]);
  });
});
