/**
 * The mock's features that no recorded transcript covers, checked frame by frame over real sockets: cancel,
 * errors, regenerate, Live View, workflow approvals, Think durable pauses, milestone narration, cancelling a
 * run, the test controller, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  createMockAgentServer,
  data,
  delay,
  demoAgents,
  type MockAgentServer,
  milestone,
  progress,
  reasoning,
  type TurnContext,
  text,
} from "../src/index.ts";

type Frame = Record<string, unknown>;
let server: MockAgentServer;
const logs: string[] = [];

beforeAll(async () => {
  server = await createMockAgentServer({
    delayScale: 0.2,
    liveViewTtlMs: 300,
    maxFrameBytes: 4096,
    log: (l) => logs.push(l),
    agents: {
      ...demoAgents,
      Faulty: {
        host: "ai-chat",
        turns: [
          { match: "inband", steps: [text("partial"), { kind: "error", message: "Model overloaded" }] },
          { match: "thrown", steps: [{ kind: "error", message: "Tool crashed", thrown: true }] },
        ],
      },
      FaultyThink: {
        host: "think",
        turns: [{ match: "inband", steps: [{ kind: "error", message: "Boom" }] }],
      },
      Parallel: {
        host: "ai-chat",
        turns: [
          {
            match: /./,
            steps: [
              { kind: "approval", name: "pay", input: { amount: 1 }, output: { paid: 1 } },
              { kind: "approval", name: "pay", input: { amount: 2 }, output: { paid: 2 } },
              text("Both decided."),
            ],
          },
        ],
      },
      Parts: {
        host: "ai-chat",
        turns: [
          { match: "drop", steps: [text("one two"), { kind: "close-socket" }, text("three four")] },
          {
            match: "late",
            steps: [data("data-status", { step: 1 }, { transient: true }), delay(300), text("Done.")],
          },
          {
            match: /./,
            steps: [
              reasoning("Thinking it over."),
              data("data-weather", (ctx: TurnContext) => ({ asked: ctx.userText, plan: ctx.body.plan }), {
                id: "w1",
              }),
              data("data-status", { step: 1 }, { transient: true }),
              text("Done."),
            ],
          },
        ],
      },
      Narrator: {
        host: "ai-chat",
        turns: [
          {
            match: /./,
            steps: [
              {
                kind: "detached",
                narrateMilestones: true,
                run: {
                  tool: "crawl",
                  agentType: "Crawler",
                  input: { site: "a" },
                  steps: [
                    progress(0.5),
                    milestone("halfway", { data: { pages: 10 } }),
                    delay(50),
                    text("done"),
                  ],
                },
              },
            ],
          },
        ],
      },
    },
  });
});
afterAll(() => server.close());

let roomN = 0;
const room = (p: string) => `${p}-${++roomN}-${Math.random().toString(36).slice(2, 6)}`;

async function open(agent: string, name: string) {
  const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/agents/${agent}/${name}`);
  const frames: Frame[] = [];
  let closed: number | undefined;
  ws.on("message", (d, binary) => {
    if (!binary) frames.push(JSON.parse(d.toString()));
  });
  ws.on("close", (code) => {
    closed = code;
  });
  await new Promise((res, rej) => {
    ws.once("open", res);
    ws.once("error", rej);
  });
  const waitFor = async (pred: (f: Frame) => boolean, ms = 5000): Promise<Frame> => {
    const end = Date.now() + ms;
    for (;;) {
      const f = frames.find(pred);
      if (f) return f;
      if (Date.now() > end) throw new Error("frame not seen");
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  let rpcN = 0;
  const rpc = async (method: string, ...args: unknown[]) => {
    const id = `rpc-${++rpcN}`;
    ws.send(JSON.stringify({ type: "rpc", id, method, args }));
    return waitFor((f) => f.type === "rpc" && f.id === id && f.done !== false);
  };
  const ask = (id: string, text: string, extra: Record<string, unknown> = {}, messages?: unknown[]) =>
    ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id,
        init: {
          method: "POST",
          body: JSON.stringify({
            messages: messages ?? [{ id: `u-${id}`, role: "user", parts: [{ type: "text", text }] }],
            trigger: "submit-message",
            ...extra,
          }),
        },
      }),
    );
  return {
    ws,
    frames,
    waitFor,
    rpc,
    ask,
    send: (f: unknown) => ws.send(JSON.stringify(f)),
    closed: () => closed,
    name,
  };
}

const chunks = (frames: Frame[], id: string) =>
  frames
    .filter(
      (f) => f.type === "cf_agent_use_chat_response" && f.id === id && typeof f.body === "string" && f.body,
    )
    .map((f) => {
      try {
        return JSON.parse(f.body as string) as Frame;
      } catch {
        return { error: f.body };
      }
    });
const textOf = (frames: Frame[], id: string) =>
  chunks(frames, id)
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta)
    .join("");
const getMessages = async (agent: string, name: string) =>
  (await (await fetch(`${server.url}/agents/${agent}/${name}/get-messages`)).json()) as Array<{
    id: string;
    role: string;
    parts: Array<Record<string, unknown>>;
    metadata?: Record<string, unknown>;
  }>;

describe("chat turns", () => {
  it("cancel ends the turn with outcome aborted and keeps the partial message", async () => {
    const name = room("cancel");
    const c = await open("chat-agent", name);
    c.ask("r1", "slow please");
    await c.waitFor((f) => typeof f.body === "string" && f.body.includes("word2 "));
    c.send({ type: "cf_agent_chat_request_cancel", id: "r1" });
    const done = await c.waitFor((f) => f.id === "r1" && f.done === true);
    expect(done).toMatchObject({ outcome: "aborted", messageIds: ["u-r1"] });
    const stored = await getMessages("chat-agent", name);
    expect(stored.at(-1)?.parts.find((p) => p.type === "text")?.text).toBe(textOf(c.frames, "r1"));
    c.ws.close();
  });

  it("an in-band error: {error, done:false} then done; AIChatAgent omits the outcome, Think says error", async () => {
    const c = await open("faulty", room("err"));
    c.ask("r1", "inband");
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const terminal = c.frames.filter((f) => f.id === "r1" && (f.error === true || f.done === true));
    expect(terminal).toEqual([
      { body: "Model overloaded", done: false, error: true, id: "r1", type: "cf_agent_use_chat_response" },
      { body: "", done: true, id: "r1", type: "cf_agent_use_chat_response", messageIds: ["u-r1"] },
    ]);
    const t = await open("faulty-think", room("err"));
    t.ask("r2", "inband");
    const done = await t.waitFor((f) => f.id === "r2" && f.done === true);
    expect(done.outcome).toBe("error");
    c.ws.close();
    t.ws.close();
  });

  it("a thrown error ends the stream with one {error:true, done:true} frame", async () => {
    const c = await open("faulty", room("thrown"));
    c.ask("r1", "thrown");
    const end = await c.waitFor((f) => f.id === "r1" && f.done === true);
    expect(end).toMatchObject({ error: true, body: "Tool crashed" });
    c.ws.close();
  });

  it("a second request waits for the first (queue), and a probe meanwhile is offered the live one", async () => {
    const name = room("queue");
    const c = await open("chat-agent", name);
    c.ask("r1", "slow please");
    c.ask("r2", "hello");
    await c.waitFor((f) => f.id === "r1" && typeof f.body === "string" && f.body.includes("word1 "));
    expect(c.frames.some((f) => f.id === "r2")).toBe(false);
    c.send({ type: "cf_agent_stream_resume_request", probeId: "p1" });
    expect(await c.waitFor((f) => f.type === "cf_agent_stream_resuming")).toEqual({
      type: "cf_agent_stream_resuming",
      id: "r1",
      probeId: "p1",
    });
    await c.waitFor((f) => f.id === "r2" && f.done === true, 15_000);
    const firstR2 = c.frames.findIndex((f) => f.id === "r2");
    const lastR1 = c.frames.length - 1 - [...c.frames].reverse().findIndex((f) => f.id === "r1");
    expect(firstR2).toBeGreaterThan(lastR1);
    c.ws.close();
  });

  it("regenerate replaces the last answer; the transcript keeps one assistant message", async () => {
    const name = room("regen");
    const c = await open("chat-agent", name);
    c.ask("r1", "hello");
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const before = await getMessages("chat-agent", name);
    const user = before[0];
    c.ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id: "r2",
        init: { method: "POST", body: JSON.stringify({ messages: [user], trigger: "regenerate-message" }) },
      }),
    );
    await c.waitFor((f) => f.id === "r2" && f.done === true);
    const after = await getMessages("chat-agent", name);
    expect(after.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(after[1]?.id).not.toBe(before[1]?.id);
    c.ws.close();
  });
});

describe("scripted parts", () => {
  it("reasoning, a persisted data part (seeing the request's extra body) and a transient one", async () => {
    const name = room("parts");
    const c = await open("parts", name);
    c.ask("r1", "plan my day", { plan: "pro" });
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const types = chunks(c.frames, "r1").map((x) => x.type);
    expect(types).toContain("reasoning-delta");
    expect(chunks(c.frames, "r1").find((x) => x.type === "data-status")).toMatchObject({ transient: true });
    const stored = await getMessages("parts", name);
    const parts = stored.at(-1)?.parts ?? [];
    expect(parts.find((p) => p.type === "reasoning")?.text).toBe("Thinking it over.");
    expect(parts.find((p) => p.type === "data-weather")).toMatchObject({
      id: "w1",
      data: { asked: "plan my day", plan: "pro" },
    });
    // Transient data reaches the client but is never stored.
    expect(parts.some((p) => p.type === "data-status")).toBe(false);
    c.ws.close();
  });

  it("a transient data chunk is in the replay for a tab that joins after it went out (every chunk is stored)", async () => {
    const name = room("late");
    const asker = await open("parts", name);
    asker.ask("r1", "late joiner");
    await asker.waitFor((f) => f.id === "r1" && typeof f.body === "string" && f.body.includes("data-status"));
    const late = await open("parts", name);
    late.send({ type: "cf_agent_stream_resume_request", probeId: "p1" });
    const offer = await late.waitFor((f) => f.type === "cf_agent_stream_resuming" && f.probeId === "p1");
    late.send({ type: "cf_agent_stream_resume_ack", id: offer.id });
    await late.waitFor((f) => f.id === "r1" && f.done === true);
    const replayed = late.frames.filter((f) => f.id === "r1" && f.replay === true && f.body);
    expect(replayed.map((f) => JSON.parse(f.body as string))).toContainEqual({
      type: "data-status",
      data: { step: 1 },
      transient: true,
    });
    expect(textOf(late.frames, "r1")).toBe("Done.");
    asker.ws.close();
    late.ws.close();
  });

  it("close-socket drops the requester mid-turn; the turn finishes and another tab sees it", async () => {
    const name = room("dropper");
    const asker = await open("parts", name);
    const watcher = await open("parts", name);
    asker.ask("r1", "drop me");
    await watcher.waitFor((f) => f.id === "r1" && f.done === true);
    expect(asker.closed()).toBe(1006);
    expect(textOf(watcher.frames, "r1")).toBe("one twothree four");
    watcher.ws.close();
  });
});

describe("callables", () => {
  it("Live View: new URLs on every call, a page with a sign-in form, 410 after the TTL, a devtools mode", async () => {
    const c = await open("chat-agent", room("lv"));
    const a = (await c.rpc("liveView", { mode: "tab" })).result as {
      sessionId: string;
      targets: Array<{ targetId: string; url: string; pageUrl: string; title: string; type: string }>;
      expiresInMs: number;
    };
    const b = (await c.rpc("liveView", { mode: "devtools" })).result as typeof a;
    expect(a.expiresInMs).toBe(300);
    expect(a.targets[0]).toMatchObject({ pageUrl: "https://shop.example/login", type: "page" });
    expect(b.targets[0]?.url).not.toBe(a.targets[0]?.url);
    expect(b.targets[0]?.url.endsWith("/devtools")).toBe(true);
    const page = await fetch(a.targets[0]?.url ?? "");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<input id="p" name="password" type="password"');
    await new Promise((r) => setTimeout(r, 350));
    expect((await fetch(a.targets[0]?.url ?? "")).status).toBe(410);
    expect((await fetch(`${server.url}/live-view/not-a-token`)).status).toBe(404);
    c.ws.close();
  });

  it("workflow approvals: an expense waits in state until approve(id, by); unknown ids are refused", async () => {
    const name = room("wf");
    const c = await open("chat-agent", name);
    const other = await open("chat-agent", name);
    c.ask("r1", "file an expense of 80");
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const state = (await other.waitFor(
      (f) => f.type === "cf_agent_state" && Array.isArray((f.state as Frame).pendingApprovals),
    )) as { state: { pendingApprovals: Array<{ id: string; amount: number }> } };
    const [item] = state.state.pendingApprovals;
    expect(item?.amount).toBe(80);
    const res = await c.rpc("approve", item?.id, "manager@example.com");
    expect(res).toMatchObject({
      success: true,
      result: { status: "approved", approvedBy: "manager@example.com" },
    });
    await other.waitFor(
      (f) =>
        f.type === "cf_agent_state" &&
        ((f.state as Frame).resolvedApprovals as unknown[] | undefined)?.length === 1,
    );
    expect(await c.rpc("reject", "nope", "why")).toMatchObject({
      success: false,
      error: "No pending approval nope",
    });
    c.ws.close();
    other.ws.close();
  });

  it("Think durable pause: listed while pending, approved once from a later socket, idempotent", async () => {
    const name = room("pause");
    const first = await open("think-agent", name);
    first.ask("r1", "deploy it");
    await first.waitFor((f) => f.id === "r1" && f.done === true);
    const chunk = chunks(first.frames, "r1").find((c) => c.type === "tool-output-available") as {
      output: { status: string; executionId: string; action: string };
      approvalDescriptor: { kind: string; risk: string; permissions: string[]; input: { changelog: string } };
    };
    // The shape Think 0.23 sends (checked on the real runtime): the descriptor beside the output.
    const paused = { ...chunk.output, descriptor: chunk.approvalDescriptor };
    expect(chunk.output).toMatchObject({ status: "paused", action: "deploy" });
    expect(chunk.output.executionId).toMatch(/^actpause_/);
    expect(paused.descriptor).toMatchObject({
      kind: "durable-pause",
      risk: "high",
      permissions: ["deploy:production", "secrets:read"],
    });
    first.ws.close();
    await new Promise((r) => setTimeout(r, 50));

    const later = await open("think-agent", name);
    const approvals = (await later.rpc("pendingApprovals")).result as Array<{
      executionId: string;
      source: string;
    }>;
    expect(approvals).toEqual([
      expect.objectContaining({ executionId: paused.executionId, source: "action" }),
    ]);
    const executions = (await later.rpc("pendingExecutions")).result as Array<{
      input: { changelog: string };
    }>;
    // The transcript carries a preview; the full arguments come from pendingExecutions.
    expect(executions[0]?.input.changelog.length).toBeGreaterThan(paused.descriptor.input.changelog.length);
    const ok = await later.rpc("approveExecution", paused.executionId);
    expect(ok).toMatchObject({ success: true, result: { ok: true, url: "https://web-app.example" } });
    // The paused output is replaced by the action's own result, and the text after the pause is dropped.
    const updated = (await later.waitFor((f) => f.type === "cf_agent_message_updated")) as {
      message: { parts: Array<{ type: string; output?: unknown }> };
    };
    expect(updated.message.parts.find((p) => p.type === "tool-deploy")?.output).toEqual({
      ok: true,
      url: "https://web-app.example",
      version: "2026.11.22",
    });
    expect(updated.message.parts.at(-1)?.type).toBe("tool-deploy");
    await later.waitFor((f) => f.done === true && f.continuation === true);
    const ends = () =>
      later.frames.filter((f) => f.type === "cf_agent_use_chat_response" && f.done === true).length;
    const turns = ends();
    const again = await later.rpc("approveExecution", paused.executionId);
    expect(again).toMatchObject({
      success: true,
      result: { status: "error", executionId: paused.executionId },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(ends()).toBe(turns);
    expect((await later.rpc("pendingApprovals")).result).toEqual([]);

    // Another deploy, rejected with a reason: the output says so and nothing runs.
    later.ask("r2", "deploy again");
    await later.waitFor((f) => f.id === "r2" && f.done === true);
    const second = chunks(later.frames, "r2").find((c) => c.type === "tool-output-available")?.output as {
      executionId: string;
    };
    const no = await later.rpc("rejectExecution", second.executionId, "Freeze until Monday");
    expect(no).toMatchObject({ success: true, result: { status: "rejected" } });
    const rejected = await later.waitFor(
      (f) => f.type === "cf_agent_message_updated" && JSON.stringify(f).includes("Freeze until Monday"),
    );
    expect(JSON.stringify(rejected)).toContain('"status":"rejected"');
    expect(await later.rpc("approveExecution", second.executionId)).toMatchObject({
      result: { status: "error", executionId: second.executionId },
    });
    later.ws.close();
  });

  it("parallel approvals are asked in one step, and the continuation waits for the last decision", async () => {
    const c = await open("parallel", room("parallel"));
    c.ask("r1", "pay both");
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const asks = chunks(c.frames, "r1").filter((x) => x.type === "tool-approval-request");
    expect(asks).toHaveLength(2);
    const [first, second] = asks.map((a) => a.toolCallId as string) as [string, string];
    c.send({ type: "cf_agent_tool_approval", toolCallId: first, approved: true, autoContinue: true });
    await c.waitFor((f) => f.type === "cf_agent_message_updated");
    // Well past the server's 50 ms coalesce window: no continuation while a sibling is undecided.
    await new Promise((r) => setTimeout(r, 150));
    expect(c.frames.some((f) => f.type === "cf_agent_stream_resuming")).toBe(false);
    c.send({ type: "cf_agent_tool_approval", toolCallId: second, approved: false, autoContinue: true });
    const resuming = await c.waitFor((f) => f.type === "cf_agent_stream_resuming");
    c.send({ type: "cf_agent_stream_resume_ack", id: resuming.id });
    await c.waitFor((f) => f.id === resuming.id && f.done === true);
    const cont = chunks(c.frames, resuming.id as string);
    expect(cont.filter((x) => x.type === "tool-output-available").map((x) => x.toolCallId)).toEqual([first]);
    expect(textOf(c.frames, resuming.id as string)).toBe("Both decided.");
    const [, answer] = await getMessages("parallel", c.name);
    expect(answer?.parts.filter((p) => p.toolCallId).map((p) => p.state)).toEqual([
      "output-available",
      "output-denied",
    ]);
    c.ws.close();
  });

  it("Think actions carry an approval descriptor on the approval request", async () => {
    const c = await open("think-agent", room("desc"));
    c.ask("r1", "browse my orders");
    await c.waitFor((f) => f.id === "r1" && f.done === true);
    const req = chunks(c.frames, "r1").find((x) => x.type === "tool-approval-request");
    expect(req?.approvalDescriptor).toMatchObject({
      action: "continueAfterLogin",
      kind: "approval-gated",
      risk: "medium",
      permissions: ["browser:session"],
      toolCallId: req?.toolCallId,
    });
    expect(typeof (req?.approvalDescriptor as Frame | undefined)?.requestId).toBe("string");
    c.ws.close();
  });

  it("cancelAgentTool stops a background run: aborted with the reason", async () => {
    const c = await open("chat-agent", room("cancel-run"));
    c.ask("r1", "background research on queues");
    const started = (await c.waitFor((f) => f.type === "agent-tool-event")) as { event: { runId: string } };
    expect(await c.rpc("cancelAgentTool", started.event.runId, "user cancelled")).toMatchObject({
      result: true,
    });
    const aborted = await c.waitFor((f) => (f.event as Frame | undefined)?.kind === "aborted");
    expect(aborted.event).toEqual({ kind: "aborted", runId: started.event.runId, reason: "user cancelled" });
    const notify = await c.waitFor((f) => f.type === "cf_agent_chat_messages");
    expect(JSON.stringify(notify)).toContain(`detached-finish:${started.event.runId}:aborted`);
    c.ws.close();
  });

  it("milestone narration: a detached run's milestone becomes a detached-ms assistant message", async () => {
    const name = room("narrate");
    const c = await open("narrator", name);
    c.ask("r1", "go");
    await c.waitFor((f) => JSON.stringify(f).includes("detached-ms:"));
    const stored = await getMessages("narrator", name);
    const ms = stored.find((m) => m.id.startsWith("detached-ms:"));
    expect(ms).toMatchObject({
      role: "assistant",
      metadata: { source: "detached-agent-tool", milestone: "halfway" },
    });
    expect(ms?.parts[0]?.text).toContain('reached milestone "halfway"');
    c.ws.close();
  });
});

describe("controller and faults", () => {
  it("holds frames and releases them one at a time; waitForFrame resolves on the next match", async () => {
    const name = room("held");
    const waiting = server.controller.waitForFrame(
      (f) => f.frame.type === "cf_agent_identity" && f.name === name,
    );
    server.controller.hold();
    try {
      const c = await open("chat-agent", name);
      await new Promise((r) => setTimeout(r, 30));
      expect(c.frames).toHaveLength(0);
      // Other tests' background runs may have frames held too: release until this socket's first one.
      let first: { frame: Frame; name: string } | undefined;
      for (let i = 0; i < 1000 && first?.name !== name; i++) [first] = server.controller.next();
      expect(first?.frame.type).toBe("cf_agent_identity");
      expect((await waiting).frame.type).toBe("cf_agent_identity");
      await c.waitFor((f) => f.type === "cf_agent_identity");
      expect(c.frames).toHaveLength(1);
      server.controller.release();
      await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
      expect(c.frames.map((f) => f.type)).toEqual([
        "cf_agent_identity",
        "cf_agent_state",
        "cf_agent_mcp_servers",
      ]);
      c.ws.close();
    } finally {
      server.controller.release();
    }
  });

  it("drops one socket after N frames while the agent's other sockets carry on; duplicates frames on request", async () => {
    const name = room("drop");
    const keep = await open("chat-agent", name);
    server.controller.dropSocketAfter(2, { agent: "ChatAgent", name });
    const dropped = await open("chat-agent", name);
    await new Promise((r) => setTimeout(r, 50));
    server.controller.clearFaults();
    expect(dropped.frames).toHaveLength(2);
    expect(dropped.closed()).toBe(1006);
    server.controller.duplicate((f) => f.name === name && f.frame.type === "rpc");
    const res = await keep.rpc("increment", 1);
    await new Promise((r) => setTimeout(r, 30));
    server.controller.clearFaults();
    expect(res).toMatchObject({ result: 1 });
    expect(keep.frames.filter((f) => f.type === "rpc")).toHaveLength(2);
    keep.ws.close();
  });
});

describe("bad input", () => {
  it("logs one line per bad frame, never crashes, and the socket and its neighbours keep working", async () => {
    const name = room("bad");
    const c = await open("chat-agent", name);
    const neighbour = await open("chat-agent", name);
    const before = logs.length;
    c.ws.send("{not json");
    c.ws.send(JSON.stringify({ type: "made_up_type" }));
    c.ws.send(JSON.stringify({ type: "rpc", id: "x", method: "increment", args: "not-an-array" }));
    c.ws.send(
      JSON.stringify({
        type: "cf_agent_use_chat_request",
        id: "r1",
        init: { method: "POST", body: "{broken" },
      }),
    );
    c.ws.send(Buffer.from([1, 2, 3]));
    await new Promise((r) => setTimeout(r, 50));
    expect(logs.length - before).toBe(5);
    expect(logs.slice(before).every((l) => !l.includes("\n") && l.includes(name))).toBe(true);
    expect(c.frames.some((f) => f.id === "r1" || f.id === "x")).toBe(false);
    expect(await c.rpc("increment", 2)).toMatchObject({ result: 2 });
    expect(await neighbour.rpc("getInfo")).toMatchObject({ success: true });
    c.ws.close();
    neighbour.ws.close();
  });

  it("closes a frame over maxFrameBytes with 1009; other sockets are unaffected", async () => {
    const name = room("big");
    const c = await open("chat-agent", name);
    const neighbour = await open("chat-agent", name);
    c.ws.send("x".repeat(5000));
    await new Promise((r) => setTimeout(r, 100));
    expect(c.closed()).toBe(1009);
    expect(await neighbour.rpc("increment", 1)).toMatchObject({ result: 1 });
    neighbour.ws.close();
  });
});
