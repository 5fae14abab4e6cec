/**
 * Frame encoders: one function per client frame type, returning the text to put on the socket. Every outbound
 * frame is spelled here once, so the client never writes a frame as a JSON literal of its own. Field order is
 * part of the contract: it is what the official client sends, byte for byte, and the differential suite
 * compares the two.
 */
import type { UIMessage } from "ai";
import type { ChatRequestBody, ClientFrame, ToolApprovalFrame, ToolResultFrame } from "./frames.ts";

/** `cf_agent_state`: the client's new state for the agent, applied and broadcast to the other connections. */
export function encodeSetState(state: unknown): string {
  return JSON.stringify({ type: "cf_agent_state", state });
}

/** `rpc`: a call of the `@callable()` method `method`; the answer comes back under the same `id`. */
export function encodeRpcRequest(id: string, method: string, args: unknown[]): string {
  return JSON.stringify({ type: "rpc", id, method, args });
}

/** What `encodeChatRequest` sends as `init.body`: a `ChatRequestBody` whose transcript may be read-only. */
export type ChatRequestBodyInput<M extends UIMessage = UIMessage> = {
  messages: readonly M[];
  trigger: ChatRequestBody["trigger"];
  [extra: string]: unknown;
};

/**
 * `cf_agent_use_chat_request`: a new turn or a regenerate. The body object is sent as a JSON string inside
 * `init.body`, as the fetch-shaped request the server expects.
 */
export function encodeChatRequest<M extends UIMessage = UIMessage>(
  id: string,
  body: ChatRequestBodyInput<M>,
): string {
  return chatRequest(id, JSON.stringify(body));
}

/** `cf_agent_chat_messages`: the whole transcript, replacing the server's. */
export function encodeChatMessages(messages: readonly UIMessage[]): string {
  return JSON.stringify({ type: "cf_agent_chat_messages", messages });
}

/** `cf_agent_chat_clear`: clear the history on the server and in the other tabs. */
export function encodeChatClear(): string {
  return JSON.stringify({ type: "cf_agent_chat_clear" });
}

/** `cf_agent_chat_request_cancel`: stop the server turn whose request id is `id`. */
export function encodeChatRequestCancel(id: string): string {
  return JSON.stringify({ type: "cf_agent_chat_request_cancel", id });
}

/** The fields of a `cf_agent_tool_result` frame. */
export type ToolResultFields = Omit<ToolResultFrame, "type">;

/**
 * `cf_agent_tool_result`: a client tool's output, or a denial or failure with `state: "output-error"` and
 * `errorText`. Optional fields are left out when undefined.
 */
export function encodeToolResult(f: ToolResultFields): string {
  return JSON.stringify({
    type: "cf_agent_tool_result",
    toolCallId: f.toolCallId,
    toolName: f.toolName,
    output: f.output,
    ...(f.state === undefined ? {} : { state: f.state }),
    ...(f.errorText === undefined ? {} : { errorText: f.errorText }),
    ...(f.autoContinue === undefined ? {} : { autoContinue: f.autoContinue }),
    ...(f.clientTools === undefined ? {} : { clientTools: f.clientTools }),
  });
}

/** The fields of a `cf_agent_tool_approval` frame. */
export type ToolApprovalFields = Omit<ToolApprovalFrame, "type">;

/** `cf_agent_tool_approval`: a human's decision, keyed by the tool call id (not the approval id). */
export function encodeToolApproval(f: ToolApprovalFields): string {
  return JSON.stringify({
    type: "cf_agent_tool_approval",
    toolCallId: f.toolCallId,
    approved: f.approved,
    ...(f.autoContinue === undefined ? {} : { autoContinue: f.autoContinue }),
  });
}

/** `cf_agent_stream_resume_request`: "is there a stream for me?", correlated by `probeId` when given. */
export function encodeStreamResumeRequest(probeId?: string): string {
  return JSON.stringify({
    type: "cf_agent_stream_resume_request",
    ...(probeId === undefined ? {} : { probeId }),
  });
}

/** `cf_agent_stream_resume_ack`: send me the replay of stream `id`. */
export function encodeStreamResumeAck(id: string): string {
  return JSON.stringify({ type: "cf_agent_stream_resume_ack", id });
}

/**
 * Any client frame, through the encoder of its type (for frames built as objects, such as the resume
 * machine's commands). Fields a frame type does not define are not sent.
 */
export function encodeClientFrame(frame: ClientFrame): string {
  switch (frame.type) {
    case "cf_agent_state":
      return encodeSetState(frame.state);
    case "rpc":
      return encodeRpcRequest(frame.id, frame.method, frame.args);
    case "cf_agent_use_chat_request":
      return chatRequest(frame.id, frame.init.body);
    case "cf_agent_chat_messages":
      return encodeChatMessages(frame.messages);
    case "cf_agent_chat_clear":
      return encodeChatClear();
    case "cf_agent_chat_request_cancel":
      return encodeChatRequestCancel(frame.id);
    case "cf_agent_tool_result":
      return encodeToolResult(frame);
    case "cf_agent_tool_approval":
      return encodeToolApproval(frame);
    case "cf_agent_stream_resume_request":
      return encodeStreamResumeRequest(frame.probeId);
    case "cf_agent_stream_resume_ack":
      return encodeStreamResumeAck(frame.id);
  }
}

function chatRequest(id: string, body: string): string {
  return JSON.stringify({ type: "cf_agent_use_chat_request", id, init: { method: "POST", body } });
}
