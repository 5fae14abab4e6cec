import type { UIMessage } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AgentToolEvent,
  ChatMessagesFrame,
  FrameOfType,
  RpcResponseFrame,
  ServerFrame,
} from "./frames.ts";

describe("frame unions", () => {
  it("narrow by type", () => {
    const f = {} as ServerFrame;
    if (f.type === "cf_agent_use_chat_response") {
      expectTypeOf(f.body).toEqualTypeOf<string>();
      expectTypeOf(f.done).toEqualTypeOf<boolean>();
    }
    if (f.type === "agent-tool-event") expectTypeOf(f.sequence).toEqualTypeOf<number>();
    expectTypeOf<FrameOfType<ServerFrame, "cf_agent_identity">["name"]>().toEqualTypeOf<string>();
    expectTypeOf<ChatMessagesFrame["messages"]>().toEqualTypeOf<UIMessage[]>();
  });

  it("discriminate RPC success and failure, and agent-tool events by kind", () => {
    const r = {} as RpcResponseFrame;
    if (r.success) expectTypeOf(r).toHaveProperty("result");
    else expectTypeOf(r.error).toEqualTypeOf<string>();
    const e = {} as AgentToolEvent;
    if (e.kind === "interrupted") expectTypeOf(e.childStillRunning).toEqualTypeOf<boolean | undefined>();
    if (e.kind === "chunk") expectTypeOf(e.body).toEqualTypeOf<string>();
  });

  it("reject frames with wrong field types", () => {
    // @ts-expect-error done must be a boolean
    const bad: ServerFrame = { type: "cf_agent_use_chat_response", id: "a", body: "", done: "yes" };
    void bad;
  });
});
