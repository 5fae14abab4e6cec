/**
 * RPC (docs/protocol.md#state, docs/protocol.md#rpc) and the built-in callables: state broadcasts, errors, a streaming callable,
 * Live View sessions and pages, workflow approvals over state, and Think's durable executions (docs/protocol.md#host-differences, docs/protocol.md#approvals).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAgents } from "../src/index.ts";
import { type Frame, room, sleep, startServer, type TestClient, type TestServer } from "./ws-client.ts";

let ts: TestServer;
/** Live View pages expire after 50 ms here. */
let shortLived: TestServer;
beforeAll(async () => {
  ts = await startServer({ delayScale: 0.05, agents: demoAgents });
  shortLived = await startServer({ delayScale: 0, agents: demoAgents, liveViewTtlMs: 50 });
});
afterAll(async () => {
  await ts.close();
  await shortLived.close();
});

const chatPath = (name: string) => `/agents/chat-agent/${name}`;
const thinkPath = (name: string) => `/agents/think-agent/${name}`;
const states = (c: TestClient) => c.ofType("cf_agent_state").map((f) => f.state);

async function connected(path: string, server = ts) {
  const c = await server.open(path);
  await c.waitFor((f) => f.type === "cf_agent_mcp_servers");
  return c;
}

describe("RPC", () => {
  it("a server setState inside a callable reaches every socket, the caller first, then the result", async () => {
    const name = room("inc");
    const caller = await connected(chatPath(name));
    const other = await connected(chatPath(name));
    const before = caller.frames.length;
    const reply = await caller.rpc("increment", 2);
    expect(reply).toEqual({ type: "rpc", id: reply.id, success: true, done: true, result: 2 });
    expect(caller.frames.slice(before)).toEqual([{ type: "cf_agent_state", state: { counter: 2 } }, reply]);
    expect(
      await other.waitFor((f) => f.type === "cf_agent_state" && (f.state as Frame).counter === 2),
    ).toBeTruthy();
    expect((await caller.rpc("increment")).result).toBe(3);
    expect(await caller.rpc("getInfo")).toMatchObject({
      success: true,
      result: { name, messageCount: 0, state: { counter: 3 } },
    });
    // Replies go to the caller only.
    expect(other.ofType("rpc")).toEqual([]);
    await caller.close();
    await other.close();
  });

  it("a client's state goes to the other sockets only, and a new socket starts from it", async () => {
    const name = room("client-state");
    const a = await connected(chatPath(name));
    const b = await connected(chatPath(name));
    a.send({ type: "cf_agent_state", state: { counter: 41, by: "a" } });
    expect(await b.waitFor((f) => f.type === "cf_agent_state" && (f.state as Frame).by === "a")).toEqual({
      type: "cf_agent_state",
      state: { counter: 41, by: "a" },
    });
    await a.quiet();
    expect(states(a)).toEqual([{ counter: 0 }]);
    const c = await connected(chatPath(name));
    expect(states(c)).toEqual([{ counter: 41, by: "a" }]);
    expect((await c.rpc("increment")).result).toBe(42);
    for (const x of [a, b, c]) await x.close();
  });

  it("errors: not callable, does not exist, and a callable that throws", async () => {
    const c = await connected(chatPath(room("errors")));
    for (const [method, error] of [
      ["onChatMessage", "Method onChatMessage is not callable"],
      ["setState", "Method setState is not callable"],
      ["launchRockets", "Method launchRockets does not exist"],
      // Think's durable-execution callables exist on Think hosts only.
      ["pendingExecutions", "Method pendingExecutions does not exist"],
      ["approve", "No pending approval missing"],
    ] as const) {
      const reply = await c.rpc(method, "missing");
      expect(reply).toEqual({ type: "rpc", id: reply.id, success: false, error });
    }
    await c.close();
  });

  // Only own callables answer: `toString` once answered "[object Undefined]" and `constructor` the API object.
  it("inherited object members are not callables", async () => {
    const c = await connected(chatPath(room("proto")));
    for (const method of ["toString", "constructor", "hasOwnProperty"]) {
      expect(await c.rpc(method)).toMatchObject({
        success: false,
        error: expect.stringMatching(new RegExp(`^Method ${method} (is not callable|does not exist)$`)),
      });
    }
    await c.close();
  });

  it("a streaming callable sends done:false chunks, then done:true with the result", async () => {
    const c = await connected(chatPath(room("countdown")));
    const reply = await c.rpc("countdown", 3);
    const frames = c.ofType("rpc").filter((f) => f.id === reply.id);
    expect(frames).toEqual([
      { type: "rpc", id: reply.id, success: true, done: false, result: 3 },
      { type: "rpc", id: reply.id, success: true, done: false, result: 2 },
      { type: "rpc", id: reply.id, success: true, done: false, result: 1 },
      { type: "rpc", id: reply.id, success: true, done: true, result: "liftoff" },
    ]);
    await c.close();
  });
});

interface Session {
  sessionId: string;
  targets: Array<{ targetId: string; url: string; pageUrl: string; title: string; type: string }>;
  expiresInMs: number;
}

describe("Live View", () => {
  it("liveView({mode:'tab'}) mints a session whose page is a sign-in form; every call mints new URLs", async () => {
    const c = await connected(chatPath(room("lv")));
    const a = (await c.rpc("liveView", { mode: "tab" })).result as Session;
    const b = (await c.rpc("liveView", { mode: "tab" })).result as Session;
    expect(a).toEqual({
      sessionId: expect.stringMatching(/^[0-9a-f]{32}$/),
      targets: [
        {
          targetId: expect.any(String),
          url: expect.stringMatching(new RegExp(`^${ts.server.url}/live-view/[0-9a-f]{32}$`)),
          pageUrl: "https://shop.example/login",
          title: expect.any(String),
          type: "page",
        },
        expect.objectContaining({ pageUrl: "https://shop.example/orders", type: "page" }),
      ],
      expiresInMs: 5 * 60_000,
    });
    expect(b.sessionId).not.toBe(a.sessionId);
    const urls = [...a.targets, ...b.targets].map((t) => t.url);
    expect(new Set(urls).size).toBe(4);

    const page = await fetch(a.targets[0]?.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<form[^>]*>/);
    expect(html).toContain('type="email"');
    expect(html).toContain('type="password"');
    expect(html).toContain("https://shop.example/login");
    expect((await fetch(`${ts.server.url}/live-view/0123456789abcdef0123456789abcdef`)).status).toBe(404);
    await c.close();
  });

  it("devtools mode: the URLs end with /devtools and serve a console page", async () => {
    const c = await connected(chatPath(room("lv-dev")));
    const s = (await c.rpc("liveView", { mode: "devtools" })).result as Session;
    for (const t of s.targets) expect(t.url.endsWith("/devtools")).toBe(true);
    const page = await fetch(s.targets[0]?.url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Console");
    // Nothing exists below a page.
    expect((await fetch(`${s.targets[0]?.url}/more`)).status).toBe(404);
    await c.close();
  });

  it("pages answer 410 once the TTL has passed", async () => {
    const c = await connected(chatPath(room("lv-ttl")), shortLived);
    const s = (await c.rpc("liveView", { mode: "tab" })).result as Session;
    expect(s.expiresInMs).toBe(50);
    await sleep(80);
    const res = await fetch(s.targets[0]?.url as string);
    expect(res.status).toBe(410);
    // A fresh session works again.
    const again = (await c.rpc("liveView", {})).result as Session;
    expect(again.targets[0]?.url).not.toBe(s.targets[0]?.url);
    await c.close();
  });

  it("closeBrowser(): liveView() then answers null (a closed session), until an openBrowser turn opens one", async () => {
    const c = await connected(chatPath(room("lv-closed")));
    expect((await c.rpc("closeBrowser")).result).toBe(true);
    const closed = await c.rpc("liveView", { mode: "tab" });
    expect(closed).toMatchObject({ success: true });
    expect(closed.result ?? null).toBeNull();
    c.ask("r1", "browse my orders");
    await c.done("r1");
    expect(((await c.rpc("liveView", {})).result as Session).targets).toHaveLength(2);
    await c.close();
  });
});

describe("workflow approvals", () => {
  it("expense → pending in state; approve(id, by) moves it to resolved and broadcasts; unknown id is an error", async () => {
    const name = room("expense");
    const c = await connected(chatPath(name));
    const other = await connected(chatPath(name));
    c.ask("r1", "file an expense of 80");
    await c.done("r1");
    const filed = (await other.waitFor(
      (f) => f.type === "cf_agent_state" && Array.isArray((f.state as Frame).pendingApprovals),
    )) as { state: { counter: number; pendingApprovals: Array<Record<string, unknown>> } };
    expect(filed.state.counter).toBe(0);
    expect(filed.state.pendingApprovals).toEqual([
      {
        id: expect.stringMatching(/^exp-/),
        title: "Expense: team lunch (80 EUR)",
        amount: 80,
        requestedBy: "you",
        requestedAt: expect.any(Number),
      },
    ]);
    const item = filed.state.pendingApprovals[0] as { id: string };
    expect(c.text("r1")).toContain(item.id);

    const reply = await c.rpc("approve", item.id, "manager");
    expect(reply.result).toEqual({
      ...item,
      status: "approved",
      approvedBy: "manager",
      resolvedAt: expect.any(Number),
    });
    for (const s of [c, other]) {
      const last = await s.waitFor(
        (f) => f.type === "cf_agent_state" && Array.isArray((f.state as Frame).resolvedApprovals),
      );
      expect(last.state).toEqual({ counter: 0, pendingApprovals: [], resolvedApprovals: [reply.result] });
    }
    expect(await c.rpc("approve", item.id, "manager")).toMatchObject({
      success: false,
      error: `No pending approval ${item.id}`,
    });
    expect(await c.rpc("approve", "nope")).toMatchObject({
      success: false,
      error: "No pending approval nope",
    });

    // reject(id, reason) on a second one.
    c.ask("r2", "another expense of 12");
    await c.done("r2");
    const pending = (states(c).at(-1) as { pendingApprovals: Array<{ id: string }> }).pendingApprovals;
    const rejected = await c.rpc("reject", pending[0]?.id, "no receipt");
    expect(rejected.result).toMatchObject({
      id: pending[0]?.id,
      amount: 12,
      status: "rejected",
      reason: "no receipt",
    });
    await c.close();
    await other.close();
  });

  it("approve / reject find items keyed workflowId, the human-in-the-loop docs' shape", async () => {
    const c = await connected(chatPath(room("docs-shape")));
    const items = [
      { workflowId: "wf-1", amount: 250, description: "Awaiting approval" },
      { workflowId: "wf-2", amount: 5, description: "Awaiting approval" },
    ];
    c.send({ type: "cf_agent_state", state: { pendingApprovals: items } });
    await c.quiet();
    expect((await c.rpc("approve", "wf-1", "admin")).result).toMatchObject({
      workflowId: "wf-1",
      status: "approved",
      approvedBy: "admin",
    });
    expect((await c.rpc("reject", "wf-2", "Declined")).result).toMatchObject({
      workflowId: "wf-2",
      status: "rejected",
      reason: "Declined",
    });
    expect(states(c).at(-1)).toMatchObject({ pendingApprovals: [] });
    await c.close();
  });
});

/** Asks ThinkAgent to deploy and returns the paused output chunk. */
async function deploy(c: TestClient, id: string) {
  c.ask(id, "deploy the web app");
  await c.done(id);
  const chunk = c.chunks(id).find((x) => x.type === "tool-output-available") as {
    toolCallId: string;
    output: { status: string; executionId: string; action: string; message: string };
    approvalDescriptor: Record<string, unknown> & { input: { changelog: string } };
  };
  return chunk;
}

const doneFrames = (c: TestClient) =>
  c.frames.filter((f) => f.type === "cf_agent_use_chat_response" && f.done === true);

describe("Think durable executions", () => {
  it("deploy pauses; the execution is listed; approved once from a new socket after everyone left", async () => {
    const name = room("deploy");
    const first = await connected(thinkPath(name));
    const paused = await deploy(first, "r1");
    expect(paused.output).toEqual({
      status: "paused",
      executionId: expect.stringMatching(/^actpause_[0-9a-f-]{36}$/),
      action: "deploy",
      message: "Deploying web-app to production needs approval.",
    });
    const { executionId } = paused.output;
    expect(paused.approvalDescriptor).toMatchObject({
      requestId: executionId,
      action: "deploy",
      summary: "Deploy web-app to production",
      kind: "durable-pause",
      risk: "high",
      permissions: ["deploy:production", "secrets:read"],
      toolCallId: paused.toolCallId,
    });
    // The transcript carries a cut preview of the input.
    expect(paused.approvalDescriptor.input.changelog.endsWith("…")).toBe(true);
    expect(first.text("r1")).toBe("The deploy is paused until someone approves it.");
    await first.close();

    const later = await connected(thinkPath(name));
    const approvals = (await later.rpc("pendingApprovals")).result as Array<Record<string, unknown>>;
    expect(approvals).toEqual([
      {
        executionId,
        source: "action",
        descriptor: expect.objectContaining({ action: "deploy", toolCallId: paused.toolCallId }),
      },
    ]);
    const executions = (await later.rpc("pendingExecutions")).result as Array<{
      executionId: string;
      toolCallId: string;
      action: string;
      input: { changelog: string };
    }>;
    expect(executions).toEqual([
      {
        executionId,
        toolCallId: paused.toolCallId,
        action: "deploy",
        input: expect.objectContaining({ service: "web-app", environment: "production" }),
        createdAt: expect.any(Number),
      },
    ]);
    // The full input, longer than the transcript's preview.
    expect(executions[0]?.input.changelog.length).toBeGreaterThan(
      paused.approvalDescriptor.input.changelog.length,
    );
    expect(executions[0]?.input.changelog.endsWith("…")).toBe(false);

    const turnsBefore = doneFrames(later).length;
    const ok = await later.rpc("approveExecution", executionId);
    const result = { ok: true, url: "https://web-app.example", version: "2026.11.22" };
    // Think answers with the action's own output (observed on the real runtime).
    expect(ok).toMatchObject({ success: true, result });
    const updated = (await later.waitFor((f) => f.type === "cf_agent_message_updated")) as {
      message: { parts: Array<Record<string, unknown>> };
    };
    const part = updated.message.parts.find((p) => p.toolCallId === paused.toolCallId);
    expect(part).toMatchObject({ type: "tool-deploy", state: "output-available", output: result });
    // What the model wrote after the pause is gone; the resumed turn writes anew.
    expect(updated.message.parts.at(-1)).toBe(part);
    const cont = await later.waitFor(
      (f) => f.type === "cf_agent_use_chat_response" && f.continuation === true,
    );
    const id = cont.id as string;
    const end = await later.done(id);
    expect(end).toEqual({
      type: "cf_agent_use_chat_response",
      id,
      body: "",
      done: true,
      continuation: true,
      outcome: "completed",
    });
    expect(later.text(id)).toBe("Approved: Deploy web-app to production is done.");
    expect(doneFrames(later).length).toBe(turnsBefore + 1);

    // Exactly once: a second approval answers an error object (not a throw) and starts nothing.
    expect(await later.rpc("approveExecution", executionId)).toMatchObject({
      success: true,
      result: {
        status: "error",
        executionId,
        error: `Execution "${executionId}" is no longer pending — it was approved or rejected elsewhere.`,
      },
    });
    await later.quiet(100);
    expect(doneFrames(later).length).toBe(turnsBefore + 1);
    expect(later.ofType("cf_agent_message_updated")).toHaveLength(1);
    expect((await later.rpc("pendingApprovals")).result).toEqual([]);
    expect(await later.rpc("approveExecution", "actpause_nope")).toMatchObject({
      success: true,
      result: { status: "error", executionId: "actpause_nope" },
    });
    await later.close();
  });

  it("rejectExecution: the output says rejected with the reason and the continuation does not run it", async () => {
    const c = await connected(thinkPath(room("reject")));
    const first = await deploy(c, "r1");
    const second = await deploy(c, "r2");
    const ids = [first.output.executionId, second.output.executionId];
    // Both listing callables take an optional execution id to scope to one.
    expect(((await c.rpc("pendingApprovals")).result as unknown[]).length).toBe(2);
    expect((await c.rpc("pendingApprovals", ids[1])).result).toEqual([
      expect.objectContaining({ executionId: ids[1] }),
    ]);
    expect((await c.rpc("pendingExecutions", ids[0])).result).toEqual([
      expect.objectContaining({ executionId: ids[0], toolCallId: first.toolCallId }),
    ]);

    const no = await c.rpc("rejectExecution", ids[0], "Change freeze");
    const rejected = { status: "rejected", executionId: ids[0], action: "deploy", reason: "Change freeze" };
    expect(no).toEqual({ type: "rpc", id: no.id, success: true, done: true, result: rejected });
    const updated = (await c.waitFor((f) => f.type === "cf_agent_message_updated")) as {
      message: { parts: Array<Record<string, unknown>> };
    };
    expect(updated.message.parts.find((p) => p.toolCallId === first.toolCallId)?.output).toEqual(rejected);
    const cont = await c.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.continuation === true);
    await c.done(cont.id as string);
    expect(c.text(cont.id as string)).toBe(
      "Deploy web-app to production was rejected: Change freeze, so I did not run it.",
    );
    expect(await c.rpc("approveExecution", ids[0])).toMatchObject({
      result: { status: "error", executionId: ids[0] },
    });
    expect((await c.rpc("pendingApprovals")).result).toEqual([
      expect.objectContaining({ executionId: ids[1] }),
    ]);

    // Without a reason, Think's default one.
    expect((await c.rpc("rejectExecution", ids[1])).result).toEqual({
      status: "rejected",
      executionId: ids[1],
      action: "deploy",
      reason: "Rejected by user",
    });
    await c.close();
  });

  it("browse: a Live View tool output, then an approval request carrying the action descriptor", async () => {
    const c = await connected(thinkPath(room("browse")));
    c.ask("r1", "browse my orders");
    await c.done("r1");
    const chunks = c.chunks("r1");
    const session = chunks.find((x) => x.type === "tool-output-available")?.output as Session;
    expect((await fetch(session.targets[0]?.url as string)).status).toBe(200);
    const request = chunks.find((x) => x.type === "tool-approval-request");
    expect(request).toEqual({
      type: "tool-approval-request",
      approvalId: expect.stringMatching(/^aitxt-/),
      toolCallId: expect.any(String),
      approvalDescriptor: {
        requestId: expect.stringMatching(/^act_/),
        action: "continueAfterLogin",
        summary: "Continue browsing as the signed-in user",
        permissions: ["browser:session"],
        risk: "medium",
        kind: "approval-gated",
        toolCallId: request?.toolCallId,
        input: { page: "https://shop.example/login" },
      },
    });
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "tool-calls" });
    await c.close();
  });
});
