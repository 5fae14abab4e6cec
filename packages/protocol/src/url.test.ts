import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../test/transcript-client.ts";
import {
  type AgentAddress,
  agentHttpUrl,
  agentUrl,
  getMessagesUrl,
  isPrivateHost,
  kebabAgentName,
} from "./url.ts";

describe("kebabAgentName (server slug parity, docs/protocol.md#kebab-case)", () => {
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
  ];
  it.each(cases)("%s → %s", (input, slug) => {
    expect(kebabAgentName(input)).toBe(slug);
  });

  it.each(["chat-agent", "a-i-chat-agent", "researcher", "think-agent"])(
    "leaves kebab input %s unchanged",
    (s) => {
      expect(kebabAgentName(s)).toBe(s);
    },
  );

  it("is idempotent on its own output for class-like names", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][A-Za-z]{0,12}$/), (name) => {
        const once = kebabAgentName(name);
        expect(kebabAgentName(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe("agentUrl: reproduces the real server transcripts", () => {
  const transcripts: Array<[string, string]> = [
    ["ai-chat/background.jsonl", "ChatAgent"],
    ["ai-chat/clear.jsonl", "ChatAgent"],
    ["ai-chat/connect.jsonl", "ChatAgent"],
    ["ai-chat/hello.jsonl", "ChatAgent"],
    ["ai-chat/locate.jsonl", "ChatAgent"],
    ["ai-chat/observer.jsonl", "ChatAgent"],
    ["ai-chat/pay.jsonl", "ChatAgent"],
    ["ai-chat/reconnect.jsonl", "ChatAgent"],
    ["ai-chat/research.jsonl", "ChatAgent"],
    ["ai-chat/rpc.jsonl", "ChatAgent"],
    ["ai-chat/weather.jsonl", "ChatAgent"],
    ["think/connect.jsonl", "ThinkAgent"],
    ["think/hello.jsonl", "ThinkAgent"],
    ["think/pay.jsonl", "ThinkAgent"],
    ["think/research.jsonl", "ThinkAgent"],
  ];

  it.each(transcripts)("%s: every recorded connection URL", (file, agent) => {
    const lines = readTranscript(file) as unknown as Array<Record<string, string | undefined>>;
    const start = lines.find((l) => l.event === "scenario-start");
    expect(start?.room, "scenario-start names the room").toBeTruthy();
    const connecting = lines.filter((l) => l.event === "connecting");
    expect(connecting.length).toBeGreaterThan(0);
    for (const c of connecting) {
      const recorded = c.url as string;
      const pk = new URL(recorded).searchParams.get("_pk") as string;
      expect(pk).toMatch(/^[0-9a-f-]{36}$/);
      const ours = agentUrl({ host: `127.0.0.1:${start?.port}`, agent, name: start?.room as string, pk });
      expect(ours, `${file} conn ${c.conn}`).toBe(recorded);
    }
  });
});

describe("agentUrl: path", () => {
  it('uses the instance name "default" when none is given', () => {
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent" })).toBe("wss://a.dev/agents/chat-agent/default");
    // The official client uses `name || "default"`: an empty name is the default instance, not an empty segment.
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent", name: "" })).toBe(
      "wss://a.dev/agents/chat-agent/default",
    );
  });

  it("kebab-cases the agent class and accepts the kebab binding as well", () => {
    expect(agentUrl({ host: "a.dev", agent: "AIChatAgent", name: "r" })).toBe(
      "wss://a.dev/agents/a-i-chat-agent/r",
    );
    expect(agentUrl({ host: "a.dev", agent: "a-i-chat-agent", name: "r" })).toBe(
      "wss://a.dev/agents/a-i-chat-agent/r",
    );
  });

  it("does not encode the root instance name (PartySocket puts the room in raw)", () => {
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent", name: "my room" })).toBe(
      "wss://a.dev/agents/chat-agent/my room",
    );
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent", name: "a:b" })).toBe(
      "wss://a.dev/agents/chat-agent/a:b",
    );
  });

  it("encodes sub-agent names with encodeURIComponent and kebab-cases their classes", () => {
    expect(
      agentUrl({
        host: "a.dev",
        agent: "ChatAgent",
        name: "room",
        sub: [{ agent: "Researcher", name: "agent-tool:call_abc" }],
      }),
    ).toBe("wss://a.dev/agents/chat-agent/room/sub/researcher/agent-tool%3Acall_abc");
  });

  it("builds a child's URL from a name with a lone surrogate instead of throwing (issue 26 §3)", () => {
    // A child's name can come from the wire (drill-in into a run whose id is not well-formed UTF-16).
    expect(
      agentUrl({
        host: "a.dev",
        agent: "ChatAgent",
        name: "room",
        sub: [{ agent: "Researcher", name: "r\ud800" }],
      }),
    ).toBe("wss://a.dev/agents/chat-agent/room/sub/researcher/r%EF%BF%BD");
  });

  it("serialises multi-step sub chains root first", () => {
    expect(
      agentUrl({
        host: "a.dev",
        agent: "ChatAgent",
        name: "room",
        sub: [
          { agent: "Researcher", name: "agent-tool:call_abc" },
          { agent: "MCPServer", name: "a b/c" },
          { agent: "SimpleBot", name: "日本" },
        ],
      }),
    ).toBe(
      "wss://a.dev/agents/chat-agent/room/sub/researcher/agent-tool%3Acall_abc/sub/m-c-p-server/a%20b%2Fc/sub/simple-bot/%E6%97%A5%E6%9C%AC",
    );
  });

  it("appends path raw, after the sub chain", () => {
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent", name: "room", path: "rooms/日本語" })).toBe(
      "wss://a.dev/agents/chat-agent/room/rooms/日本語",
    );
    expect(
      agentUrl({
        host: "a.dev",
        agent: "ChatAgent",
        name: "room",
        sub: [{ agent: "Researcher", name: "r:1" }],
        path: "rooms/日本語",
      }),
    ).toBe("wss://a.dev/agents/chat-agent/room/sub/researcher/r%3A1/rooms/日本語");
  });

  it("throws for a path that starts with a slash", () => {
    expect(() => agentUrl({ host: "a.dev", agent: "X", path: "/bad" })).toThrow(
      /must not start with a slash/,
    );
    expect(() => getMessagesUrl({ host: "a.dev", agent: "X", path: "/bad" })).toThrow(
      /must not start with a slash/,
    );
  });

  it("replaces /agents/<agent>/<name> with basePath, ignoring agent and name", () => {
    expect(agentUrl({ host: "a.dev", agent: "ChatAgent", name: "ignored", basePath: "custom/ws" })).toBe(
      "wss://a.dev/custom/ws",
    );
    expect(agentUrl({ host: "a.dev", agent: "X", basePath: "custom/ws", path: "p" })).toBe(
      "wss://a.dev/custom/ws/p",
    );
  });

  it("keeps a leading slash of basePath, giving // like the official client", () => {
    expect(
      agentUrl({ host: "a.dev", agent: "X", basePath: "/agents/test-state-agent/basepath-ws-test" }),
    ).toBe("wss://a.dev//agents/test-state-agent/basepath-ws-test");
  });
});

describe("agentUrl: query", () => {
  it("puts _pk first, before the other parameters", () => {
    const url = agentUrl({ host: "a.dev", agent: "X", name: "n", query: { a: "1", b: "2" }, pk: "id1" });
    expect(url).toBe("wss://a.dev/agents/x/n?_pk=id1&a=1&b=2");
    expect([...new URL(url).searchParams.keys()]).toEqual(["_pk", "a", "b"]);
  });

  it("drops null and undefined and stringifies numbers and booleans", () => {
    expect(
      agentUrl({
        host: "a.dev",
        agent: "X",
        name: "n",
        query: { no: null, n: 1, u: undefined, f: 1.5, ok: true, off: false, zero: 0, empty: "" },
      }),
    ).toBe("wss://a.dev/agents/x/n?n=1&f=1.5&ok=true&off=false&zero=0&empty=");
  });

  it("has no '?' when there is neither _pk nor query", () => {
    expect(agentUrl({ host: "a.dev", agent: "X", name: "n", query: { a: null } })).toBe(
      "wss://a.dev/agents/x/n",
    );
  });

  it("encodes spaces and reserved characters exactly like URLSearchParams", () => {
    const query = { token: "a b&c=d", "k e y": "!'()~*-._", u: "日本語 ✓", plus: "1+1" };
    const url = agentUrl({ host: "a.dev", agent: "X", name: "n", pk: "p q", query });
    expect(url).toBe(`wss://a.dev/agents/x/n?${new URLSearchParams({ _pk: "p q", ...query })}`);
    expect(url).toContain("token=a+b%26c%3Dd");
    expect(url).toContain("_pk=p+q");
  });

  it("matches URLSearchParams for arbitrary keys and values, lone surrogates included", () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    const text = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: codeUnit }));
    fc.assert(
      fc.property(fc.dictionary(text, text, { maxKeys: 4 }), text, (query, pk) => {
        const url = agentUrl({ host: "a.dev", agent: "X", name: "n", pk, query });
        const expected = new URLSearchParams([["_pk", pk], ...Object.entries(query)]).toString();
        expect(url).toBe(`wss://a.dev/agents/x/n?${expected}`);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("agentUrl: scheme and host", () => {
  const at = (host: string, extra: Partial<AgentAddress> = {}) =>
    agentUrl({ host, agent: "ChatAgent", name: "n", ...extra });

  it.each([
    "localhost:8787",
    "127.0.0.1:8787",
    "127.0.0.1:1",
    "192.168.1.20:8787",
    "192.168.0.1",
    "10.0.0.1",
    "10.1.2.3:80",
    "172.16.0.1",
    "172.20.1.1:8787",
    "172.31.255.255",
    "[::ffff:7f00:1]:8787",
  ])("uses ws:// and http:// for the local host %s", (host) => {
    expect(isPrivateHost(host)).toBe(true);
    expect(at(host)).toBe(`ws://${host}/agents/chat-agent/n`);
    expect(agentHttpUrl({ host, agent: "ChatAgent", name: "n" })).toBe(`http://${host}/agents/chat-agent/n`);
  });

  it.each([
    "172.15.0.1",
    "172.32.0.1",
    "localhost",
    "127.0.0.1",
    "[::ffff:7f00:1]",
    "example.com",
    "my-app.workers.dev",
    "11.0.0.1",
    "192.169.0.1",
  ])("uses wss:// and https:// for %s", (host) => {
    expect(isPrivateHost(host)).toBe(false);
    expect(at(host)).toBe(`wss://${host}/agents/chat-agent/n`);
    expect(agentHttpUrl({ host, agent: "ChatAgent", name: "n" })).toBe(`https://${host}/agents/chat-agent/n`);
  });

  it("lets protocol override the detected scheme, in both directions", () => {
    expect(at("localhost:8787", { protocol: "wss" })).toBe("wss://localhost:8787/agents/chat-agent/n");
    expect(at("my.app", { protocol: "ws" })).toBe("ws://my.app/agents/chat-agent/n");
    expect(agentHttpUrl({ host: "my.app", agent: "ChatAgent", name: "n", protocol: "ws" })).toBe(
      "http://my.app/agents/chat-agent/n",
    );
    expect(agentHttpUrl({ host: "localhost:8787", agent: "ChatAgent", name: "n", protocol: "https" })).toBe(
      "https://localhost:8787/agents/chat-agent/n",
    );
  });

  it.each([
    ["https://my.app", "wss://my.app/agents/chat-agent/n"],
    ["https://my.app/", "wss://my.app/agents/chat-agent/n"],
    ["my.app/", "wss://my.app/agents/chat-agent/n"],
    ["wss://my.app", "wss://my.app/agents/chat-agent/n"],
    ["http://localhost:8787/", "ws://localhost:8787/agents/chat-agent/n"],
    ["ws://127.0.0.1:8787", "ws://127.0.0.1:8787/agents/chat-agent/n"],
  ])("strips the scheme prefix and trailing slash of host %s", (host, url) => {
    expect(at(host)).toBe(url);
  });

  it("does not let an https:// prefix on the host force the scheme: local stays ws", () => {
    expect(at("https://localhost:8787")).toBe("ws://localhost:8787/agents/chat-agent/n");
  });
});

describe("agentHttpUrl / getMessagesUrl", () => {
  const address: AgentAddress = {
    host: "127.0.0.1:8787",
    agent: "ChatAgent",
    name: "r",
    pk: "secret-connection-id",
    query: { token: "t 1", n: null },
  };

  it("drops _pk but keeps the other query parameters", () => {
    const url = getMessagesUrl(address);
    expect(url).toBe("http://127.0.0.1:8787/agents/chat-agent/r/get-messages?token=t+1");
    expect(url).not.toContain("_pk");
    expect(url).not.toContain("secret-connection-id");
  });

  it("appends get-messages to the pathname, before the query", () => {
    const u = new URL(getMessagesUrl({ ...address, host: "my.app" }));
    expect(u.protocol).toBe("https:");
    expect(u.pathname).toBe("/agents/chat-agent/r/get-messages");
    expect(u.search).toBe("?token=t+1");
  });

  it("has no query part without query parameters", () => {
    expect(getMessagesUrl({ host: "my.app", agent: "ChatAgent", name: "r", pk: "x" })).toBe(
      "https://my.app/agents/chat-agent/r/get-messages",
    );
  });

  it("includes the sub chain so the transcript comes from the child", () => {
    expect(
      getMessagesUrl({ ...address, host: "my.app", sub: [{ agent: "Researcher", name: "agent-tool:c1" }] }),
    ).toBe("https://my.app/agents/chat-agent/r/sub/researcher/agent-tool%3Ac1/get-messages?token=t+1");
  });

  it("is the WebSocket URL with the scheme swapped and _pk removed (docs/protocol.md#http-endpoints)", () => {
    for (const host of ["localhost:8787", "my.app"]) {
      const a = { ...address, host, sub: [{ agent: "Researcher", name: "x y" }], path: "extra" };
      const ws = new URL(agentUrl(a));
      ws.searchParams.delete("_pk");
      ws.protocol = ws.protocol === "ws:" ? "http:" : "https:";
      ws.pathname = `${ws.pathname}/get-messages`;
      expect(getMessagesUrl(a)).toBe(ws.toString());
    }
  });

  it("without a path is the agent's HTTP URL, and a leading slash on the appended path is not doubled", () => {
    expect(agentHttpUrl({ host: "my.app", agent: "ChatAgent", name: "r" })).toBe(
      "https://my.app/agents/chat-agent/r",
    );
    expect(agentHttpUrl({ host: "my.app", agent: "ChatAgent", name: "r" }, "/get-messages")).toBe(
      "https://my.app/agents/chat-agent/r/get-messages",
    );
  });

  it("works under basePath", () => {
    expect(getMessagesUrl({ host: "my.app", agent: "ChatAgent", basePath: "custom/chat" })).toBe(
      "https://my.app/custom/chat/get-messages",
    );
  });
});
