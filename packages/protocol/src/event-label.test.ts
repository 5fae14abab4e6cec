import { describe, expect, it } from "vitest";
import { agentEventLabel, isAgentEvent, messageText } from "./event-label.ts";

describe("agentEventLabel", () => {
  it("names each kind of server-injected message", () => {
    expect(
      agentEventLabel({
        kind: "detached-completion",
        runId: "r",
        status: "completed",
        agentType: "Researcher",
      }),
    ).toBe("Background run finished (Researcher)");
    expect(agentEventLabel({ kind: "detached-completion", runId: "r", status: "error" })).toBe(
      "Background run failed",
    );
    expect(agentEventLabel({ kind: "detached-completion", runId: "r", status: "weird" })).toBe(
      "Background run weird",
    );
    expect(agentEventLabel({ kind: "milestone", runId: "r", milestone: "draft" })).toBe(
      "Milestone reached: draft",
    );
    expect(agentEventLabel({ kind: "notice", deliveryKind: "notice" })).toBe("Notice");
    expect(agentEventLabel({ kind: "notice", deliveryKind: "interim" })).toBe("Notice (interim)");
    expect(agentEventLabel({ kind: "injected", source: "scheduled-task" })).toBe(
      "Message from scheduled-task",
    );
  });
});

describe("messageText", () => {
  it("joins text parts and skips the rest", () => {
    expect(
      messageText({
        parts: [{ type: "text", text: "a" }, { type: "step-start" }, { type: "text", text: "b" }],
      }),
    ).toBe("ab");
  });
});

describe("isAgentEvent", () => {
  it("tells server-injected messages from ordinary ones", () => {
    expect(isAgentEvent({ id: "detached-finish:r1:completed", metadata: undefined })).toBe(true);
    expect(isAgentEvent({ id: "m1", metadata: { source: "scheduled-task" } })).toBe(true);
    expect(isAgentEvent({ id: "m2", metadata: undefined })).toBe(false);
  });
});
