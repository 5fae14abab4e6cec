import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  type ChatApprovalEntry,
  ChatApprovalTracker,
  chatApprovalEntries,
  chatStatus,
  settledToolCallIds,
} from "./chat-approvals.ts";

const msg = (id: string, parts: unknown[]): UIMessage =>
  ({ id, role: "assistant", parts }) as unknown as UIMessage;

const requested = (tc: string, input: unknown = { amount: 1 }, extra: Record<string, unknown> = {}) => ({
  type: "tool-processPayment",
  toolCallId: tc,
  state: "approval-requested",
  input,
  approval: { id: `ap-${tc}` },
  ...extra,
});

describe("chatApprovalEntries", () => {
  it("lists parallel approvals in one message and approvals across messages, oldest first", () => {
    const messages = [
      msg("m1", [{ type: "text", text: "hi" }, requested("t1")]),
      msg("m2", [
        requested("t2"),
        requested("t3"),
        { type: "tool-getWeather", toolCallId: "t4", state: "input-available" },
      ]),
    ];
    const entries = chatApprovalEntries(messages);
    expect(entries.map((e) => [e.messageId, e.toolCallId, e.approvalId, e.pending])).toEqual([
      ["m1", "t1", "ap-t1", true],
      ["m2", "t2", "ap-t2", true],
      ["m2", "t3", "ap-t3", true],
    ]);
    expect(entries[0]?.toolName).toBe("processPayment");
  });

  it("reads what each settled state says was decided", () => {
    const parts = [
      { ...requested("a"), state: "approval-responded", approval: { id: "ap-a", approved: true } },
      { ...requested("b"), state: "approval-responded", approval: { id: "ap-b", approved: false } },
      { ...requested("c"), state: "output-denied", approval: { id: "ap-c", approved: false } },
      {
        ...requested("d"),
        state: "output-available",
        output: { ok: true },
        approval: { id: "ap-d", approved: true },
      },
      // Deny with a reason: an output-error whose text is the reason.
      { ...requested("e"), state: "output-error", errorText: "Too expensive" },
      // Approved, then the tool failed: still an approval.
      {
        ...requested("f"),
        state: "output-error",
        errorText: "503",
        approval: { id: "ap-f", approved: true },
      },
    ];
    const decided = Object.fromEntries(
      chatApprovalEntries([msg("m", parts)]).map((e) => [e.toolCallId, e.decided]),
    );
    expect(decided).toEqual({
      a: { approved: true },
      b: { approved: false },
      c: { approved: false },
      d: { approved: true },
      e: { approved: false, reason: "Too expensive" },
      f: { approved: true },
    });
  });

  it("leaves out tool parts that never asked, and approvals without an id", () => {
    const parts = [
      { type: "tool-x", toolCallId: "x", state: "output-available", output: 1 },
      { type: "tool-y", toolCallId: "y", state: "approval-requested", approval: {} },
      { type: "tool-z", toolCallId: "z", state: "input-available", approval: { id: "ap-z" } },
    ];
    expect(chatApprovalEntries([msg("m", parts)])).toEqual([]);
  });

  it("takes name, summary, risk and permissions from Think's descriptor and the expiry from the input", () => {
    const descriptor = {
      action: "continueAfterLogin",
      summary: "Continue browsing as the signed-in user",
      risk: "medium",
      permissions: ["browser:session"],
    };
    const [e] = chatApprovalEntries([
      msg("m", [
        requested(
          "t",
          { page: "/orders", expiresAt: "2027-01-01T00:00:00Z" },
          {
            approval: { id: "ap-t", descriptor },
          },
        ),
      ]),
    ]);
    expect(e?.descriptor).toEqual({
      name: "continueAfterLogin",
      summary: "Continue browsing as the signed-in user",
      risk: "medium",
      permissions: ["browser:session"],
    });
    expect(e?.expiresAt).toBe(Date.UTC(2027, 0, 1));
  });
});

describe("settledToolCallIds", () => {
  const frame = (f: unknown) => JSON.stringify(f);

  it("a message update names the tool calls it shows settled, not the ones still waiting", () => {
    const message = msg("m", [
      { ...requested("t1"), state: "approval-responded", approval: { id: "ap-t1", approved: true } },
      requested("t2"),
      { ...requested("t3"), state: "output-denied" },
    ]);
    expect(settledToolCallIds(frame({ type: "cf_agent_message_updated", message }))).toEqual(["t1", "t3"]);
    expect(settledToolCallIds(frame({ type: "cf_agent_chat_messages", messages: [message] }))).toEqual([
      "t1",
      "t3",
    ]);
  });

  it("a continuation's tool output settles its tool call", () => {
    const body = JSON.stringify({ type: "tool-output-available", toolCallId: "t1", output: {} });
    expect(
      settledToolCallIds(frame({ type: "cf_agent_use_chat_response", id: "r", body, done: false })),
    ).toEqual(["t1"]);
    const text = JSON.stringify({ type: "text-delta", id: "x", delta: "hi" });
    expect(
      settledToolCallIds(frame({ type: "cf_agent_use_chat_response", id: "r", body: text, done: false })),
    ).toEqual([]);
  });

  it("ignores other frames and garbage", () => {
    expect(settledToolCallIds(frame({ type: "cf_agent_state", state: {} }))).toEqual([]);
    expect(settledToolCallIds("{not json")).toEqual([]);
    expect(settledToolCallIds(undefined)).toEqual([]);
  });
});

describe("chatStatus", () => {
  const entry = (over: Partial<ChatApprovalEntry> = {}): ChatApprovalEntry => ({
    approvalId: "ap",
    toolCallId: "tc",
    messageId: "m",
    toolName: "pay",
    input: {},
    descriptor: {},
    pending: true,
    partState: "approval-requested",
    ...over,
  });
  const responded = (approved: boolean) =>
    entry({ pending: false, partState: "approval-responded", decided: { approved } });
  const local = (approved: boolean, reason?: string) => ({
    decision: { approved, ...(reason ? { reason } : {}) },
    phase: "sending" as const,
  });

  it("pending and undecided here: requested", () => {
    expect(chatStatus(entry(), undefined, false, true)).toEqual({ status: "requested" });
  });

  it("decided here: submitting until the server confirms, then approved or denied", () => {
    expect(chatStatus(responded(true), local(true), false, true)).toEqual({
      status: "submitting",
      outcome: { approved: true, by: "here" },
    });
    expect(chatStatus(responded(true), local(true), true, true)).toEqual({
      status: "approved",
      outcome: { approved: true, by: "here" },
    });
    // output-denied only ever comes from the server.
    const denied = entry({ pending: false, partState: "output-denied", decided: { approved: false } });
    expect(chatStatus(denied, local(false), false, true).status).toBe("denied");
    const withReason = entry({
      pending: false,
      partState: "output-error",
      decided: { approved: false, reason: "Too much" },
    });
    expect(chatStatus(withReason, local(false, "Too much"), true, true)).toEqual({
      status: "denied",
      outcome: { approved: false, reason: "Too much", by: "here" },
    });
  });

  it("a server update that undoes the local patch keeps it submitting", () => {
    expect(chatStatus(entry(), local(true), true, true).status).toBe("submitting");
  });

  it("the server applied a different decision first: answered elsewhere", () => {
    const denied = entry({ pending: false, partState: "output-denied", decided: { approved: false } });
    expect(chatStatus(denied, local(true), true, true)).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: false, by: "elsewhere" },
    });
  });

  it("decided without this page: answered elsewhere if seen pending, else history", () => {
    expect(chatStatus(responded(true), undefined, false, true)).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
    expect(chatStatus(responded(false), undefined, false, false)).toEqual({
      status: "denied",
      outcome: { approved: false, by: "unknown" },
    });
  });
});

describe("ChatApprovalTracker", () => {
  it("claims once, and only frames for its own decisions confirm", () => {
    const t = new ChatApprovalTracker();
    let changes = 0;
    t.subscribe(() => changes++);
    const update = (tc: string) =>
      JSON.stringify({
        type: "cf_agent_message_updated",
        message: msg("m", [
          { ...requested(tc), state: "approval-responded", approval: { id: tc, approved: true } },
        ]),
      });
    t.onFrame(update("t1"));
    expect(t.confirmed("t1")).toBe(false);
    expect(t.claim("chat:ap-t1", "t1", { approved: true })).toBe(true);
    expect(t.claim("chat:ap-t1", "t1", { approved: false })).toBe(false);
    t.onFrame(update("t2"));
    expect(t.confirmed("t2")).toBe(false);
    t.onFrame(update("t1"));
    expect(t.confirmed("t1")).toBe(true);
    expect(changes).toBe(2);
  });

  it("remembers approvals it saw pending", () => {
    const t = new ChatApprovalTracker();
    t.markSeen(chatApprovalEntries([msg("m", [requested("t1")])]));
    expect(t.seenPending("ap-t1")).toBe(true);
    expect(t.seenPending("ap-t2")).toBe(false);
  });
});
