/**
 * helix-agents runs through the unchanged AgentToolRun and RunTray: the mock's scripted helix stream (the
 * documented nested trace, two parallel researchers with one failure, persistent children) played in the page
 * with `helixDemoStream` into `useHelixRuns().store.consume`.
 */
import { helixDemoStream } from "@runboard/mock-server/msw";
import type { Part } from "@runboard/protocol";
import type { HelixRun } from "@runboard/protocol/helix";
import { AgentToolRun, HelixChild, RunTray, useHelixChildren, useHelixRuns } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { type ReactNode, useEffect, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import "./support/agent-tool-run.css";

type Helix = ReturnType<typeof useHelixRuns>;

function HelixPart({ part, helix }: { part: Part; helix: Helix }): ReactNode {
  if (part.type === "text") return <p>{part.text}</p>;
  const id = (part as { toolCallId?: unknown }).toolCallId;
  if (typeof id !== "string") return null;
  return helix.getRunsForToolCall(id).map((r) => <Card key={r.runId} run={r} helix={helix} />);
}

function Card({ run, helix }: { run: HelixRun; helix: Helix }) {
  const [open, setOpen] = useState(true);
  return (
    <AgentToolRun.Root store={helix.store} runId={run.runId} open={open} className="rb-run">
      <AgentToolRun.Header className="rb-run-header">
        <AgentToolRun.Title /> <AgentToolRun.Status />
        <AgentToolRun.Trigger onClick={() => setOpen((o) => !o)}>Details</AgentToolRun.Trigger>
      </AgentToolRun.Header>
      <AgentToolRun.Content>
        <AgentToolRun.Transcript>{(p) => <HelixPart part={p} helix={helix} />}</AgentToolRun.Transcript>
        <AgentToolRun.Result />
        <AgentToolRun.Error />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

function HelixStory({ cut }: { cut?: number }) {
  const helix = useHelixRuns({ throttleMs: 0 });
  const kids = useHelixChildren({
    onTerminate: () => Promise.resolve(),
    onSendMessage: () => Promise.resolve(),
  });
  useEffect(() => {
    // StrictMode mounts twice: the first stream is aborted (not ended) and the second starts over.
    const abort = new AbortController();
    helix.store.reset();
    void helix.store.consume(helixDemoStream({ delayScale: 0.02, ...(cut ? { cut } : {}) }), abort);
    return () => abort.abort();
  }, [helix.store, cut]);
  const parts = helix.root.parts;
  useEffect(() => kids.store.applyToolParts(parts as never), [kids.store, parts]);
  return (
    <div>
      <p>
        Root agent {helix.root.agentType}: <output aria-label="Stream status">{helix.root.status}</output>
      </p>
      <section aria-label="Run tree">
        {parts.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the root's parts are only appended.
          <HelixPart key={i} part={p} helix={helix} />
        ))}
      </section>
      <RunTray.Root runs={kids.runs} defaultOpen aria-label="Persistent children">
        <RunTray.Trigger>Persistent children</RunTray.Trigger>
        <RunTray.List>
          <RunTray.Item>
            <RunTray.Title /> <RunTray.Status /> <RunTray.Summary />
            <HelixChild.SendMessage store={kids.store} />
            <HelixChild.Terminate store={kids.store} />
          </RunTray.Item>
        </RunTray.List>
      </RunTray.Root>
    </div>
  );
}

const meta: Meta<typeof HelixStory> = { title: "Components/HelixRuns", component: HelixStory };
export default meta;

export const NestedParallelAndChildren: StoryObj<typeof HelixStory> = {
  name: "Nested, parallel, failed and persistent children",
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByLabelText("Stream status")).toHaveTextContent("completed"), {
      timeout: 30_000,
    });
    const processor = c.getByRole("group", { name: "processor" });
    const sentiment = within(processor).getByRole("group", { name: "sentiment" });
    expect(processor).toHaveAttribute("data-status", "completed");
    expect(sentiment).toHaveAttribute("data-depth", "1");
    expect(c.getAllByRole("group", { name: "researcher" }).map((g) => g.dataset.status)).toEqual([
      "completed",
      "error",
    ]);
    expect(c.getByText("Rate limited by the search API")).toBeVisible();
    // Persistent children: the running one can be terminated, the completed one cannot.
    expect(c.getByRole("button", { name: "Terminate writer-1" })).toBeDisabled();
    await userEvent.click(c.getByRole("button", { name: "Terminate monitor-1" }));
    await waitFor(() => expect(c.getByRole("button", { name: "Terminate monitor-1" })).toBeDisabled());
    expect(c.getAllByRole("listitem").map((li) => li.dataset.status)).toEqual(["aborted", "completed"]);
  },
};

export const StreamCutMidRun: StoryObj<typeof HelixStory> = {
  name: "Stream cut mid-run",
  args: { cut: 5 },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.getByLabelText("Stream status")).toHaveTextContent("interrupted"), {
      timeout: 30_000,
    });
    expect(c.getByRole("group", { name: "processor" })).toHaveAttribute("data-status", "interrupted");
    expect(c.getByRole("group", { name: "sentiment" })).toHaveAttribute("data-status", "interrupted");
  },
};
