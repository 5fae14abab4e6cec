/**
 * Nested runs from real frames: the mock's "nested" demo (Planner → Researcher → FactChecker). Expanding a run
 * opens a connection to its child, whose runs render inside it; collapsing closes that connection.
 */
import type { AgentClientOptions } from "@runboard/client";
import { createMockAgentServer, demoAgents, type MockAgentServer } from "@runboard/mock-server";
import type { Part } from "@runboard/protocol";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, StrictMode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { renderSettled } from "../../test/support/render.tsx";
import { useAgent } from "../use-agent.ts";
import { useAgentChat } from "../use-agent-chat.ts";
import { type UseAgentToolEventsResult, useAgentToolEvents } from "../use-agent-tool-events.ts";
import { AgentToolRun, type NestedRuns } from "./agent-tool-run.tsx";

let server: MockAgentServer;
beforeAll(async () => {
  server = await createMockAgentServer({ agents: demoAgents, delayScale: 0.1, log: () => {} });
});
afterAll(() => server.close());
afterEach(cleanup);

/** Sockets this test opened and has not closed yet. */
let open = 0;
class CountingWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    open++;
    this.once("close", () => open--);
  }
}

/** One renderer for every level: top-level runs come from the chat's store, deeper ones from `nested`. */
function makeRenderPart(top: UseAgentToolEventsResult, address: AgentClientOptions, maxDepth?: number) {
  const renderPart = (part: Part, nested: NestedRuns | null): ReactNode => {
    if (part.type === "text") return <p>{part.text}</p>;
    if (!("toolCallId" in part)) return null;
    const id = part.toolCallId as string;
    const store = nested ? nested.runs : top.store;
    return (nested ? nested.getRunsForToolCall(id) : top.getRunsForToolCall(id)).map((run) => (
      <AgentToolRun.Root
        key={run.runId}
        store={store}
        runId={run.runId}
        {...(nested ? {} : { follow: address, followOptions: { maxDepth, runs: { storage: null } } })}
      >
        <AgentToolRun.Title />
        <AgentToolRun.Status />
        <AgentToolRun.Trigger>Details</AgentToolRun.Trigger>
        <AgentToolRun.Content>
          <AgentToolRun.Transcript>{(p, _i, _run, n) => renderPart(p, n)}</AgentToolRun.Transcript>
        </AgentToolRun.Content>
      </AgentToolRun.Root>
    ));
  };
  return renderPart;
}

function Chat({
  name,
  box,
  maxDepth,
}: {
  name: string;
  box: { send?: (t: string) => void };
  maxDepth?: number;
}) {
  const address = {
    agent: "ChatAgent",
    name,
    host: `127.0.0.1:${server.port}`,
    WebSocket: CountingWebSocket,
  };
  const agent = useAgent(address);
  const chat = useAgentChat({ agent, throttleMs: 0 });
  const runs = useAgentToolEvents({ agent, storage: null, throttleMs: 0 });
  box.send = (t) => void chat.sendMessage({ text: t });
  const renderPart = makeRenderPart(runs, address, maxDepth);
  return (
    <>
      <output data-testid="conn">{agent.status}</output>
      {chat.messages.map((m) => (
        <article key={m.id}>
          {m.parts.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids; their order is fixed
            <div key={i}>{renderPart(p as Part, null)}</div>
          ))}
        </article>
      ))}
    </>
  );
}

const until = (fn: () => void) => waitFor(fn, { timeout: 30_000 });
const room = () => `nested-${Math.random().toString(36).slice(2, 10)}`;
const details = (group: HTMLElement) =>
  within(group).getAllByRole("button", { name: "Details" })[0] as HTMLElement;

/** Sends "nested" and waits until the whole tree finished; the top run has closed itself by then. */
async function finishedTree(maxDepth?: number) {
  const box: { send?: (t: string) => void } = {};
  // The previous test's sockets close after its cleanup.
  await until(() => expect(open).toBe(0));
  await renderSettled(
    <StrictMode>
      <Chat name={room()} box={box} {...(maxDepth ? { maxDepth } : {})} />
    </StrictMode>,
  );
  await until(() => expect(screen.getByTestId("conn").textContent).toBe("open"));
  await act(async () => box.send?.("nested"));
  const planner = await screen.findByRole("group", { name: "Planner" }, { timeout: 30_000 });
  await until(() => expect(planner.getAttribute("data-status")).toBe("completed"));
  await until(() => expect(planner.getAttribute("data-state")).toBe("closed"));
  // Closed: only the chat's own socket is open.
  await until(() => expect(open).toBe(1));
  return planner;
}

describe("AgentToolRun following its child", () => {
  it("expanding shows the grandchild and great-grandchild runs; collapsing closes their sockets", {
    timeout: 120_000,
  }, async () => {
    const planner = await finishedTree();
    expect(planner.hasAttribute("data-following")).toBe(false);
    await userEvent.click(details(planner));
    const researcher = await within(planner).findByRole("group", { name: "Researcher" }, { timeout: 30_000 });
    expect(planner.getAttribute("data-following")).toBe("");
    expect(researcher.getAttribute("data-status")).toBe("completed");
    expect(researcher.getAttribute("data-depth")).toBe("1");
    expect(open).toBe(2);

    await userEvent.click(details(researcher));
    const checker = await within(researcher).findByRole(
      "group",
      { name: "FactChecker" },
      { timeout: 30_000 },
    );
    expect(checker.getAttribute("data-depth")).toBe("2");
    expect(open).toBe(3);

    await userEvent.click(details(planner));
    await until(() => expect(open).toBe(1));
    expect(within(planner).queryByRole("group", { name: "Researcher" })).toBeNull();
    expect(planner.hasAttribute("data-following")).toBe(false);
  });

  it("stops following at maxDepth: the grandchild shows, its own runs are not fetched", {
    timeout: 120_000,
  }, async () => {
    const planner = await finishedTree(1);
    await userEvent.click(details(planner));
    const researcher = await within(planner).findByRole("group", { name: "Researcher" }, { timeout: 30_000 });
    await userEvent.click(details(researcher));
    expect(researcher.getAttribute("data-state")).toBe("open");
    expect(researcher.hasAttribute("data-following")).toBe(false);
    expect(within(researcher).queryByRole("group")).toBeNull();
    expect(open).toBe(2);
  });
});
