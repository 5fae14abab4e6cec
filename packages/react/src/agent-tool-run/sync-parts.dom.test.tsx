/** A synchronous AgentTool call (no agent-tool events) through AgentToolRun: prompt, tools, model, wait, cut mark. */

import { syncAgentToolRun } from "@runboard/protocol";
import { SYNC_AGENT_TOOL_CUT_AT } from "@runboard/protocol/view";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { AgentToolRun } from "./agent-tool-run.tsx";

afterEach(cleanup);

const input = {
  prompt: "Find why the build fails",
  tool_allowlist: ["Read", "Grep", "AgentTool"],
  model: "small",
};

function Call({ part }: { part: Parameters<typeof syncAgentToolRun>[0] }) {
  const run = syncAgentToolRun(part);
  if (!run) return null;
  return (
    <AgentToolRun.Root run={run} defaultOpen>
      <AgentToolRun.Title /> <AgentToolRun.Status />
      <AgentToolRun.Prompt />
      <AgentToolRun.AllowedTools />
      <AgentToolRun.Model />
      <AgentToolRun.Blocked />
      <AgentToolRun.Content>
        <AgentToolRun.Result />
        <AgentToolRun.CutByAgent />
        <AgentToolRun.Error />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

/** The call's part once the child answered with `output`. */
const answered = (output: unknown) => ({
  type: "tool-AgentTool",
  toolCallId: "c1",
  state: "output-available",
  input,
  output,
});

describe("AgentToolRun with a synchronous AgentTool call", () => {
  it("while the parent is blocked: prompt, allowed tools (AgentTool dropped), model, a waiting status", () => {
    render(<Call part={{ type: "tool-AgentTool", toolCallId: "c1", state: "input-available", input }} />);
    const group = screen.getByRole("group", { name: "AgentTool" });
    expect(group.dataset.status).toBe("running");
    expect(screen.getByText("Find why the build fails").tagName).toBe("PRE");
    const tools = screen.getByRole("list", { name: "Allowed tools" });
    expect([...tools.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Read", "Grep"]);
    expect(screen.getByText("small").dataset.model).toBe("small");
    expect(screen.getByText(/waits for this sub-agent/).hasAttribute("data-blocked")).toBe(true);
  });

  it("without an allowlist says all tools but AgentTool, and the model defaults to the parent's", () => {
    render(
      <Call
        part={{ type: "tool-AgentTool", toolCallId: "c1", state: "input-available", input: { prompt: "p" } }}
      />,
    );
    const tools = screen.getByRole("list", { name: "Allowed tools" });
    expect(tools.textContent).toBe("All tools but AgentTool");
    expect(tools.hasAttribute("data-all-but-agent-tool")).toBe(true);
    expect(screen.getByText("the parent's model").hasAttribute("data-default")).toBe(true);
  });

  it("a result at the limit is marked cut by the agent, and Show all still shows all that came", async () => {
    const text = `${"line of findings\n".repeat(Math.ceil(SYNC_AGENT_TOOL_CUT_AT / 17))}END`;
    render(<Call part={answered([{ type: "text", text }])} />);
    expect(screen.getByRole("group", { name: "AgentTool" }).dataset.status).toBe("completed");
    expect(screen.queryByText(/waits for this sub-agent/)).toBeNull();
    const mark = screen.getByText(/Cut by the agent/);
    expect(mark.dataset.length).toBe(String(text.length));
    expect(screen.queryByText(/END$/)).toBeNull();
    await userEvent.setup().click(screen.getByRole("button", { name: "Show all" }));
    expect(screen.getByText(/END$/)).toBeTruthy();
  });

  it("a short result carries no cut mark", () => {
    render(<Call part={answered("All green.")} />);
    expect(screen.getByText("All green.")).toBeTruthy();
    expect(screen.queryByText(/Cut by the agent/)).toBeNull();
  });
});
