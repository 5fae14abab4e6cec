/**
 * What the LiveView jsdom tests share: sessions shaped like the mock's, the view with every part in
 * StrictMode, queries, and the console check that no URL is ever logged. Named `*.test.tsx` so the
 * package build leaves it out; it holds no tests of its own.
 */
import type { LiveViewMode, LiveViewSession, LiveViewTarget } from "@runboard/protocol";
import { cleanup, screen, within } from "@testing-library/react";
import { type ReactNode, StrictMode } from "react";
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest";
import { LiveView, type LiveViewRootProps } from "./index.ts";

export const ORIGIN = "https://live.browser.run";
/** Every URL handed to the component, so the console checks can look for each. */
export const urlsUsed = new Set<string>();
let minted = 0;

/** A page target with a fresh URL on the allowed origin (or `extra.url`); both addresses are remembered. */
export const target = (
  targetId: string,
  pageUrl: string,
  title: string,
  extra: Partial<LiveViewTarget> = {},
): LiveViewTarget => {
  minted += 1;
  const url = extra.url ?? `${ORIGIN}/s/${targetId.toLowerCase()}-${minted}-token${minted}`;
  urlsUsed.add(url);
  urlsUsed.add(pageUrl);
  return { targetId, url, pageUrl, title, type: "page", ...extra };
};

/** The mock's shape: two real tabs plus what a real browser also reports and must stay hidden. */
export function session(opts: { expiresInMs?: number; mode?: LiveViewMode } = {}): LiveViewSession {
  const dev = opts.mode === "devtools" ? "-devtools" : "";
  return {
    sessionId: "sess-1",
    targets: [
      target(`LOGIN`, "https://shop.example/login", `Sign in · Example Shop${dev}`),
      target("SW", "https://shop.example/sw.js", "", { type: "service_worker" }),
      target("BG", "chrome-extension://abc/bg.html", "", { type: "background_page" }),
      target("BLANK", "about:blank", "about:blank"),
      target("NEWTAB", "chrome://newtab/", "New Tab"),
      target("DEVTOOLS", "devtools://devtools/bundled/inspector.html", "DevTools"),
      target("ORDERS", "https://shop.example/orders", ""),
    ],
    expiresInMs: opts.expiresInMs ?? 300_000,
  };
}

/** The embed URL a session gives a target. */
export const urlOf = (s: LiveViewSession, id: string) => s.targets.find((t) => t.targetId === id)?.url;

/** Every part, in StrictMode (effects run twice, so timers and fetches must not double). */
export function View(props: Partial<LiveViewRootProps> & { children?: ReactNode }) {
  const { children, ...rest } = props;
  return (
    <StrictMode>
      <LiveView.Root allowedOrigins={[ORIGIN]} aria-label="Browser" {...rest}>
        {children ?? (
          <>
            <LiveView.ModeSwitch />
            <LiveView.TabList />
            <LiveView.Panels />
            <LiveView.OpenInNewTab />
            <LiveView.TakeOver />
            <LiveView.Continue />
            <LiveView.Error />
            <LiveView.Status />
          </>
        )}
      </LiveView.Root>
    </StrictMode>
  );
}

/** The view's region. */
export const root = () => screen.getByRole("region", { name: "Browser" });
/** Every frame in the document, in order. */
export const frames = () => Array.from(document.querySelectorAll("iframe"));
/** The frame in the panel of the tab named `name`. */
export const frameFor = (name: string) =>
  within(screen.getByRole("tabpanel", { name })).queryByTitle(
    /^(Live view|DevTools): /,
  ) as HTMLIFrameElement | null;

/**
 * Records everything the file's tests write to the console (and cleans up after each test); returns the
 * lines, for `expectNoUrlLogged` at the end of the file.
 */
export function watchConsole(): string[] {
  const logged: string[] = [];
  beforeAll(() => {
    for (const level of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
      });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
  afterAll(() => vi.restoreAllMocks());
  return logged;
}

/** No logged line carries a URL the tests handed the component, or any URL at all. */
export function expectNoUrlLogged(logged: readonly string[]): void {
  for (const line of logged) {
    for (const url of urlsUsed) expect(line).not.toContain(url);
    expect(line).not.toMatch(/https?:\/\/|javascript:|data:text/);
  }
}
