/**
 * Hydration in Chromium: each component in each state is rendered to HTML as a server in UTC with en-US and
 * the real clock would, then hydrated by a browser in another language (de-DE), time zone (Asia/Kolkata) and
 * 61.5 s later. React must not warn or recover from a mismatch, and what only the browser knows (local times,
 * countdowns, elapsed times) must appear right after mount.
 */
import userEvent from "@testing-library/user-event";
import { type ReactElement, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otherLoopbackOrigin } from "../../../../test-support/loopback-origin.ts";
import { LiveView } from "../../src/live-view/index.ts";
import { confirmDialogOpen } from "./confirm-dialog.ts";
import { applyEnvironment, CLIENT, inEnvironment, SERVER } from "./environment.ts";
import {
  Approvals,
  BRANCH_STEPS,
  CASES,
  connection,
  HELIX_SENT,
  type StateCase,
  WORKFLOW_STATE,
} from "./states.tsx";

interface Hydrated {
  container: HTMLElement;
  /** Console warnings and errors, and errors React recovered from, during hydration and just after. */
  problems: string[];
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const describeArgs = (args: unknown[]) =>
  args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" ");

/**
 * Server-renders `server`, then hydrates the HTML with `client` as the browser would, and waits for mount.
 * `beforeHydrating` is how long the page shows the server's HTML before the app's script runs.
 */
async function hydrate(
  server: ReactElement,
  client: ReactElement,
  expected: readonly RegExp[] = [],
  beforeHydrating = 0,
) {
  const html = inEnvironment(SERVER, () => renderToString(<StrictMode>{server}</StrictMode>));
  const container = document.createElement("div");
  container.innerHTML = html;
  document.body.append(container);
  cleanups.push(() => container.remove());
  if (beforeHydrating > 0) await new Promise((resolve) => setTimeout(resolve, beforeHydrating));

  const problems: string[] = [];
  const record =
    (level: string) =>
    (...args: unknown[]) => {
      const text = describeArgs(args);
      if (!expected.some((re) => re.test(text))) problems.push(`console.${level}: ${text}`);
    };
  const error = vi.spyOn(console, "error").mockImplementation(record("error"));
  const warn = vi.spyOn(console, "warn").mockImplementation(record("warn"));
  cleanups.push(() => {
    error.mockRestore();
    warn.mockRestore();
  });
  cleanups.push(applyEnvironment(CLIENT));

  const root = hydrateRoot(container, <StrictMode>{client}</StrictMode>, {
    onRecoverableError: (e) => problems.push(`recoverable: ${describeArgs([e])}`),
    onCaughtError: (e) => problems.push(`caught: ${describeArgs([e])}`),
    onUncaughtError: (e) => problems.push(`uncaught: ${describeArgs([e])}`),
  });
  cleanups.push(() => root.unmount());
  // Effects, the re-render with the browser's values, and the confirm dialog's library loading.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return { container, problems } satisfies Hydrated;
}

const texts = (el: HTMLElement, selector: string) =>
  Array.from(el.querySelectorAll(selector)).map((n) => n.textContent ?? "");

/**
 * Seconds of real time since the states' inputs were made. The cases run one after another, so on a busy
 * machine a later case hydrates many seconds after that: a countdown or an elapsed time is checked against
 * the window it could have been rendered in, never against a fixed few seconds.
 */
const sinceLoaded = () => {
  // The real clock: the client environment shifts Date.now() while a case is checked.
  const now = performance.timeOrigin + performance.now();
  return (now - ((globalThis as { __ssrStatesLoadedAt?: number }).__ssrStatesLoadedAt ?? now)) / 1000;
};

/** `text` is a clock (`m:ss` captured by `pattern`) showing between `lo` and `hi` seconds, give or take one. */
function expectClockBetween(text: string | undefined, pattern: RegExp, lo: number, hi: number) {
  const m = pattern.exec(text ?? "");
  expect(m, `${text} should match ${pattern}`).not.toBeNull();
  const shown = Number(m?.[1]) * 60 + Number(m?.[2]);
  expect(shown).toBeGreaterThanOrEqual(Math.floor(lo) - 1);
  expect(shown).toBeLessThanOrEqual(Math.ceil(hi) + 1);
}

/** What the browser shows once mounted, for the states whose text is the browser's to decide. */
const afterMount: Record<string, (el: HTMLElement) => void> = {
  // 09:30:05 and 09:31:10 UTC, in German, in India (UTC+5:30).
  "MilestoneTimeline: reached, current and upcoming": (el) =>
    expect(texts(el, "time")).toEqual(["15:00:05", "15:01:10"]),
  "MilestoneTimeline: from a run": (el) => expect(texts(el, "time")).toEqual(["15:00:05", "15:01:10"]),
  // Ten minutes from when the inputs were made, seen 61.5 s later.
  "ApprovalCard: expiring in ten minutes": (el) => {
    const left = 600 - CLIENT.clockOffsetMs / 1000;
    expectClockBetween(texts(el, "time")[0], /^Expires in (\d+):(\d\d)$/, left - sinceLoaded(), left);
    expect(el.querySelector("article")?.getAttribute("data-status")).toBe("requested");
  },
  "ApprovalCard: expired": (el) => {
    expect(texts(el, "time")).toEqual(["Expired"]);
    expect(el.querySelector("article")?.getAttribute("data-status")).toBe("expired");
    expect(el.querySelector("time")?.hasAttribute("data-expired")).toBe(true);
  },
  // Started 95 s before the inputs were made, seen 61.5 s later.
  "AgentToolRun: running since a known start": (el) => {
    const since = 95 + CLIENT.clockOffsetMs / 1000;
    expectClockBetween(texts(el, "time")[0], /^(\d+):(\d\d)$/, since, since + sinceLoaded());
  },
  "AgentToolRun: running, first seen now": (el) => expect(texts(el, "time")[0]).toBe("0:00"),
  "RunTray: open, every status": (el) => expect(texts(el, "time")).toEqual(["0:00", "0:00"]),
  "Approval adapters: open connection": (el) =>
    expect(el.querySelector("article")?.getAttribute("data-status")).toBe("requested"),
  "ApprovalCard: high risk, confirm dialog open": () =>
    expect(document.querySelector('[role="alertdialog"]')?.textContent).toContain("Approve deploy?"),
  "ChatStatus: gave up": (el) => {
    expect(el.querySelector('[role="alert"]')?.textContent).toMatch(/could not recover/);
    expect(el.querySelector('[role="status"]')?.textContent).toMatch(/could not recover/);
  },
  "RunTray (helix): persistent child completed": (el) => {
    expect(el.querySelector("form")?.hasAttribute("data-disabled")).toBe(true);
    expect(
      Array.from(el.querySelectorAll("button, input")).map((b) => (b as HTMLButtonElement).disabled),
    ).toEqual([
      false, // the tray's trigger
      true,
      true,
      true,
    ]);
  },
};

/** What a person does right after hydration, and what the app's callback then sees: the server's markup is live. */
const interactions: Record<string, (el: HTMLElement) => Promise<void>> = {
  "BranchPicker: 1 of 2": async (el) => {
    const [previous, next] = Array.from(el.querySelectorAll("button"));
    expect(previous?.disabled).toBe(true);
    await userEvent.click(next as HTMLButtonElement);
    expect(BRANCH_STEPS).toContain("answer-a → 1");
  },
  "BranchPicker: 2 of 3": async (el) => {
    await userEvent.click(el.querySelector('[aria-label="Previous answer"]') as HTMLButtonElement);
    expect(BRANCH_STEPS).toContain("answer-b → 0");
  },
  "RunTray (helix): persistent child running": async (el) => {
    const input = el.querySelector('input[aria-label="Message to researcher-1"]') as HTMLInputElement;
    await userEvent.type(input, "dig deeper");
    await userEvent.click(el.querySelector('form button[type="submit"]') as HTMLButtonElement);
    expect(HELIX_SENT).toEqual(["researcher-1: dig deeper"]);
    expect(input.value).toBe("");
  },
};

describe("hydrating server HTML in a browser with another locale, time zone and clock", () => {
  it.each(CASES.map((c) => [c.name, c] as [string, StateCase]))(
    "%s: no warning, no recovery",
    async (_, c) => {
      const { container, problems } = await hydrate(c.render(), c.render(), c.expectedWarnings);
      await confirmDialogOpen(c.name);
      expect(problems).toEqual([]);
      await vi.waitFor(() => afterMount[c.name]?.(container));
      await interactions[c.name]?.(container);
    },
  );

  it("a Live View frame whose page loaded before the app hydrated is live, not failed", async () => {
    // A page the test server answers at once (a 404 is a loaded page too), embeddable as a loopback origin.
    // The server under its other loopback name: a page on this page's own origin is refused (default sandbox).
    const origin = otherLoopbackOrigin(location.origin);
    // That name must reach the server: a refused connection would end in Chromium's error page, a load too.
    await expect(fetch(`${origin}/live-view-page`, { mode: "no-cors" })).resolves.toBeDefined();
    const session = {
      sessionId: "s",
      expiresInMs: 300_000,
      targets: [
        {
          targetId: "A",
          url: `${origin}/live-view-page`,
          pageUrl: "https://shop.example/",
          title: "",
          type: "page",
        },
      ],
    };
    const view = (
      <LiveView.Root
        session={session}
        allowedOrigins={[origin]}
        allowLoopbackHttp
        loadTimeoutMs={1000}
        aria-label="Browser"
      >
        <LiveView.Panels />
        <LiveView.Status />
      </LiveView.Root>
    );
    const { container, problems } = await hydrate(view, view, [], 500);
    expect(problems).toEqual([]);
    // Past the load timeout: a load nobody heard would now read as a failure.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const root = container.querySelector("section") as HTMLElement;
    expect(root.getAttribute("data-status")).toBe("live");
    expect(container.querySelector('[role="status"]')?.textContent).toBe("Agent is browsing");
  });

  it("approval adapters whose connection opened (and got the agent's state) before the page hydrated", async () => {
    // The server had no connection; the browser's opened early and already holds the workflow items.
    const { container, problems } = await hydrate(
      <Approvals agent={connection("connecting")} />,
      <Approvals agent={connection("open", WORKFLOW_STATE)} />,
    );
    expect(problems).toEqual([]);
    await vi.waitFor(() => {
      const cards = Array.from(container.querySelectorAll("article"));
      expect(cards.map((a) => a.getAttribute("data-status"))).toContain("requested");
      expect(cards.map((a) => a.querySelector("h3")?.textContent)).toContain("Expense: team lunch (120 EUR)");
    });
  });
});
