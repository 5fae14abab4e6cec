/**
 * helix runs through the unchanged components: AgentToolRun (nested through the tool parts' runs), Progress,
 * MilestoneTimeline, and RunTray listing persistent children with Send message and Terminate.
 */
import type { HelixChildrenOptions } from "@runboard/client/helix";
import type { Part } from "@runboard/protocol";
import { HELIX_DOCS_TRACE } from "@runboard/protocol/helix";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { FakeEventSource, subSessionRef as ref } from "../../../../test-support/helix.ts";
import { AgentToolRun } from "../agent-tool-run/agent-tool-run.tsx";
import { MilestoneTimeline } from "../milestone-timeline/index.ts";
import { Progress } from "../progress/index.ts";
import { RunTray } from "../run-tray/index.ts";
import { HelixChild } from "./helix-child.tsx";
import { type UseHelixRunsResult, useHelixChildren, useHelixRuns } from "./use-helix-runs.ts";

afterEach(cleanup);

function Tree({ helix }: { helix: UseHelixRunsResult }) {
  const part = (p: Part): ReactNode => {
    if (p.type === "text") return <p>{p.text}</p>;
    if (!("toolCallId" in p)) return null;
    return helix.getRunsForToolCall(p.toolCallId).map((r) => (
      <AgentToolRun.Root key={r.runId} store={helix.store} runId={r.runId} defaultOpen>
        <AgentToolRun.Title /> <AgentToolRun.Status />
        <Progress.Root run={r} />
        <MilestoneTimeline.Root run={r}>
          <MilestoneTimeline.List />
        </MilestoneTimeline.Root>
        <AgentToolRun.Content>
          <AgentToolRun.Transcript>{(c) => part(c)}</AgentToolRun.Transcript>
          <AgentToolRun.Result />
          <AgentToolRun.Error />
        </AgentToolRun.Content>
      </AgentToolRun.Root>
    ));
  };
  return (
    <div data-testid="root">
      {helix.root.parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parts are only ever appended, so the index is stable.
        <div key={i}>{part(p)}</div>
      ))}
    </div>
  );
}

let captured: UseHelixRunsResult | undefined;
function App() {
  captured = useHelixRuns({ throttleMs: 0 });
  return <Tree helix={captured} />;
}

function Live() {
  const helix = useHelixRuns({
    url: "http://127.0.0.1:1/helix",
    EventSource: FakeEventSource,
    throttleMs: 0,
  });
  return <Tree helix={helix} />;
}

describe("useHelixRuns with the components", () => {
  it("renders the documented trace as nested runs: processor inside the root, sentiment inside processor", () => {
    render(<App />);
    act(() => {
      for (const c of HELIX_DOCS_TRACE.slice(0, 5)) captured?.store.apply(c);
    });
    const processor = screen.getByRole("group", { name: "processor" });
    const sentiment = within(processor).getByRole("group", { name: "sentiment" });
    expect(processor.dataset.status).toBe("running");
    expect(sentiment.dataset.depth).toBe("1");
    expect(within(sentiment).getByText("Analyzing...")).toBeTruthy();
    // No progress frames in helix: the bar is indeterminate while running, the timeline empty.
    expect(within(sentiment).getByRole("progressbar").dataset.state).toBe("indeterminate");
    act(() => {
      for (const c of HELIX_DOCS_TRACE.slice(5)) captured?.store.apply(c);
    });
    expect(processor.dataset.status).toBe("completed");
    expect(sentiment.dataset.status).toBe("completed");
    expect(within(sentiment).getByRole("progressbar").dataset.state).toBe("complete");
    expect(within(sentiment).getByText(/"sentiment": "positive"/)).toBeTruthy();
    expect(screen.getByText("Based on the analysis...")).toBeTruthy();
  });

  it("a stream cut mid-run shows its runs interrupted; a failed child shows its error", () => {
    render(<App />);
    act(() => {
      captured?.store.apply({ type: "subagent_start", agentType: "lead", subAgentType: "writer" });
      captured?.store.apply({ type: "subagent_start", agentType: "lead", subAgentType: "writer" });
      captured?.store.apply({
        type: "subagent_end",
        agentType: "lead",
        subAgentType: "writer",
        result: { success: false, error: "quota exceeded" },
      });
      captured?.store.end();
    });
    const [failed, cut] = screen.getAllByRole("group", { name: "writer" });
    expect(failed?.dataset.status).toBe("error");
    expect(within(failed as HTMLElement).getByText("quota exceeded")).toBeTruthy();
    expect(cut?.dataset.status).toBe("interrupted");
  });

  it("follows an SSE url through the EventSource option and closes it on unmount", () => {
    const view = render(<Live />);
    const src = FakeEventSource.made.at(-1);
    act(() => {
      for (const c of HELIX_DOCS_TRACE.slice(0, 2)) src?.emit("message", JSON.stringify(c));
    });
    expect(screen.getByRole("group", { name: "processor" }).dataset.status).toBe("running");
    view.unmount();
    expect(src?.closed).toBe(true);
  });
});

function Kids(props: HelixChildrenOptions) {
  const kids = useHelixChildren(props);
  captureKids = kids.store;
  return (
    <RunTray.Root runs={kids.runs} defaultOpen>
      <RunTray.List>
        <RunTray.Item>
          <RunTray.Title /> <RunTray.Status />
          <HelixChild.SendMessage store={kids.store} />
          <HelixChild.Terminate store={kids.store} />
        </RunTray.Item>
      </RunTray.List>
    </RunTray.Root>
  );
}
let captureKids: ReturnType<typeof useHelixChildren>["store"] | undefined;

describe("RunTray with HelixChildren", () => {
  it("Send message and Terminate go through the app's callbacks; the child reads terminated after", async () => {
    const sent: string[] = [];
    const ended: string[] = [];
    render(
      <Kids
        onSendMessage={(c, m) => void sent.push(`${c.name}: ${m}`)}
        onTerminate={(c) => void ended.push(c.name ?? "")}
      />,
    );
    act(() => captureKids?.setRefs([ref("researcher-1"), ref("researcher-2", "completed")]));
    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Message to researcher-1" }), "dig deeper");
    await user.click(
      within(screen.getByRole("form", { name: "Message to researcher-1" })).getByRole("button"),
    );
    expect(sent).toEqual(["researcher-1: dig deeper"]);
    // A finished child takes neither.
    const done = screen.getByRole("button", { name: "Terminate researcher-2" }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    await user.click(screen.getByRole("button", { name: "Terminate researcher-1" }));
    expect(ended).toEqual(["researcher-1"]);
    expect(screen.getAllByRole("listitem")[0]?.dataset.status).toBe("aborted");
    expect(
      (screen.getByRole("button", { name: "Terminate researcher-1" }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it("without callbacks both are disabled", () => {
    render(<Kids />);
    act(() => captureKids?.setRefs([ref("researcher-1")]));
    expect(
      (screen.getByRole("button", { name: "Terminate researcher-1" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(
      (screen.getByRole("textbox", { name: "Message to researcher-1" }) as HTMLInputElement).disabled,
    ).toBe(true);
  });
});
