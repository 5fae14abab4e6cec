import { describe, expect, it } from "vitest";
import { parseSyncAgentTool, SYNC_AGENT_TOOL_CUT_AT, syncAgentToolRun } from "./sync-agent-tool.ts";

const part = (extra: Record<string, unknown>) => ({ type: "tool-AgentTool", toolCallId: "c1", ...extra });

describe("synchronous AgentTool calls", () => {
  it("reads prompt, allowlist (AgentTool itself dropped) and model; running while it has no output", () => {
    const call = parseSyncAgentTool(
      part({
        state: "input-available",
        input: {
          prompt: "Summarise the logs",
          tool_allowlist: ["Read", "AgentTool", "Grep"],
          model: "haiku",
        },
      }),
    );
    expect(call).toEqual({
      toolCallId: "c1",
      prompt: "Summarise the logs",
      allowedTools: ["Read", "Grep"],
      model: "haiku",
      state: "running",
      cutByAgent: false,
    });
    expect(syncAgentToolRun(part({ state: "input-streaming", input: { prompt: "x" } }))?.status).toBe(
      "running",
    );
  });

  it("an omitted allowlist means every tool but AgentTool; other tools are not sync calls", () => {
    expect(parseSyncAgentTool(part({ input: { prompt: "p" } }))?.allowedTools).toBe("all-but-agent-tool");
    expect(parseSyncAgentTool({ type: "tool-getWeather", input: {} })).toBeUndefined();
    expect(
      parseSyncAgentTool({ type: "dynamic-tool", toolName: "AgentTool", input: "junk" } as never)?.prompt,
    ).toBe("");
  });

  it("marks a result at the agent's limit as cut by the agent; a shorter one is whole", () => {
    const long = "x".repeat(SYNC_AGENT_TOOL_CUT_AT + 100);
    const cut = syncAgentToolRun(
      part({ state: "output-available", input: { prompt: "p" }, output: [{ type: "text", text: long }] }),
    );
    expect(cut?.sync).toMatchObject({ state: "completed", cutByAgent: true });
    expect(cut?.summary).toHaveLength(long.length);
    const whole = syncAgentToolRun(
      part({ state: "output-available", output: { type: "text", value: "done" } }),
    );
    expect(whole).toMatchObject({ status: "completed", summary: "done", sync: { cutByAgent: false } });
    const failed = syncAgentToolRun(part({ state: "output-error", errorText: "child hit 20 turns" }));
    expect(failed).toMatchObject({ status: "error", error: "child hit 20 turns" });
  });
});
