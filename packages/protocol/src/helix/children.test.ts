import { describe, expect, it } from "vitest";
import { applyCompanionResult, type HelixChild, helixChildToRun, mergeSubSessionRefs } from "./children.ts";

const ref = (name: string, extra: Partial<HelixChild> = {}): HelixChild => ({
  subSessionId: `p-agent-${name}`,
  agentType: "researcher",
  parentToolCallId: "c1",
  status: "running",
  startedAt: 1,
  mode: "persistent",
  name,
  ...extra,
});

describe("helix persistent children", () => {
  it("follows the companion tools: spawn, send, wait, terminate", () => {
    let c: readonly HelixChild[] = [];
    c = applyCompanionResult(
      c,
      {
        toolName: "companion__spawnAgent",
        input: { agent: "researcher", initialMessage: "go", name: "researcher-1" },
        output: { name: "researcher-1" },
      },
      10,
    );
    expect(c).toMatchObject([
      { name: "researcher-1", agentType: "researcher", status: "running", startedAt: 10 },
    ]);
    c = applyCompanionResult(c, {
      toolName: "companion__sendMessage",
      input: { name: "researcher-1", message: "more" },
    });
    expect(c[0]?.lastMessage).toBe("more");
    c = applyCompanionResult(
      c,
      { toolName: "companion__waitForResult", input: { name: "researcher-1" }, output: { result: "42" } },
      20,
    );
    expect(c[0]).toMatchObject({ status: "completed", result: "42", completedAt: 20 });
    expect(helixChildToRun(c[0] as HelixChild)).toMatchObject({
      status: "completed",
      summary: "42",
      display: { name: "researcher-1" },
    });
    c = mergeSubSessionRefs(c, [ref("writer-1")]);
    c = applyCompanionResult(c, {
      toolName: "companion__terminateChild",
      input: { name: "writer-1" },
      output: { ok: true },
    });
    expect(helixChildToRun(c[1] as HelixChild).status).toBe("aborted");
  });

  it("takes listChildren results as refs; a failed call changes nothing; re-spawn is a fresh session", () => {
    let c: readonly HelixChild[] = [ref("a", { status: "completed", result: "old" })];
    const failed = applyCompanionResult(c, {
      toolName: "companion__terminateChild",
      input: { name: "a" },
      output: { success: false, error: "no" },
    });
    expect(failed).toBe(c);
    c = applyCompanionResult(c, {
      toolName: "companion__listChildren",
      output: { children: [ref("a", { subSessionId: "p-agent-a-2" }), ref("b", { status: "failed" })] },
    });
    expect(c).toHaveLength(2);
    expect(c[0]).toMatchObject({ subSessionId: "p-agent-a-2", status: "running" });
    expect(c[0]?.result).toBeUndefined();
    expect(helixChildToRun(c[1] as HelixChild)).toMatchObject({
      status: "error",
      error: "The child failed.",
    });
  });
});
