/**
 * A resume probe sent after the socket ACKed a live stream, against the REAL agents runtime (issue 30 §3: found
 * by the differential generator's server model, which follows the server's code; confirmed here):
 * - the server answers it with another offer and holds the socket out of that stream's frames until it ACKs
 *   again (docs/protocol.md#resume-handshake);
 * - `ChatSession.resumeStream()` called twice while another tab's stream shows keeps receiving it (the second
 *   call sends no probe: docs/protocol.md#probe-after-ack).
 *
 * `RUNBOARD_SKIP_REAL_SERVER=1` skips the file.
 */
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { AgentClient, ChatSession } from "../packages/client/src/index.ts";
import {
  AGENT,
  type Host,
  mountBeforeFirstSend,
  roomNames,
  SKIP_REAL,
  until,
  useRealServer,
} from "./real-server-harness.ts";

const real = useRealServer();
const room = roomNames("again");
const HOSTS: Host[] = ["ai-chat", "think"];

function client(host: Host, name: string) {
  return new AgentClient({ agent: AGENT[host], name, host: `127.0.0.1:${real?.port}`, WebSocket });
}

/** The tab whose turn streams: a chat that sends "slow stream please" (40 words, 150 ms apart). */
async function sender(host: Host, name: string) {
  const c = client(host, name);
  const chat = new ChatSession({ agent: c, throttleMs: 0 });
  mountBeforeFirstSend(c, chat);
  chat.attach();
  void chat.sendMessage({ text: "slow stream please" });
  return { client: c, chat };
}

type Frame = Record<string, unknown>;
const isChunk = (f: Frame, id: string) =>
  f.type === "cf_agent_use_chat_response" &&
  f.id === id &&
  f.done === false &&
  typeof f.body === "string" &&
  f.body !== "";
const words = (text: string) => (text.match(/word\d+/g) ?? []).length;
const textOf = (chat: ChatSession) =>
  chat
    .getSnapshot()
    .messages.filter((m) => m.role === "assistant")
    .flatMap((m) => m.parts)
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("");

describe.skipIf(SKIP_REAL)("a probe after the ACK", () => {
  for (const host of HOSTS) {
    it(`${host}: the offer in answer holds the socket out of the stream until it ACKs again`, {
      timeout: 120_000,
    }, async () => {
      const name = room(`raw-${host}`);
      const observer = client(host, name);
      const frames: Frame[] = [];
      observer.addEventListener("message", (e) =>
        frames.push(JSON.parse(String((e as MessageEvent).data)) as Frame),
      );
      observer.connect();
      await until("the observer open", () => observer.status === "open");
      const a = await sender(host, name);
      let id = "";
      await until("the observer sees the stream", () => {
        const f = frames.find((x) => x.type === "cf_agent_use_chat_response" && x.done === false);
        id = (f?.id as string) ?? "";
        return id !== "";
      });
      const offerFor = (probeId: string) => () =>
        frames.some((f) => f.type === "cf_agent_stream_resuming" && f.id === id && f.probeId === probeId);
      observer.send(JSON.stringify({ type: "cf_agent_stream_resume_request", probeId: "probe-1" }));
      await until("the first offer", offerFor("probe-1"));
      observer.send(JSON.stringify({ type: "cf_agent_stream_resume_ack", id }));
      await until("the replay", () => frames.some((f) => f.id === id && f.replayComplete === true));
      // The second probe, after that ACK.
      observer.send(JSON.stringify({ type: "cf_agent_stream_resume_request", probeId: "probe-2" }));
      await until("the second offer", offerFor("probe-2"));
      const held = frames.length;
      const senderWords = words(textOf(a.chat));
      await until(
        "the sender's stream goes on (3 more words)",
        () => words(textOf(a.chat)) >= senderWords + 3,
      );
      expect(frames.slice(held).filter((f) => isChunk(f, id))).toEqual([]);
      // ACKed again: the stored chunks are replayed, then live ones follow.
      const acked = frames.length;
      observer.send(JSON.stringify({ type: "cf_agent_stream_resume_ack", id }));
      await until("live chunks after the second ACK", () =>
        frames.slice(acked).some((f) => isChunk(f, id) && f.replay !== true),
      );
      await until("the sender's turn ends", () => a.chat.getSnapshot().status === "ready");
      observer.close();
      a.chat.dispose();
      a.client.close();
    });

    it(`${host}: resumeStream() twice while another tab's stream shows: the stream keeps coming`, {
      timeout: 120_000,
    }, async () => {
      const name = room(`chat-${host}`);
      const b = client(host, name);
      const chat = new ChatSession({ agent: b, throttleMs: 0 });
      chat.attach();
      b.connect();
      await until("the observer open", () => b.status === "open");
      const a = await sender(host, name);
      await until("the observer shows words", () => words(textOf(chat)) >= 2);
      // `resumeStream()` is one operation lasting until the stream it found ends
      // (docs/protocol.md#resume-handshake): the second call is the same one and sends no probe while the
      // stream this socket ACKed is live (docs/protocol.md#probe-after-ack).
      const first = chat.resumeStream();
      await until("the observer shows more words", () => words(textOf(chat)) >= 5);
      const second = chat.resumeStream();
      const at = words(textOf(chat));
      // While the sender's turn still streams, the observer's copy grows too (before the fix it froze here
      // until the turn's end brought the whole transcript).
      await until("the observer's copy grows while the stream is live", () => {
        expect(a.chat.getSnapshot().status).not.toBe("ready");
        return words(textOf(chat)) >= at + 3;
      });
      await until("the sender's turn ends", () => a.chat.getSnapshot().status === "ready");
      await Promise.all([first, second]);
      await until(
        "the observer is idle",
        () => !chat.getSnapshot().isServerStreaming && chat.getSnapshot().status === "ready",
      );
      expect(words(textOf(chat))).toBe(40);
      chat.dispose();
      b.close();
      a.chat.dispose();
      a.client.close();
    });
  }
});
