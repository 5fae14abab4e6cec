import { describe, expect, it } from "vitest";
import { MessageList } from "./message-list.ts";
import { parseChunkBody, parseServerFrame } from "./parse.ts";
import { agentUrl } from "./url.ts";

// Frames as the real server sent them (ai-chat/hello.jsonl), inlined because the browser cannot read files.
const frames = [
  '{"type":"cf_agent_identity","name":"hello-mwrpmudn","agent":"chat-agent","stateFollows":true}',
  '{"body":"{\\"type\\":\\"start\\",\\"messageId\\":\\"assistant_1\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":0}',
  '{"body":"{\\"type\\":\\"text-start\\",\\"id\\":\\"txt-hello\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":2}',
  '{"body":"{\\"type\\":\\"text-delta\\",\\"id\\":\\"txt-hello\\",\\"delta\\":\\"Hello! \\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":3}',
  '{"body":"{\\"type\\":\\"text-delta\\",\\"id\\":\\"txt-hello\\",\\"delta\\":\\"How can I help?\\"}","done":false,"id":"fYTVbekm","type":"cf_agent_use_chat_response","seq":4}',
];

describe("protocol in a real browser", () => {
  it("builds URLs the browser's WebSocket accepts", () => {
    const url = agentUrl({
      host: "127.0.0.1:9",
      agent: "AIChatAgent",
      name: "room",
      sub: [{ agent: "Researcher", name: "agent-tool:c" }],
      pk: "p",
    });
    const ws = new WebSocket(url);
    expect(ws.url).toBe(url);
    ws.close();
    expect(new URL(url).pathname).toBe("/agents/a-i-chat-agent/room/sub/researcher/agent-tool%3Ac");
  });

  it("parses real frames and builds the message", () => {
    const list = new MessageList();
    for (const raw of frames) {
      const r = parseServerFrame(raw);
      expect(r.kind).toBe("frame");
      if (r.kind === "frame" && r.frame.type === "cf_agent_use_chat_response") {
        const c = parseChunkBody(r.frame.body);
        if (c.kind === "chunk") list.applyChunk(r.frame.id, c.chunk);
      }
    }
    expect(list.messages[0]?.parts).toEqual([
      { type: "text", text: "Hello! How can I help?", state: "streaming" },
    ]);
  });
});
