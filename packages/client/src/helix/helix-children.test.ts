import { describe, expect, it } from "vitest";
import { subSessionRef as ref } from "../../../../test-support/helix.ts";
import { HelixChildren } from "./index.ts";

describe("HelixChildren", () => {
  it("without callbacks neither action is offered", () => {
    const kids = new HelixChildren();
    kids.setRefs([ref("researcher-1")]);
    expect(kids.canSendMessage("researcher-1")).toBe(false);
    expect(kids.canTerminate("researcher-1")).toBe(false);
  });

  it("terminate: one call at a time, pending while on its way, terminated after; a failure leaves it running", async () => {
    let release: () => void = () => {};
    const calls: string[] = [];
    const errors: unknown[] = [];
    const kids = new HelixChildren({
      onTerminate: (c) => {
        calls.push(c.name ?? "");
        if (c.name === "b") return Promise.reject(new Error("refused"));
        return new Promise<void>((r) => {
          release = r;
        });
      },
      onError: (e) => errors.push(e),
    });
    kids.setRefs([ref("a"), ref("b"), ref("c", "completed")]);
    const first = kids.terminate("a");
    expect(kids.getSnapshot().pending.has("a")).toBe(true);
    expect(await kids.terminate("a")).toBe(false);
    release();
    expect(await first).toBe(true);
    expect(kids.getSnapshot().runs.map((r) => r.status)).toEqual(["aborted", "running", "completed"]);
    expect(await kids.terminate("b")).toBe(false);
    expect(kids.getSnapshot().children[1]?.status).toBe("running");
    expect(kids.canTerminate("b")).toBe(true);
    expect(kids.canTerminate("c")).toBe(false);
    expect(calls).toEqual(["a", "b"]);
    expect(errors).toHaveLength(1);
  });

  it("reads companion tool parts once each, and sends messages through the app", async () => {
    const sent: string[] = [];
    const kids = new HelixChildren({
      now: () => 5,
      onSendMessage: (c, m) => void sent.push(`${c.name}:${m}`),
    });
    const spawn = {
      type: "tool-companion__spawnAgent",
      toolCallId: "t1",
      state: "output-available",
      input: { agent: "writer", initialMessage: "draft", name: "writer-1" },
      output: { ok: true },
    };
    kids.applyToolParts([spawn, { type: "tool-other", state: "output-available" }]);
    kids.applyToolParts([spawn]);
    expect(kids.getSnapshot().children).toHaveLength(1);
    expect(await kids.sendMessage("writer-1", "shorter please")).toBe(true);
    expect(sent).toEqual(["writer-1:shorter please"]);
    expect(kids.getSnapshot().runs[0]).toMatchObject({
      agentType: "writer",
      inputPreview: { message: "shorter please" },
    });
    expect(kids.keyOfRun(kids.getSnapshot().runs[0]?.runId ?? "")).toBe("writer-1");
  });
});
