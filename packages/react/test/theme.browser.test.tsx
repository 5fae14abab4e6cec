/// <reference types="vite/client" />
/**
 * The optional theme in Chromium: without it the components stay unstyled; with it a progress bar can be seen,
 * `data-theme="dark"` turns the colours, the rest of the page is left alone, and every component in every state
 * (the SSR suite's cases) passes axe's colour-contrast check in light and in dark.
 */
import axe from "axe-core";
import { act, type ReactElement, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import contract from "../../../docs/data-attributes.md?raw";
import { Progress } from "../src/progress/index.ts";
import themeCss from "../styles.css?raw";
import { confirmDialogOpen } from "./ssr/confirm-dialog.ts";
import { CASES } from "./ssr/states.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function loadTheme() {
  const style = document.createElement("style");
  style.textContent = themeCss;
  document.head.append(style);
  cleanups.push(() => style.remove());
}

function setTheme(theme: "light" | "dark") {
  document.documentElement.dataset.theme = theme;
  cleanups.push(() => {
    delete document.documentElement.dataset.theme;
  });
}

async function mount(ui: ReactElement): Promise<HTMLElement> {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(<StrictMode>{ui}</StrictMode>));
  cleanups.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  return container;
}

const bar = (value: number | null) => (
  <div style={{ width: 400 }}>
    <Progress.Root value={value} aria-label="Upload">
      <Progress.Indicator />
    </Progress.Root>
  </div>
);
const part = (el: HTMLElement, name: string) =>
  el.querySelector<HTMLElement>(`[data-rb-part="${name}"]`) as HTMLElement;

describe("the theme (@runboard/react/styles.css)", () => {
  it("without it, Progress draws nothing: the bar has no height and no colour", async () => {
    const view = await mount(bar(0.4));
    const indicator = part(view, "Progress.Indicator");
    expect(indicator.getBoundingClientRect().height).toBe(0);
    expect(getComputedStyle(part(view, "Progress.Root")).backgroundColor).toBe("rgba(0, 0, 0, 0)");
  });

  it("with it, the track shows and the indicator covers the fraction", async () => {
    loadTheme();
    const view = await mount(bar(0.4));
    const track = part(view, "Progress.Root").getBoundingClientRect();
    const indicator = part(view, "Progress.Indicator");
    // Wait out the transition to the fraction rather than for a time.
    await Promise.all(indicator.getAnimations().map((a) => a.finished));
    const filled = indicator.getBoundingClientRect();
    expect(track.height).toBeGreaterThan(0);
    expect(filled.height).toBe(track.height);
    expect(filled.width / track.width).toBeCloseTo(0.4, 2);
    expect(getComputedStyle(part(view, "Progress.Root")).backgroundColor).not.toBe("rgba(0, 0, 0, 0)");
  });

  it("with it, an indeterminate bar moves", async () => {
    loadTheme();
    const view = await mount(bar(null));
    const indicator = part(view, "Progress.Indicator");
    expect(indicator.dataset.state).toBe("indeterminate");
    expect(getComputedStyle(indicator).animationName).toBe("rb-indeterminate");
    expect(indicator.getBoundingClientRect().width).toBeGreaterThan(0);
  });

  it("leaves the page's own elements alone", async () => {
    const page = await mount(
      <div>
        <button type="button">Plain</button>
        <ul>
          <li>item</li>
        </ul>
        <pre>code</pre>
        <p data-status="running">status-like</p>
      </div>,
    );
    const props = [
      "font-family",
      "background-color",
      "border-top-width",
      "padding-left",
      "color",
      "list-style-type",
    ];
    const snapshot = () =>
      [...page.querySelectorAll("*")].map((el) => props.map((p) => getComputedStyle(el).getPropertyValue(p)));
    const before = snapshot();
    loadTheme();
    expect(snapshot()).toEqual(before);
  });

  it('data-theme="dark" turns the colours of a themed component', async () => {
    loadTheme();
    const view = await mount(CASES.find((c) => c.name === "ApprovalCard: requested")?.render() ?? <p />);
    const card = part(view, "ApprovalCard.Root");
    const light = [getComputedStyle(card).backgroundColor, getComputedStyle(card).color];
    setTheme("dark");
    const dark = [getComputedStyle(card).backgroundColor, getComputedStyle(card).color];
    expect(dark[0]).not.toBe(light[0]);
    expect(dark[1]).not.toBe(light[1]);
    // A light island inside a dark page is light again.
    const island = document.createElement("div");
    island.dataset.theme = "light";
    view.parentElement?.insertBefore(island, view);
    island.append(view);
    expect([getComputedStyle(card).backgroundColor, getComputedStyle(card).color]).toEqual(light);
  });

  it("a status that gave up is an alert, the branch arrows are 24px targets, a long sync prompt wraps", async () => {
    loadTheme();
    const view = async (name: string) =>
      mount(<div style={{ width: 320 }}>{CASES.find((c) => c.name === name)?.render()}</div>);
    const colour = (value: string, prop: "color" | "backgroundColor" = "color") => {
      const probe = document.createElement("span");
      probe.style[prop] = value;
      document.body.append(probe);
      const computed = getComputedStyle(probe)[prop];
      probe.remove();
      return computed;
    };
    const gaveUp = getComputedStyle(part(await view("ChatStatus: gave up"), "ChatStatus.Message"));
    expect([gaveUp.color, gaveUp.backgroundColor]).toEqual([
      colour("var(--rb-color-danger)"),
      colour("var(--rb-color-danger-subtle)", "backgroundColor"),
    ]);
    const recovering = getComputedStyle(part(await view("ChatStatus: recovering"), "ChatStatus.Message"));
    expect(recovering.color).toBe(colour("var(--rb-color-accent)"));
    const picker = await view("BranchPicker: 2 of 3");
    for (const name of ["BranchPicker.Previous", "BranchPicker.Next"]) {
      const { width, height } = part(picker, name).getBoundingClientRect();
      expect(Math.min(width, height), name).toBeGreaterThanOrEqual(24);
    }
    const run = part(await view("AgentToolRun (sync): completed, cut by the agent"), "AgentToolRun.Root");
    expect(run.scrollWidth).toBeLessThanOrEqual(run.clientWidth);
  });

  it("every part rendered names itself with a documented data-rb-part", async () => {
    const documented = new Set(
      [...contract.matchAll(/^\| `([A-Za-z]+\.[A-Za-z]+)`/gm)].map((m) => m[1] ?? ""),
    );
    const seen = new Set<string>();
    for (const c of CASES) {
      await mount(c.render());
      await confirmDialogOpen(c.name);
      for (const el of document.querySelectorAll("[data-rb-part]"))
        seen.add(el.getAttribute("data-rb-part") ?? "");
      for (const clean of cleanups.splice(-1)) clean();
    }
    expect([...seen].filter((name) => !documented.has(name))).toEqual([]);
    // Every other documented part is seen named: these render no element, or no case renders them.
    const noElement = [
      "MilestoneTimeline.Root",
      "ApprovalCard.Confirm",
      "LiveView.Panels",
      "AgentEvent.Match",
    ];
    const notInCases = ["AgentToolRun.Failure", "RunTray.ClearFinished", "RunTray.Link", "RunTray.Stalled"];
    notInCases.push("RunTray.Interrupted", "Progress.Data", "LiveView.Reload", "LiveView.Error");
    expect([...documented].filter((name) => !seen.has(name)).sort()).toEqual(
      [...noElement, ...notInCases].sort(),
    );
  });

  for (const theme of ["light", "dark"] as const) {
    it(`every component in every state passes axe, colour contrast included (${theme})`, async () => {
      loadTheme();
      setTheme(theme);
      // The page behind the components (and the fixtures' own headings), as an app's page in that scheme would be.
      document.body.style.background = "var(--rb-color-bg)";
      document.body.style.color = "var(--rb-color-fg)";
      cleanups.push(() => document.body.removeAttribute("style"));
      const failures: string[] = [];
      for (const c of CASES) {
        const view = await mount(c.render());
        await confirmDialogOpen(c.name);
        // Every WCAG A/AA rule, so a theme rule that breaks something else (a scroll box no keyboard reaches) fails too.
        const result = await axe.run(view, {
          runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"],
        });
        for (const v of result.violations)
          for (const n of v.nodes)
            failures.push(`${c.name}: ${n.target.join(" ")} ${n.failureSummary ?? ""}`);
        for (const clean of cleanups.splice(-1)) clean();
      }
      expect(failures).toEqual([]);
    });
  }
});
