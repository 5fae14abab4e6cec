/**
 * The demo runs at either pace. `people` (`createDemoAgents({ pace: "people" })`, what `npm run dev` and
 * `runboard-mock` serve): a background run of about 25 s with a progress tick every one to two seconds and
 * four milestones, and a nested run whose levels stay open long enough to expand while they work.
 * `recorded`: the quick scripts; the recorded background stays in `demo.ts`, where the fidelity tests compare
 * it with the real server. Times are script time, scaled by the server's `delayScale` like every other delay.
 */
import { type ChildRunSpec, type ChildStep, delay, milestone, progress, type Step, text } from "./script.ts";

/**
 * How the demo runs are paced: `recorded` as the real server was recorded (quick; what tests compare),
 * `people` slow enough for a person to watch, cancel and open (`background` ~25 s, `nested` ~20 s).
 */
export type DemoPace = "recorded" | "people";

/** What the researcher reads, one line of its chat per source. */
const SOURCES = [
  ["Cloudflare Queues docs", "batches of up to 100 messages, retries with a delay."],
  ["Durable Objects guide", "one object per queue key keeps ordering simple."],
  ["At-least-once delivery", "consumers must be idempotent; dedupe on a message id."],
  ["Dead-letter queues", "after max retries a message moves aside for a person to look at."],
  ["Backpressure patterns", "a slow consumer should slow the producer, not drop work."],
  ["Fan-out with queues", "one message per subscriber, each retried on its own."],
  ["Visibility timeouts", "a message reappears when its consumer stops without an ack."],
  ["Queues vs. cron", "a queue reacts to work; a cron trigger polls for it."],
] as const;

/** Reading one source: a tick as it starts, a line in the chat, a tick for the notes; about 2.3 s. */
const readSource = (i: number): ChildStep[] => {
  const [title, note] = SOURCES[i] ?? ["A source", "nothing new."];
  const n = SOURCES.length;
  const at = (k: number) => 0.15 + (0.75 * (i + k)) / n;
  return [
    progress(at(0), `Reading source ${i + 1} of ${n}: ${title}`, "reading"),
    delay(1100),
    text(`${i + 1}. ${title}: ${note} `, { delayMs: 40 }),
    progress(at(0.5), `Taking notes on source ${i + 1} of ${n}`, "reading"),
    delay(700),
  ];
};

/**
 * The researcher behind `background …` at a person's pace: searching (~3 s), reading eight sources (~18 s),
 * writing (~3 s). Milestones at about 3, 12, 21 and 24 s; its chat grows by a line per source.
 */
function researcherAtPeoplePace(topic: string): ChildStep[] {
  const n = SOURCES.length;
  const half = Math.floor(n / 2);
  return [
    text(`Researching ${topic}. I will search, read ${n} sources and write a short summary.`, {
      delayMs: 40,
    }),
    progress(0.02, "Searching for sources", "searching"),
    delay(1200),
    progress(0.08, `Found ${n} sources; ranking them`, "searching"),
    delay(1000),
    milestone("sources-found", { fraction: 0.15, message: `Found ${n} sources`, data: { sources: n } }),
    ...SOURCES.slice(0, half).flatMap((_, i) => readSource(i)),
    milestone("halfway", { fraction: 0.5, message: `Read ${half} of ${n} sources`, data: { read: half } }),
    ...SOURCES.slice(half).flatMap((_, i) => readSource(half + i)),
    milestone("sources-read", { fraction: 0.9, message: `Read all ${n} sources`, data: { read: n } }),
    progress(0.92, "Writing the summary", "writing"),
    delay(1200),
    text(SUMMARY(topic), { delayMs: 40 }),
    progress(0.98, "Checking the summary", "writing"),
    delay(800),
    milestone("summary-written", { fraction: 1, message: "Summary written" }),
  ];
}

const SUMMARY = (topic: string) =>
  `Summary: ${SOURCES.length} sources on ${topic}. Make consumers idempotent, keep a dead-letter queue, and let backpressure slow the producer.`;

/** `background …` at a person's pace: a detached Researcher of about 25 s; the agent is told how it ended. */
export function backgroundAtPeoplePace(topic: string): Extract<Step, { kind: "detached" }> {
  return {
    kind: "detached",
    run: {
      tool: "startBackgroundResearch",
      agentType: "Researcher",
      input: { query: topic },
      display: { name: "Researcher", icon: "🔎" },
      steps: researcherAtPeoplePace(topic),
      // The notice carries the summary, not every line the researcher wrote while reading.
      outcome: { kind: "finished", summary: SUMMARY(topic) },
    },
    narrateMilestones: false,
    // The notice says how the run ended (the agent reads it as the last user message): a cancelled run
    // must not be acknowledged as finished.
    followUp: [
      text(
        (ctx) =>
          /\bwas cancelled\b/.test(ctx.userText)
            ? "Noted: the background research was cancelled, so there is no summary."
            : "Noted: the background research finished and I have read its summary.",
        { id: "txt-notify" },
      ),
    ],
  };
}

/** How one level of `nested` ticks at a person's pace, before and after the level below it. */
type Ticks = Array<[fraction: number, message: string, ms: number]>;

/** One level of the `nested` demo: Planner → Researcher → FactChecker, each awaiting the next. */
interface NestedLevel {
  tool: string;
  agentType: string;
  icon: string;
  says: string;
  before: Ticks;
  after: Ticks;
}

const NESTED_LEVELS: NestedLevel[] = [
  {
    tool: "plan",
    agentType: "Planner",
    icon: "🗺",
    says: "Splitting the work; asking a researcher.",
    before: [
      [0.05, "Reading the request", 1000],
      [0.15, "Splitting the work into 3 steps", 1200],
    ],
    after: [
      [0.9, "Putting the answer together", 1000],
      [1, "Plan ready", 600],
    ],
  },
  {
    tool: "research",
    agentType: "Researcher",
    icon: "🔎",
    says: "Researching; asking a fact checker.",
    before: [
      [0.1, "Looking for sources", 1200],
      [0.25, "Reading 3 sources", 1200],
      [0.35, "Picking the claim to check", 800],
    ],
    after: [
      [0.85, "Writing up the findings", 1000],
      [1, "Findings written", 600],
    ],
  },
  {
    tool: "factCheck",
    agentType: "FactChecker",
    icon: "✔",
    says: "Checking the claim against 3 sources.",
    before: Array.from({ length: 6 }, (_, i) => [
      (i + 1) / 7,
      `${i % 2 ? "Comparing" : "Reading"} source ${Math.floor(i / 2) + 1} of 3`,
      1400,
    ]),
    after: [[1, "Claim verified", 400]],
  },
];

const ticks = (list: Ticks, phase: string): ChildStep[] =>
  list.flatMap(([fraction, message, ms]) => [progress(fraction, message, phase), delay(ms)]);

/**
 * Level `depth` of the `nested` demo. At the recorded pace each level says one line and reports one progress.
 * At a person's pace the Planner runs ~20 s, the Researcher ~16 s, the FactChecker ~10 s, each ticking every
 * one to two seconds, so a person can expand a level and watch the next one appear.
 */
export function nestedRun(pace: DemoPace, depth = 1): ChildRunSpec {
  const level = NESTED_LEVELS[depth - 1] ?? (NESTED_LEVELS[0] as NestedLevel);
  const next = NESTED_LEVELS[depth];
  const people = pace === "people";
  const deeper: ChildStep[] = next
    ? [
        // While the level below works, this one says what it waits for; its bar stays where it was.
        ...(people
          ? [progress(level.before.at(-1)?.[0] ?? 0.5, `Waiting for the ${next.agentType}`, "waiting")]
          : []),
        { kind: "agent-tool", runs: [nestedRun(pace, depth + 1)] },
      ]
    : [];
  const working: ChildStep[] = people
    ? [
        ...ticks(level.before, "working"),
        ...(next ? [] : [milestone("claim-verified", { data: { verdict: "true" } })]),
      ]
    : [progress(0.5, level.says, "working")];
  return {
    tool: level.tool,
    agentType: level.agentType,
    input: { task: level.says },
    display: { name: level.agentType, icon: level.icon },
    steps: [
      text(level.says, { delayMs: 60 }),
      ...working,
      ...deeper,
      ...(people ? ticks(level.after, "finishing") : []),
      text(` ${level.agentType} done (level ${depth}).`, { delayMs: 60 }),
    ],
  };
}
