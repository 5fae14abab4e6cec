/**
 * A synchronous sub-agent call (caliban's `AgentTool`): a plain tool part with no agent-tool events, shown by
 * AgentToolRun from `syncAgentToolRun(part)`: prompt, allowed tools, model, the parent's wait, the agent's cut.
 */
import { syncAgentToolRun } from "@runboard/protocol";
import { AgentToolRun } from "@runboard/react";
import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, within } from "storybook/test";
import "./support/agent-tool-run.css";

const input = {
  prompt: "Read the last build logs and list every failing test with its first error line.",
  tool_allowlist: ["Read", "Grep", "Glob"],
  model: "claude-haiku",
};
const longAnswer =
  `${Array.from({ length: 120 }, (_, i) => `${i + 1}. case-${i + 1}.test.ts: expected 200, got 500`).join("\n")}\nEND OF LIST`.slice(
    0,
    5000,
  );

function SyncCall({
  state,
  output,
  withAllowlist = true,
}: {
  state: string;
  output?: unknown;
  withAllowlist?: boolean;
}) {
  const run = syncAgentToolRun({
    type: "tool-AgentTool",
    toolCallId: "call-1",
    state,
    input: withAllowlist ? input : { prompt: input.prompt },
    output,
  });
  if (!run) return null;
  return (
    <AgentToolRun.Root run={run} defaultOpen className="rb-run">
      <AgentToolRun.Header className="rb-run-header">
        <AgentToolRun.Title /> <AgentToolRun.Status />
      </AgentToolRun.Header>
      <AgentToolRun.Prompt />
      <AgentToolRun.AllowedTools />
      <p>
        Model: <AgentToolRun.Model />
      </p>
      <AgentToolRun.Blocked />
      <AgentToolRun.Content>
        <AgentToolRun.Result />
        <AgentToolRun.CutByAgent />
      </AgentToolRun.Content>
    </AgentToolRun.Root>
  );
}

const meta: Meta<typeof SyncCall> = {
  title: "Components/AgentToolRun/Synchronous AgentTool",
  component: SyncCall,
};
export default meta;

export const Blocked: StoryObj<typeof SyncCall> = {
  name: "Running: the parent waits",
  args: { state: "input-available", withAllowlist: false },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    expect(c.getByRole("group", { name: "AgentTool" })).toHaveAttribute("data-status", "running");
    expect(c.getByText(/waits for this sub-agent/)).toBeVisible();
    expect(c.getByRole("list", { name: "Allowed tools" })).toHaveTextContent("All tools but AgentTool");
    expect(c.getByText("the parent's model")).toBeVisible();
  },
};

export const CutByTheAgent: StoryObj<typeof SyncCall> = {
  name: "Result cut by the agent, with Show all",
  args: { state: "output-available", output: { type: "text", text: longAnswer } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    expect(c.getByRole("group", { name: "AgentTool" })).toHaveAttribute("data-status", "completed");
    expect(c.getByText(/Cut by the agent/)).toHaveAttribute("data-cut-by-agent");
    expect(c.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Read", "Grep", "Glob"]);
    await userEvent.click(c.getByRole("button", { name: "Show all" }));
    expect(c.getByText(/case-80\.test\.ts/)).toBeVisible();
  },
};
