/** The adapters take the official hooks' objects as they are, so an app can switch imports and keep its cards. */
import type { useAgentChat as useOfficialChat } from "@cloudflare/ai-chat/react";
import type { ApprovalRequest } from "@runboard/protocol";
import type { useAgent as useOfficialAgent } from "agents/react";
import { describe, expectTypeOf, it } from "vitest";
import type { useAgent } from "../use-agent.ts";
import type { useAgentChat } from "../use-agent-chat.ts";
import { useChatApprovals, useExecutionApprovals, useWorkflowApprovals } from "./index.ts";

describe("approval adapters", () => {
  it("accept ours and the official useAgent / useAgentChat results", () => {
    expectTypeOf(useChatApprovals).toBeCallableWith({} as ReturnType<typeof useAgentChat>, {
      agent: {} as ReturnType<typeof useAgent>,
    });
    expectTypeOf(useChatApprovals).toBeCallableWith({} as ReturnType<typeof useOfficialChat>, {
      agent: {} as ReturnType<typeof useOfficialAgent>,
    });
    expectTypeOf(useExecutionApprovals).toBeCallableWith({} as ReturnType<typeof useOfficialAgent>, {
      messages: ({} as ReturnType<typeof useOfficialChat>).messages,
    });
    expectTypeOf(useWorkflowApprovals).toBeCallableWith({} as ReturnType<typeof useAgent>);
    expectTypeOf(useWorkflowApprovals).toBeCallableWith({} as ReturnType<typeof useOfficialAgent>);
    expectTypeOf(useChatApprovals).returns.toEqualTypeOf<ApprovalRequest[]>();
  });

  it("refuse a chat object that cannot answer approvals", () => {
    // @ts-expect-error no addToolApprovalResponse
    useChatApprovals({ messages: [], addToolOutput: () => {} });
  });
});
