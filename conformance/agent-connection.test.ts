/**
 * What a fake socket cannot decide about an agent connection (issue 30 §1, `useAgent`), against the real agents
 * runtime in workerd, with the official `AgentClient` (`agents/client`) beside ours on the same steps:
 * - with a custom `basePath` the server picks the instance, and the client learns its name from the identity
 *   frame;
 * - a `setState` sent right after connecting: the server applies it after it has sent its initial state, so a
 *   client that sends it at once then overwrites it with that older initial state (the official client's bug;
 *   the frames are in `test-support/fixtures/real-server/ai-chat/connect.jsonl`). Ours holds it until the
 *   initial state has been applied and sends it then: the client and the server end with the app's update.
 */
import { AgentClient as OfficialAgentClient } from "agents/client";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient } from "../packages/client/src/index.ts";
import { SKIP_REAL, until, useRealServer } from "./real-server-harness.ts";

const real = useRealServer();
const host = () => `127.0.0.1:${real.port}`;
const room = (p: string) => `${p}-${Math.random().toString(36).slice(2, 10)}`;

type Counter = { counter: number; note?: string };

/** The state a new connection is sent on connect: what the server holds. */
async function serverState(name: string): Promise<Counter | undefined> {
  const c = new AgentClient<Counter>({ agent: "ChatAgent", name, host: host(), WebSocket });
  try {
    await until("the observer's initial state", () => c.state !== undefined, 30_000);
    return c.state;
  } finally {
    c.close();
  }
}

describe.skipIf(SKIP_REAL)("an agent connection on the real server", () => {
  it("with a custom basePath, name and agent come from the server's identity frame", async () => {
    const picked = room("picked");
    const options = { agent: "ChatAgent", basePath: "by-server/me", query: { as: picked }, host: host() };
    const official = new OfficialAgentClient({ ...options, WebSocket } as never);
    const ours = new AgentClient({ ...options, WebSocket });
    try {
      expect(ours.name).toBe("default");
      await Promise.all([official.ready, ours.ready]);
      expect(official.name).toBe(picked);
      expect([ours.name, ours.agent, ours.identified]).toEqual([official.name, official.agent, true]);
      expect(ours.agent).toBe("chat-agent");
    } finally {
      official.close();
      ours.close();
    }
  });

  it("a setState sent right after connecting is the last word on both sides", async () => {
    for (const side of ["official", "ours"] as const) {
      const name = room(`state-${side}`);
      // The server's state moved on while this app was away.
      const other = new AgentClient<Counter, { increment(by: number): number }>({
        agent: "ChatAgent",
        name,
        host: host(),
        WebSocket,
      });
      await other.stub.increment(3);
      other.close();

      const updates: string[] = [];
      const options = {
        agent: "ChatAgent",
        name,
        host: host(),
        WebSocket,
        onStateUpdate: (s: Counter, source: string) => updates.push(`${source} ${JSON.stringify(s)}`),
      };
      const mine = { counter: 100, note: "set by the app on connect" };
      const client =
        side === "official"
          ? (new OfficialAgentClient<Counter>(options as never) as unknown as {
              state: Counter | undefined;
              setState(s: Counter): void;
              addEventListener(t: "open", f: () => void): void;
              close(): void;
            })
          : new AgentClient<Counter>(options);
      client.addEventListener("open", () => client.setState(mine));
      try {
        await until(
          `${side}: the server's initial state`,
          () => updates.some((u) => u.startsWith("server")),
          30_000,
        );
        // The client has handled the initial state frame; the server takes the app's update (both clients
        // send it, at different times).
        let onServer: Counter | undefined;
        await until(`${side}: the server holds the app's update`, async () => {
          onServer = await serverState(name);
          return onServer?.counter === mine.counter;
        });
        expect(onServer).toEqual(mine);
        if (side === "official") {
          // The official client shows the older server state while the server holds the app's.
          expect(client.state).toEqual({ counter: 3 });
        } else {
          expect(client.state).toEqual(mine);
          // The app heard its update, the server's newer state, then its update again once sent.
          expect(updates).toEqual([
            `client ${JSON.stringify(mine)}`,
            'server {"counter":3}',
            `client ${JSON.stringify(mine)}`,
          ]);
        }
      } finally {
        client.close();
      }
    }
  });
});
