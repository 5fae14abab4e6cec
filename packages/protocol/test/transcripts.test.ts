/**
 * Every recorded real-server transcript, replayed through parser, resume machine, message list and run
 * reducer. The oracle is the server's own view: the transcript snapshot it sends (`cf_agent_chat_messages`),
 * the messages it updates, the summaries it reports for runs. Where a transcript has no snapshot for a
 * connection, the same scripted turn recorded on another connection or host is the oracle.
 *
 * Compared: message ids, roles and parts. Not compared: `metadata`, because the server adds some only to its
 * persisted copy (Think stamps `metadata.channel` on user messages) and the live stream carries some that the
 * server does not persist (`messageMetadata.finishReason` on AIChatAgent's `finish`).
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { classifySyntheticMessage } from "../src/synthetic-messages.ts";
import {
  comparable,
  readTranscript,
  replayTranscript,
  type SnapshotCheck,
  textOf,
} from "./transcript-client.ts";

/** Every message the client held must match the server's copy, and it must hold nothing the server lacks. */
function expectConsistent(check: SnapshotCheck) {
  const server = new Map(comparable(check.server).map((m) => [m.id, m]));
  for (const m of comparable(check.held)) {
    expect(server.has(m.id), `client held ${m.role} ${m.id} that the server does not have`).toBe(true);
    expect(m).toEqual(server.get(m.id));
  }
}

/** The client held exactly the server's transcript. */
function expectEqual(check: SnapshotCheck) {
  expect(comparable(check.held)).toEqual(comparable(check.server));
}

/** The same turn on two connections or hosts: equal parts, with ids (assigned per run) normalised. */
function withoutIds(messages: readonly UIMessage[]) {
  return JSON.parse(
    JSON.stringify(comparable(messages))
      .replace(/"id":"[^"]*"/g, '"id":"*"')
      .replace(/"toolCallId":"[^"]*"/g, '"toolCallId":"*"')
      .replace(/call-[a-z]+-[a-z0-9]+-\d+/g, "call-*"),
  );
}

function lastSnapshot(checks: SnapshotCheck[], conn: string) {
  const c = checks.filter((s) => s.conn === conn).at(-1);
  if (!c) throw new Error(`no snapshot for ${conn}`);
  return c;
}

function finalAssistant(messages: readonly UIMessage[]) {
  const m = messages.filter((x) => x.role === "assistant").at(-1);
  if (!m) throw new Error("no assistant message");
  return m;
}

/** Text deltas per stream as the raw frames carry them: an oracle independent of the applier. */
function deltasOf(file: string, streamId: string): string {
  let text = "";
  for (const l of readTranscript(file)) {
    if (l.dir !== "in" || !l.raw) continue;
    const f = JSON.parse(l.raw);
    if (f.type !== "cf_agent_use_chat_response" || f.id !== streamId || !f.body || f.replay) continue;
    const c = JSON.parse(f.body);
    if (c.type === "text-delta") text += c.delta;
  }
  return text;
}

describe("real-server transcripts", () => {
  it("ai-chat/connect.jsonl", () => {
    const { clients } = replayTranscript(readTranscript("ai-chat/connect.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    expect(c.identity).toEqual({ name: expect.stringMatching(/^connect-/), agent: "chat-agent" });
    expect(c.state).toEqual({ counter: 0 });
    expect(c.list.messages).toEqual([]);
  });

  it("think/connect.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("think/connect.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    expect(c.identity?.agent).toBe("think-agent");
    // Think pushes the (empty) transcript before identity and sends no state for a stateless agent.
    expect(snapshots).toHaveLength(1);
    expect(c.state).toBeUndefined();
  });

  it("ai-chat/hello.jsonl", () => {
    const { clients } = replayTranscript(readTranscript("ai-chat/hello.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    const msgs = c.list.messages;
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(msgs[1]!.id).toMatch(/^assistant_/);
    expect(textOf(msgs[1]!.parts)).toBe(deltasOf("ai-chat/hello.jsonl", "fYTVbekm"));
    // The sender gets no snapshot; the same scripted turn seen by an observer of another run is the oracle.
    const observed = replayTranscript(readTranscript("ai-chat/observer.jsonl")).snapshots;
    expect(withoutIds([finalAssistant(msgs)])).toEqual(
      withoutIds([finalAssistant(lastSnapshot(observed, "observer").server)]),
    );
    expect(c.machine.activeStreams.size).toBe(0);
  });

  it("think/hello.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("think/hello.jsonl"));
    expect(clients.get("main")!.errors).toEqual([]);
    const end = lastSnapshot(snapshots, "main");
    expect(end.server.some((m) => m.role === "assistant")).toBe(true);
    expectEqual(end);
  });

  it("ai-chat/weather.jsonl", () => {
    const { clients } = replayTranscript(readTranscript("ai-chat/weather.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    const a = finalAssistant(c.list.messages);
    const tool = a.parts.find((p) => p.type === "tool-getWeather") as Record<string, unknown>;
    expect(tool).toMatchObject({ state: "output-available", input: { city: "Lisbon" } });
    expect((tool.output as { city: string }).city).toBe("Lisbon");
    expect(a.parts.map((p) => p.type)).toEqual([
      "step-start",
      "text",
      "tool-getWeather",
      "step-start",
      "text",
    ]);
    expect(textOf(a.parts)).toBe(deltasOf("ai-chat/weather.jsonl", "sudEFrn0"));
  });

  it("ai-chat/observer.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/observer.jsonl"));
    for (const c of clients.values()) expect(c.errors).toEqual([]);
    for (const s of snapshots) expectConsistent(s);
    // The observer built the other tab's stream itself; at the end it equals the server's transcript.
    const end = lastSnapshot(snapshots, "observer");
    expectEqual(end);
    // The sender never gets a snapshot of its own turn: what it built must equal what the observer was sent.
    expect(comparable(clients.get("sender")!.list.messages)).toEqual(comparable(end.server));
    // The observer's `done` arrives after the snapshot and ends the observed stream without side effects.
    expect(clients.get("observer")!.machine.activeStreams.size).toBe(0);
    expect(clients.get("observer")!.list.messages).toHaveLength(2);
  });

  it("ai-chat/clear.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/clear.jsonl"));
    for (const s of snapshots) expectConsistent(s);
    expectEqual(lastSnapshot(snapshots, "observer"));
    expect(comparable(clients.get("main")!.list.messages)).toEqual([]);
    // The clear is echoed to the other connection only, and it empties that tab too.
    expect(clients.get("observer")!.list.messages).toEqual([]);
    expect(clients.get("after-clear")!.list.messages).toEqual([]);
  });

  it("ai-chat/pay.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/pay.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    // The continuation is offered once and acknowledged exactly once.
    const acks = c.sent.filter((f) => f.type === "cf_agent_stream_resume_ack");
    expect(acks).toEqual([{ type: "cf_agent_stream_resume_ack", id: "nDrwpDHPh1QKWnkWh7ZAM" }]);
    const end = lastSnapshot(snapshots, "main");
    expectEqual(end);
    // Approval, output and the continuation's text all landed on the one assistant message.
    expect(c.list.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
    expect(finalAssistant(end.held).parts.find((p) => p.type === "tool-processPayment")).toMatchObject({
      state: "output-available",
      approval: { approved: true },
    });
  });

  it("think/pay.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("think/pay.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    expect(c.sent.filter((f) => f.type === "cf_agent_stream_resume_ack")).toHaveLength(1);
    // The first turn ends waiting for approval; the approval request must be on the part the server persisted.
    expectEqual(snapshots[1]!);
    expect(snapshots[1]!.held.at(-1)!.parts.find((p) => p.type === "tool-processPayment")).toMatchObject({
      state: "approval-requested",
    });
    // Real-server divergence: Think persists the continuation as a NEW assistant message (fresh id), although
    // its stream says `continuation: true` and its `start` names no message. While streaming, the client can
    // only append to the last assistant; the end-of-turn snapshot, which Think sends to every connection,
    // then splits it. So the held content equals the server's with its two assistant messages joined.
    const end = lastSnapshot(snapshots, "main");
    const server = end.server;
    expect(server.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
    const joined = [server[0]!, { ...server[1]!, parts: [...server[1]!.parts, ...server[2]!.parts] }];
    expect(comparable(end.held)).toEqual(comparable(joined));
    expect(comparable(c.list.messages)).toEqual(comparable(server));
  });

  it("ai-chat/locate.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/locate.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    expect(c.sent.filter((f) => f.type === "cf_agent_stream_resume_ack")).toHaveLength(1);
    expectEqual(lastSnapshot(snapshots, "main"));
  });

  it("ai-chat/reconnect.jsonl", () => {
    // conn1 and conn2 are one app: the socket dropped mid-stream and a new one took over.
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/reconnect.jsonl"), () => "app");
    const c = clients.get("app")!;
    expect(c.errors).toEqual([]);
    // The server offered the stream twice (on connect and in answer to the probe): one ACK.
    expect(c.sent.filter((f) => f.type === "cf_agent_stream_resume_ack")).toEqual([
      { type: "cf_agent_stream_resume_ack", id: "RTB8Bep0" },
    ]);
    // The reconnect re-probed on the new socket.
    expect(c.sent.filter((f) => f.type === "cf_agent_stream_resume_request").length).toBeGreaterThanOrEqual(
      2,
    );
    // Replay rebuilt the message that was already half streamed: no duplicated words, none lost.
    const end = lastSnapshot(snapshots, "conn2");
    expectEqual(end);
    const text = textOf(finalAssistant(end.held).parts);
    expect(text.match(/word\d+/g)).toEqual(Array.from({ length: 40 }, (_, i) => `word${i}`));
  });

  it("ai-chat/rpc.jsonl", () => {
    const { clients } = replayTranscript(readTranscript("ai-chat/rpc.jsonl"));
    const main = clients.get("main")!;
    const observer = clients.get("observer")!;
    expect(main.errors).toEqual([]);
    expect(main.rpcResults.get("rpc-1")).toBe(2);
    expect((main.rpcResults.get("rpc-3") as Error).message).toBe("Method onChatMessage is not callable");
    expect((main.rpcResults.get("rpc-4") as Error).message).toBe("Method doesNotExist does not exist");
    // The client's own state update is optimistic; the server's later report agrees with it.
    expect(main.state).toEqual({ counter: 100 });
    expect((main.rpcResults.get("rpc-5") as { state: unknown }).state).toEqual(main.state);
    // State set by the other tab and by the RPC both reached the observer.
    expect(observer.state).toEqual({ counter: 100 });
  });

  for (const file of ["ai-chat/research.jsonl", "think/research.jsonl"]) {
    it(file, () => {
      const { clients, snapshots } = replayTranscript(readTranscript(file));
      const c = clients.get("main")!;
      expect(c.errors).toEqual([]);
      for (const s of snapshots) expectConsistent(s);
      const runs = Object.values(c.runs.state.runsById);
      expect(runs).toHaveLength(1);
      const run = runs[0]!;
      const parent = finalAssistant(c.list.messages).parts.find((p) => p.type === "tool-research") as {
        toolCallId: string;
        output: string;
      };
      expect(run).toMatchObject({
        runId: `agent-tool:${parent.toolCallId}`,
        parentToolCallId: parent.toolCallId,
        agentType: "Researcher",
        status: "completed",
        subAgent: { agent: "Researcher", name: `agent-tool:${parent.toolCallId}` },
      });
      expect(c.runs.getRunsForToolCall(parent.toolCallId)).toEqual([run]);
      // The child's text is what the server reports as the run's summary and as the parent tool's output.
      expect(textOf(run.parts)).toBe(run.summary);
      expect(parent.output).toBe(run.summary);
      // The tool output shares its sequence with two progress frames and a milestone: it must still land.
      expect(run.parts.find((p) => p.type === "tool-gatherSources")).toMatchObject({
        state: "output-available",
      });
      expect(run.milestones.map((m) => m.name)).toEqual(["sources-gathered"]);
      expect(run.progress).toMatchObject({ milestone: "sources-gathered", fraction: 0.75, phase: "reading" });
      if (file.startsWith("think")) expectEqual(lastSnapshot(snapshots, "main"));
    });
  }

  it("research is the same turn on both hosts", () => {
    const ai = replayTranscript(readTranscript("ai-chat/research.jsonl")).clients.get("main")!;
    const think = replayTranscript(readTranscript("think/research.jsonl")).snapshots;
    expect(withoutIds([finalAssistant(ai.list.messages)])).toEqual(
      withoutIds([finalAssistant(lastSnapshot(think, "main").server)]),
    );
  });

  it("ai-chat/background.jsonl", () => {
    const { clients, snapshots } = replayTranscript(readTranscript("ai-chat/background.jsonl"));
    const c = clients.get("main")!;
    expect(c.errors).toEqual([]);
    for (const s of snapshots) expectConsistent(s);
    // The detached run outlived its turn, kept streaming, and finished with no parent tool call.
    const { unboundRuns, runsByToolCallId } = c.runs.state;
    expect(unboundRuns).toHaveLength(1);
    expect(runsByToolCallId).toEqual({});
    expect(unboundRuns[0]).toMatchObject({ status: "completed", agentType: "Researcher" });
    expect(textOf(unboundRuns[0]!.parts)).toBe(unboundRuns[0]!.summary);
    // The server injected a notice and then ran a turn of its own, which this client observed and built.
    const notice = snapshots[0]!.server.find((m) => m.id.startsWith("detached-finish:"))!;
    expect(classifySyntheticMessage(notice)).toMatchObject({
      kind: "detached-completion",
      runId: unboundRuns[0]!.runId,
      status: "completed",
      source: "detached-agent-tool",
    });
    const end = lastSnapshot(snapshots, "main");
    expectEqual(end);
    expect(textOf(end.held.at(-1)!.parts)).toMatch(/^Noted: the background research finished/);
    expect(c.machine.activeStreams.size).toBe(0);
  });
});
