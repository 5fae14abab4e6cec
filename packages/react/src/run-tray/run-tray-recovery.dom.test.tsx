/**
 * The tray's run details and recovery: the dispatch input, the summary, why a run was interrupted, and Retry /
 * Reconnect sending one call through the agent (docs/protocol.md#retry-and-reconnect).
 */
import type { AgentToolRunState } from "@runboard/protocol";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunTray, type RunTrayRootProps } from "./run-tray.tsx";

afterEach(cleanup);

const run = (runId: string, extra: Partial<AgentToolRunState> = {}): AgentToolRunState => ({
  runId,
  agentType: "Crawler",
  display: { name: "Crawl" },
  order: 0,
  status: "running",
  parts: [],
  milestones: [],
  subAgent: { agent: "Crawler", name: runId },
  ...extra,
});

function Tray(props: Omit<RunTrayRootProps, "runs"> & { runs: readonly AgentToolRunState[] }) {
  return (
    <RunTray.Root defaultOpen {...props}>
      <RunTray.List />
    </RunTray.Root>
  );
}

function fakeAgent() {
  const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const call = vi.fn(
    (_method: string, _args?: unknown[]) =>
      new Promise<unknown>((resolve, reject) => pending.push({ resolve, reject })),
  );
  return { agent: { call }, call, pending };
}

const item = (name: string) => screen.getByRole("listitem", { name });

describe("RunTray run details", () => {
  it("Input previews the dispatch input as bounded text; markup stays text", () => {
    const long = `<img src=x onerror=alert(1)> ${"word ".repeat(100)}`;
    render(
      <Tray
        runs={[
          run("a", { inputPreview: { site: "https://shop.example" } }),
          run("b", { display: { name: "Other" }, inputPreview: long }),
        ]}
      />,
    );
    expect(within(item("Crawl")).getByText('{"site":"https://shop.example"}')).toBeTruthy();
    const other = within(item("Other")).getByText(/^<img src=x/);
    expect(other?.textContent?.startsWith("<img src=x")).toBe(true);
    expect(other?.textContent?.length).toBeLessThanOrEqual(121);
    expect(document.querySelector("img")).toBeNull();
  });

  it("Summary shows once the run completed, not before", () => {
    const { rerender } = render(<Tray runs={[run("a", { summary: "Found 3 broken links." })]} />);
    expect(screen.queryByText("Found 3 broken links.")).toBeNull();
    rerender(<Tray runs={[run("a", { status: "completed", summary: "Found 3 broken links." })]} />);
    expect(within(item("Crawl")).getByText("Found 3 broken links.").tagName).toBe("P");
  });

  it("Summary keeps the child's text parts apart where the server glued them", () => {
    const parts = [
      { type: "text", text: "Researching now." },
      { type: "text", text: "Summary: found 2 sources." },
    ] as AgentToolRunState["parts"];
    render(
      <Tray
        runs={[
          run("a", { status: "completed", parts, summary: "Researching now.Summary: found 2 sources." }),
        ]}
      />,
    );
    const summary = item("Crawl").querySelector('[data-rb-part="RunTray.Summary"]');
    expect(summary?.textContent).toBe("Researching now.\n\nSummary: found 2 sources.");
  });

  it("Interrupted says the reason in words, an unknown reason as sent, with data-reason and data-child-still-running", () => {
    render(
      <RunTray.Root
        defaultOpen
        runs={[
          run("a", { status: "interrupted", reason: "no-progress", childStillRunning: true, error: "x" }),
          // A reason a newer server may send: typed as the known ones, as upstream's type does.
          run("b", {
            display: { name: "B" },
            status: "interrupted",
            reason: "new-reason" as "no-progress",
            error: "y",
          }),
          run("c", { display: { name: "C" }, status: "error", reason: "no-progress", error: "z" }),
        ]}
      >
        <RunTray.List>
          <RunTray.Item>
            <RunTray.Interrupted data-testid="why" />
          </RunTray.Item>
        </RunTray.List>
      </RunTray.Root>,
    );
    const a = within(item("Crawl")).getByTestId("why");
    expect(a.textContent).toBe("The run stopped reporting progress.");
    expect(a.getAttribute("data-reason")).toBe("no-progress");
    expect(a.hasAttribute("data-child-still-running")).toBe(true);
    const b = within(item("B")).getByTestId("why");
    expect(b.textContent).toBe("new-reason");
    expect(b.hasAttribute("data-child-still-running")).toBe(false);
    expect(within(item("C")).queryByTestId("why")).toBeNull();
  });
});

describe("RunTray Retry and Reconnect", () => {
  it("Retry sends one retryAgentTool call with the run id, reads Retrying… meanwhile, and comes back once answered", async () => {
    const user = userEvent.setup();
    const { agent, call, pending } = fakeAgent();
    render(
      <Tray
        agent={agent}
        runs={[run("a", { status: "interrupted", childStillRunning: false, error: "stopped" })]}
      />,
    );
    const retry = within(item("Crawl")).getByRole("button", { name: "Retry Crawl" });
    await user.click(retry);
    await user.click(retry);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("retryAgentTool", ["a"]);
    const busy = within(item("Crawl")).getByRole("button", { name: "Retrying… Crawl" });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    await act(async () => pending[0]?.resolve({ status: "completed" }));
    expect(
      (within(item("Crawl")).getByRole("button", { name: "Retry Crawl" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("a failed retry is enabled again and reported through onError", async () => {
    const user = userEvent.setup();
    const { agent, pending } = fakeAgent();
    const onError = vi.fn();
    const r = run("a", { status: "interrupted", error: "stopped" });
    render(<Tray agent={agent} retryMethod="redo" onError={onError} runs={[r]} />);
    await user.click(within(item("Crawl")).getByRole("button", { name: "Retry Crawl" }));
    const failure = new Error("Method redo is not callable");
    await act(async () => pending[0]?.reject(failure));
    expect(onError).toHaveBeenCalledWith(failure, r);
    expect(
      (within(item("Crawl")).getByRole("button", { name: "Retry Crawl" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("Reconnect is offered for a child still running; the other button is not shown; nothing without a way to call", async () => {
    const user = userEvent.setup();
    const { agent, call, pending } = fakeAgent();
    const live = run("a", {
      status: "interrupted",
      childStillRunning: true,
      reason: "no-progress",
      error: "x",
    });
    const { rerender } = render(<Tray agent={agent} runs={[live]} />);
    expect(within(item("Crawl")).queryByRole("button", { name: /^Retry/ })).toBeNull();
    await user.click(within(item("Crawl")).getByRole("button", { name: "Reconnect Crawl" }));
    expect(call).toHaveBeenCalledWith("retryAgentTool", ["a"]);
    await act(async () => pending[0]?.resolve({ status: "running" }));
    rerender(<Tray runs={[live]} />);
    expect(
      (within(item("Crawl")).getByRole("button", { name: "Reconnect Crawl" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    rerender(<Tray agent={agent} runs={[run("a", { status: "completed" })]} />);
    expect(within(item("Crawl")).queryByRole("button", { name: /Reconnect|Retry/ })).toBeNull();
  });

  it("RunTray.Retry in a custom item is disabled (not hidden) when retry is not offered", () => {
    render(
      <RunTray.Root defaultOpen runs={[run("a")]} onRetry={vi.fn()}>
        <RunTray.List>
          <RunTray.Item>
            <RunTray.Retry />
          </RunTray.Item>
        </RunTray.List>
      </RunTray.Root>,
    );
    const b = within(item("Crawl")).getByRole("button", { name: "Retry Crawl" }) as HTMLButtonElement;
    expect(b.disabled).toBe(true);
    expect(b.hasAttribute("data-disabled")).toBe(true);
  });
});
