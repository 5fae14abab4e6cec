#!/usr/bin/env node
/**
 * Smoke test of the conformance Worker on the real runtime: starts workerd, sends `hello` to ChatAgent
 * (AIChatAgent) and ThinkAgent (Think), prints every frame, checks the reply text, stops the server.
 *
 *   node conformance/smoke.mjs           # hello on both hosts
 *   node conformance/smoke.mjs --all     # every scripted word on both hosts, plus the callables
 *   node conformance/smoke.mjs --quiet   # summary lines only
 *
 * Exit code 0 when every check passed.
 */
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { startRealServer } from "./start.mjs";

const ALL = process.argv.includes("--all");
const QUIET = process.argv.includes("--quiet");
const TURN_TIMEOUT_MS = 30_000;

const t0 = performance.now();
const failures = [];
const passes = [];

function check(label, ok, detail = "") {
  (ok ? passes : failures).push(label);
  console.log(`${ok ? "ok  " : "FAIL"} ${label}${detail ? ` — ${detail}` : ""}`);
}

/** One WebSocket to one agent instance, with every frame kept in order. */
class Conn {
  static async open(base, agent, room) {
    const url = `${base.replace(/^http/, "ws")}/agents/${agent}/${room}?_pk=${randomUUID()}`;
    const c = new Conn(new WebSocket(url), `${agent}/${room}`);
    await new Promise((resolve, reject) => {
      c.ws.once("open", resolve);
      c.ws.once("error", reject);
    });
    return c;
  }

  constructor(ws, label) {
    this.ws = ws;
    this.label = label;
    this.frames = [];
    this.waiters = [];
    this.acked = new Set();
    ws.on("message", (data) => {
      const raw = data.toString();
      let frame;
      try {
        frame = JSON.parse(raw);
      } catch {
        return;
      }
      this.frames.push(frame);
      if (!QUIET) console.log(`  ${this.label} <- ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`);
      // Answer resume offers so continuations (after approvals / tool results) reach this socket.
      if (frame.type === "cf_agent_stream_resuming" && !this.acked.has(frame.id)) {
        this.acked.add(frame.id);
        this.send({ type: "cf_agent_stream_resume_ack", id: frame.id });
      }
      for (const w of [...this.waiters]) {
        if (w.pred(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          clearTimeout(w.timer);
          w.resolve(frame);
        }
      }
    });
  }

  send(frame) {
    const raw = JSON.stringify(frame);
    if (!QUIET) console.log(`  ${this.label} -> ${raw.length > 300 ? `${raw.slice(0, 300)}…` : raw}`);
    this.ws.send(raw);
  }

  /** Resolves with the first frame (already received from index `from`, or later) matching `pred`. */
  waitFor(pred, { from = 0, timeoutMs = TURN_TIMEOUT_MS, what = "frame" } = {}) {
    const seen = this.frames.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = {
        pred,
        resolve,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          reject(new Error(`${this.label}: timed out waiting for ${what}`));
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  /** Sends a user message; resolves with the request id. */
  chat(text, history = []) {
    const id = randomUUID().slice(0, 8);
    const msg = { id: `u-${randomUUID().slice(0, 8)}`, role: "user", parts: [{ type: "text", text }] };
    this.send({
      type: "cf_agent_use_chat_request",
      id,
      init: {
        method: "POST",
        body: JSON.stringify({ messages: [...history, msg], trigger: "submit-message" }),
      },
    });
    return id;
  }

  async rpc(method, args = []) {
    const id = randomUUID();
    this.send({ type: "rpc", id, method, args });
    const res = await this.waitFor((f) => f.type === "rpc" && f.id === id && (f.done || !f.success), {
      what: `rpc ${method}`,
    });
    if (!res.success) throw new Error(res.error);
    return res.result;
  }

  /** Chunk bodies (parsed) of one response stream, in order. */
  chunks(id) {
    return this.frames
      .filter((f) => f.type === "cf_agent_use_chat_response" && f.id === id && f.body)
      .map((f) => {
        try {
          return JSON.parse(f.body);
        } catch {
          return { type: "error-text", text: f.body };
        }
      });
  }

  textOf(id) {
    return this.chunks(id)
      .filter((c) => c.type === "text-delta")
      .map((c) => c.delta)
      .join("");
  }

  done(id, timeoutMs) {
    return this.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.id === id && f.done, {
      timeoutMs,
      what: `done for ${id}`,
    });
  }

  /** The next stream whose id is not one of `known` (a continuation or a server-started turn). */
  async nextStream(known, from) {
    const f = await this.waitFor(
      (x) => x.type === "cf_agent_use_chat_response" && !known.includes(x.id) && !x.replay,
      { from, what: "a new stream" },
    );
    return f.id;
  }

  close() {
    this.ws.close();
  }
}

const room = (word) => `${word}-${Date.now().toString(36)}-${randomUUID().slice(0, 4)}`;
const AGENTS = [
  ["chat-agent", "ChatAgent"],
  ["think-agent", "ThinkAgent"],
];
const HELLO = "Hello! How can I help you today?";

async function hello(base, agent, label) {
  const started = performance.now();
  const c = await Conn.open(base, agent, room("hello"));
  await c.waitFor((f) => f.type === "cf_agent_identity", { what: "identity" });
  const id = c.chat("hello");
  const done = await c.done(id);
  check(`${label} hello: reply text`, c.textOf(id) === HELLO, JSON.stringify(c.textOf(id)));
  check(`${label} hello: stream ends cleanly`, !done.error, done.outcome ? `outcome ${done.outcome}` : "");
  c.close();
  return Math.round(performance.now() - started);
}

/** Every scripted word on one host. */
async function allWords(base, agent, label) {
  const think = agent === "think-agent";
  const simple = async (word, text, expect) => {
    const c = await Conn.open(base, agent, room(word));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat(text);
    await c.done(id);
    const got = c.textOf(id);
    check(`${label} ${word}`, expect(got, c, id), JSON.stringify(got.slice(0, 140)));
    return { c, id };
  };

  (
    await simple("weather", "what's the weather in Lisbon?", (t) => t.includes("Tool getWeather returned"))
  ).c.close();
  (
    await simple("slow", "slow stream please", (t) => t.startsWith("word0 word1") && t.endsWith("word39"))
  ).c.close();
  (await simple("fallback", "something else", (t) => t.startsWith("Try one of these words"))).c.close();

  {
    const { c } = await simple("expense", "file an expense for 42", (t) =>
      /I filed expense exp-\w+ for 42 EUR/.test(t),
    );
    const st = c.frames.filter((f) => f.type === "cf_agent_state").at(-1)?.state;
    const item = st?.pendingApprovals?.[0];
    check(`${label} expense: state.pendingApprovals`, item?.amount === 42, JSON.stringify(item));
    if (item) {
      const r = await c.rpc("approve", [item.id, "manager"]);
      check(`${label} expense: approve callable`, r.status === "approved");
    }
    c.close();
  }

  // Approval (needsApproval tool): approve → continuation with the tool output.
  {
    const c = await Conn.open(base, agent, room("pay"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("please pay ACME 250");
    await c.done(id);
    const req = c.chunks(id).find((x) => x.type === "tool-approval-request");
    check(`${label} pay: approval requested`, !!req);
    const from = c.frames.length;
    c.send({
      type: "cf_agent_tool_approval",
      toolCallId: req.toolCallId,
      approved: true,
      autoContinue: true,
    });
    const cont = await c.nextStream([id], from);
    await c.done(cont);
    check(
      `${label} pay: continuation`,
      c.textOf(cont).includes('Tool processPayment returned {"type":"json"'),
      c.textOf(cont),
    );
    c.close();
  }

  // Client tool: answer with cf_agent_tool_result.
  {
    const c = await Conn.open(base, agent, room("locate"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("locate me please");
    await c.done(id);
    const call = c.chunks(id).find((x) => x.type === "tool-input-available" && x.toolName === "getLocation");
    const from = c.frames.length;
    c.send({
      type: "cf_agent_tool_result",
      toolCallId: call.toolCallId,
      toolName: "getLocation",
      output: { lat: 38.72, lng: -9.14 },
      autoContinue: true,
    });
    const cont = await c.nextStream([id], from);
    await c.done(cont);
    check(
      `${label} locate: continuation`,
      c.textOf(cont).includes("Tool getLocation returned"),
      c.textOf(cont),
    );
    c.close();
  }

  // agentTool child with progress and a milestone.
  {
    const { c } = await simple("research", "research durable objects for me", (t) =>
      t.includes("Tool research returned"),
    );
    const ev = c.frames.filter((f) => f.type === "agent-tool-event");
    const bodies = ev.filter((f) => f.event.kind === "chunk").map((f) => JSON.parse(f.event.body));
    check(
      `${label} research: child progress 0.25/0.75 + milestone`,
      bodies.some((b) => b.type === "data-agent-progress" && b.data.fraction === 0.25) &&
        bodies.some((b) => b.type === "data-agent-progress" && b.data.fraction === 0.75) &&
        bodies.some((b) => b.type === "data-agent-milestone" && b.data.name === "sources-gathered"),
    );
    check(
      `${label} research: run finished`,
      ev.some((f) => f.event.kind === "finished" && f.event.runId.startsWith("agent-tool:")),
    );
    c.close();
  }

  // Fan-out: three children, display order 0/1/2.
  {
    const { c } = await simple(
      "fanout",
      "fanout please",
      (t) => t === "All three helpers finished; their results are above.",
    );
    const started = c.frames.filter((f) => f.type === "agent-tool-event" && f.event.kind === "started");
    const finished = c.frames.filter((f) => f.type === "agent-tool-event" && f.event.kind === "finished");
    check(
      `${label} fanout: 3 children finished`,
      started.length === 3 && finished.length === 3,
      started.map((f) => `${f.event.agentType}@${f.event.order}`).join(", "),
    );
    c.close();
  }

  // Failures: a throwing tool, a failing child, a child given up on.
  {
    const { c, id } = await simple(
      "fail",
      "make it fail",
      (t) => t === "Some steps failed; the details are above.",
    );
    const errs = c
      .chunks(id)
      .filter((x) => x.type === "tool-output-error")
      .map((x) => x.errorText);
    const terminal = c.frames
      .filter(
        (f) => f.type === "agent-tool-event" && ["error", "aborted", "interrupted"].includes(f.event.kind),
      )
      .map((f) => `${f.event.kind}: ${f.event.error ?? f.event.reason ?? ""}`);
    check(`${label} fail: tool errors`, errs.length === 3, errs.join(" | "));
    check(`${label} fail: child terminals`, terminal.length === 2, terminal.join(" | "));
    c.close();
  }

  // Background run: detached notify turn after the child finishes.
  {
    const c = await Conn.open(base, agent, room("background"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("start background research on websockets");
    await c.done(id);
    const notify = await c.waitFor((f) => f.type === "cf_agent_use_chat_response" && f.id !== id && f.done, {
      what: "the detached delivery turn",
    });
    check(
      `${label} background: notify turn`,
      c.textOf(notify.id) === "Noted: the background research finished and I have read its summary.",
      `${notify.id}: ${c.textOf(notify.id)}`,
    );
    c.close();
  }

  // Background run with milestones narrated (onMilestones), then cancel another run.
  {
    const c = await Conn.open(base, agent, room("milestones"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("start background research on websockets with milestones");
    await c.done(id);
    const narrated = await c.waitFor(
      (f) =>
        f.type === "cf_agent_chat_messages" &&
        f.messages.some((m) => String(m.id).startsWith("detached-ms:")),
      { what: "a narrated milestone message" },
    );
    const m = narrated.messages.find((x) => String(x.id).startsWith("detached-ms:"));
    check(
      `${label} background with milestones: narrated`,
      !!m,
      `${m.id} ${m.role}: ${m.parts?.[0]?.text?.slice(0, 80)}`,
    );
    c.close();
  }
  {
    const c = await Conn.open(base, agent, room("cancel"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("start background research on cancelling");
    await c.done(id);
    const started = await c.waitFor((f) => f.type === "agent-tool-event" && f.event.kind === "started");
    await c.rpc("cancelRun", [started.event.runId]);
    const aborted = await c.waitFor(
      (f) =>
        f.type === "agent-tool-event" && f.event.runId === started.event.runId && f.event.kind === "aborted",
      { what: "aborted event" },
    );
    check(`${label} cancelRun: run aborted`, !!aborted, aborted.event.reason ?? "");
    c.close();
  }

  // Live View tool + approval (Think: an approval-gated action with a descriptor).
  {
    const c = await Conn.open(base, agent, room("browse"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("browse my orders");
    await c.done(id);
    const lv = c.chunks(id).find((x) => x.type === "tool-output-available" && x.output?.targets);
    check(`${label} browse: live view output`, !!lv, lv?.output.targets[0].url);
    const req = c.chunks(id).find((x) => x.type === "tool-approval-request");
    check(`${label} browse: approval requested`, !!req);
    if (think) {
      const snap = c.frames.filter((f) => f.type === "cf_agent_chat_messages").at(-1);
      const part = snap?.messages.at(-1)?.parts.find((p) => p.toolCallId === req?.toolCallId);
      check(
        `${label} browse: approval descriptor`,
        part?.approval?.descriptor?.kind === "approval-gated",
        JSON.stringify(part?.approval?.descriptor),
      );
    }
    const from = c.frames.length;
    c.send({
      type: "cf_agent_tool_approval",
      toolCallId: req.toolCallId,
      approved: true,
      autoContinue: true,
    });
    const cont = await c.nextStream([id], from);
    await c.done(cont);
    check(
      `${label} browse: continuation`,
      c.textOf(cont) === "Thanks, I am signed in and can see your orders now.",
      c.textOf(cont),
    );
    const page = await fetch(lv.output.targets[0].url);
    check(`${label} browse: live view page served`, page.status === 200);
    c.close();
  }

  // deploy: ChatAgent approval tool; Think durable-pause action resolved with approveExecution.
  {
    const c = await Conn.open(base, agent, room("deploy"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    const id = c.chat("deploy web-app");
    await c.done(id);
    if (!think) {
      const req = c.chunks(id).find((x) => x.type === "tool-approval-request");
      const from = c.frames.length;
      c.send({
        type: "cf_agent_tool_approval",
        toolCallId: req.toolCallId,
        approved: true,
        autoContinue: true,
      });
      const cont = await c.nextStream([id], from);
      await c.done(cont);
      check(`${label} deploy: approved`, c.textOf(cont).includes("Tool deploy returned"), c.textOf(cont));
    } else {
      check(
        `${label} deploy: paused`,
        c.textOf(id).includes("The deploy is paused until someone approves it."),
        c.textOf(id),
      );
      const pending = await c.rpc("pendingApprovals");
      check(
        `${label} deploy: pendingApprovals`,
        pending.length === 1 && pending[0].descriptor.kind === "durable-pause",
        JSON.stringify(pending[0]),
      );
      const from = c.frames.length;
      const out = await c.rpc("approveExecution", [pending[0].executionId]);
      const cont = await c.nextStream([id], from);
      await c.done(cont);
      check(
        `${label} deploy: approveExecution continues`,
        c.textOf(cont) === "Approved: Deploy web-app to production is done.",
        `${JSON.stringify(out)} → ${c.textOf(cont)}`,
      );
      // A second deploy, rejected.
      const id2 = c.chat("deploy web-app again");
      await c.done(id2);
      const [again] = await c.rpc("pendingApprovals");
      const from2 = c.frames.length;
      await c.rpc("rejectExecution", [again.executionId, "not today"]);
      const cont2 = await c.nextStream([id, cont, id2], from2);
      await c.done(cont2);
      check(
        `${label} deploy: rejectExecution continues`,
        c.textOf(cont2) === "Deploy web-app to production was rejected: not today, so I did not run it.",
        c.textOf(cont2),
      );
    }
    c.close();
  }

  // Callables.
  {
    const c = await Conn.open(base, agent, room("rpc"));
    await c.waitFor((f) => f.type === "cf_agent_identity");
    if (!think) {
      check(`${label} rpc increment`, (await c.rpc("increment", [2])) === 2);
      const info = await c.rpc("getInfo");
      check(`${label} rpc getInfo`, info.state.counter === 2, JSON.stringify(info));
    } else {
      const info = await c.rpc("getInfo");
      check(`${label} rpc getInfo`, info.messageCount === 0, JSON.stringify(info));
    }
    const lv = await c.rpc("liveView", [{ mode: "devtools" }]);
    check(
      `${label} rpc liveView`,
      lv.targets.length === 2 && lv.targets[0].url.endsWith("/live-view/login/devtools"),
      lv.targets[0].url,
    );
    // A method that exists but is not @callable (Think has no onChatMessage).
    const hidden = think ? "getModel" : "onChatMessage";
    const notCallable = await c.rpc(hidden).then(
      () => "",
      (e) => e.message,
    );
    check(
      `${label} rpc non-callable rejected`,
      notCallable === `Method ${hidden} is not callable`,
      notCallable,
    );
    c.close();
  }
}

const server = await startRealServer();
console.log(`server ${server.url} answered 200 after ${server.startupMs} ms`);
const helloMs = [];
try {
  for (const [agent, label] of AGENTS) helloMs.push(`${label} ${await hello(server.url, agent, label)} ms`);
  if (ALL) for (const [agent, label] of AGENTS) await allWords(server.url, agent, label);
} catch (e) {
  check("no unexpected error", false, e.stack ?? String(e));
} finally {
  await server.stop();
}
console.log(
  `\n${passes.length} passed, ${failures.length} failed. Startup ${server.startupMs} ms; hello turns: ${helloMs.join(", ")}; total ${Math.round(performance.now() - t0)} ms.`,
);
if (failures.length) {
  console.log(`Failed: ${failures.join("; ")}`);
  process.exit(1);
}
