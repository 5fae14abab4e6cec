/**
 * The conformance Worker: the real `agents` runtime with a scripted model, for the kit's tests against the
 * real server. Hosts: `ChatAgent` (AIChatAgent) and `ThinkAgent` (Think). Children run as agent tools:
 * `Researcher` (progress + a milestone), and for the fan-out / failure words `FactChecker`, `Summarizer`,
 * `Verifier` and `Crawler`; for the nested word `Planner`, a Think child that dispatches a `Researcher` of its own
 * through `agentTool()`. No network, no AI binding: every turn is played by `src/model.ts`.
 */

import { AIChatAgent } from "@cloudflare/ai-chat";
import { action, Think } from "@cloudflare/think";
import {
  type Connection,
  type ConnectionContext,
  callable,
  getAgentByName,
  routeAgentRequest,
  type StreamingResponse,
} from "agents";
import { agentTool } from "agents/agent-tools";
import { convertToModelMessages, isStepCount, streamText, type ToolSet, tool } from "ai";
import { z } from "zod";
import { originPolicy } from "../../mock-server/src/origins.ts";
import { createScriptedModel } from "./model.ts";
import { type ChildName, childSteps, type Host, hostFallback, hostRules, type Progress } from "./scripts.ts";

// ---------------------------------------------------------------------------------------------- Live View

/** Fixed Live View pages this Worker serves at `/live-view/<tab>` (and `/live-view/<tab>/devtools`). */
const LIVE_TABS = [
  { tab: "login", pageUrl: "https://shop.example/login", title: "Sign in · Example Shop" },
  { tab: "orders", pageUrl: "https://shop.example/orders", title: "Your orders · Example Shop" },
] as const;

/** What `liveView()` and the `openBrowser` tool return: fixed ids, URLs on this Worker's origin. */
function liveViewSession(origin: string, mode: "tab" | "devtools") {
  return {
    sessionId: "live-session-conformance",
    targets: LIVE_TABS.map((t) => ({
      targetId: `TARGET-${t.tab.toUpperCase()}`,
      url: `${origin}/live-view/${t.tab}${mode === "devtools" ? "/devtools" : ""}`,
      pageUrl: t.pageUrl,
      title: t.title,
      type: "page" as const,
    })),
    expiresInMs: 300_000,
  };
}

function liveViewPage(pathname: string): Response | undefined {
  const m = /^\/live-view\/([a-z]+)(\/devtools)?\/?$/.exec(pathname);
  const tab = m && LIVE_TABS.find((t) => t.tab === m[1]);
  if (!tab) return undefined;
  const html = `<!doctype html><meta charset="utf-8"><title>${tab.title}</title>
<body style="font-family:system-ui;margin:2rem"><p data-live-view="${tab.tab}${m?.[2] ? "-devtools" : ""}">
Live View (conformance Worker): <strong>${tab.title}</strong> at <code>${tab.pageUrl}</code></p></body>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** Until a socket connects, Live View URLs use wrangler's default address. */
const DEFAULT_ORIGIN = "http://127.0.0.1:8787";

// ---------------------------------------------------------------------------------------------- tools

interface PendingApproval {
  id: string;
  [k: string]: unknown;
}
interface WorkflowState {
  pendingApprovals?: PendingApproval[];
  resolvedApprovals?: PendingApproval[];
  [k: string]: unknown;
}

/** What the shared tools need from a host agent. */
interface HostAgent {
  origin: string;
  runAgentTool: AIChatAgent["runAgentTool"];
  cancelAgentTool(runId: string, reason?: unknown): Promise<unknown>;
}

type ChildClass = Parameters<AIChatAgent["runAgentTool"]>[0];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a background run started "… until cancelled" waits for its cancel before it finishes anyway. */
const HOLD_MS = 600_000;

/**
 * `agentTool()` with a display order: the factory always sends `order: 0`, while the fan-out shows its
 * three children in a fixed order. Same run id (`agent-tool:<toolCallId>`) and parent link as `agentTool`.
 */
function childTool(
  host: HostAgent,
  cls: ChildClass,
  opts: {
    description: string;
    inputSchema: z.ZodType;
    display?: { name?: string; icon?: string };
    order?: number;
  },
) {
  return tool({
    description: opts.description,
    inputSchema: opts.inputSchema,
    execute: async (input, { toolCallId, abortSignal }) => {
      const signal = abortSignal;
      const r = await host.runAgentTool(cls, {
        input,
        runId: `agent-tool:${toolCallId}`,
        parentToolCallId: toolCallId,
        ...(signal ? { signal } : {}),
        ...(opts.display ? { display: opts.display } : {}),
        ...(opts.order === undefined ? {} : { displayOrder: opts.order }),
      });
      if (r.status === "completed") return r.summary ?? "";
      throw new Error(r.error ?? `${cls.name} ${r.status}`);
    },
  });
}

/** After a restart, how long a re-attached child may stay silent before recovery gives up on it. */
const RECOVERY_NO_PROGRESS_MS = 3000;

/** How long the `crawl` tool waits for its silent Crawler before it cancels it. */
const CRAWL_GIVE_UP_MS = 1500;

/**
 * An `agentTool()` whose run the agent cancels (`cancelAgentTool`, as a user's cancel does) when it has not
 * ended after `ms`: the real factory then returns its `aborted` envelope with `reason` as the error. (agents
 * 0.32 seals a live run `interrupted` only while recovering a restarted parent, so the mock's interrupted
 * Crawler is not reproduced by a word: conformance/agent-tool-interrupted.test.ts restarts the Worker for it.)
 */
function cancelledAfter(host: HostAgent, base: ReturnType<typeof agentTool>, ms: number, reason: string) {
  const execute = base.execute;
  if (!execute) return base;
  return {
    ...base,
    execute: async (input: never, options: { toolCallId: string }) => {
      const timer = setTimeout(() => {
        void host.cancelAgentTool(`agent-tool:${options.toolCallId}`, reason).catch(() => {});
      }, ms);
      try {
        return await execute(input, options as never);
      } finally {
        clearTimeout(timer);
      }
    },
  } as typeof base;
}

/**
 * `retryAgentTool(runId)`, the kit's retry convention (docs/protocol.md#retry-and-reconnect): re-dispatch the run
 * with the same id. agents 0.32's `runAgentTool(cls, { runId })` on an id it already has sends no new `started`:
 * it answers a hard-ended run with its stored result, re-attaches to an interrupted or running child and
 * collects its real end, and answers a detached run `running`. The input is not used then. An id no child class
 * has is an error.
 */
async function retryRun(
  host: HostAgent & { hasAgentToolRun(cls: string, runId: string): boolean },
  runId: string,
) {
  const cls = [Researcher, FactChecker, Summarizer, Verifier, Crawler].find((c) =>
    host.hasAgentToolRun(c.name, runId),
  );
  if (!cls) throw new Error(`No agent-tool run ${runId}`);
  return host.runAgentTool(cls, { runId, input: undefined });
}

/** Tools both hosts offer. */
function sharedTools(host: HostAgent): ToolSet {
  return {
    getWeather: tool({
      description: "Get the weather for a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        await sleep(150);
        return { city, temperatureC: 21, condition: "sunny" };
      },
    }),
    processPayment: tool({
      description: "Pay a recipient; needs the user's approval",
      inputSchema: z.object({ amount: z.number(), recipient: z.string() }),
      needsApproval: true,
      execute: async ({ amount, recipient }) => ({ ok: true, charged: amount, recipient, txId: "tx_123" }),
    }),
    // A client tool: no `execute`, the browser answers with `cf_agent_tool_result`.
    getLocation: tool({
      description: "Get the user's location from their browser",
      inputSchema: z.object({}),
    }),
    research: agentTool(Researcher, {
      description: "Research a topic in a retained Researcher sub-agent",
      inputSchema: z.object({ query: z.string() }),
      displayName: "Researcher",
    }),
    startBackgroundResearch: tool({
      description: "Start research that runs in the background and reports back when done",
      inputSchema: z.object({
        query: z.string(),
        milestones: z.boolean().optional(),
        hold: z.boolean().optional(),
      }),
      execute: ({ query, milestones, hold }) =>
        host.runAgentTool(Researcher, {
          // agents 0.32.0 narrates `onMilestones` only from its reconcile alarm (first tick 5 s after
          // dispatch): the live path reads the run row without `detached_on_milestones`. So the milestone
          // variant keeps the child running past that tick. `hold` keeps it running until it is cancelled
          // (ten minutes at most).
          input: hold ? { query, lingerMs: HOLD_MS } : milestones ? { query, lingerMs: 6000 } : { query },
          detached: {
            notify: true,
            ...(milestones
              ? { onMilestones: { names: ["sources-gathered"], mode: "narrate" as const } }
              : {}),
          },
        }),
    }),
    plan: agentTool(Planner, {
      description: "Plan the work in a Planner sub-agent, which dispatches a researcher of its own",
      inputSchema: z.object({ task: z.string() }),
      displayName: "Planner",
    }),
    // A silent Crawler through the real `agentTool()` that nobody cancels: the restart test stops the Worker
    // while it runs, and the parent's recovery seals it `interrupted` (the only way agents 0.32 does).
    crawlUntilRestart: agentTool(Crawler, {
      description: "Crawl a site in a Crawler sub-agent, for as long as it takes",
      inputSchema: z.object({ site: z.string() }),
    }),
    factCheck: childTool(host, FactChecker, {
      description: "Check a claim in a FactChecker sub-agent",
      inputSchema: z.object({ claim: z.string() }),
      display: { name: "Fact checker", icon: "✔" },
      order: 1,
    }),
    summarize: childTool(host, Summarizer, {
      description: "Summarize in a Summarizer sub-agent",
      inputSchema: z.object({ length: z.string() }),
      display: { name: "Summarizer", icon: "✎" },
      order: 2,
    }),
    openBrowser: tool({
      description: "Open a remote browser tab the user can watch and take over (Live View)",
      inputSchema: z.object({ url: z.string() }),
      execute: async () => liveViewSession(host.origin, "tab"),
    }),
    fetchInvoice: tool({
      description: "Fetch an invoice",
      inputSchema: z.object({ invoice: z.string() }),
      execute: async (): Promise<unknown> => {
        throw new Error("Invoice service returned 503");
      },
    }),
    // The real `agentTool()`: a child that does not complete ends the tool part `output-available` with its
    // failure envelope (docs/protocol.md#agent-tool-failure-envelope). Verifier fails (`error`).
    verify: agentTool(Verifier, {
      description: "Verify an invoice in a Verifier sub-agent",
      inputSchema: z.object({ invoice: z.string() }),
    }),
    // Crawler goes silent; the agent cancels it (`cancelAgentTool`) after `CRAWL_GIVE_UP_MS`: `aborted`.
    crawl: cancelledAfter(
      host,
      agentTool(Crawler, {
        description: "Crawl a site in a Crawler sub-agent",
        inputSchema: z.object({ site: z.string() }),
      }),
      CRAWL_GIVE_UP_MS,
      "Crawler gave up: no answer in time",
    ),
  };
}

const continueAfterLoginInput = z.object({ page: z.string() });
const continueAfterLoginResult = { ok: true, page: "https://shop.example/orders" };

/** `fileExpense` for the expense word: a pending approval in state (the approve/reject callables resolve it). */
function fileExpense(agent: { state: unknown; setState(s: WorkflowState): void }, amount: number) {
  const st = (agent.state ?? {}) as WorkflowState;
  const id = `exp-${Date.now().toString(36)}`;
  const item = {
    id,
    title: `Expense: team lunch (${amount} EUR)`,
    amount,
    requestedBy: "you",
    requestedAt: Date.now(),
  };
  agent.setState({ ...st, pendingApprovals: [...(st.pendingApprovals ?? []), item] });
  return id;
}

function resolveApproval(
  agent: { state: unknown; setState(s: WorkflowState): void },
  id: unknown,
  change: Record<string, unknown>,
) {
  const st = (agent.state ?? {}) as WorkflowState;
  const pending = st.pendingApprovals ?? [];
  const item = pending.find((a) => a.id === id);
  if (!item) throw new Error(`No pending approval ${String(id)}`);
  const resolved = { ...item, ...change, resolvedAt: Date.now() };
  agent.setState({
    ...st,
    pendingApprovals: pending.filter((a) => a !== item),
    resolvedApprovals: [...(st.resolvedApprovals ?? []), resolved],
  });
  return resolved;
}

/** What the host scripts touch on their agent. */
type ScriptedHost = {
  state: unknown;
  setState(s: WorkflowState): void;
  maxConcurrentAgentTools: number;
};

function hostModel(host: Host, agent: ScriptedHost) {
  return createScriptedModel({
    rules: hostRules(host, {
      fileExpense: (amount) => fileExpense(agent, amount),
      limitAgentTools: (max) => {
        agent.maxConcurrentAgentTools = max;
      },
    }),
    fallback: hostFallback,
  });
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

// ---------------------------------------------------------------------------------------------- hosts

interface ChatState extends WorkflowState {
  counter: number;
}

/** The AIChatAgent host (`/agents/chat-agent/<name>`). */
export class ChatAgent extends AIChatAgent<Cloudflare.Env, ChatState> {
  /** A recovered child that stays silent this long is sealed `interrupted` (default 120 s). */
  static options = { agentToolReattachNoProgressTimeoutMs: RECOVERY_NO_PROGRESS_MS };
  initialState: ChatState = { counter: 0 };
  origin = DEFAULT_ORIGIN;

  async onConnect(_connection: Connection, ctx: ConnectionContext) {
    this.origin = new URL(ctx.request.url).origin;
  }

  async onChatMessage(_onFinish: unknown, options?: { abortSignal?: AbortSignal }) {
    const result = streamText({
      model: hostModel("ai-chat", this),
      messages: await convertToModelMessages(this.messages),
      tools: {
        ...sharedTools(this),
        deploy: tool({
          description: "Deploy a service; needs approval",
          inputSchema: z.object({ service: z.string(), environment: z.string() }),
          needsApproval: true,
          execute: async () => ({ ok: true, url: "https://web-app.example" }),
        }),
        continueAfterLogin: tool({
          description: "Continue browsing once the user has signed in",
          inputSchema: continueAfterLoginInput,
          needsApproval: true,
          execute: async () => continueAfterLoginResult,
        }),
      },
      stopWhen: isStepCount(10),
      ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    return result.toUIMessageStreamResponse({ onError: errorText });
  }

  @callable()
  increment(by?: number) {
    const counter = this.state.counter + (typeof by === "number" ? by : 1);
    this.setState({ ...this.state, counter });
    return counter;
  }

  @callable()
  getInfo() {
    return { name: this.name, messageCount: this.messages.length, state: this.state };
  }

  @callable({ streaming: true })
  countdown(stream: StreamingResponse, from?: number) {
    for (let i = typeof from === "number" ? from : 3; i > 0; i--) stream.send(i);
    stream.end("liftoff");
  }

  /** Cancels a (background) agent-tool run; it ends `aborted`. */
  @callable()
  async cancelRun(runId: string, reason?: string) {
    await this.cancelAgentTool(runId, reason ?? "Cancelled by the user");
    return { runId, cancelled: true };
  }

  /** The mock server's name for `cancelRun`. */
  @callable()
  async cancelAgentTool(runId: string, reason?: unknown) {
    return super.cancelAgentTool(runId, reason);
  }

  /** Re-dispatches a run by its id (see `retryRun`). */
  @callable()
  async retryAgentTool(runId: string) {
    return retryRun(this, runId);
  }

  /** The kit's clear-runs convention (docs/protocol.md#clearing-runs): deletes every retained agent-tool run. */
  @callable()
  async clearHelperRuns() {
    await this.clearAgentToolRuns();
  }

  @callable()
  liveView(opts?: { mode?: "tab" | "devtools" }) {
    return liveViewSession(this.origin, opts?.mode === "devtools" ? "devtools" : "tab");
  }

  @callable()
  approve(id: string, by?: string) {
    return resolveApproval(this, id, {
      status: "approved",
      ...(typeof by === "string" ? { approvedBy: by } : {}),
    });
  }

  @callable()
  reject(id: string, reason?: string) {
    return resolveApproval(this, id, {
      status: "rejected",
      ...(typeof reason === "string" ? { reason } : {}),
    });
  }
}

/**
 * The Think host (`/agents/think-agent/<name>`). `deploy` is a durable-pause action (resolved with the
 * built-in callables `pendingApprovals` / `approveExecution` / `rejectExecution`); `continueAfterLogin` is an
 * approval-gated action (the ordinary `cf_agent_tool_approval` flow, with an approval descriptor).
 */
export class ThinkAgent extends Think<Cloudflare.Env> {
  /** As `ChatAgent.options`. */
  static options = { agentToolReattachNoProgressTimeoutMs: RECOVERY_NO_PROGRESS_MS };
  origin = DEFAULT_ORIGIN;

  async onConnect(_connection: Connection, ctx: ConnectionContext) {
    this.origin = new URL(ctx.request.url).origin;
  }

  getModel() {
    return hostModel("think", this as unknown as ScriptedHost);
  }

  getSystemPrompt() {
    return "You are the Runboard conformance agent. A script decides every answer.";
  }

  getTools() {
    return sharedTools(this);
  }

  getActions() {
    return {
      deploy: action({
        description: "Deploy a service to an environment",
        inputSchema: z.object({
          service: z.string(),
          environment: z.string(),
          changelog: z.string().optional(),
        }),
        kind: "durable-pause",
        approvalSummary: "Deploy web-app to production",
        approvalRisk: "high",
        permissions: ["deploy:production", "secrets:read"],
        execute: async () => ({ ok: true, url: "https://web-app.example", version: "2026.11.22" }),
      }),
      continueAfterLogin: action({
        description: "Continue browsing once the user has signed in",
        inputSchema: continueAfterLoginInput,
        kind: "approval-gated",
        approval: true,
        approvalSummary: "Continue browsing as the signed-in user",
        approvalRisk: "medium",
        permissions: ["browser:session"],
        execute: async () => continueAfterLoginResult,
      }),
    };
  }

  @callable()
  getInfo() {
    return { name: this.name, messageCount: this.messages.length, state: this.state ?? null };
  }

  /**
   * The sibling answers of a user message (Think keeps them when regenerating): upstream's assistant example
   * exposes `session.getBranches` under this name (docs/protocol.md#branches).
   */
  @callable()
  async getResponseVersions(userMessageId: string) {
    return this.session.getBranches(userMessageId);
  }

  /**
   * Test hook: summarises everything but the last two messages with a compaction overlay, as Think's
   * `compact()` stores one (docs/protocol.md#compaction). Returns the overlay's id, or null when too short.
   */
  @callable()
  async compactHistory(summary: string) {
    const messages = this.messages;
    if (messages.length < 3) return null;
    const from = messages[0]?.id as string;
    const to = messages[messages.length - 3]?.id as string;
    const stored = await this.session.addCompaction(summary, from, to);
    return { id: stored.id, from, to };
  }

  @callable()
  async cancelRun(runId: string, reason?: string) {
    await this.cancelAgentTool(runId, reason ?? "Cancelled by the user");
    return { runId, cancelled: true };
  }

  @callable()
  async cancelAgentTool(runId: string, reason?: unknown) {
    return super.cancelAgentTool(runId, reason);
  }

  /** Re-dispatches a run by its id (see `retryRun`). */
  @callable()
  async retryAgentTool(runId: string) {
    return retryRun(this, runId);
  }

  /** The kit's clear-runs convention (docs/protocol.md#clearing-runs): deletes every retained agent-tool run. */
  @callable()
  async clearHelperRuns() {
    await this.clearAgentToolRuns();
  }

  @callable()
  liveView(opts?: { mode?: "tab" | "devtools" }) {
    return liveViewSession(this.origin, opts?.mode === "devtools" ? "devtools" : "tab");
  }

  @callable()
  approve(id: string, by?: string) {
    return resolveApproval(this, id, {
      status: "approved",
      ...(typeof by === "string" ? { approvedBy: by } : {}),
    });
  }

  @callable()
  reject(id: string, reason?: string) {
    return resolveApproval(this, id, {
      status: "rejected",
      ...(typeof reason === "string" ? { reason } : {}),
    });
  }
}

// ---------------------------------------------------------------------------------------------- children

/** A child agent run through `agentTool` / `runAgentTool`; its script is `childSteps(<class name>)`. */
abstract class ScriptedChild extends AIChatAgent<Cloudflare.Env> {
  protected abstract readonly child: ChildName;
  protected delayMs = 30;

  protected childTools(): ToolSet {
    return {};
  }

  async onChatMessage(_onFinish: unknown, options?: { abortSignal?: AbortSignal }) {
    const progress = (p: Progress) => this.reportProgress(p);
    const result = streamText({
      model: createScriptedModel({
        rules: [],
        fallback: childSteps(this.child, progress),
        delayMs: this.delayMs,
      }),
      messages: await convertToModelMessages(this.messages),
      tools: this.childTools(),
      stopWhen: isStepCount(5),
      ...(options?.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    return result.toUIMessageStreamResponse({ onError: errorText });
  }
}

/** The recorded child: gathers sources (progress 0.25 / 0.75, milestone "sources-gathered"), then sums up. */
export class Researcher extends ScriptedChild {
  protected readonly child = "Researcher";
  protected delayMs = 60;

  protected childTools(): ToolSet {
    return {
      gatherSources: tool({
        description: "Find sources for a topic",
        inputSchema: z.object({ topic: z.string() }),
        execute: async ({ topic }) => {
          await this.reportProgress({ fraction: 0.25, message: "Searching for sources", phase: "searching" });
          await sleep(200);
          await this.reportProgress({ fraction: 0.75, message: "Reading 2 sources", phase: "reading" });
          await sleep(200);
          await this.reportProgress({ milestone: "sources-gathered", data: { sources: 2 } });
          return { topic, sources: ["https://example.com/a", "https://example.com/b"] };
        },
      }),
    };
  }
}

export class FactChecker extends ScriptedChild {
  protected readonly child = "FactChecker";
}

export class Summarizer extends ScriptedChild {
  protected readonly child = "Summarizer";
}

/** Fails mid-turn: its run ends `error`. */
export class Verifier extends ScriptedChild {
  protected readonly child = "Verifier";
}

/** Reports progress once and goes silent; the `crawl` tool gives up on it. */
export class Crawler extends ScriptedChild {
  protected readonly child = "Crawler";
}

/**
 * A Think child with an agent tool of its own: its Researcher is the parent's grandchild, whose events go only
 * to sockets connected to the Planner's sub-agent URL (docs/protocol.md#drill-in).
 */
export class Planner extends Think<Cloudflare.Env> {
  getModel() {
    return createScriptedModel({
      rules: [],
      fallback: childSteps("Planner", async () => {}),
      delayMs: 30,
    });
  }

  getSystemPrompt() {
    return "You plan the work and delegate research.";
  }

  getTools() {
    return {
      research: agentTool(Researcher, {
        description: "Research a topic in a Researcher sub-agent",
        inputSchema: z.object({ query: z.string() }),
        displayName: "Researcher",
      }),
    };
  }
}

// ---------------------------------------------------------------------------------------------- fetch

/**
 * Who may reach this Worker: the mock server's policy, loopback only (mock-server/README.md#who-may-reach-the-server).
 * `npm run dev -- --real` runs it on the developer's machine while they browse, so a page on another site must
 * not open an agent socket (WebSockets are not bound by CORS), read a transcript, or send anything that acts;
 * `Host` must name this machine, which stops DNS rebinding. Pages on localhost, 127.0.0.0/8 and [::1] (the
 * playground, Storybook, the e2e tests) and clients that send no Origin (Node: the conformance tests) pass.
 */
const POLICY = originPolicy([], "127.0.0.1");

/** CORS for an allowed page: upstream's `cors: true` headers, with the page's origin instead of `*`. */
function corsFor(origin: string | undefined): Record<string, string> | false {
  const allow = POLICY.corsOrigin(origin);
  if (allow === undefined) return false;
  return {
    "Access-Control-Allow-Origin": allow,
    "Access-Control-Allow-Methods": "GET, POST, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "*",
    "Access-Control-Max-Age": "86400",
    Vary: "Origin",
  };
}

const forbidden = () => new Response("Forbidden", { status: 403, headers: { "content-type": "text/plain" } });

export default {
  async fetch(request: Request, env: Cloudflare.Env): Promise<Response> {
    const url = new URL(request.url);
    const header = (name: string) => request.headers.get(name) ?? undefined;
    const origin = header("origin");
    if (!POLICY.hostAllowed(header("host"))) return forbidden();
    // Sockets and every method but GET and HEAD act: only allowed pages (or clients without Origin) may.
    const acts =
      header("upgrade")?.toLowerCase() === "websocket" ||
      (request.method !== "GET" && request.method !== "HEAD");
    if (acts && !POLICY.actionAllowed(origin, header("sec-fetch-site"))) return forbidden();
    if (url.pathname.startsWith("/live-view/")) {
      return liveViewPage(url.pathname) ?? new Response("Not found", { status: 404 });
    }
    // Custom routing where the server picks the instance, as an app resolves it from the session: a client
    // connects with `basePath: "by-server/…"` and learns the instance's name from the identity frame.
    if (url.pathname.startsWith("/by-server/")) {
      const name = url.searchParams.get("as") ?? "picked-by-server";
      return (await getAgentByName(env.ChatAgent, name)).fetch(request);
    }
    // CORS for allowed pages: the playground (served from another port) reads transcripts over HTTP
    // (`get-messages`), which a browser only allows with these headers. Sockets are not affected.
    return (
      (await routeAgentRequest(request, env, { cors: corsFor(origin) })) ??
      new Response("Not found", { status: 404 })
    );
  },
};
