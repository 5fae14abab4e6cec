/**
 * AgentToolRun against the scripted mock server (real sockets, real stores), and against run snapshots for
 * the transitions a live run passes too quickly to catch.
 */

import { AgentToolRuns } from "@runboard/client";
import {
  createMockAgentServer,
  delay,
  demoAgents,
  type MockAgentDefinition,
  type MockAgentServer,
  progress,
  text,
} from "@runboard/mock-server";
import type { Part, AgentToolRunState as RunData } from "@runboard/protocol";
import { getRunsForToolCall } from "@runboard/protocol/view";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { UIMessage } from "ai";
import { type ReactNode, StrictMode, useState } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { useAgentChat } from "../use-agent-chat.ts";
import { useAgentToolEvents } from "../use-agent-tool-events.ts";
import { AgentToolRun } from "./agent-tool-run.tsx";
import { useChildChat } from "./use-child-chat.ts";

const LONG = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the report`).join("\n");

const RunAgent: MockAgentDefinition = {
  host: "ai-chat",
  turns: [
    {
      match: "long",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            {
              tool: "write",
              agentType: "Writer",
              input: { topic: "report" },
              steps: [text("Writing.")],
              outcome: { kind: "finished", summary: LONG },
            },
          ],
        },
      ],
    },
    {
      match: "slowrun",
      steps: [
        {
          kind: "agent-tool",
          runs: [
            {
              tool: "dig",
              agentType: "Digger",
              input: {},
              steps: [text("Digging."), progress(0.5, "half"), delay(400), text(" Done.")],
            },
          ],
        },
      ],
    },
  ],
};

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({
    agents: { ...demoAgents, RunAgent },
    delayScale: 0.1,
    log: () => {},
  });
});
afterAll(() => server.close());
afterEach(cleanup);

const room = () => `run-${Math.random().toString(36).slice(2, 10)}`;

/** The part renderer the parent uses, handed to the child transcript too (so nesting recurses). */
function makeRenderPart(
  runsByToolCallId: Parameters<typeof getRunsForToolCall>[0],
  actions: {
    onReconnect?: (r: RunData) => void;
    onRetry?: (r: RunData) => void;
    onDrillIn?: (r: RunData) => void;
  },
) {
  const renderPart = (part: Part): ReactNode => {
    if (part.type === "text") return <p>{part.text}</p>;
    if (!("toolCallId" in part)) return null;
    return getRunsForToolCall(runsByToolCallId, part).map((run) => (
      <AgentToolRun.Root key={run.runId} run={run} {...actions}>
        <AgentToolRun.Header>
          <AgentToolRun.Icon />
          <AgentToolRun.Title />
          <AgentToolRun.Status />
          <AgentToolRun.Elapsed />
          <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
        </AgentToolRun.Header>
        <AgentToolRun.Content>
          <AgentToolRun.Input />
          <AgentToolRun.Transcript>{renderPart}</AgentToolRun.Transcript>
          <AgentToolRun.Result />
          <AgentToolRun.Error />
          <AgentToolRun.Interrupted />
        </AgentToolRun.Content>
        <AgentToolRun.Retry />
        <AgentToolRun.Reconnect />
        <AgentToolRun.DrillIn />
      </AgentToolRun.Root>
    ));
  };
  return renderPart;
}

function ChildPanel({
  parent,
  run,
}: {
  parent: { agent: string; name: string; host: string };
  run: RunData;
}) {
  const child = useChildChat({ ...parent, WebSocket }, run);
  return (
    <section aria-label="Agent chat">
      {child?.snapshot.messages.map((m: UIMessage) => (
        <div key={m.id} data-role={m.role}>
          {m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}
        </div>
      ))}
    </section>
  );
}

interface Harness {
  send?: (t: string) => Promise<void>;
  /** Connection statuses in the order the component rendered them. */
  statuses?: string[];
}

function Chat({
  agentClass,
  name,
  box,
  onRetry,
}: {
  agentClass: string;
  name: string;
  box: Harness;
  onRetry?: (r: RunData) => void;
}) {
  const host = `127.0.0.1:${server.port}`;
  const agent = useAgent({ agent: agentClass, name, host, WebSocket });
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  const [drilled, setDrilled] = useState<RunData | null>(null);
  box.send = (t) => chat.sendMessage({ text: t });
  box.statuses ??= [];
  if (box.statuses.at(-1) !== agent.status) box.statuses.push(agent.status);
  const renderPart = makeRenderPart(runs, {
    onReconnect: () => agent.reconnect(),
    ...(onRetry ? { onRetry } : {}),
    onDrillIn: setDrilled,
  });
  return (
    <>
      <output data-testid="conn">{agent.status}</output>
      {chat.messages.map((m) => (
        <article key={m.id}>
          {m.parts.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; their order is fixed
            <div key={i}>{renderPart(p)}</div>
          ))}
        </article>
      ))}
      {drilled ? <ChildPanel parent={{ agent: agentClass, name, host }} run={drilled} /> : null}
    </>
  );
}

/** What a person can see: the element and none of its ancestors is `hidden`. */
const isVisible = (el: Element | null) => {
  for (let e = el; e; e = e.parentElement) if ((e as HTMLElement).hidden) return false;
  return el !== null;
};
const attr = (el: Element | null, name: string) => el?.getAttribute(name) ?? null;
const textOf = (el: Element | null) => el?.textContent ?? "";
const isDisabled = (el: Element) => (el as HTMLButtonElement).disabled;

const until = (fn: () => void, timeout = 30_000) => waitFor(fn, { timeout });

/** Renders a chat, says `word` and waits until the run named `name` completed; returns its card. */
async function completedRun(agentClass: string, word: string, name: string) {
  const box: Harness = {};
  await renderSettled(<Chat agentClass={agentClass} name={room()} box={box} />);
  await until(() => expect(textOf(screen.getByTestId("conn"))).toMatch("open"));
  await act(() => box.send?.(word));
  const group = await screen.findByRole("group", { name }, { timeout: 30_000 });
  await until(() => expect(attr(group, "data-status")).toEqual("completed"));
  return group;
}

describe("AgentToolRun with the mock agent", () => {
  it("is open while running, closes once on completion, and reopens on a click", {
    timeout: 120_000,
  }, async () => {
    const box: Harness = {};
    const user = userEvent.setup();
    await renderSettled(
      <StrictMode>
        <Chat agentClass="RunAgent" name={room()} box={box} />
      </StrictMode>,
    );
    await until(() => expect(textOf(screen.getByTestId("conn"))).toMatch("open"));
    await act(() => box.send?.("slowrun"));
    const group = await screen.findByRole("group", { name: "Digger" }, { timeout: 30_000 });
    const trigger = within(group).getByRole("button", { name: "Details" });
    await until(() => expect(textOf(within(group).getByRole("status"))).toMatch("Running"));
    expect(attr(trigger, "aria-expanded")).toEqual("true");
    const content = document.getElementById(trigger.getAttribute("aria-controls") ?? "");
    expect(isVisible(content)).toBe(true);
    await until(() => expect(isVisible(within(group).getByText(/Digging\./))).toBe(true));
    expect(attr(within(group).getByRole("time"), "datetime")).toEqual(expect.stringMatching(/^PT/));

    await until(() => expect(textOf(within(group).getByRole("status"))).toMatch("Completed"));
    expect(attr(group, "data-status")).toEqual("completed");
    await until(() => expect(attr(trigger, "aria-expanded")).toEqual("false"));
    expect(isVisible(content)).toBe(false);

    await user.click(trigger);
    expect(attr(trigger, "aria-expanded")).toEqual("true");
    expect(isVisible(within(group).getByText(/Digging\. Done\./))).toBe(true);
  });

  it("cuts a long result with Show all / Show less", { timeout: 120_000 }, async () => {
    const user = userEvent.setup();
    const group = await completedRun("RunAgent", "long", "Writer");
    await user.click(within(group).getByRole("button", { name: "Details" }));
    const toggle = within(group).getByRole("button", { name: "Show all" });
    expect(attr(toggle, "aria-expanded")).toEqual("false");
    expect(within(group).queryByText(/line 60 of the report/)).toBeNull();
    await user.click(toggle);
    expect(attr(toggle, "aria-expanded")).toEqual("true");
    expect(textOf(toggle)).toMatch("Show less");
    expect(isVisible(within(group).getByText(/line 60 of the report/))).toBe(true);
  });

  it("offers reconnect for an interrupted child still running, and no retry for a failed one (not retryable)", {
    timeout: 120_000,
  }, async () => {
    const box: Harness = {};
    const user = userEvent.setup();
    const onRetry = vi.fn();
    const name = room();
    await renderSettled(<Chat agentClass="ChatAgent" name={name} box={box} onRetry={onRetry} />);
    await until(() => expect(textOf(screen.getByTestId("conn"))).toMatch("open"));
    await act(() => box.send?.("fail"));
    const crawler = await screen.findByRole("group", { name: "Crawler" }, { timeout: 30_000 });
    const verifier = screen.getByRole("group", { name: "Verifier" });
    await until(() => expect(attr(crawler, "data-status")).toEqual("interrupted"));
    await until(() => expect(attr(verifier, "data-status")).toEqual("error"));

    // Errors stay open: the user has to see them.
    expect(isVisible(within(verifier).getByText("Verifier crashed: upstream timeout"))).toBe(true);
    expect(isDisabled(within(verifier).getByRole("button", { name: "Reconnect" }))).toBe(true);
    // agentTool() calls a failed child not retryable (docs/protocol.md#agent-tool-failure-envelope).
    expect(isDisabled(within(verifier).getByRole("button", { name: "Retry" }))).toBe(true);
    expect(onRetry).not.toHaveBeenCalled();

    expect(isVisible(within(crawler).getByText("The run stopped reporting progress."))).toBe(true);
    expect(isVisible(within(crawler).getByText(/still working/))).toBe(true);
    expect(isDisabled(within(crawler).getByRole("button", { name: "Retry" }))).toBe(true);
    const before = server.controller.instance("ChatAgent", name)?.conns.size;
    expect(before).toBe(1);
    const seen = box.statuses?.length ?? 0;
    await user.click(within(crawler).getByRole("button", { name: "Reconnect" }));
    // The parent connection is re-opened, and its replay brings the runs back as they were.
    await until(() =>
      expect(box.statuses?.slice(seen)).toEqual([expect.stringMatching(/closed|connecting/), "open"]),
    );
    await until(() =>
      expect(attr(screen.getByRole("group", { name: "Crawler" }), "data-status")).toEqual("interrupted"),
    );
  });

  it("shows the result of a child that answered in two text parts as two paragraphs, not glued", {
    timeout: 120_000,
  }, async () => {
    const user = userEvent.setup();
    const group = await completedRun("ChatAgent", "research about durable objects", "Researcher");
    await user.click(within(group).getByRole("button", { name: "Details" }));
    // The server's summary is the child's two text parts glued ("Researching now.Summary: …").
    const result = group.querySelector('[data-rb-part="AgentToolRun.ResultText"]');
    expect(textOf(result)).toEqual(
      "Researching now.\n\nSummary: found 2 sources; durable objects give each agent its own SQLite.",
    );
  });

  it("drills into the child's own chat", { timeout: 120_000 }, async () => {
    const user = userEvent.setup();
    const group = await completedRun("ChatAgent", "research about durable objects", "Researcher");
    await user.click(within(group).getByRole("button", { name: "Open agent chat" }));
    const panel = screen.getByRole("region", { name: "Agent chat" });
    await until(() => expect(within(panel).getByText(/Researching now\./)).toBeTruthy());
    // The child's first message is its input, the parent's tool call arguments.
    expect(within(panel).getByText(/"query": "durable objects"/)).toBeTruthy();
  });
});

const snap = (over: Partial<RunData> = {}): RunData => ({
  runId: `r-${over.status ?? "running"}-${Math.random()}`,
  agentType: "Researcher",
  order: 0,
  status: "running",
  parts: [{ type: "text", text: "Looking." }] as Part[],
  milestones: [],
  subAgent: { agent: "Researcher", name: "r" },
  ...over,
});

function Basic({
  run,
  onOpenChange,
  open,
}: {
  run: RunData;
  onOpenChange?: (o: boolean) => void;
  open?: boolean;
}) {
  return (
    <AgentToolRun.Root
      run={run}
      {...(onOpenChange ? { onOpenChange } : {})}
      {...(open === undefined ? {} : { open })}
    >
      <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
      <AgentToolRun.Elapsed />
      <AgentToolRun.Content>
        <AgentToolRun.Transcript>
          {(p) => (p.type === "text" ? <p>{p.text}</p> : null)}
        </AgentToolRun.Transcript>
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

describe("AgentToolRun open state", () => {
  it("does not close on completion once the user toggled it", async () => {
    const user = userEvent.setup();
    const run = snap();
    const { rerender } = render(<Basic run={run} />);
    const trigger = screen.getByRole("button", { name: "Details" });
    await user.click(trigger); // closes
    await user.click(trigger); // opens again: the user's choice
    rerender(<Basic run={{ ...run, status: "completed", summary: "ok" }} />);
    expect(attr(trigger, "aria-expanded")).toEqual("true");
  });

  it("reports the automatic close to a controlled parent", () => {
    const onOpenChange = vi.fn();
    const run = snap();
    const { rerender } = render(<Basic run={run} open onOpenChange={onOpenChange} />);
    rerender(<Basic run={{ ...run, status: "completed" }} open onOpenChange={onOpenChange} />);
    expect(onOpenChange).toHaveBeenCalledWith(false);
    // Controlled: it stays as the parent says until the parent changes it.
    expect(attr(screen.getByRole("button", { name: "Details" }), "aria-expanded")).toEqual("true");
  });

  it("starts closed for a run first seen finished, and shows no elapsed time it cannot know", () => {
    render(<Basic run={snap({ status: "completed" })} />);
    expect(attr(screen.getByRole("button", { name: "Details" }), "aria-expanded")).toEqual("false");
    expect(screen.queryByRole("time")).toBeNull();
  });

  it("stops the elapsed clock when the run ends", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    try {
      const run = snap();
      const { rerender } = render(<Basic run={run} />);
      act(() => vi.advanceTimersByTime(3000));
      expect(textOf(screen.getByRole("time"))).toMatch("0:03");
      rerender(<Basic run={{ ...run, status: "error", error: "x" }} />);
      act(() => vi.advanceTimersByTime(5000));
      expect(textOf(screen.getByRole("time"))).toMatch("0:03");
      expect(attr(screen.getByRole("time"), "datetime")).toEqual("PT3S");
    } finally {
      vi.useRealTimers();
    }
  });

  it("names the part and the fix when used outside the root", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<AgentToolRun.Status />)).toThrow(
      "<AgentToolRun.Status> must be rendered inside <AgentToolRun.Root>",
    );
    spy.mockRestore();
  });
});

/** A run card with the parts a tray item has too, and Cancel. */
function Card({ run, call }: { run: RunData; call?: (m: string, a?: unknown[]) => Promise<unknown> }) {
  return (
    <AgentToolRun.Root run={run} {...(call ? { agent: { call } } : {})}>
      <AgentToolRun.Icon />
      <AgentToolRun.Title /> <AgentToolRun.Status />
      <AgentToolRun.Progress />
      <AgentToolRun.Phase /> <AgentToolRun.Message />
      <AgentToolRun.Milestones />
      <AgentToolRun.Cancel />
    </AgentToolRun.Root>
  );
}

/** Run r1 of `store`, with its elapsed time. */
function StoreElapsed({ store }: { store: AgentToolRuns }) {
  return (
    <AgentToolRun.Root store={store} runId="r1">
      <AgentToolRun.Elapsed />
    </AgentToolRun.Root>
  );
}

describe("AgentToolRun run parts and cancel", () => {
  const research = snap({
    runId: "c1",
    display: { name: "Research", icon: "🔎" },
    progress: { fraction: 0.5, phase: "reading", message: "Reading 2 sources", at: 1 },
    milestones: [
      { name: "draft", sequence: 1, at: 2 },
      { name: "sources-gathered", sequence: 0, at: 1 },
    ],
  });

  it("shows the run parts the tray shows: progress, phase, message and milestone chips", () => {
    render(<Card run={research} call={async () => true} />);
    const group = screen.getByRole("group", { name: "Research" });
    const bar = within(group).getByRole("progressbar", { name: "Research progress" });
    expect(attr(bar, "aria-valuetext")).toBe("reading: Reading 2 sources, 50%");
    const chips = within(group).getByRole("list", { name: "Research milestones" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((li) => [li.textContent, attr(li, "data-current")]),
    ).toEqual([
      ["sources-gathered", null],
      ["draft", ""],
    ]);
  });

  it("Cancel sends cancelAgentTool once, reads Cancelling… until the run ends; disabled without an agent", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const user = userEvent.setup();
    const call = vi.fn(async (_m: string, _a?: unknown[]) => true);
    const { rerender } = render(<Card run={research} call={call} />);
    const group = screen.getByRole("group", { name: "Research" });
    const cancel = within(group).getByRole("button", { name: "Cancel Research" });
    await user.click(cancel);
    await user.click(cancel);
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith("cancelAgentTool", ["c1", "Cancelled by the user"]);
    expect(textOf(within(group).getByRole("status"))).toBe("Cancelling…");
    expect([attr(group, "data-cancelling"), attr(group, "data-status")]).toEqual(["", "running"]);
    expect(isDisabled(cancel)).toBe(true);
    rerender(<Card run={{ ...research, status: "aborted" }} call={call} />);
    expect(textOf(within(group).getByRole("status"))).toBe("Cancelled");
    expect(attr(group, "data-cancelling")).toBeNull();

    cleanup();
    render(<Card run={snap({ runId: "c2" })} />);
    expect(isDisabled(screen.getByRole("button", { name: "Cancel Researcher" }))).toBe(true);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining("AgentToolRun.Cancel has nothing to call"),
    ]);
    warn.mockRestore();
  });

  it("with the store, a run's start survives the card re-mounting; another connection's store did not see it", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    try {
      const connection = () => {
        const agent = new EventTarget();
        const store = new AgentToolRuns({ agent, storage: null, throttleMs: 0 });
        const event = { kind: "started", runId: "r1", agentType: "Researcher", order: 0 };
        agent.dispatchEvent(
          new MessageEvent("message", {
            data: JSON.stringify({ type: "agent-tool-event", sequence: 0, event }),
          }),
        );
        return store;
      };
      const one = connection();
      const first = render(<StoreElapsed store={one} />);
      act(() => vi.advanceTimersByTime(5000));
      expect(textOf(screen.getByRole("time"))).toBe("0:05");
      first.unmount();
      const again = render(<StoreElapsed store={one} />);
      expect(textOf(screen.getByRole("time"))).toBe("0:05");
      again.unmount();
      render(<StoreElapsed store={connection()} />);
      expect(textOf(screen.getByRole("time"))).toBe("0:00");
      one.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});
