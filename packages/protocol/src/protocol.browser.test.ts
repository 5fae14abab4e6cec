import { describe, expect, it } from "vitest";
import { MessageList } from "./message-list.ts";
import { parseChunkBody, parseServerFrame } from "./parse.ts";
import { type AgentAddress, agentUrl, getMessagesUrl } from "./url.ts";

// Frames exactly as the real server sent them, inlined because the browser cannot read the transcripts.
// think/hello.jsonl, think/research.jsonl, ai-chat/rpc.jsonl, ai-chat/pay.jsonl:
const realFrames = {
  identity: '{"type":"cf_agent_identity","name":"hello-mwrpo2ut","agent":"think-agent"}',
  started:
    '{"type":"agent-tool-event","parentToolCallId":"call-research-mwrpojx2-14","sequence":0,"event":{"kind":"started","runId":"agent-tool:call-research-mwrpojx2-14","agentType":"Researcher","inputPreview":"{\\"query\\":\\"durable objects\\"}","order":0,"display":{"name":"Researcher"}}}',
  chunk:
    '{"type":"agent-tool-event","parentToolCallId":"call-research-mwrpojx2-14","sequence":1,"event":{"kind":"chunk","runId":"agent-tool:call-research-mwrpojx2-14","body":"{\\"type\\":\\"start\\",\\"messageId\\":\\"assistant_1795344367831_yk541wyfz\\"}"}}',
  rpc: '{"done":true,"id":"rpc-1","result":2,"success":true,"type":"rpc"}',
  updated:
    '{"type":"cf_agent_message_updated","message":{"id":"assistant_1795344295679_bg68y0hjg","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-processPayment","toolCallId":"call-pay-mwrpn0g6-1","toolName":"processPayment","state":"approval-responded","input":{"amount":250,"recipient":"ACME"},"approval":{"id":"aitxt-tf237lT5OSAODHgQEpBpVRjm","approved":true}}]}}',
};

// A streamed reply from ai-chat/hello.jsonl.
const helloStream = [
  '{"body":"{\\"type\\":\\"start\\",\\"messageId\\":\\"assistant_1\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":0}',
  '{"body":"{\\"type\\":\\"text-start\\",\\"id\\":\\"txt-hello\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":2}',
  '{"body":"{\\"type\\":\\"text-delta\\",\\"id\\":\\"txt-hello\\",\\"delta\\":\\"Hello! \\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":3}',
  '{"body":"{\\"type\\":\\"text-delta\\",\\"id\\":\\"txt-hello\\",\\"delta\\":\\"How can I help?\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":4}',
];

/** Constructs a WebSocket on `url`, closes it at once and returns the URL the browser recorded. */
function openAndClose(url: string): string {
  const ws = new WebSocket(url);
  try {
    return ws.url;
  } finally {
    ws.close();
  }
}

describe("agentUrl in a real browser", () => {
  const addresses: AgentAddress[] = [
    { host: "127.0.0.1:9", agent: "ChatAgent", name: "room", pk: "6b701210-afb2-4efc-8eac-5f1695729e3e" },
    {
      host: "localhost:9",
      agent: "AIChatAgent",
      name: "r",
      sub: [{ agent: "Researcher", name: "agent-tool:c" }],
    },
    {
      host: "http://127.0.0.1:9/",
      agent: "ThinkAgent",
      name: "room",
      sub: [
        { agent: "Researcher", name: "agent-tool:call_abc" },
        { agent: "MCPServer", name: "a b/c?d#e" },
      ],
      path: "extra/path",
      pk: "p",
      query: { token: "a b&c=d", n: 1, ok: false, skip: null },
    },
    { host: "localhost", agent: "ChatAgent", name: "room", basePath: "custom/ws", query: { t: "x" } },
  ];

  it.each(addresses)("the WebSocket constructor accepts %j unchanged", (address) => {
    const url = agentUrl(address);
    expect(() => new URL(url)).not.toThrow();
    expect(new URL(url).href).toBe(url);
    expect(openAndClose(url)).toBe(url);
  });

  it("keeps sub-agent names and query values intact through the browser's URL parser", () => {
    const url = new URL(agentUrl(addresses[2] as AgentAddress));
    expect(url.protocol).toBe("ws:");
    expect(url.host).toBe("127.0.0.1:9");
    const segments = url.pathname.split("/").map(decodeURIComponent);
    expect(segments).toEqual([
      "",
      "agents",
      "think-agent",
      "room",
      "sub",
      "researcher",
      "agent-tool:call_abc",
      "sub",
      "m-c-p-server",
      "a b/c?d#e",
      "extra",
      "path",
    ]);
    expect([...url.searchParams]).toEqual([
      ["_pk", "p"],
      ["token", "a b&c=d"],
      ["n", "1"],
      ["ok", "false"],
    ]);
  });

  it("leaves the raw root name to the browser, which percent-encodes it as the official client's socket does", () => {
    const url = agentUrl({ host: "127.0.0.1:9", agent: "ChatAgent", name: "my room", path: "rooms/日本語" });
    expect(url).toBe("ws://127.0.0.1:9/agents/chat-agent/my room/rooms/日本語");
    expect(openAndClose(url)).toBe(
      "ws://127.0.0.1:9/agents/chat-agent/my%20room/rooms/%E6%97%A5%E6%9C%AC%E8%AA%9E",
    );
  });

  it("builds a get-messages URL the browser accepts, without _pk", () => {
    const url = getMessagesUrl({ ...(addresses[2] as AgentAddress), path: undefined });
    const u = new URL(url);
    expect(u.protocol).toBe("http:");
    expect(u.pathname.endsWith("/sub/m-c-p-server/a%20b%2Fc%3Fd%23e/get-messages")).toBe(true);
    expect(u.searchParams.has("_pk")).toBe(false);
    expect(u.searchParams.get("token")).toBe("a b&c=d");
    expect(new Request(url).url).toBe(url);
  });
});

describe("parseServerFrame in a real browser", () => {
  it("reads real frames of each kind", () => {
    const identity = parseServerFrame(realFrames.identity);
    expect(identity).toEqual({ kind: "frame", frame: JSON.parse(realFrames.identity) });
    expect(
      identity.kind === "frame" && identity.frame.type === "cf_agent_identity" && identity.frame.name,
    ).toBe("hello-mwrpo2ut");

    const rpc = parseServerFrame(realFrames.rpc);
    expect(rpc.kind === "frame" && rpc.frame.type === "rpc" && rpc.frame.success && rpc.frame.result).toBe(2);

    const started = parseServerFrame(realFrames.started);
    expect(started.kind).toBe("frame");
    if (started.kind === "frame" && started.frame.type === "agent-tool-event") {
      expect(started.frame.event).toMatchObject({ kind: "started", agentType: "Researcher", order: 0 });
    }

    const chunk = parseServerFrame(realFrames.chunk);
    expect(chunk.kind).toBe("frame");
    if (
      chunk.kind === "frame" &&
      chunk.frame.type === "agent-tool-event" &&
      chunk.frame.event.kind === "chunk"
    ) {
      expect(parseChunkBody(chunk.frame.event.body)).toEqual({
        kind: "chunk",
        chunk: { type: "start", messageId: "assistant_1795344367831_yk541wyfz" },
      });
    }

    const updated = parseServerFrame(realFrames.updated);
    expect(updated.kind === "frame" && updated.frame.type === "cf_agent_message_updated").toBe(true);
  });

  it("rejects binary WebSocket payloads (Blob, ArrayBuffer) as not text", () => {
    const bytes = new TextEncoder().encode(realFrames.identity);
    for (const raw of [new Blob([bytes]), bytes.buffer, bytes]) {
      expect(parseServerFrame(raw)).toEqual({ kind: "error", reason: "frame is not text" });
    }
  });

  it("builds the assistant message from a real streamed reply", () => {
    const list = new MessageList();
    for (const raw of helloStream) {
      const r = parseServerFrame(raw);
      expect(r.kind).toBe("frame");
      if (r.kind === "frame" && r.frame.type === "cf_agent_use_chat_response") {
        const c = parseChunkBody(r.frame.body);
        if (c.kind === "chunk") list.applyChunk(r.frame.id, c.chunk);
      }
    }
    expect(list.messages).toHaveLength(1);
    expect(list.messages[0]?.id).toBe("assistant_1");
    expect(list.messages[0]?.parts).toEqual([
      { type: "text", text: "Hello! How can I help?", state: "streaming" },
    ]);
  });
});
