import type { UIMessage } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AgentToolEvent,
  AgentToolEventFrame,
  AgentToolEventKind,
  AgentToolInterruptReason,
  ChatClearFrame,
  ChatMessagesFrame,
  ChatRecoveringFrame,
  ChatRequestFrame,
  ChatResponseFrame,
  ClientFrame,
  FrameOfType,
  IdentityFrame,
  KnownFrameType,
  McpServer,
  McpServersFrame,
  MessageUpdatedFrame,
  RpcRequestFrame,
  RpcResponseFrame,
  ServerFrame,
  SessionErrorFrame,
  SessionFrame,
  StateErrorFrame,
  StateFrame,
  StreamPendingFrame,
  StreamResumeNoneFrame,
  StreamResumingFrame,
  ToolApprovalFrame,
  ToolResultFrame,
} from "./frames.ts";
import type { parseServerFrame } from "./parse.ts";

declare const server: ServerFrame;
declare const client: ClientFrame;

describe("ServerFrame narrows by type to the right interface", () => {
  it("generic agent frames", () => {
    if (server.type === "cf_agent_identity") {
      expectTypeOf(server).toEqualTypeOf<IdentityFrame>();
      expectTypeOf(server.name).toEqualTypeOf<string>();
      expectTypeOf(server.stateFollows).toEqualTypeOf<boolean | undefined>();
    }
    if (server.type === "cf_agent_state") {
      expectTypeOf(server).toEqualTypeOf<StateFrame>();
      expectTypeOf(server.state).toBeUnknown();
    }
    if (server.type === "cf_agent_state_error") expectTypeOf(server).toEqualTypeOf<StateErrorFrame>();
    if (server.type === "cf_agent_mcp_servers") {
      expectTypeOf(server).toEqualTypeOf<McpServersFrame>();
      expectTypeOf(server.mcp.servers).toEqualTypeOf<Record<string, McpServer>>();
    }
    if (server.type === "rpc") expectTypeOf(server).toEqualTypeOf<RpcResponseFrame>();
    if (server.type === "cf_agent_session") {
      expectTypeOf(server).toEqualTypeOf<SessionFrame>();
      expectTypeOf(server.phase).toEqualTypeOf<"idle" | "compacting">();
      expectTypeOf(server.tokenThreshold).toEqualTypeOf<number | null>();
    }
    if (server.type === "cf_agent_session_error") expectTypeOf(server).toEqualTypeOf<SessionErrorFrame>();
  });

  it("chat frames", () => {
    if (server.type === "cf_agent_use_chat_response") {
      expectTypeOf(server).toEqualTypeOf<ChatResponseFrame>();
      expectTypeOf(server.body).toEqualTypeOf<string>();
      expectTypeOf(server.done).toEqualTypeOf<boolean>();
      expectTypeOf(server.error).toEqualTypeOf<boolean | undefined>();
      expectTypeOf(server.seq).toEqualTypeOf<number | undefined>();
    }
    if (server.type === "cf_agent_chat_messages") {
      expectTypeOf(server).toEqualTypeOf<ChatMessagesFrame>();
      expectTypeOf(server.messages).toEqualTypeOf<UIMessage[]>();
    }
    if (server.type === "cf_agent_chat_clear") expectTypeOf(server).toEqualTypeOf<ChatClearFrame>();
    if (server.type === "cf_agent_message_updated") {
      expectTypeOf(server).toEqualTypeOf<MessageUpdatedFrame>();
      expectTypeOf(server.message).toEqualTypeOf<UIMessage>();
    }
    if (server.type === "cf_agent_chat_recovering") expectTypeOf(server).toEqualTypeOf<ChatRecoveringFrame>();
    if (server.type === "cf_agent_stream_resuming") expectTypeOf(server).toEqualTypeOf<StreamResumingFrame>();
    if (server.type === "cf_agent_stream_resume_none") {
      expectTypeOf(server).toEqualTypeOf<StreamResumeNoneFrame>();
      expectTypeOf(server.reason).toEqualTypeOf<"idle" | "continuation-owned" | undefined>();
    }
    if (server.type === "cf_agent_stream_pending") expectTypeOf(server).toEqualTypeOf<StreamPendingFrame>();
  });

  it("agent-tool events", () => {
    if (server.type === "agent-tool-event") {
      expectTypeOf(server).toEqualTypeOf<AgentToolEventFrame>();
      expectTypeOf(server.sequence).toEqualTypeOf<number>();
      expectTypeOf(server.replay).toEqualTypeOf<true | undefined>();
      expectTypeOf(server.event).toEqualTypeOf<AgentToolEvent>();
    }
  });

  it("has no client-only types", () => {
    expectTypeOf<"cf_agent_use_chat_request">().not.toExtend<ServerFrame["type"]>();
    expectTypeOf<"cf_agent_tool_result">().not.toExtend<ServerFrame["type"]>();
    expectTypeOf<"cf_agent_identity">().not.toExtend<ClientFrame["type"]>();
  });
});

describe("ClientFrame narrows by type", () => {
  it("client frames", () => {
    if (client.type === "rpc") {
      expectTypeOf(client).toEqualTypeOf<RpcRequestFrame>();
      expectTypeOf(client.args).toEqualTypeOf<unknown[]>();
    }
    if (client.type === "cf_agent_use_chat_request") {
      expectTypeOf(client).toEqualTypeOf<ChatRequestFrame>();
      expectTypeOf(client.init.body).toEqualTypeOf<string>();
    }
    if (client.type === "cf_agent_tool_result") expectTypeOf(client).toEqualTypeOf<ToolResultFrame>();
    if (client.type === "cf_agent_tool_approval") {
      expectTypeOf(client).toEqualTypeOf<ToolApprovalFrame>();
      expectTypeOf(client.approved).toEqualTypeOf<boolean>();
    }
  });

  it("KnownFrameType is exactly the union of both directions' types", () => {
    expectTypeOf<ServerFrame["type"] | ClientFrame["type"]>().toEqualTypeOf<KnownFrameType>();
  });
});

describe("RpcResponseFrame", () => {
  it("discriminates success and failure on `success`", () => {
    const r = {} as RpcResponseFrame;
    if (r.success) {
      expectTypeOf(r.result).toBeUnknown();
      expectTypeOf(r.done).toEqualTypeOf<boolean | undefined>();
      expectTypeOf(r).not.toHaveProperty("error");
    } else {
      expectTypeOf(r.error).toEqualTypeOf<string>();
      expectTypeOf(r).not.toHaveProperty("result");
      expectTypeOf(r).not.toHaveProperty("done");
    }
  });

  it("rejects mixed shapes", () => {
    // @ts-expect-error a failure needs its error text
    const noError: RpcResponseFrame = { type: "rpc", id: "1", success: false };
    // @ts-expect-error success must be a boolean literal
    const stringSuccess: RpcResponseFrame = { type: "rpc", id: "1", success: "true" };
    // @ts-expect-error a response needs its id
    const noId: RpcResponseFrame = { type: "rpc", success: true };
    void [noError, stringSuccess, noId];
  });
});

describe("AgentToolEvent", () => {
  it("narrows by kind", () => {
    const e = {} as AgentToolEvent;
    if (e.kind === "started") {
      expectTypeOf(e.agentType).toEqualTypeOf<string>();
      expectTypeOf(e.order).toEqualTypeOf<number>();
    }
    if (e.kind === "chunk") {
      expectTypeOf(e.body).toEqualTypeOf<string>();
      expectTypeOf(e).not.toHaveProperty("summary");
    }
    if (e.kind === "finished") expectTypeOf(e.summary).toEqualTypeOf<string>();
    if (e.kind === "error") expectTypeOf(e.error).toEqualTypeOf<string>();
    if (e.kind === "aborted") expectTypeOf(e.reason).toEqualTypeOf<string | undefined>();
    if (e.kind === "interrupted") {
      expectTypeOf(e.reason).toEqualTypeOf<AgentToolInterruptReason | undefined>();
      expectTypeOf(e.childStillRunning).toEqualTypeOf<boolean | undefined>();
    }
  });

  it("has exactly the six kinds", () => {
    expectTypeOf<AgentToolEventKind>().toEqualTypeOf<
      "started" | "chunk" | "finished" | "error" | "aborted" | "interrupted"
    >();
  });

  it("rejects unknown kinds and wrong fields", () => {
    // @ts-expect-error unknown kind
    const paused: AgentToolEvent = { kind: "paused", runId: "r" };
    // @ts-expect-error a chunk needs a body
    const noBody: AgentToolEvent = { kind: "chunk", runId: "r" };
    // @ts-expect-error not a known interrupt reason
    const bogus: AgentToolEvent = { kind: "interrupted", runId: "r", error: "e", reason: "bogus" };
    void [paused, noBody, bogus];
  });
});

describe("ChatMessagesFrame", () => {
  it("carries UIMessage[] from ai, or a caller's message type", () => {
    expectTypeOf<ChatMessagesFrame["messages"]>().toEqualTypeOf<UIMessage[]>();
    type MyMessage = UIMessage<{ source?: string }>;
    expectTypeOf<ChatMessagesFrame<MyMessage>["messages"]>().toEqualTypeOf<MyMessage[]>();
    expectTypeOf<MessageUpdatedFrame<MyMessage>["message"]>().toEqualTypeOf<MyMessage>();
  });
});

describe("frames with wrong field types do not compile", () => {
  it("server frames", () => {
    // @ts-expect-error done must be a boolean
    const done: ServerFrame = { type: "cf_agent_use_chat_response", id: "a", body: "", done: "yes" };
    const body: ServerFrame = {
      type: "cf_agent_use_chat_response",
      id: "a",
      // @ts-expect-error body is a JSON string, not a chunk object
      body: { type: "start" },
      done: false,
    };
    // @ts-expect-error identity needs a name
    const identity: ServerFrame = { type: "cf_agent_identity", agent: "chat-agent" };
    const seq: ServerFrame = {
      type: "agent-tool-event",
      // @ts-expect-error sequence is a number
      sequence: "1",
      event: { kind: "aborted", runId: "r" },
    };
    const replay: AgentToolEventFrame = {
      type: "agent-tool-event",
      sequence: 1,
      // @ts-expect-error replay is only ever `true`
      replay: false,
      event: { kind: "aborted", runId: "r" },
    };
    // @ts-expect-error not a resume-none reason
    const reason: ServerFrame = { type: "cf_agent_stream_resume_none", reason: "bogus" };
    // @ts-expect-error unknown frame type
    const unknown: ServerFrame = { type: "cf_agent_future" };
    void [done, body, identity, seq, replay, reason, unknown];
  });

  it("client frames", () => {
    const body: ClientFrame = {
      type: "cf_agent_use_chat_request",
      id: "r",
      // @ts-expect-error init.body is a JSON string
      init: { method: "POST", body: {} },
    };
    // @ts-expect-error approved is a boolean
    const approved: ClientFrame = { type: "cf_agent_tool_approval", toolCallId: "c", approved: "yes" };
    // @ts-expect-error rpc args is an array
    const args: ClientFrame = { type: "rpc", id: "1", method: "m", args: "x" };
    void [body, approved, args];
  });

  it("accepts well-formed frames", () => {
    const ok: ServerFrame[] = [
      { type: "cf_agent_use_chat_response", id: "a", body: "", done: true, replayComplete: true },
      { type: "rpc", id: "1", success: true },
      { type: "rpc", id: "1", success: false, error: "boom" },
      {
        type: "agent-tool-event",
        sequence: 1,
        replay: true,
        event: { kind: "chunk", runId: "r", body: "{}" },
      },
      { type: "cf_agent_session", phase: "compacting", tokenEstimate: 1, tokenThreshold: null, extra: [1] },
    ];
    expectTypeOf(ok).toEqualTypeOf<ServerFrame[]>();
  });
});

describe("FrameOfType", () => {
  it("extracts one member of a frame union", () => {
    expectTypeOf<FrameOfType<ServerFrame, "cf_agent_identity">>().toEqualTypeOf<IdentityFrame>();
    expectTypeOf<FrameOfType<ServerFrame, "cf_agent_use_chat_response">>().toEqualTypeOf<ChatResponseFrame>();
    expectTypeOf<FrameOfType<ServerFrame, "agent-tool-event">>().toEqualTypeOf<AgentToolEventFrame>();
    expectTypeOf<FrameOfType<ServerFrame, "rpc">>().toEqualTypeOf<RpcResponseFrame>();
    expectTypeOf<FrameOfType<ClientFrame, "rpc">>().toEqualTypeOf<RpcRequestFrame>();
    expectTypeOf<FrameOfType<ClientFrame, "cf_agent_chat_messages">>().toEqualTypeOf<ChatMessagesFrame>();
    expectTypeOf<FrameOfType<ServerFrame, "cf_agent_identity">["name"]>().toEqualTypeOf<string>();
  });

  it("refuses a type the union does not have", () => {
    // @ts-expect-error identity is not a client frame
    type Nope = FrameOfType<ClientFrame, "cf_agent_identity">;
    expectTypeOf<FrameOfType<ServerFrame, "cf_agent_identity" | "cf_agent_state">>().toEqualTypeOf<
      IdentityFrame | StateFrame
    >();
    expectTypeOf<Nope>().toBeNever();
  });
});

describe("parseServerFrame's result", () => {
  it("narrows to ServerFrame on kind 'frame' and to the reason on kind 'error'", () => {
    const r = {} as ReturnType<typeof parseServerFrame>;
    if (r.kind === "frame") expectTypeOf(r.frame).toEqualTypeOf<ServerFrame>();
    if (r.kind === "error") expectTypeOf(r.reason).toEqualTypeOf<string>();
    if (r.kind === "unknown") expectTypeOf(r.frame).toEqualTypeOf<Record<string, unknown>>();
  });
});
