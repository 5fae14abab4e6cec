/**
 * The demo agents `runboard-mock`, `npm run dev`, the playground and Storybook use. Words in the user's
 * message pick the script. The scripts for hello, weather, pay, locate, research, background and slow are
 * the ones the real server was recorded with (`fixtures/real-server/`), so the fidelity tests can compare.
 * `createDemoAgents({ pace: "people" })` swaps in slower `background` and `nested` runs a person can watch
 * (`demo-paced.ts`); `demoAgents` keeps the recorded pace.
 */
import { backgroundAtPeoplePace, type DemoPace, nestedRun } from "./demo-paced.ts";
import {
  type ChildRunSpec,
  type ChildStep,
  delay,
  failingTool,
  type MockAgentDefinition,
  milestone,
  progress,
  type Step,
  setState,
  type TurnContext,
  type TurnRule,
  text,
  tool,
} from "./script.ts";

type Out = Record<string, unknown> | undefined;
const obj = (v: unknown): Out => (v && typeof v === "object" ? (v as Record<string, unknown>) : undefined);

/**
 * What the agent says after a tool at the people pace (`npm run dev`): a sentence a person reads, not the
 * scripted model's echo of the tool result. Undefined (a denial, an error) falls back to the recorded line.
 */
const PEOPLE_LINES: Record<string, (v: unknown) => string | undefined> = {
  getWeather: (v) => {
    const o = obj(v);
    return o?.city ? `It is ${o.temperatureC} °C and ${o.condition} in ${o.city}.` : undefined;
  },
  processPayment: (v) => {
    const o = obj(v);
    return o?.ok ? `Paid ${o.charged} to ${o.recipient}. The transaction id is ${o.txId}.` : undefined;
  },
  getLocation: (v) => {
    const o = obj(v);
    return typeof o?.lat === "number" ? `Thanks, you are near ${o.lat}, ${o.lng}.` : undefined;
  },
  startBackgroundResearch: (v) =>
    obj(v)?.runId
      ? "The Researcher is working in the background: follow it under Background runs. I will tell you when it is done."
      : undefined,
  startBackgroundCrawl: (v) =>
    obj(v)?.runId ? "The Crawler is working in the background: follow it under Background runs." : undefined,
  research: (v) =>
    v !== undefined ? "The Researcher is done: its findings are in the run above." : undefined,
  plan: (v) =>
    v !== undefined
      ? "The plan is ready. Expand the Planner above to see how its helpers got there."
      : undefined,
  AgentTool: (v) => (v !== undefined ? "The sub-agent's report is above." : undefined),
  deploy: (v) => {
    const o = obj(v);
    return o?.ok ? `Deployed: ${o.url} is live.` : undefined;
  },
};

/**
 * The scripted model's follow-up line after a tool: "Tool X returned <AI SDK tool-result JSON>. Done." (what
 * the conformance Worker's scripted model says, so tests compare like with like); at the people pace, a
 * sentence from `PEOPLE_LINES` where there is one.
 */
const afterTool = (name: string, pace: DemoPace = "recorded"): Step =>
  text(
    (ctx) => {
      const v = ctx.outputs[name];
      const said =
        pace === "people" && Object.hasOwn(PEOPLE_LINES, name) ? PEOPLE_LINES[name]?.(v) : undefined;
      return (
        said ??
        `Tool ${name} returned ${JSON.stringify(typeof v === "string" ? { type: "text", value: v } : { type: "json", value: v })}. Done.`
      );
    },
    { id: "txt-after-tool" },
  );

const researcherSteps = (sources = 2): ChildStep[] => [
  text("Researching now.", { id: "r-pre", delayMs: 60 }),
  tool(
    "gatherSources",
    (ctx: TurnContext) => ({ topic: ctx.userText }),
    (input: unknown) => ({
      ...(input as object),
      sources: Array.from(
        { length: sources },
        (_, i) => `https://example.com/${String.fromCharCode(97 + i)}`,
      ),
    }),
    {
      durationMs: 0,
      during: [
        progress(0.25, "Searching for sources", "searching"),
        delay(200),
        progress(0.75, `Reading ${sources} sources`, "reading"),
        delay(200),
        milestone("sources-gathered", { data: { sources } }),
      ],
    },
  ) as ChildStep,
  text("Summary: found 2 sources; durable objects give each agent its own SQLite.", {
    id: "r-sum",
    delayMs: 60,
  }),
];

const topicOf = (userText: string, fallback: string) =>
  /(?:research(?:\s+(?:on|about))?|about)\s+(.+?)(?:\s+for me)?[.?!]*$/i.exec(userText)?.[1] ?? fallback;

const research = (query: string): ChildRunSpec => ({
  tool: "research",
  agentType: "Researcher",
  input: { query },
  steps: researcherSteps(),
});

const HELP =
  "Try one of these words: hello, weather, pay, locate, research, fanout, background, browse, expense, deploy, fail, nested, slow.";

function amountOf(t: string) {
  const m = /(\d+(?:\.\d+)?)/.exec(t);
  return m ? Number(m[1]) : 250;
}
function recipientOf(t: string) {
  return /pay\s+([A-Z][\w-]*)/i.exec(t)?.[1] ?? "ACME";
}

/** Turns both hosts share. */
const sharedTurns = (host: "ai-chat" | "think", pace: DemoPace): TurnRule[] => [
  {
    match: /\bweather\b/i,
    steps: (ctx) => {
      const city = /in\s+([A-Z][\w\s-]*?)\??$/i.exec(ctx.userText)?.[1] ?? "Lisbon";
      return [
        text("Let me check the weather.", { id: "txt-pre" }),
        tool("getWeather", { city }, { city, temperatureC: 21, condition: "sunny" }, { durationMs: 150 }),
        afterTool("getWeather", pace),
      ];
    },
  },
  {
    match: /\bpay\b/i,
    steps: (ctx) => {
      const amount = amountOf(ctx.userText);
      const recipient = recipientOf(ctx.userText);
      return [
        {
          kind: "approval",
          name: "processPayment",
          input: { amount, recipient },
          output: { ok: true, charged: amount, recipient, txId: "tx_123" },
        },
        afterTool("processPayment", pace),
      ];
    },
  },
  {
    match: /\blocate\b/i,
    steps: [{ kind: "client-tool", name: "getLocation", input: {} }, afterTool("getLocation", pace)],
  },
  {
    // Mock only (agents 0.32 seals a run `interrupted` only while a restarted parent recovers): a background crawl
    // the agent gave up on, its child stopped, so the tray offers Retry; a retry (`retryAgentTool`, the same run
    // id) re-attaches and the crawl finishes.
    match: /\bbackground crawl\b/i,
    steps: [
      {
        kind: "detached",
        run: {
          tool: "startBackgroundCrawl",
          agentType: "Crawler",
          input: { site: "https://shop.example" },
          steps: [progress(0.3, "Crawled 30 of 100 pages", "crawling"), delay(200)],
          outcome: {
            kind: "interrupted",
            error: "The crawl ran past its 10 minute window and was stopped.",
            reason: "window-exceeded",
            childStillRunning: false,
          },
          resumeSteps: [
            progress(1, "Crawled 100 pages", "done"),
            text("Crawled 100 pages; 3 links are broken.", { id: "txt-crawl-resumed", delayMs: 10 }),
          ],
        },
        notify: false,
      },
      afterTool("startBackgroundCrawl", pace),
    ],
  },
  {
    match: /\bbackground\b/i,
    steps: (ctx) => [
      pace === "people"
        ? backgroundAtPeoplePace(topicOf(ctx.userText, "websockets"))
        : {
            kind: "detached",
            run: {
              tool: "startBackgroundResearch",
              agentType: "Researcher",
              input: { query: topicOf(ctx.userText, "websockets") },
              steps: researcherSteps(),
            },
            narrateMilestones: false,
          },
      afterTool("startBackgroundResearch", pace),
    ],
  },
  {
    match: /\bresearch\b/i,
    steps: (ctx) => [
      { kind: "agent-tool", runs: [research(topicOf(ctx.userText, "agents"))] },
      afterTool("research", pace),
    ],
  },
  {
    match: /\bfan-?out\b/i,
    steps: [
      {
        kind: "agent-tool",
        runs: [
          { ...research("durable objects"), display: { name: "Researcher", icon: "🔎" }, order: 0 },
          {
            tool: "factCheck",
            agentType: "FactChecker",
            input: { claim: "Durable Objects are single-threaded" },
            display: { name: "Fact checker", icon: "✔" },
            order: 1,
            steps: [
              text("Checking the claim.", { delayMs: 80 }),
              progress(0.5, "Comparing 3 sources", "comparing"),
              delay(300),
              milestone("claim-verified", { fraction: 1, data: { verdict: "true" } }),
              text("Verified: each object handles one request at a time.", { delayMs: 80 }),
            ],
          },
          {
            tool: "summarize",
            agentType: "Summarizer",
            input: { length: "short" },
            display: { name: "Summarizer", icon: "✎" },
            order: 2,
            steps: [
              progress(0.3, "Outlining", "outline"),
              delay(250),
              progress(0.9, "Writing", "writing"),
              text("Durable Objects give every agent its own single-threaded state.", { delayMs: 50 }),
            ],
          },
        ],
      },
      text("All three helpers finished; their results are above.", { id: "txt-after-tool" }),
    ],
  },
  {
    match: /\bbrowse\b/i,
    steps: [
      { kind: "live-view", name: "openBrowser", input: { url: "https://shop.example/login" } },
      text("I opened the sign-in page. Sign in in the Live View, then approve so I can continue.", {
        id: "txt-handoff",
      }),
      {
        kind: "approval",
        name: "continueAfterLogin",
        input: { page: "https://shop.example/login" },
        output: { ok: true, page: "https://shop.example/orders" },
        ...(host === "think"
          ? {
              descriptor: {
                action: "continueAfterLogin",
                summary: "Continue browsing as the signed-in user",
                permissions: ["browser:session"],
                risk: "medium" as const,
                kind: "approval-gated",
              },
            }
          : {}),
      },
      text("Thanks, I am signed in and can see your orders now.", { id: "txt-after-tool" }),
    ],
  },
  {
    match: /\bexpense\b/i,
    steps: (ctx) => {
      const amount = amountOf(ctx.userText) || 120;
      const id = `exp-${Date.now().toString(36)}`;
      return [
        setState((s) => {
          const st = (s ?? {}) as { pendingApprovals?: unknown[] };
          const item = {
            id,
            title: `Expense: team lunch (${amount} EUR)`,
            amount,
            requestedBy: "you",
            requestedAt: Date.now(),
          };
          return { ...st, pendingApprovals: [...(st.pendingApprovals ?? []), item] };
        }),
        text(`I filed expense ${id} for ${amount} EUR. It waits for a manager's approval.`),
      ];
    },
  },
  {
    match: /\bfail\b/i,
    steps: [
      failingTool("fetchInvoice", { invoice: "INV-7" }, "Invoice service returned 503"),
      {
        kind: "agent-tool",
        runs: [
          {
            tool: "verify",
            agentType: "Verifier",
            input: { invoice: "INV-7" },
            steps: [text("Verifying the invoice.", { delayMs: 50 })],
            outcome: { kind: "error", error: "Verifier crashed: upstream timeout" },
          },
          {
            tool: "crawl",
            agentType: "Crawler",
            input: { site: "https://shop.example" },
            order: 1,
            steps: [progress(0.4, "Crawling 40 pages", "crawling"), delay(200)],
            outcome: {
              kind: "interrupted",
              error: "No progress for 30 seconds",
              reason: "no-progress",
              childStillRunning: true,
            },
            // What the child still does when a retry (re-dispatch of the same run id) re-attaches to it.
            resumeSteps: [
              progress(1, "Crawled 100 pages", "done"),
              text("Crawled 100 pages; 3 links are broken.", { id: "txt-crawl-resumed", delayMs: 10 }),
            ],
          },
        ],
      },
      text("Some steps failed; the details are above.", { id: "txt-after-tool" }),
    ],
  },
  {
    // Three levels below the parent: each child dispatches the next as an agent tool of its own.
    match: /\bnested\b/i,
    steps: [{ kind: "agent-tool", runs: [nestedRun(pace)] }, afterTool("plan", pace)],
  },
  {
    match: /\bslow\b/i,
    steps: [
      text(Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), { id: "txt-slow", delayMs: 150 }),
    ],
  },
  {
    // A synchronous sub-agent (caliban's AgentTool, docs/helix.md#synchronous-agenttool-caliban): one blocking tool
    // call, no agent-tool events; its text result is the child's final text cut to the agent's 5,000 characters.
    match: /\bdelegate\b/i,
    steps: [
      text("Handing the log review to a sub-agent.", { id: "txt-pre" }),
      tool(
        "AgentTool",
        {
          prompt: "Read the last build logs and list every failing test with its first error line.",
          tool_allowlist: ["Read", "Grep", "Glob"],
          model: "claude-haiku",
        },
        { type: "text", text: delegateAnswer().slice(0, 5000) },
        { durationMs: 1500 },
      ),
      afterTool("AgentTool", pace),
    ],
  },
  { match: /\bhello\b/i, steps: [text("Hello! How can I help you today?", { id: "txt-hello" })] },
  // Statuses a person should see (issue 16 §2): an eviction recovered, one given up, a compaction.
  {
    match: /\brecover\b/i,
    steps: [
      text("Starting a long answer. "),
      { kind: "evict", recover: true },
      text("Recovered: the agent restarted and this part was written by its recovery."),
    ],
  },
  {
    match: /\bgive ?up\b/i,
    steps: [
      text("Starting an answer the agent will not be able to finish. "),
      { kind: "evict", recover: "give-up" },
    ],
  },
  {
    match: /\bcompact\b/i,
    steps: [
      {
        kind: "compact",
        summary:
          "Summary of the earlier conversation: the user tried the demo words and the agent answered each.",
        keep: 2,
      },
      text("I compacted our earlier conversation into a summary."),
    ],
  },
  // A different answer each time, so a regenerate on Think shows branches worth switching between.
  { match: /\bidea\b/i, steps: () => [text(nextIdea())] },
];

/** The delegated child's final text: longer than the 5,000 characters the agent keeps. */
function delegateAnswer(): string {
  const lines = Array.from(
    { length: 120 },
    (_, i) =>
      `${i + 1}. packages/app/test/case-${String(i + 1).padStart(3, "0")}.test.ts: expected 200, got 500`,
  );
  return `Found ${lines.length} failing tests.\n${lines.join("\n")}\nEND OF LIST`;
}

const IDEAS = [
  "Idea: cache the transcript per tab.",
  "Idea: stream the summary first, details later.",
  "Idea: let the user pin an answer.",
];
let ideaCount = 0;
/** The next idea in turn (per server process). */
function nextIdea(): string {
  const idea = IDEAS[ideaCount % IDEAS.length] as string;
  ideaCount++;
  return idea;
}

const deployPause: Step = {
  kind: "pause",
  name: "deploy",
  input: {
    service: "web-app",
    environment: "production",
    changelog: `Release 2026.11.22: ${"bug fixes and performance improvements; ".repeat(8)}`,
  },
  descriptor: {
    action: "deploy",
    summary: "Deploy web-app to production",
    permissions: ["deploy:production", "secrets:read"],
    risk: "high",
    kind: "durable-pause",
  },
  output: { ok: true, url: "https://web-app.example", version: "2026.11.22" },
  message: "Deploying web-app to production needs approval.",
};

export type { DemoPace } from "./demo-paced.ts";

/** Options of {@link createDemoAgents}. */
export interface DemoAgentsOptions {
  /** Default `recorded`; `runboard-mock` and `npm run dev` use `people`. */
  pace?: DemoPace;
}

/** The demo agents, one of each host flavour, at the pace asked for. */
export function createDemoAgents(options: DemoAgentsOptions = {}): Record<string, MockAgentDefinition> {
  const pace = options.pace ?? "recorded";
  return {
    ChatAgent: {
      host: "ai-chat",
      initialState: { counter: 0 },
      turns: [
        {
          match: /\bdeploy\b/i,
          steps: [
            {
              kind: "approval",
              name: "deploy",
              input: { service: "web-app", environment: "production" },
              output: { ok: true, url: "https://web-app.example" },
            },
            afterTool("deploy", pace),
          ],
        },
        ...sharedTurns("ai-chat", pace),
      ],
      fallback: [text(HELP, { id: "txt-help" })],
      callables: {
        increment(api, by) {
          const s = api.state as { counter: number };
          const counter = s.counter + (typeof by === "number" ? by : 1);
          api.setState({ ...s, counter });
          return counter;
        },
        getInfo: (api) => ({ name: api.name, messageCount: api.messages.length, state: api.state }),
        countdown: {
          streaming: true,
          async fn(api, from) {
            for (let i = typeof from === "number" ? from : 3; i > 0; i--) api.send(i);
            return "liftoff";
          },
        },
      },
    },
    ThinkAgent: {
      host: "think",
      turns: [
        {
          match: /\bdeploy\b/i,
          steps: [deployPause, text("The deploy is paused until someone approves it.")],
        },
        ...sharedTurns("think", pace),
      ],
      fallback: [text(HELP, { id: "txt-help" })],
      callables: {
        getInfo: (api) => ({ name: api.name, messageCount: api.messages.length, state: api.state ?? null }),
      },
    },
  };
}

/** The demo agents at the recorded pace (quick): what tests, Storybook and the fidelity comparison use. */
export const demoAgents: Record<string, MockAgentDefinition> = createDemoAgents();
