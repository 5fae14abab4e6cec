import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { ServerFrame } from "../frames.ts";
import { findToolCallIdForApproval } from "../tool-parts.ts";
import { type ChatApprovalEntry, chatApprovalEntries, chatStatus, settledToolCallIds } from "./chat.ts";

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

  it("leaves out tool parts that never asked", () => {
    const parts = [
      { type: "tool-x", toolCallId: "x", state: "output-available", output: 1 },
      { type: "tool-z", toolCallId: "z", state: "input-available", approval: { id: "ap-z" } },
    ];
    expect(chatApprovalEntries([msg("m", parts)])).toEqual([]);
  });

  it("lists an approval stored without an id under its tool call id, the id the server gives it", () => {
    // An older or hand-seeded transcript: the servers answer such a part by its tool call id
    // (docs/protocol.md#approvals), so a card must be able to decide it.
    const parts = [
      { type: "tool-y", toolCallId: "y", state: "approval-requested", approval: {} },
      { type: "tool-w", toolCallId: "w", state: "approval-requested", input: { n: 1 } },
    ];
    const entries = chatApprovalEntries([msg("m", parts)]);
    expect(entries.map((e) => [e.approvalId, e.toolCallId, e.pending])).toEqual([
      ["y", "y", true],
      ["w", "w", true],
    ]);
    expect(findToolCallIdForApproval([msg("m", parts)], "w")).toBe("w");
  });

  it("leaves out an approval whose part has no tool call id: its answer could not name the tool call", () => {
    const parts = [requested(""), { ...requested("t1"), toolCallId: undefined }, requested("t2")];
    expect(chatApprovalEntries([msg("m", parts)]).map((e) => e.approvalId)).toEqual(["ap-t2"]);
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
  const frame = (f: unknown) => f as ServerFrame;

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

  it("ignores other frames, error responses and unparseable bodies", () => {
    expect(settledToolCallIds(frame({ type: "cf_agent_state", state: {} }))).toEqual([]);
    const body = JSON.stringify({ type: "tool-output-available", toolCallId: "t1", output: {} });
    expect(
      settledToolCallIds(
        frame({ type: "cf_agent_use_chat_response", id: "r", body, done: true, error: true }),
      ),
    ).toEqual([]);
    expect(
      settledToolCallIds(
        frame({ type: "cf_agent_use_chat_response", id: "r", body: "{not json", done: false }),
      ),
    ).toEqual([]);
  });

  it("a part without a state, or still streaming its input, is not settled", () => {
    const message = msg("m", [
      { type: "tool-x", toolCallId: "t1", approval: { id: "a1" } },
      { type: "tool-x", toolCallId: "t2", state: "input-streaming" },
      { type: "tool-x", toolCallId: "t3", state: "input-available" },
    ]);
    expect(settledToolCallIds(frame({ type: "cf_agent_message_updated", message }))).toEqual([]);
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
  const local = (approved: boolean, reason?: string, phase: "sending" | "settled" = "sending") => ({
    decision: { approved, ...(reason ? { reason } : {}) },
    phase,
  });
  const confirmed = (approved: boolean, reason?: string) => local(approved, reason, "settled");

  it("pending and undecided here: requested", () => {
    expect(chatStatus(entry(), undefined, true)).toEqual({ status: "requested" });
  });

  it("decided here: submitting until the server confirms, then approved or denied", () => {
    expect(chatStatus(responded(true), local(true), true)).toEqual({
      status: "submitting",
      outcome: { approved: true, by: "here" },
    });
    expect(chatStatus(responded(true), confirmed(true), true)).toEqual({
      status: "approved",
      outcome: { approved: true, by: "here" },
    });
    // output-denied only ever comes from the server.
    const denied = entry({ pending: false, partState: "output-denied", decided: { approved: false } });
    expect(chatStatus(denied, local(false), true).status).toBe("denied");
    const withReason = entry({
      pending: false,
      partState: "output-error",
      decided: { approved: false, reason: "Too much" },
    });
    expect(chatStatus(withReason, confirmed(false, "Too much"), true)).toEqual({
      status: "denied",
      outcome: { approved: false, reason: "Too much", by: "here" },
    });
  });

  it("a server update that undoes the local patch keeps it submitting", () => {
    expect(chatStatus(entry(), confirmed(true), true).status).toBe("submitting");
  });

  it("the server applied a different decision first: answered elsewhere", () => {
    const denied = entry({ pending: false, partState: "output-denied", decided: { approved: false } });
    expect(chatStatus(denied, confirmed(true), true)).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: false, by: "elsewhere" },
    });
  });

  it("decided without this page: answered elsewhere if seen pending, else history", () => {
    expect(chatStatus(responded(true), undefined, true)).toEqual({
      status: "answered-elsewhere",
      outcome: { approved: true, by: "elsewhere" },
    });
    expect(chatStatus(responded(false), undefined, false)).toEqual({
      status: "denied",
      outcome: { approved: false, by: "unknown" },
    });
  });
});
