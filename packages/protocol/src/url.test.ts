import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import { agentHttpUrl, agentUrl, getMessagesUrl, isPrivateHost, kebabAgentName } from "./url.ts";

describe("kebabAgentName (server slug parity, reference §7.5)", () => {
  const cases: Array<[string, string]> = [
    ["ChatAgent", "chat-agent"],
    ["MyAssistant", "my-assistant"],
    ["AIChatAgent", "a-i-chat-agent"],
    ["MCPServer", "m-c-p-server"],
    ["HTTPClient", "h-t-t-p-client"],
    ["SimpleBot", "simple-bot"],
    ["A", "a"],
    ["AB", "ab"],
    ["ThinkTestAgent", "think-test-agent"],
    ["TestAssistantAgentAgent", "test-assistant-agent-agent"],
    ["SCREAMING_CASE", "screaming-case"],
    ["chat-agent", "chat-agent"],
  ];
  for (const [input, out] of cases) it(`${input} → ${out}`, () => expect(kebabAgentName(input)).toBe(out));
});

describe("agentUrl", () => {
  it("reproduces the URLs the recorded clients connected to", () => {
    for (const [file, agent] of [
      ["ai-chat/hello.jsonl", "ChatAgent"],
      ["think/hello.jsonl", "ThinkAgent"],
    ] as const) {
      const recorded = readTranscript(file).find((l) => l.event === "connecting")?.url as string;
      const u = new URL(recorded);
      const name = u.pathname.split("/")[3] as string;
      expect(agentUrl({ host: u.host, agent, name, pk: u.searchParams.get("_pk") as string })).toBe(recorded);
    }
  });

  it("uses the default name, keeps the root name raw and encodes sub-agent names", () => {
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent" })).toBe("wss://a.dev/agents/chat-agent/default");
    expect(
      agentUrl({
        host: "a.dev",
        agent: "ChatAgent",
        name: "room",
        sub: [
          { agent: "Researcher", name: "agent-tool:call_abc" },
          { agent: "SubAgent", name: "a b" },
        ],
        path: "rooms/日本語",
      }),
    ).toBe(
      "wss://a.dev/agents/chat-agent/room/sub/researcher/agent-tool%3Acall_abc/sub/sub-agent/a%20b/rooms/日本語",
    );
  });

  it("puts _pk first, drops empty query values and encodes like URLSearchParams", () => {
    expect(
      agentUrl({
        host: "a.dev",
        agent: "X",
        name: "n",
        pk: "id1",
        query: { token: "a b&c", n: 1, ok: true, no: null, u: undefined },
      }),
    ).toBe("wss://a.dev/agents/x/n?_pk=id1&token=a+b%26c&n=1&ok=true");
  });

  it("replaces the agent path with basePath and refuses a path with a leading slash", () => {
    expect(agentUrl({ host: "a.dev", agent: "X", basePath: "custom/ws", path: "p" })).toBe(
      "wss://a.dev/custom/ws/p",
    );
    expect(agentUrl({ host: "a.dev", agent: "X", basePath: "/agents/x/y" })).toBe("wss://a.dev//agents/x/y");
    expect(() => agentUrl({ host: "a.dev", agent: "X", path: "/bad" })).toThrow(
      /must not start with a slash/,
    );
  });

  it("chooses plain schemes only for loopback and private hosts, like the official client", () => {
    for (const h of [
      "localhost:8787",
      "127.0.0.1:1",
      "192.168.1.2:80",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.9.9",
      "[::ffff:7f00:1]:8",
    ])
      expect(isPrivateHost(h), h).toBe(true);
    for (const h of ["172.15.0.1", "172.32.0.1", "localhost", "example.com"])
      expect(isPrivateHost(h), h).toBe(false);
    expect(agentUrl({ host: "http://localhost:8787/", agent: "X", name: "n" })).toBe(
      "ws://localhost:8787/agents/x/n",
    );
    expect(agentUrl({ host: "localhost:8787", agent: "X", name: "n", protocol: "wss" })).toBe(
      "wss://localhost:8787/agents/x/n",
    );
  });
});

describe("agentHttpUrl / getMessagesUrl", () => {
  it("drops _pk, keeps the query and appends to the pathname", () => {
    const a = { host: "127.0.0.1:8787", agent: "ChatAgent", name: "r", pk: "x", query: { token: "t" } };
    expect(getMessagesUrl(a)).toBe("http://127.0.0.1:8787/agents/chat-agent/r/get-messages?token=t");
    expect(
      agentHttpUrl({ ...a, host: "my.app", sub: [{ agent: "Researcher", name: "r:1" }] }, "get-messages"),
    ).toBe("https://my.app/agents/chat-agent/r/sub/researcher/r%3A1/get-messages?token=t");
  });
});
