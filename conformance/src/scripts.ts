/**
 * What the scripted model says, per word. The same words and lines as the mock server's demo agents
 * (`mock-server/src/demo.ts`); hello, weather, pay, locate, research, background and slow are the scripts the
 * real-server transcripts in `test-support/fixtures/real-server/` were recorded with.
 */
import {
  type Action,
  afterTool,
  fail,
  type Rule,
  run,
  type Step,
  type Turn,
  text,
  toolCall,
  wait,
} from "./model.ts";

export type Host = "ai-chat" | "think";

/** The `reportProgress` argument (agents `AgentToolProgress`). */
export interface Progress {
  fraction?: number;
  message?: string;
  phase?: string;
  milestone?: string;
  data?: unknown;
}

/** Side effects a script may cause on the agent that runs it. */
export interface ScriptHooks {
  /** Files an expense in `state.pendingApprovals`; returns its id. */
  fileExpense(amount: number): string;
  /** Sets the agent's `maxConcurrentAgentTools` (agents 0.32 refuses a dispatch beyond it). */
  limitAgentTools(max: number): void;
}

export const HELP =
  "Try one of these words: hello, weather, pay, locate, research, fanout, background, browse, expense, deploy, fail, nested, slow.";

export const topicOf = (userText: string, fallback: string) =>
  /(?:research(?:\s+(?:on|about))?|about)\s+(.+?)(?:\s+with milestones)?(?:\s+until cancell?ed)?(?:\s+for me)?[.?!]*$/i.exec(
    userText,
  )?.[1] ?? fallback;

function amountOf(t: string) {
  const m = /(\d+(?:\.\d+)?)/.exec(t);
  return m ? Number(m[1]) : 250;
}
function recipientOf(t: string) {
  return /pay\s+([A-Z][\w-]*)/i.exec(t)?.[1] ?? "ACME";
}

/** The tool output the model got, unwrapped from the AI SDK's `{type:"json", value}` envelope. */
function toolValue(turn: Turn): unknown {
  const out = turn.lastTool?.output as { type?: string; value?: unknown } | undefined;
  return out && typeof out === "object" && "value" in out ? out.value : out;
}

const DEPLOY_SUMMARY = "Deploy web-app to production";

/** The Think deploy (durable pause): paused, then approved or rejected through `approveExecution`. */
const afterDeployPause = (turn: Turn): Action[] => {
  const v = toolValue(turn) as { status?: string; reason?: string } | undefined;
  if (v?.status === "paused")
    return [text("The deploy is paused until someone approves it.", "txt-after-tool")];
  if (v?.status === "rejected") {
    return [
      text(
        `${DEPLOY_SUMMARY} was rejected${v.reason ? `: ${v.reason}` : ""}, so I did not run it.`,
        "txt-after-tool",
      ),
    ];
  }
  return [text(`Approved: ${DEPLOY_SUMMARY} is done.`, "txt-after-tool")];
};

/** The turns the ChatAgent (AIChatAgent) and ThinkAgent (Think) hosts answer. */
export function hostRules(host: Host, hooks: ScriptHooks): Rule[] {
  const deploy: Rule =
    host === "ai-chat"
      ? {
          match: /\bdeploy\b/i,
          steps: [[toolCall("deploy", "deploy", { service: "web-app", environment: "production" })]],
        }
      : {
          match: /\bdeploy\b/i,
          steps: [
            [
              toolCall("deploy", "deploy", {
                service: "web-app",
                environment: "production",
                changelog: `Release 2026.11.22: ${"bug fixes and performance improvements; ".repeat(8)}`,
              }),
            ],
            afterDeployPause,
          ],
        };
  return [
    // A detached run's notify message (`detached-finish:<runId>:<status>`): the model acknowledges it.
    {
      match: /^Background task "/,
      steps: [
        (turn) =>
          /reached milestone/.test(turn.userText)
            ? [text("Noted: the background research reached a milestone.", "txt-notify")]
            : [text("Noted: the background research finished and I have read its summary.", "txt-notify")],
      ],
    },
    deploy,
    {
      match: /\bweather\b/i,
      steps: [
        (turn) => {
          const city = /in\s+([A-Z][\w\s-]*?)\??$/i.exec(turn.userText)?.[1] ?? "Lisbon";
          return [text("Let me check the weather.", "txt-pre"), toolCall("getWeather", "weather", { city })];
        },
      ],
    },
    {
      match: /\bpay\b/i,
      steps: [
        (turn) => [
          toolCall("processPayment", "pay", {
            amount: amountOf(turn.userText),
            recipient: recipientOf(turn.userText),
          }),
        ],
      ],
    },
    { match: /\blocate\b/i, steps: [[toolCall("getLocation", "loc", {})]] },
    {
      match: /\bbackground\b/i,
      steps: [
        (turn) => [
          toolCall("startBackgroundResearch", "bg", {
            query: topicOf(turn.userText, "websockets"),
            // Not in the recorded script: "… with milestones" also narrates milestones (`onMilestones`).
            ...(/\bmilestones?\b/i.test(turn.userText) ? { milestones: true } : {}),
            // Not in the recorded script: "… until cancelled" keeps the run going until someone cancels it
            // (the playground's cancel walk needs a run that is surely still running when the person clicks).
            ...(/\buntil cancell?ed\b/i.test(turn.userText) ? { hold: true } : {}),
          }),
        ],
      ],
    },
    {
      match: /\bresearch\b/i,
      steps: [(turn) => [toolCall("research", "research", { query: topicOf(turn.userText, "agents") })]],
    },
    {
      match: /\bfan-?out\b/i,
      steps: [
        [
          toolCall("research", "research", { query: "durable objects" }),
          toolCall("factCheck", "fact", { claim: "Durable Objects are single-threaded" }),
          toolCall("summarize", "sum", { length: "short" }),
        ],
        [text("All three helpers finished; their results are above.", "txt-after-tool")],
      ],
    },
    {
      match: /\bbrowse\b/i,
      steps: [
        [toolCall("openBrowser", "browse", { url: "https://shop.example/login" })],
        [
          text(
            "I opened the sign-in page. Sign in in the Live View, then approve so I can continue.",
            "txt-handoff",
          ),
          toolCall("continueAfterLogin", "login", { page: "https://shop.example/login" }),
        ],
        (turn) => {
          const out = turn.lastTool?.output as { type?: string } | undefined;
          if (out?.type === "execution-denied") return afterTool(turn);
          return [text("Thanks, I am signed in and can see your orders now.", "txt-after-tool")];
        },
      ],
    },
    {
      match: /\bexpense\b/i,
      steps: [
        (turn) => {
          const amount = amountOf(turn.userText) || 120;
          let id = "";
          return [
            run(() => {
              id = hooks.fileExpense(amount);
            }),
            text(
              () => `I filed expense ${id} for ${amount} EUR. It waits for a manager's approval.`,
              "txt-expense",
            ),
          ];
        },
      ],
    },
    {
      match: /\bfail\b/i,
      steps: [
        [
          toolCall("fetchInvoice", "invoice", { invoice: "INV-7" }),
          toolCall("verify", "verify", { invoice: "INV-7" }),
          toolCall("crawl", "crawl", { site: "https://shop.example" }),
        ],
        [text("Some steps failed; the details are above.", "txt-after-tool")],
      ],
    },
    {
      // Nested runs: the Planner child (a Think) dispatches a Researcher of its own (see `Planner` in worker.ts).
      match: /\bnested\b/i,
      steps: [[toolCall("plan", "plan", { task: "Splitting the work; asking a researcher." })]],
    },
    {
      // Not in the mock: two Researchers at once while the agent allows one (`maxConcurrentAgentTools` 1), so
      // agents 0.32 refuses the second dispatch (docs/protocol.md#concurrency-limit); the limit is lifted after.
      match: /\bbusy\b/i,
      steps: [
        [
          run(() => hooks.limitAgentTools(1)),
          toolCall("research", "research", { query: "queues" }),
          toolCall("research", "research", { query: "caches" }),
        ],
        [
          run(() => hooks.limitAgentTools(Number.POSITIVE_INFINITY)),
          text("One helper was not started: the agent allows one at a time.", "txt-after-tool"),
        ],
      ],
    },
    {
      // Not in the mock: a child that runs until the Worker restarts (conformance/agent-tool-interrupted.test.ts).
      match: /\bstall\b/i,
      steps: [
        [toolCall("crawlUntilRestart", "stall", { site: "https://shop.example" })],
        [text("The crawl ended; the details are above.", "txt-after-tool")],
      ],
    },
    {
      match: /\bslow\b/i,
      steps: [[text(Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), "txt-slow", 150)]],
    },
    { match: /\bhello\b/i, steps: [[text("Hello! How can I help you today?", "txt-hello")]] },
  ];
}

export const hostFallback: Step[] = [[text(HELP, "txt-help")]];

/** Child agents. `progress` is the child's `reportProgress`. */
/** `lingerMs` from a child's input (its prompt is the input as pretty JSON); 0 when absent. */
function lingerOf(userText: string): number {
  try {
    const v = (JSON.parse(userText) as { lingerMs?: unknown }).lingerMs;
    return typeof v === "number" ? v : 0;
  } catch {
    return 0;
  }
}

export type ChildName = "Researcher" | "FactChecker" | "Summarizer" | "Verifier" | "Crawler" | "Planner";

export function childSteps(child: ChildName, progress: (p: Progress) => Promise<void>): Step[] {
  switch (child) {
    case "Researcher":
      // The child's prompt is its input, pretty-printed; the recorded gatherSources call quotes it as `topic`.
      return [
        (turn) => [
          text("Researching now.", "r-pre"),
          toolCall("gatherSources", "gather", { topic: turn.userText }),
        ],
        (turn) => [
          text("Summary: found 2 sources; durable objects give each agent its own SQLite.", "r-sum"),
          // `lingerMs` in the input keeps the run open (see `startBackgroundResearch` in worker.ts).
          wait(lingerOf(turn.userText)),
        ],
      ];
    case "FactChecker":
      return [
        [
          text("Checking the claim.", "fc-pre", 80),
          run(() => progress({ fraction: 0.5, message: "Comparing 3 sources", phase: "comparing" })),
          wait(300),
          run(() => progress({ milestone: "claim-verified", fraction: 1, data: { verdict: "true" } })),
          text("Verified: each object handles one request at a time.", "fc-sum", 80),
        ],
      ];
    case "Summarizer":
      return [
        [
          run(() => progress({ fraction: 0.3, message: "Outlining", phase: "outline" })),
          wait(250),
          run(() => progress({ fraction: 0.9, message: "Writing", phase: "writing" })),
          text("Durable Objects give every agent its own single-threaded state.", "sum", 50),
        ],
      ];
    case "Verifier":
      return [[text("Verifying the invoice.", "v-pre", 50), fail("Verifier crashed: upstream timeout")]];
    case "Planner":
      // Its `research` tool is an agent tool of the Planner's own: the Researcher is the parent's grandchild.
      return [
        [
          text("Splitting the work; asking a researcher.", "p-pre", 60),
          toolCall("research", "research", { query: "queues" }),
        ],
        [text(" Planner done (level 1).", "p-sum", 60)],
      ];
    case "Crawler":
      // Goes silent after one progress report; the parent gives up on it (see `crawl` in worker.ts).
      return [
        [
          run(() => progress({ fraction: 0.4, message: "Crawling 40 pages", phase: "crawling" })),
          wait(600_000),
        ],
      ];
  }
}
