/**
 * One agent instance (a Durable Object on the real server): its sockets, state and transcript. The rest is
 * split along the roles the real runtime has, each in a module of its own: the turn queue (`turn-queue.ts`),
 * the resume handshake (`resume.ts`), continuations (`continuation.ts`), child runs (`runs.ts`), callables
 * (`callables.ts`), and where AIChatAgent and Think differ (`host-flavour.ts`, chosen once here). Every rule
 * cites what the real server was seen to do (docs/protocol.md, the recorded transcripts) or the
 * docs/protocol.md section it follows.
 */

import type { ClientFrame, LiveViewMode, LiveViewSession, ServerFrame } from "@runboard/protocol";
import { kebabAgentName, MessageList, messageShape } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { answerRpc, type RpcHost } from "./callables.ts";
import type { MockConnection } from "./connection.ts";
import { Continuations } from "./continuation.ts";
import { DurableExecutions } from "./executions.ts";
import { type HostFlavour, hostFlavour } from "./host-flavour.ts";
import type { ChildHost, InstanceServices, RetryAnswer, RunHost } from "./instance-host.ts";
import { ResumeHandshake } from "./resume.ts";
import { RunRegistry } from "./runs.ts";
import {
  type ChildStep,
  type MockAgentDefinition,
  matches,
  resolve,
  type Step,
  type TurnContext,
  text,
} from "./script.ts";
import { compactTranscript } from "./think-session.ts";
import { lastUserText, trailingUserIds, updateToolPart } from "./transcript-edits.ts";
import type { PlayResult, TurnTools } from "./turn-host.ts";
import { type ProgrammaticTurnOptions, TurnQueue } from "./turn-queue.ts";

/** One agent instance: what the hub routes sockets to, and what `controller.instance()` returns. */
export class AgentInstance implements RpcHost, RunHost, ChildHost {
  readonly conns = new Set<MockConnection>();
  state: unknown;
  readonly transcript = new MessageList();
  /** The host-specific rules, from the definition's `host`. */
  readonly flavour: HostFlavour;
  /** Child runs' own instances, by `<kebab agentType>/<runId>` (drill-in sockets reach them). */
  readonly children = new Map<string, AgentInstance>();
  readonly runs: RunRegistry;
  readonly executions = new DurableExecutions();
  // Set by the `closeBrowser()` callable; an `openBrowser` turn opens one again.
  private browserClosed = false;
  /** Hooks for a child run: where its chunks go besides its own sockets. */
  forward?: (body: string, stored: boolean) => void;
  private readonly resume: ResumeHandshake;
  private readonly queue: TurnQueue;
  private readonly continuations: Continuations;

  constructor(
    readonly def: MockAgentDefinition,
    readonly agent: string,
    readonly name: string,
    private readonly svc: InstanceServices,
  ) {
    this.state = structuredClone(def.initialState);
    const flavour = hostFlavour(def.host);
    this.flavour = flavour;
    const { transcript } = this;
    this.runs = new RunRegistry(this, svc);
    const isConnected = (c: MockConnection) => this.conns.has(c);
    const send = (c: MockConnection, f: ServerFrame) => this.send(c, f);
    this.resume = new ResumeHandshake({
      isConnected,
      send,
      live: () => this.queue.live,
      pendingId: (c) => this.continuations.pendingFor(c) ?? this.queue.nextId,
      finishOrphan: () => this.queue.finishOrphan(),
    });
    this.queue = new TurnQueue({
      flavour,
      transcript,
      resume: this.resume,
      tools: this.turnTools(),
      chunkDelayMs: def.chunkDelayMs ?? 30,
      delayScale: svc.delayScale,
      isConnected,
      connectionCount: () => this.conns.size,
      send,
      broadcast: (f, except) => this.broadcast(f, except),
      sleep: (ms, signal) => svc.sleep(ms, signal),
      context: () => this.context(),
      forwardChunk: (body, stored) => this.forward?.(body, stored),
    });
    this.continuations = new Continuations({
      flavour,
      transcript,
      isConnected,
      broadcast: (f) => this.broadcast(f),
      enqueue: (t) => this.queue.enqueue(t),
      sleep: (ms) => svc.sleep(ms),
      connected: () =>
        this.conns.size > 0 ? Promise.resolve() : new Promise<void>((r) => this.onConnected.push(r)),
      log: (line) => this.log(line),
    });
  }

  /** Waiting for the next socket (see `Continuations`); told once each. */
  private onConnected: Array<() => void> = [];

  get messages(): readonly UIMessage[] {
    return this.transcript.messages;
  }

  /** True while a turn streams (tests and the controller use it). */
  get streaming(): boolean {
    return this.queue.live !== undefined;
  }

  /** No sockets here or on a child, nothing streaming or queued, no child run going: safe to evict. */
  get idle(): boolean {
    if (this.conns.size > 0 || this.queue.busy || this.runs.running) return false;
    for (const child of this.children.values()) if (!child.idle) return false;
    return true;
  }

  private send(conn: MockConnection, frame: ServerFrame) {
    this.svc.deliver(conn, frame);
  }

  private log(line: string) {
    this.svc.log(`mock-server: ${this.agent}/${this.name}: ${line}`);
  }

  /** Sends to every socket except `except`. */
  broadcast(frame: ServerFrame, except?: ReadonlySet<MockConnection> | MockConnection) {
    for (const c of this.conns) {
      if (except instanceof Set ? except.has(c) : c === except) continue;
      this.send(c, frame);
    }
  }

  // ───────────────────────────── sockets ─────────────────────────────

  connect(conn: MockConnection) {
    this.conns.add(conn);
    for (const r of this.onConnected.splice(0)) queueMicrotask(r);
    const hasState = this.state !== undefined;
    // Chat hosts wrap onConnect outside the base wrapper, so their chat frames come first (docs/protocol.md#connect-frames).
    const live = this.queue.live?.stream;
    if (live) this.resume.offer(conn, live.id);
    else
      for (const f of this.flavour.connectFrames(this.messages, this.continuations.recovering))
        this.send(conn, f);
    this.send(conn, {
      type: "cf_agent_identity",
      name: this.name,
      agent: this.agent,
      ...(hasState ? { stateFollows: true } : {}),
    });
    if (hasState) this.send(conn, { type: "cf_agent_state", state: this.state });
    this.send(conn, {
      mcp: { prompts: [], resources: [], servers: {}, tools: [] },
      type: "cf_agent_mcp_servers",
    });
    this.runs.replayTo(conn);
  }

  disconnect(conn: MockConnection) {
    this.conns.delete(conn);
    this.resume.forget(conn);
  }

  handle(conn: MockConnection, f: ClientFrame): void | Promise<void> {
    switch (f.type) {
      case "cf_agent_state":
        this.state = f.state;
        // The sender's own update is never echoed back (docs/protocol.md#state).
        this.broadcast({ state: f.state, type: "cf_agent_state" }, conn);
        return;
      case "rpc":
        return answerRpc(this, f, (frame) => this.send(conn, frame));
      case "cf_agent_use_chat_request":
        return this.chatRequest(conn, f.id, f.init.body);
      case "cf_agent_chat_request_cancel":
        return this.queue.cancel(f.id);
      case "cf_agent_chat_clear":
        this.clear(conn);
        return;
      case "cf_agent_chat_messages":
        if (!this.flavour.acceptsClientMessages) {
          this.log("Think ignores client cf_agent_chat_messages");
          return;
        }
        this.transcript.replaceAll(f.messages);
        this.broadcast({ messages: f.messages, type: "cf_agent_chat_messages" }, conn);
        return;
      case "cf_agent_stream_resume_request":
        return this.resume.request(conn, f.probeId);
      case "cf_agent_stream_resume_ack":
        return this.resume.ack(conn, f.id);
      case "cf_agent_tool_approval":
        return this.continuations.approval(conn, f);
      case "cf_agent_tool_result":
        return this.continuations.toolResult(conn, f);
    }
  }

  /** Server-side setState: persisted, then broadcast to every socket, the caller included (docs/protocol.md#state). */
  setState(state: unknown) {
    this.state = state;
    this.broadcast({ state, type: "cf_agent_state" });
  }

  // ───────────────────────────── chat turns ─────────────────────────────

  private chatRequest(conn: MockConnection, id: string, rawBody: string) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody);
      if (!body || typeof body !== "object" || !Array.isArray(body.messages)) throw new Error("no messages");
      // Every element must be a message, or nothing of the request reaches the other sockets.
      for (const m of body.messages as unknown[]) if (messageShape(m)) throw new Error("bad message");
    } catch {
      // The real server logs and sends no response frame (docs/protocol.md#chat-request).
      this.log(`chat request ${id} has no valid body; ignored`);
      return;
    }
    const {
      messages: incoming,
      trigger,
      clientTools: _c,
      ...custom
    } = body as {
      messages: UIMessage[];
      trigger?: string;
      clientTools?: unknown;
    };
    for (const f of this.flavour.persistRequest(this.transcript, incoming, trigger)) this.broadcast(f, conn);
    const ctx = this.context(custom);
    this.queue.enqueue({
      id,
      originator: conn,
      messageIds: trailingUserIds(incoming),
      continuation: false,
      // Steps and the player share one context, so scripts see the request's extra body and earlier outputs.
      ctx,
      run: (player) => player.play(this.stepsFor(ctx)),
    });
  }

  /** What a turn's steps can read when it starts now. */
  context(body: Record<string, unknown> = {}): TurnContext {
    return {
      userText: lastUserText(this.messages),
      body,
      outputs: {},
      state: this.state,
      messages: this.messages,
    };
  }

  private stepsFor(ctx: TurnContext): Step[] {
    for (const rule of this.def.turns ?? [])
      if (matches(rule.match, ctx.userText)) return resolve(rule.steps, ctx);
    return this.def.fallback ? resolve(this.def.fallback, ctx) : [text("I have no script for that.")];
  }

  /**
   * Queues a server-started turn (detached delivery, resolved executions, a child run's own turn). Nobody
   * originated it, so every socket receives every frame. Resolves when its stream has ended.
   */
  runProgrammatic(
    steps: readonly (Step | ChildStep)[],
    opts: ProgrammaticTurnOptions = {},
  ): Promise<PlayResult> {
    return this.queue.runProgrammatic(steps, opts);
  }

  private clear(conn: MockConnection) {
    this.queue.clear();
    this.transcript.replaceAll([]);
    this.continuations.reset();
    this.resume.reset();
    // Echoed to the other sockets only (clear.jsonl).
    this.broadcast({ type: "cf_agent_chat_clear" }, conn);
  }

  // ───────────────────────────── what scripts and callables reach ─────────────────────────────

  private turnTools(): TurnTools {
    return {
      runChild: (spec, toolCallId, signal) => this.runs.runAwaited(spec, toolCallId, signal),
      runDetached: (step) => this.runs.runDetached(step),
      gate: (g) => this.continuations.gate(g),
      pause: (step, toolCallId, input) => this.executions.pause(step, toolCallId, input),
      describe: (toolCallId, descriptor) => {
        updateToolPart(this.transcript, toolCallId, (p) => {
          p.approvalDescriptor = descriptor;
        });
      },
      liveView: (mode) => this.liveView(mode),
      setState: (update) => this.setState(update(this.state)),
      dropConnection: (conn) => {
        this.disconnect(conn);
        conn.terminate();
      },
      // After the step returns to the event loop, so the player's cursor is on the evicting step.
      evict: (recover) => void setTimeout(() => this.restart({ recover }), 0),
      compact: (step) =>
        compactTranscript(
          {
            transcript: this.transcript,
            broadcast: (f) => this.broadcast(f),
            sleep: (ms) => this.svc.sleep(ms),
          },
          step,
        ),
    };
  }

  /** Rewrites a tool part's output (a resolved Think execution) and tells every socket. */
  updateToolOutput(toolCallId: string, output: unknown, options: { dropAfter?: boolean } = {}) {
    const updated = updateToolPart(
      this.transcript,
      toolCallId,
      (p) => {
        p.state = "output-available";
        p.output = output;
        p.preliminary = false;
      },
      options.dropAfter === true,
    );
    if (updated) this.broadcast({ type: "cf_agent_message_updated", message: updated });
  }

  /** Mints a Live View session on this server (an `openBrowser` turn: the browser is open again). */
  liveView(mode: LiveViewMode): LiveViewSession {
    this.browserClosed = false;
    return this.svc.liveView(mode);
  }

  /** The `liveView()` callable: `null` after `closeBrowser()`, as an agent whose browser session is gone answers. */
  refreshLiveView(mode: LiveViewMode): LiveViewSession | null {
    return this.browserClosed ? null : this.svc.liveView(mode);
  }

  /** The `closeBrowser()` callable. */
  closeBrowser(): void {
    this.browserClosed = true;
  }

  /** `cancelAgentTool(runId, reason)`: the child stops and the run ends `aborted`. */
  cancelRun(runId: string, reason?: string): boolean {
    return this.runs.cancel(runId, reason);
  }

  /** `retryAgentTool(runId)`: re-dispatches the run with the same id (see `RunRegistry.retry`). */
  retryRun(runId: string): Promise<RetryAnswer> {
    return this.runs.retry(runId);
  }

  /** `clearHelperRuns()`: the runs and their child instances go, as `clearAgentToolRuns()` deletes sub-agents. */
  clearRuns(): void {
    for (const runId of this.runs.clear())
      for (const key of [...this.children.keys()]) if (key.endsWith(`/${runId}`)) this.children.delete(key);
  }

  /** The child instance a run plays in (a facet): an AIChatAgent with its own transcript. */
  spawnChild(agentType: string, runId: string): AgentInstance {
    const kebab = kebabAgentName(agentType);
    const child = new AgentInstance({ host: "ai-chat" }, kebab, runId, this.svc);
    this.children.set(`${kebab}/${runId}`, child);
    return child;
  }

  // ───────────────────────────── restart ─────────────────────────────

  /**
   * Simulates an eviction: sockets drop, turns stop, and only what is persisted survives (transcript, state,
   * run records, the stream's stored chunks, and so the tool parts still asking for an answer, which a decision
   * after the restart settles as on the real runtime). A stream cut mid-way is orphaned: the next ACK replays it and
   * ends it with `{done:true, replay:true}`, and the partial message is kept (docs/protocol.md#resume-handshake, ACK rule 1, #989).
   * With `recover`, a recovery continuation finishes it instead (docs/protocol.md#recovering).
   */
  restart(options: { recover?: boolean | "give-up" } = {}) {
    for (const c of [...this.conns]) {
      this.disconnect(c);
      c.close(1012, "Agent restarting");
    }
    this.queue.dropQueued();
    this.continuations.keepStoredGates();
    this.runs.stopAll();
    const cut = this.queue.evict(options.recover !== undefined && options.recover !== false);
    if (cut && options.recover === "give-up") this.continuations.giveUp();
    else if (cut) this.continuations.recover(cut);
  }
}
