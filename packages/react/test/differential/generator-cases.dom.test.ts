/**
 * Differences the generator found, kept as fixed step lists (its server model, its comparison, its named
 * differences): each failed before the fix named in its title, and now plays with no unlisted difference.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { report, runCase } from "./generator/run.ts";
import type { Config, Step } from "./generator/steps.ts";

const T = { timeout: 120_000 };
const BASE: Config = {
  strict: false,
  tools: "onToolCall",
  history: "empty",
  initial: "fetch",
  resume: true,
  autoContinue: true,
  body: false,
};
const FILE = "packages/react/test/differential/generator-cases.dom.test.ts";

async function play(steps: Step[], cfg: Partial<Config> = {}) {
  const r = await runCase({ ...BASE, ...cfg }, steps);
  const f = r.verdict.failure;
  expect(
    f,
    f ? report(0, r.cfg, r.steps, r.verdict, r.official.driver, r.ours.driver, FILE) : "",
  ).toBeUndefined();
  return r;
}

const text = (messages: unknown) =>
  ((messages ?? []) as UIMessage[])
    .filter((m) => m.role === "assistant")
    .flatMap((m) => m.parts.map((p) => (p.type === "text" ? p.text : "")))
    .join("");

describe("found by the generator", () => {
  it(
    "resumeStream() while a stream this socket already ACKed is live: the server's offer in answer is ACKed again, or the rest of the stream never arrives",
    T,
    async () => {
      // The server adds a socket to its pending-resume set with every offer, and leaves that set out of the
      // stream's frames until the socket ACKs (docs/protocol.md#resume-handshake). A probe sent after this
      // socket's ACK is answered with a new offer, so it must be ACKed again.
      const steps: Step[] = [
        { do: "otherTurn", kind: "slow" },
        { do: "advance", n: 4 },
        { do: "resumeStream" },
        { do: "advance", n: 2 },
        { do: "resumeStream" },
        ...Array.from({ length: 5 }, () => ({ do: "advance", n: 4 }) as Step),
        { do: "render" },
      ];
      const r = await play(steps);
      const words = Array.from({ length: 12 }, (_, i) => `word${i} `).join("");
      expect(text(r.ours.driver.last?.messages)).toBe(words);
      expect(text(r.official.driver.last?.messages)).toBe(words);
    },
  );

  it(
    "a server-started turn that fails before its first chunk reaches this tab: onTurnEnd reports it (ours reported nothing)",
    T,
    async () => {
      const r = await play([{ do: "serverTurn" }, { do: "fail", thrown: false }, { do: "render" }]);
      expect(r.ours.driver.callsOf("onTurnEnd").map((c) => c.args)).toEqual([
        { error: "Model overloaded", outcome: "error", replay: false, requestId: "detached-delivery:1" },
      ]);
    },
  );

  it(
    "a tool continuation this tab ACKed fails in-band: onFinish({ isError: true }), not as if it had completed (ours called onFinish({ isError: false }) at the bare done)",
    T,
    async () => {
      const r = await play(
        [{ do: "advance", n: 1 }, { do: "advance", n: 1 }, { do: "fail", thrown: false }, { do: "render" }],
        { tools: "execute", history: "waiting-tool" },
      );
      expect(r.ours.driver.callsOf("onFinish").map((c) => (c.args as { isError: boolean }).isError)).toEqual([
        true,
      ]);
      expect(r.ours.driver.callsOf("onTurnEnd").map((c) => (c.args as { outcome: string }).outcome)).toEqual([
        "error",
      ]);
    },
  );

  it(
    "a new agent object for the same thread while a tool continuation streams: the new socket's offer of it is ACKed (ours took it for a duplicate and never got the continuation)",
    T,
    async () => {
      // The transcript ends with a client tool waiting: the app runs it on mount, the continuation starts and is
      // ACKed on the first socket; then the app hands over a new socket, which the server offers it again.
      const r = await play(
        [
          { do: "advance", n: 1 },
          { do: "agent", to: "same-thread" },
          ...Array.from({ length: 5 }, () => ({ do: "advance", n: 4 }) as Step),
          { do: "render" },
        ],
        { tools: "execute", history: "waiting-tool" },
      );
      const acks = r.ours.driver.sentOf("cf_agent_stream_resume_ack");
      expect(acks.map((f) => [f.socket ?? 1, f.id])).toEqual([
        [1, "cont_1"],
        [2, "cont_1"],
      ]);
      // The continuation (the server model plays a short text reply after a tool of the loaded transcript).
      expect(text(r.ours.driver.last?.messages)).toContain("Hello! How can I help you today?");
      expect(r.ours.driver.last?.isToolContinuation).toBe(false);
    },
  );
  it(
    "another tab's turn streams here and completes: no onFinish, as upstream's (ours called onFinish for every stream it showed)",
    T,
    async () => {
      const r = await play([
        { do: "otherTurn", kind: "hello" },
        ...Array.from({ length: 8 }, () => ({ do: "advance", n: 4 }) as Step),
        { do: "render" },
      ]);
      expect(text(r.ours.driver.last?.messages)).not.toBe("");
      expect(r.official.driver.callsOf("onTurnEnd").length).toBe(1);
      expect(r.ours.driver.callsOf("onTurnEnd").length).toBe(1);
      expect(r.official.driver.callsOf("onFinish")).toEqual([]);
      expect(r.ours.driver.callsOf("onFinish")).toEqual([]);
    },
  );
  it(
    "this tab's turn is stopped, or fails: onFinish({ isAbort }) / onFinish({ isError }) with the message so far, as upstream's (ours called onFinish only when a response completed)",
    T,
    async () => {
      const flags = (d: { callsOf(p: string): { args: unknown }[] }) =>
        d.callsOf("onFinish").map((c) => {
          const a = c.args as { isAbort: boolean; isError: boolean; message: { parts: unknown[] } };
          return [a.isAbort, a.isError, a.message.parts.length > 0];
        });
      const stopped = await play([
        { do: "send", kind: "slow" },
        { do: "advance", n: 4 },
        { do: "stop" },
        ...Array.from({ length: 4 }, () => ({ do: "advance", n: 4 }) as Step),
        { do: "render" },
      ]);
      expect(flags(stopped.official.driver)).toEqual([[true, false, true]]);
      expect(flags(stopped.ours.driver)).toEqual([[true, false, true]]);
      const failed = await play([
        { do: "send", kind: "slow" },
        { do: "advance", n: 4 },
        { do: "fail", thrown: false },
        ...Array.from({ length: 2 }, () => ({ do: "advance", n: 4 }) as Step),
        { do: "render" },
      ]);
      expect(flags(failed.official.driver)).toEqual([[false, true, true]]);
      expect(flags(failed.ours.driver)).toEqual([[false, true, true]]);
    },
  );
  it(
    "another tab's transcript holds this tab's streaming reply from before its tool input streamed: the partial input stays shown (ours took the copy without it)",
    T,
    async () => {
      const r = await play(
        [
          { do: "send", kind: "pay" },
          { do: "advance", n: 1 },
          { do: "advance", n: 3 },
          { do: "otherSnapshot", trim: false },
        ],
        { history: "approval" },
      );
      const tool = (d: typeof r.ours.driver) =>
        ((d.last?.messages ?? []) as UIMessage[])
          .at(-1)
          ?.parts.find((p) => p.type === "tool-processPayment") as Record<string, unknown> | undefined;
      expect(tool(r.official.driver)?.input).toEqual({ amount: 250, recipient: "ACME" });
      expect(tool(r.ours.driver)?.state).toBe("input-streaming");
      expect(tool(r.ours.driver)?.input).toEqual({ amount: 250, recipient: "ACME" });
    },
  );
  it(
    "sendMessage while this tab's previous turn streams: status 'submitted' until the next content chunk, as upstream's (ours stayed 'streaming')",
    T,
    async () => {
      const r = await play(
        [
          { do: "send", kind: "slow" },
          { do: "advance", n: 3 },
          { do: "send", kind: "hello" },
        ],
        { history: "empty" },
      );
      expect(r.official.driver.last?.status).toBe("submitted");
      expect(r.ours.driver.last?.status).toBe("submitted");
      expect(r.ours.driver.last?.isStreaming).toBe(false);
    },
  );
  it(
    "a tool continuation awaited before its stream starts, then the chat switches thread: onFinish({ isAbort: true }), as upstream's (ours: none)",
    T,
    async () => {
      const r = await play(
        [
          { do: "decide", approved: false },
          { do: "agent", to: "other-thread" },
        ],
        { history: "approval" },
      );
      const aborts = (d: typeof r.ours.driver) =>
        d.callsOf("onFinish").filter((c) => (c.args as { isAbort: boolean }).isAbort).length;
      expect(aborts(r.official.driver)).toBe(1);
      expect(aborts(r.ours.driver)).toBe(1);
    },
  );
  it(
    "this tab's earlier turn fails while its next message waits in the server's queue: the queued turn shows as streaming once it starts, as upstream's (ours stayed 'error')",
    T,
    async () => {
      const r = await play([
        { do: "send", kind: "slow" },
        { do: "advance", n: 3 },
        { do: "send", kind: "hello" },
        { do: "fail", thrown: false },
        { do: "advance", n: 4 },
      ]);
      expect(r.official.driver.last?.status).toBe("streaming");
      expect(r.ours.driver.last?.status).toBe("streaming");
      expect(r.ours.driver.last?.error).toBeUndefined();
    },
  );
});
