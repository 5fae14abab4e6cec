/**
 * What the chat hands the app's callbacks, in the shapes the official types promise (issue 30 §2): code typed
 * against them reads these fields without checks, so a missing one is a crash in the app.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { FakeChatAgent } from "../../../test-support/fake-chat-agent.ts";
import { until } from "../test/helpers.ts";
import { ChatSession } from "./chat-session.ts";

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

describe("the chat's callbacks, as the official types shape them", () => {
  it("onFinish gets a message (an empty assistant one) when a response wrote nothing", async () => {
    const agent = new FakeChatAgent();
    const finished: UIMessage[] = [];
    const chat = new ChatSession({
      agent,
      getInitialMessages: null,
      throttleMs: 0,
      onFinish: ({ message }) => finished.push(message),
    });
    await chat.sendMessage({ text: "hi" });
    agent.chunk(null, true);
    await until(() => finished.length === 1);
    expect(finished[0]).toMatchObject({ role: "assistant", parts: [] });
    expect(typeof finished[0]?.id).toBe("string");
    chat.dispose();
  });

  it("getInitialMessages gets agent and name as strings, also from a connection that names neither", async () => {
    const agent = new FakeChatAgent();
    Object.defineProperty(agent, "agent", { value: undefined });
    Object.defineProperty(agent, "name", { value: undefined });
    const calls: unknown[] = [];
    const chat = new ChatSession({
      agent,
      getInitialMessages: async (o) => {
        calls.push(o);
        return [user("u1", "earlier")];
      },
    });
    await until(() => chat.getSnapshot().messages.length === 1);
    expect(calls).toEqual([{ agent: "", name: "", url: agent.getHttpUrl() }]);
    chat.dispose();
  });

  it("addToolResult in the AI SDK's failure form sends an output-error result", async () => {
    const agent = new FakeChatAgent();
    const chat = new ChatSession({ agent, getInitialMessages: null, throttleMs: 0 });
    await chat.sendMessage({ text: "where am I" });
    agent.chunk({ type: "start", messageId: "a1" });
    agent.chunk({ type: "tool-input-available", toolCallId: "c1", toolName: "getLocation", input: {} });
    agent.chunk({ type: "finish" }, true);
    await until(() => chat.getSnapshot().status === "ready");
    // The hook's type takes this form (`AddToolResultOptions`); the session passes it through.
    const failure = { tool: "getLocation", toolCallId: "c1", state: "output-error", errorText: "no GPS" };
    chat.addToolResult(failure as unknown as Parameters<typeof chat.addToolResult>[0]);
    const result = agent.sent.find((f) => f.type === "cf_agent_tool_result");
    expect(result).toMatchObject({ toolCallId: "c1", state: "output-error", errorText: "no GPS" });
    chat.dispose();
  });
});
