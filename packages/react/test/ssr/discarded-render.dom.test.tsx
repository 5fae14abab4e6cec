/**
 * Renders React throws away: every component in every state rendered before a sibling that suspends (the
 * whole boundary's render is discarded for its fallback), in a transition that suspends (the new tree is never
 * committed), and in StrictMode (every render twice). After unmount no timer the kit started may still be
 * pending, and no socket may be left open.
 */
import { act, cleanup, type RenderResult, render, screen } from "@testing-library/react";
import { type ReactNode, StrictMode, Suspense, startTransition, use, useState } from "react";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { CountingWebSocket, describeSightings, installTimerProbe } from "./probe.ts";
import { CASES, HooksPage } from "./states.tsx";

const probe = installTimerProbe();
afterAll(() => probe.restore());
beforeEach(() => {
  probe.reset();
  CountingWebSocket.open.clear();
});
afterEach(cleanup);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often the tree below rendered: proof that React did render what it then threw away. */
let renders = 0;
function Counted({ children }: { children: ReactNode }) {
  renders += 1;
  return <>{children}</>;
}

function Everything() {
  return (
    <Counted>
      {CASES.map((c) => (
        <section key={c.name} aria-label={c.name}>
          {c.render()}
        </section>
      ))}
    </Counted>
  );
}

function Hooks() {
  return (
    <Counted>
      <HooksPage host="127.0.0.1:9" WebSocket={CountingWebSocket} />
    </Counted>
  );
}

/** Never settles: whatever waits for it stays suspended. */
const NEVER = new Promise<never>(() => {});

function Suspends({ until }: { until: Promise<unknown> }): null {
  use(until);
  return null;
}

let switchOn: () => void = () => {};
/** "Before" until `switchOn()`, which shows `tree` (and a sibling that never stops suspending) in a transition. */
function Switch({ tree }: { tree: () => ReactNode }) {
  const [on, setOn] = useState(false);
  switchOn = () => startTransition(() => setOn(true));
  return on ? (
    <>
      {tree()}
      <Suspends until={NEVER} />
    </>
  ) : (
    <p>Before</p>
  );
}

/**
 * After unmount, and a moment for what is already on its way (the tick the kit waits before letting go of a
 * connection, a last notification), nothing may be left: no interval, reconnect, stall or refresh timer.
 */
async function expectNothingLeft() {
  await act(() => sleep(200));
  const live = probe.liveTimers();
  expect(live, `timers still pending after unmount:\n${describeSightings(live)}`).toEqual([]);
  expect(CountingWebSocket.open.size, "sockets still open after unmount").toBe(0);
}

const trees: Array<[string, () => ReactNode]> = [
  ["every component in every state", () => <Everything />],
  ["the hooks feeding every component, with a drill-in chat", () => <Hooks />],
];

// Every component in every state, in StrictMode, in jsdom: slow on a busy machine.
describe.each(trees)("%s", { timeout: 30_000 }, (_, tree) => {
  it("discarded beside a suspending sibling in StrictMode: no timer or socket after unmount", async () => {
    renders = 0;
    let view: RenderResult | undefined;
    await act(async () => {
      view = render(
        <StrictMode>
          <Suspense fallback={<p>Loading</p>}>
            {tree()}
            <Suspends until={NEVER} />
          </Suspense>
        </StrictMode>,
      );
      await sleep(30);
    });
    expect(screen.getByText("Loading")).toBeTruthy();
    expect(renders).toBeGreaterThan(0);
    view?.unmount();
    await expectNothingLeft();
  });

  it("discarded by a transition that suspends: no timer or socket after unmount", async () => {
    renders = 0;
    const view = render(
      <StrictMode>
        <Suspense fallback={<p>Loading</p>}>
          <Switch tree={tree} />
        </Suspense>
      </StrictMode>,
    );
    await act(async () => {
      switchOn();
      await sleep(30);
    });
    // The transition never committed: the old screen stays.
    expect(screen.getByText("Before")).toBeTruthy();
    expect(renders).toBeGreaterThan(0);
    view.unmount();
    await expectNothingLeft();
  });

  it("mounted after suspending, then unmounted: every timer and socket it started is gone", async () => {
    renders = 0;
    let resolve: () => void = () => {};
    const ready = new Promise<void>((r) => {
      resolve = r;
    });
    let view: RenderResult | undefined;
    // Awaited, so React retries the suspended tree once the promise settles.
    await act(async () => {
      view = render(
        <StrictMode>
          <Suspense fallback={<p>Loading</p>}>
            {tree()}
            <Suspends until={ready} />
          </Suspense>
        </StrictMode>,
      );
    });
    expect(screen.getByText("Loading")).toBeTruthy();
    await act(async () => {
      resolve();
      // React holds a fallback on screen for a moment before revealing the content.
      await sleep(400);
    });
    expect(screen.queryByText("Loading")).toBeNull();
    view?.unmount();
    await expectNothingLeft();
  });
});
