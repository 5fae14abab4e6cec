/**
 * A page reloaded while a client tool waits (issue 30 §1), against the REAL agents runtime on both hosts: the new
 * page's chat runs the waiting call once as soon as its transcript is in, not after its mount probe is answered.
 * The tool here answers right after that probe has gone out, as a tool that takes a moment does: the server then
 * answers the probe (idle) before it sees the result, and the chat must still wait for the continuation the
 * result asks for, probe for it, and show it as a tool continuation (docs/protocol.md#tool-continuations).
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, ChatSession, type ChatSessionOptions } from "../packages/client/src/index.ts";
import {
  AGENT,
  type Host,
  mountBeforeFirstSend,
  roomNames,
  SKIP_REAL,
  until,
  useRealServer,
} from "./real-server-harness.ts";

const real = useRealServer();

const room = roomNames("reload");

const textOf = (ms: readonly UIMessage[]) =>
  ms
    .flatMap((m) => m.parts)
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("\n");
const locate = (ms: readonly UIMessage[]) =>
  ms.flatMap((m) => m.parts).find((p) => p.type === "tool-getLocation") as
    | { state: string; output?: unknown }
    | undefined;

/** One page: a connection and its chat; `sent` holds the frame types the chat sent. */
function page(host: Host, name: string, chat: Partial<ChatSessionOptions> = {}) {
  const client = new AgentClient({
    agent: AGENT[host],
    name,
    host: `127.0.0.1:${real.port}`,
    WebSocket,
    reconnect: { minDelayMs: 50, maxDelayMs: 200 },
  });
  const sent: string[] = [];
  const probeSent: Array<() => void> = [];
  const send = client.send.bind(client);
  client.send = (data: string) => {
    const type = String((JSON.parse(data) as { type?: string }).type);
    sent.push(type);
    send(data);
    if (type === "cf_agent_stream_resume_request") for (const fn of probeSent.splice(0)) fn();
  };
  const errors: Error[] = [];
  const session = new ChatSession({ agent: client, throttleMs: 0, onError: (e) => errors.push(e), ...chat });
  return {
    client,
    session,
    sent,
    /** Resolves right after the chat's next probe went out, before anything can answer it. */
    nextProbe: () => new Promise<void>((resolve) => probeSent.push(resolve)),
    errors,
    close() {
      session.dispose();
      client.close();
    },
  };
}

describe.skipIf(SKIP_REAL)("a reload while a client tool waits, on the real runtime", () => {
  for (const host of ["ai-chat", "think"] as Host[]) {
    it(`${host}: the call runs once when the transcript is in; its continuation streams as one`, async () => {
      const name = room(host);
      // The first page has no onToolCall: the model's getLocation call waits for the client.
      const first = page(host, name);
      await mountBeforeFirstSend(first.client, first.session);
      await first.session.sendMessage({ text: "locate me please" });
      await until(
        "the call waits",
        () =>
          locate(first.session.getSnapshot().messages)?.state === "input-available" &&
          first.session.getSnapshot().status === "ready",
      );
      first.close();

      // The reload.
      const calls: string[] = [];
      const second = page(host, name, {
        onToolCall: async ({ toolCall, addToolOutput }) => {
          calls.push(toolCall.toolCallId);
          // Answered in the same tick as the mount probe goes out: no answer to it can have arrived yet.
          if (!second.sent.includes("cf_agent_stream_resume_request")) await second.nextProbe();
          addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 38.72, lng: -9.14 } });
        },
      });
      // What the app sees while the continuation's text arrives.
      let flagWhileStreaming: boolean | undefined;
      second.session.subscribe(() => {
        const s = second.session.getSnapshot();
        if (flagWhileStreaming === undefined && textOf(s.messages).includes("Tool getLocation returned"))
          flagWhileStreaming = s.isToolContinuation;
      });
      try {
        await until("the continuation", () => {
          const s = second.session.getSnapshot();
          return textOf(s.messages).includes("Done.") && s.status === "ready" && !s.isToolContinuation;
        });
        expect(calls).toHaveLength(1);
        // The result went out after the mount probe, and the continuation was asked for with a probe of its own.
        const order = second.sent.filter((t) => t !== "cf_agent_stream_resume_ack");
        expect(order.slice(0, 3)).toEqual([
          "cf_agent_stream_resume_request",
          "cf_agent_tool_result",
          "cf_agent_stream_resume_request",
        ]);
        expect(flagWhileStreaming).toBe(true);
        const messages = second.session.getSnapshot().messages;
        expect(locate(messages)).toMatchObject({
          state: "output-available",
          output: { lat: 38.72, lng: -9.14 },
        });
        expect(textOf(messages).split("Tool getLocation returned").length - 1).toBe(1);
        expect(second.errors).toEqual([]);
      } finally {
        second.close();
      }
    });
  }
});
