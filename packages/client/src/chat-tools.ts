/**
 * The tool side of the chat store: answers to tool calls (a client tool's output, a human's approval
 * decision) sent and shown at once, and client tools run in the page (`onToolCall`, or the tool's own
 * `execute`) once each, when their call waits for input.
 */
import {
  encodeToolApproval,
  encodeToolResult,
  findToolCallIdForApproval,
  getToolName,
  isToolUIPart,
  type ToolPartLike,
} from "@runboard/protocol";
import type { UIMessage } from "ai";
import type { ChatCore } from "./chat-core.ts";
import { confirmationTools, isRequesting } from "./chat-status.ts";
import type { AddToolOutputOptions } from "./chat-types.ts";
import { extractClientToolSchemas } from "./client-tools.ts";

/** Tool answers and client tool runs of one chat store. */
export class ToolAnswers<M extends UIMessage = UIMessage> {
  constructor(private readonly c: ChatCore<M>) {}

  /** See `ChatSession.addToolOutput`. */
  addToolOutput(o: AddToolOutputOptions): void {
    const { c } = this;
    const part = this.findToolPart(o.toolCallId);
    if (!part) {
      c.fail(new Error(`addToolOutput: no tool call ${o.toolCallId} in the transcript`));
      return;
    }
    const error = o.state === "output-error";
    // The server's own default text for a denial without one (docs/protocol.md#client-tools, step 4).
    const errorText = o.errorText ?? "Tool execution denied by user";
    this.patchToolPart(
      o.toolCallId,
      error ? { state: "output-error", errorText } : { state: "output-available", output: o.output },
    );
    // A denial or failure ends the turn there: upstream never auto-continues after `output-error` (docs/protocol.md#client-tools).
    const autoContinue = !error && c.options.autoContinueAfterToolResult !== false;
    const clientTools = extractClientToolSchemas(c.options.tools);
    const frame = encodeToolResult({
      toolCallId: o.toolCallId,
      toolName: o.toolName ?? getToolName(part),
      output: o.output,
      ...(error ? { state: "output-error" as const, errorText } : {}),
      autoContinue,
      // The tools the server may call next, as with a request: the continuation is a new model step.
      ...(clientTools ? { clientTools } : {}),
    });
    c.answered.add(o.toolCallId);
    if (part.state === "input-available")
      c.inFlight.add(o.toolCallId, {
        frame,
        waiting: "input-available",
        patch: error ? { state: "output-error", errorText } : { state: "output-available", output: o.output },
      });
    c.send(frame);
    if (autoContinue) c.sides.resume.run(c.rm.handle({ type: "expect-continuation" }));
    c.changed();
    void c.sides.turns.autoSend();
  }

  /** See `ChatSession.addToolResult`. */
  addToolResult(o: {
    tool: string;
    toolCallId: string;
    output?: unknown;
    state?: "output-available" | "output-error";
    errorText?: string;
  }): void {
    const { c } = this;
    const pendingBefore = this.pendingConfirmations();
    // The AI SDK's form also carries a failure (`state: "output-error"`, `errorText`), as `addToolOutput` does.
    const { tool, toolCallId, output, state, errorText } = o;
    this.addToolOutput({
      toolCallId,
      toolName: tool,
      output,
      ...(state ? { state } : {}),
      ...(errorText ? { errorText } : {}),
    });
    if (c.options.autoContinueAfterToolResult !== false) return;
    const waitForAll = c.options.autoSendAfterAllConfirmationsResolved !== false;
    // Upstream counts the calls pending before this result, so a result for a call outside the set still sends.
    pendingBefore.delete(o.toolCallId);
    if (!waitForAll || pendingBefore.size === 0) void c.sides.turns.request("submit-message");
  }

  /** Calls in the last assistant message that wait for a human (`toolsRequiringConfirmation`). */
  private pendingConfirmations(): Set<string> {
    const ids = new Set<string>();
    const last = this.c.list.messages.at(-1);
    if (last?.role !== "assistant") return ids;
    const names = confirmationTools(this.c);
    for (const p of last.parts)
      if (isToolUIPart(p) && p.state === "input-available" && names.includes(getToolName(p as ToolPartLike)))
        ids.add((p as ToolPartLike).toolCallId);
    return ids;
  }

  /** See `ChatSession.addToolApprovalResponse`. */
  addToolApprovalResponse(o: { id: string; approved: boolean; reason?: string }): void {
    const { c } = this;
    const toolCallId = findToolCallIdForApproval(c.list.messages, o.id);
    if (!toolCallId) {
      c.fail(new Error(`addToolApprovalResponse: no approval ${o.id} in the transcript`));
      return;
    }
    const part = this.findToolPart(toolCallId);
    const patch = {
      state: "approval-responded",
      approval: {
        ...part?.approval,
        id: o.id,
        approved: o.approved,
        ...(o.reason ? { reason: o.reason } : {}),
      },
    };
    this.patchToolPart(toolCallId, patch);
    const autoContinue = c.options.autoContinueAfterToolResult !== false;
    const frame = encodeToolApproval({ toolCallId, approved: o.approved, autoContinue });
    if (part?.state === "approval-requested")
      c.inFlight.add(toolCallId, {
        frame,
        waiting: "approval-requested",
        approvalId: o.id,
        patch,
      });
    c.send(frame);
    if (autoContinue) c.sides.resume.run(c.rm.handle({ type: "expect-continuation" }));
    c.changed();
    void c.sides.turns.autoSend();
  }

  private findToolPart(toolCallId: string): (ToolPartLike & { type: string }) | undefined {
    for (const m of this.c.list.messages)
      for (const p of m.parts)
        if (isToolUIPart(p) && (p as ToolPartLike).toolCallId === toolCallId)
          return p as ToolPartLike & { type: string };
    return undefined;
  }

  /** Changes one tool part in place in the transcript (a new message object). */
  patchToolPart(toolCallId: string, patch: Record<string, unknown>): void {
    const msg = this.c.list.messages.find((m) =>
      m.parts.some((p) => (p as ToolPartLike).toolCallId === toolCallId),
    );
    if (!msg) return;
    this.c.list.upsert({
      ...msg,
      parts: msg.parts.map((p) =>
        (p as ToolPartLike).toolCallId === toolCallId ? ({ ...p, ...patch } as typeof p) : p,
      ),
    });
  }

  /**
   * Tool calls of the last assistant message still waiting for input go to `onToolCall`, or to the tool's own
   * `execute`, once each: after a stream ends and after a transcript is loaded (a call left waiting when the
   * page closed). Only when the transcript ends with that assistant message (a later user message means the
   * turn moved on) and nothing streams here. A tool that throws answers with `output-error`; an `onToolCall`
   * that throws is reported through `onError` and the call stays the app's to answer.
   */
  async runClientTools(): Promise<void> {
    const { c } = this;
    if (c.disposed || !c.attached || isRequesting(c)) return;
    for (const [, origin] of c.rm.activeStreams) if (origin === "observed") return;
    const last = c.list.messages.at(-1);
    if (last?.role !== "assistant") return;
    const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    for (const p of last.parts) {
      if (!isToolUIPart(p)) continue;
      const part = p as ToolPartLike;
      if (part.state !== "input-available" || c.answered.has(part.toolCallId)) continue;
      if (c.handedOut.has(part.toolCallId)) continue;
      c.handedOut.add(part.toolCallId);
      calls.push({ toolCallId: part.toolCallId, toolName: getToolName(part), input: part.input });
    }
    await Promise.all(calls.map((call) => this.runClientTool(call)));
  }

  private async runClientTool(call: { toolCallId: string; toolName: string; input: unknown }) {
    const { c } = this;
    const { toolCallId, toolName } = call;
    const { onToolCall } = c.options;
    if (onToolCall) {
      c.toolCallsRunning.add(toolCallId);
      c.changed();
      try {
        await onToolCall({ toolCall: call, addToolOutput: (o) => this.addToolOutput({ ...o, toolName }) });
      } catch (e) {
        c.appFailed("onToolCall", e);
      } finally {
        c.toolCallsRunning.delete(toolCallId);
        c.changed();
      }
      return;
    }
    // A call a human must answer is never run for them, even when the tool has `execute`.
    if (confirmationTools(c).includes(toolName)) return;
    const execute = c.options.tools?.[toolName]?.execute;
    if (!execute) return;
    try {
      this.addToolOutput({ toolCallId, toolName, output: await execute(call.input) });
    } catch (e) {
      this.addToolOutput({
        toolCallId,
        toolName,
        state: "output-error",
        errorText: e instanceof Error ? e.message : String(e),
      });
    }
  }
}
