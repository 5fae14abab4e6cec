/**
 * A transcript load that fails must not put the credentials of the agent's URL (user info, `?token=`) into
 * what the app sees: the `onError` error, its causes, or the console.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { until } from "../test/helpers.ts";
import { ChatSession } from "./chat-session.ts";
import type { ChatAgentLike } from "./chat-types.ts";
import { getAgentMessages } from "./client-tools.ts";

const SECRET = "s3cret-value";
/** `fetch` refuses a URL with user info and quotes it, `?token=` included, in its error. */
const AGENT_URL = `http://user:${SECRET}@127.0.0.1:1/agents/chat/room?token=${SECRET}`;

/** An agent connection with an HTTP URL and no socket traffic. */
function fakeAgent(url: string): ChatAgentLike {
  return {
    send: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    getHttpUrl: () => `${url}&_pk=conn-1`,
    agent: "Chat",
    name: "room",
  };
}

/** Everything an app could print of an error: messages and stacks down its cause chain. */
function printable(e: unknown): string {
  const out: string[] = [];
  for (let depth = 0; e !== undefined && depth < 8; depth++) {
    out.push(e instanceof Error ? `${e.message}\n${e.stack ?? ""}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return out.join("\n");
}

const consoleText = (...spies: Array<{ mock: { calls: unknown[][] } }>) =>
  spies.flatMap((s) => s.mock.calls.map((args) => args.map(printable).join(" "))).join("\n");

afterEach(() => vi.restoreAllMocks());

describe("transcript load failures keep URL credentials out of errors and logs", () => {
  it("ChatSession reports a failed GET …/get-messages through onError without the token or password", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const errors: Error[] = [];
    const chat = new ChatSession({
      agent: fakeAgent(AGENT_URL),
      throttleMs: 0,
      onError: (e) => errors.push(e),
    });
    await until(() => errors.length > 0);
    chat.dispose();
    expect(errors[0]?.message).toMatch(/^Loading the transcript failed: .*token=\*\*\*/);
    expect(errors.map(printable).join("\n")).not.toContain(SECRET);
    expect(consoleText(warn, error)).not.toContain(SECRET);
  });

  it("ChatSession redacts the URL an app's getInitialMessages quotes in its error", async () => {
    const errors: Error[] = [];
    const chat = new ChatSession({
      agent: fakeAgent(AGENT_URL),
      throttleMs: 0,
      getInitialMessages: async ({ url }) => {
        throw new Error(`GET ${url} failed`);
      },
      onError: (e) => errors.push(e),
    });
    await until(() => errors.length > 0);
    chat.dispose();
    expect(errors[0]?.message).toContain("http://***@127.0.0.1:1/agents/chat/room?token=***");
    expect(errors.map(printable).join("\n")).not.toContain(SECRET);
  });

  it("getAgentMessages warns without the token or password when the fetch fails", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await getAgentMessages({ url: `${AGENT_URL}/get-messages` })).toEqual([]);
    expect(await getAgentMessages({ url: `not a url?token=${SECRET}` })).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(consoleText(warn)).toContain("token=***");
    expect(consoleText(warn)).not.toContain(SECRET);
  });
});
