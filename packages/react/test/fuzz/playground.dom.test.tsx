/**
 * Issue 18: the playground's own components under the fuzz. Generated frames (`frames.ts`) mixed with parts
 * the parser accepts but no component expects (`hostile-parts.ts`: `input: null`, markup, megabytes, unknown
 * states) go through a fake socket into the real hooks, and the playground's conversation (tool parts, child
 * runs through `RunView`, inline approval cards), approval queue and background-run tray render them inside
 * the playground's own error boundaries. Between batches a user presses a random enabled button.
 *
 * After every batch: no uncaught error, unhandled rejection or `console.error`; the app root is there and no
 * boundary shows its fallback (every part rendered safely, none was caught); one element per message in the
 * conversation; no element or handler attribute created from server text.
 *
 * Deterministic and independent of the machine's speed: seeded, the clock and intervals are fake (elapsed
 * times, countdowns and stall checks stand still) and nothing waits on wall-clock time, so a busy machine
 * renders the same tree, only later.
 */
import { parseServerFrame } from "@runboard/protocol";
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Card, Queue } from "../../../../playground/src/approvals.tsx";
import { Boundary } from "../../../../playground/src/boundary.tsx";
import { Conversation } from "../../../../playground/src/conversation.tsx";
import { Tray } from "../../../../playground/src/tray.tsx";
import { useChatApprovals } from "../../src/approval/index.ts";
import { useAgent } from "../../src/use-agent.ts";
import { useAgentChat } from "../../src/use-agent-chat.ts";
import { useAgentToolEvents } from "../../src/use-agent-tool-events.ts";
import { FakeWebSocket } from "./fake-socket.ts";
import { FrameGenerator, type FuzzContext, loadRealTranscripts } from "./frames.ts";
import { hostileFrames, INJECTED, MARKUP } from "./hostile-parts.ts";

const SEED = Number(process.env.RUNBOARD_FUZZ_SEED ?? 20_261_124);
const SESSIONS = 2;
const BATCHES = 60;
const BATCH = 25;

const problems: string[] = [];
const describeError = (e: unknown) =>
  e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e);
const onUncaught = (e: unknown) => problems.push(`uncaught: ${describeError(e)}`);

beforeAll(() => {
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    problems.push(`console.error: ${args.map(describeError).join(" ")}`);
  });
});
afterAll(() => {
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onUncaught);
  vi.restoreAllMocks();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const noop = () => {};

/** The playground's app body, on the fuzz's socket instead of a server. */
function PlaygroundUnderFuzz() {
  const agent = useAgent<Record<string, unknown>>({
    agent: "FuzzAgent",
    name: "fuzz",
    host: "fuzz.invalid",
    WebSocket: FakeWebSocket,
    onError: noop,
    onIdentityChange: noop,
  });
  const chat = useAgentChat({ agent, throttleMs: 0, getInitialMessages: null, onError: noop });
  const runs = useAgentToolEvents({ agent, throttleMs: 0, onError: noop });
  const approvals = useChatApprovals(chat, { agent });
  return (
    <div data-testid="app-root">
      <Conversation
        chat={chat}
        runs={runs}
        onDrillIn={noop}
        renderApproval={(part) =>
          approvals
            .filter((r) => r.toolCallId === part.toolCallId)
            .map((r) => <Card key={r.id} request={r} />)
        }
      />
      <output data-testid="held">{chat.messages.length}</output>
      <Queue requests={approvals} />
      <Tray runs={runs} onDrillIn={noop} />
    </div>
  );
}

/**
 * Lets zero-delay timers (the socket opening, deferred disposal) run, inside `act`: a fixed number of event
 * loop turns, not a wall-clock wait, so a busy machine only makes it slower.
 */
const settleTimers = () =>
  act(async () => {
    for (let i = 0; i < 3; i++) await new Promise((done) => setTimeout(done, 0));
  });

const totals = {
  frames: 0,
  hostile: 0,
  hostileAccepted: 0,
  clicks: 0,
  markupShown: 0,
  cards: 0,
  toolParts: 0,
  runViews: 0,
  trayItems: 0,
};

async function runSession(session: number, real: string[][]) {
  // The clocks (elapsed times, countdowns, stall checks) stand still, so what renders does not depend on how
  // long a batch took; zero-delay timeouts stay real for the socket and React.
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  // The previous session's connection is disposed on a zero-delay timer after its unmount.
  await settleTimers();
  FakeWebSocket.reset();
  problems.length = 0;
  const gen = new FrameGenerator({ seed: (SEED + session * 7_919) >>> 0, oversizedRate: 0 }, real);
  const r = gen.rng;
  const view = render(
    <Boundary what="The playground">
      <PlaygroundUnderFuzz />
    </Boundary>,
  );
  await settleTimers();
  const socket = () => FakeWebSocket.current as FakeWebSocket;
  expect(socket().readyState).toBe(1);

  const root = view.container;
  const none: string[] = [];
  const context = (): FuzzContext => ({
    localRequestIds: none,
    probeIds: none,
    messageIds: none,
    toolCallIds: none,
    approvalIds: none,
    runIds: none,
  });

  for (let b = 0; b < BATCHES; b++) {
    const batch = gen.batch(context(), BATCH);
    while (r.chance(0.6)) {
      const frames = hostileFrames(r, context());
      totals.hostile += frames.length;
      for (const f of frames) if (parseServerFrame(f.data).kind === "frame") totals.hostileAccepted++;
      batch.splice(r.int(0, batch.length), 0, ...frames);
    }
    totals.frames += batch.length;
    await act(async () => {
      for (const f of batch) if (socket().readyState === 1) socket().deliver(f.data);
    });
    if (r.chance(0.3)) {
      const buttons = [...document.body.querySelectorAll<HTMLButtonElement>("button:not([disabled])")];
      if (buttons.length) {
        totals.clicks++;
        const button = r.pick(buttons);
        await act(async () => void fireEvent.click(button));
      }
    }
    await settleTimers();

    const found = [...problems.splice(0)];
    if (!root.querySelector('[data-testid="app-root"]')) found.push("the app root is gone");
    for (const alert of root.querySelectorAll('[role="alert"]'))
      if (alert.textContent?.includes("could not be shown"))
        found.push(`a boundary caught: ${alert.querySelector("details")?.textContent}`);
    const conversation = root.querySelector('section[aria-label="Conversation"]');
    const held = Number(root.querySelector('[data-testid="held"]')?.textContent);
    if (conversation?.children.length !== held)
      found.push(`${conversation?.children.length} messages shown, ${held} held`);
    const injected = document.body.querySelectorAll(INJECTED);
    if (injected.length)
      found.push(`elements from server text: ${[...injected].map((e) => e.outerHTML).join(" ")}`);
    if (found.length) throw new Error(`seed ${SEED}, session ${session}, batch ${b}:\n${found.join("\n")}`);

    const text = document.body.textContent ?? "";
    totals.markupShown += MARKUP.filter((m) => text.includes(m)).length;
    totals.cards += root.querySelectorAll("article.approval, .approval").length;
    totals.toolParts += root.querySelectorAll(".tool-call").length;
    totals.runViews += root.querySelectorAll(".run-card").length;
    totals.trayItems += root.querySelectorAll(".tray-item").length;
  }
  view.unmount();
  await settleTimers();
  if (problems.length) throw new Error(`while unmounting:\n${problems.join("\n")}`);
}

describe("fuzz: the playground's components under generated and hostile frames", () => {
  const real = loadRealTranscripts();
  for (let s = 0; s < SESSIONS; s++)
    it(`session ${s + 1}/${SESSIONS}`, { timeout: 300_000 }, async () => {
      await runSession(s, real);
    });

  afterAll(() => {
    console.info(`playground fuzz (seed ${SEED}): ${JSON.stringify(totals)}`);
    // The parser let the hostile parts through, payloads were on screen as text, cards and tool parts rendered.
    expect(totals.hostileAccepted).toBeGreaterThan(totals.hostile * 0.9);
    expect(totals.markupShown).toBeGreaterThan(0);
    expect(totals.cards).toBeGreaterThan(0);
    expect(totals.toolParts).toBeGreaterThan(0);
    expect(totals.runViews).toBeGreaterThan(0);
    expect(totals.trayItems).toBeGreaterThan(0);
  });
});
