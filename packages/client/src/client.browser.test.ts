/** The client in a real browser (Chromium), on the browser's own WebSocket, against the mock server. */
import { describe, expect, inject, it } from "vitest";
import { textOf, until } from "../test/helpers.ts";
import { AgentClient } from "./agent-client.ts";
import { AgentToolRuns } from "./agent-tool-runs.ts";
import { ChatSession } from "./chat-session.ts";

const host = `127.0.0.1:${inject("mockPort")}`;
const name = () => `br-${Math.random().toString(36).slice(2, 10)}`;

describe("in Chromium", () => {
  it("connects with the page's WebSocket, calls, streams a turn and keeps run progress in sessionStorage", async () => {
    const room = name();
    const client = new AgentClient<{ counter: number }>({ agent: "ChatAgent", name: room, host });
    await client.ready;
    expect(client.identity).toEqual({ name: room, agent: "chat-agent" });
    await until(() => client.state !== undefined);
    expect(client.state).toEqual({ counter: 0 });
    await expect(client.call("increment", [3])).resolves.toBe(3);

    const chat = new ChatSession({ agent: client });
    const runs = new AgentToolRuns({ agent: client });
    await chat.sendMessage({ text: "research durable objects for me" });
    await until(
      () =>
        chat.getSnapshot().status === "ready" && textOf(chat.getSnapshot().messages.at(-1)).endsWith("Done."),
    );
    const [run] = Object.values(runs.getSnapshot().runsById);
    expect(run?.status).toBe("completed");
    // The default storage in a browser is sessionStorage: the run's milestones are kept for a refresh.
    // Keyed by a hash of the agent's address and the run id (never the URL, which may hold a token).
    const key = Object.keys(sessionStorage).find(
      (k) => k.startsWith("runboard:runs:") && k.endsWith(`:${run?.runId}`),
    );
    expect(key).toBeDefined();
    expect(sessionStorage.getItem(key as string)).toContain("sources-gathered");
    chat.dispose();
    runs.dispose();
    client.close();
  });

  it("notifies subscribers at most once per animation frame while streaming", async () => {
    const client = new AgentClient({ agent: "ChatAgent", name: name(), host });
    const chat = new ChatSession({ agent: client });
    let notified = 0;
    chat.subscribe(() => notified++);
    let frames = 0;
    let counting = true;
    const count = () => {
      frames++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    await chat.sendMessage({ text: "slow stream please" });
    await until(
      () =>
        chat.getSnapshot().status === "ready" &&
        textOf(chat.getSnapshot().messages.at(-1)).endsWith("word39"),
    );
    counting = false;
    // One publish per frame at most (plus the immediate one at the end of the stream).
    expect(notified).toBeLessThanOrEqual(frames + 1);
    expect(notified).toBeGreaterThan(0);
    chat.dispose();
    client.close();
  });
});
