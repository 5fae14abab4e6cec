/**
 * A chat opened on an agent that is in the middle of a stream (a drill-in into a running child, a second tab,
 * a refresh) on a slow client: the connect-time offer is ACKed before the transcript has loaded, so the probe
 * that follows the load reaches the server after the ACK. The server puts a socket back in its waiting set on
 * every offer it sends, the probe's answer too, and sends it no live chunk until it ACKs again
 * (docs/protocol.md#probe-after-ack). A slow phone saw the first word of a child's answer and nothing more.
 *
 * The fake socket below plays the server's side of the handshake as agents 0.32 does it, and the test decides
 * the order in which each side reads what the other sent: ordering, never timing.
 */
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { textOf, until } from "../test/helpers.ts";
import { ChatSession } from "./chat-session.ts";

type Frame = Record<string, unknown>;

/**
 * One socket to an agent whose stream `streamId` is live. Offers (on connect, in answer to a probe) put the
 * socket in the waiting set; an ACK takes it out and replays the stored chunks; live chunks skip a waiting
 * socket. Nothing moves until the test calls `read` (the server handles what the client sent) or `deliver`
 * (the client receives what the server sent).
 */
class MidStreamAgent extends EventTarget {
  readyState = 0;
  readonly agent = "researcher";
  readonly name = "agent-tool:call_1";
  /** Everything the client sent, parsed, in order. */
  readonly sent: Frame[] = [];
  private unread: Frame[] = [];
  private undelivered: Frame[] = [];
  private readonly stored: string[] = [];
  private waiting = false;

  constructor(readonly streamId: string) {
    super();
  }

  send(data: string): void {
    const frame = JSON.parse(data) as Frame;
    this.sent.push(frame);
    this.unread.push(frame);
  }

  /** The socket opens; the server offers its live stream at once (before identity). */
  open(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
    this.offer();
  }

  /** The server handles what the client sent so far, in order. */
  read(): void {
    for (const f of this.unread.splice(0)) {
      if (f.type === "cf_agent_stream_resume_request")
        this.offer(typeof f.probeId === "string" ? f.probeId : undefined);
      else if (f.type === "cf_agent_stream_resume_ack" && f.id === this.streamId) {
        this.waiting = false;
        for (const body of this.stored) this.out({ body, done: false, replay: true });
        this.out({ body: "", done: false, replay: true, replayComplete: true });
      }
    }
  }

  /** The agent streams one chunk: stored for a later replay, and sent live unless this socket waits. */
  chunk(chunk: Frame): void {
    const body = JSON.stringify(chunk);
    this.stored.push(body);
    if (!this.waiting) this.out({ body, done: false });
  }

  /** The stream ends: the server's waiting set is cleared and `done` goes to every socket. */
  end(): void {
    this.waiting = false;
    this.out({ body: "", done: true });
  }

  /** The client receives what the server sent so far, in order. */
  deliver(): void {
    for (const f of this.undelivered.splice(0))
      this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(f) }));
  }

  private offer(probeId?: string) {
    this.waiting = true;
    this.undelivered.push({
      type: "cf_agent_stream_resuming",
      id: this.streamId,
      ...(probeId === undefined ? {} : { probeId }),
    });
  }

  private out(f: Frame) {
    this.undelivered.push({ type: "cf_agent_use_chat_response", id: this.streamId, ...f });
  }
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const task: UIMessage = { id: "task", role: "user", parts: [{ type: "text", text: '{"query":"queues"}' }] };

/** A child mid-stream: its answer has begun with "Researching ". */
function childMidStream() {
  const agent = new MidStreamAgent("child-turn");
  agent.chunk({ type: "start", messageId: "answer" });
  agent.chunk({ type: "text-start", id: "t1" });
  agent.chunk({ type: "text-delta", id: "t1", delta: "Researching " });
  return agent;
}

const answerText = (chat: ChatSession) =>
  textOf(chat.getSnapshot().messages.find((m) => m.role === "assistant"));

describe("a chat opened while its agent streams, on a slow client", () => {
  it("keeps receiving the live stream when the transcript loads after the connect offer was ACKed", async () => {
    const agent = childMidStream();
    const transcript = deferred<UIMessage[]>();
    const chat = new ChatSession({ agent, getInitialMessages: () => transcript.promise, throttleMs: 0 });
    try {
      agent.open();
      agent.deliver(); // the connect-time offer: the chat ACKs it
      agent.read();
      agent.deliver(); // the replay: "Researching "
      expect(answerText(chat)).toBe("Researching ");
      // Only now, on a slow client, does the transcript arrive.
      transcript.resolve([task]);
      await until(() => chat.getSnapshot().messages[0]?.id === "task", "the transcript shown");
      agent.read(); // whatever the chat sent after loading it
      agent.deliver();
      agent.chunk({ type: "text-delta", id: "t1", delta: "now." });
      agent.deliver();
      expect(answerText(chat)).toBe("Researching now.");
      agent.chunk({ type: "text-end", id: "t1" });
      agent.chunk({ type: "finish" });
      agent.end();
      agent.deliver();
      const s = chat.getSnapshot();
      expect(s.messages.map((m) => [m.role, textOf(m)])).toEqual([
        ["user", '{"query":"queues"}'],
        ["assistant", "Researching now."],
      ]);
      expect(s.isServerStreaming).toBe(false);
      // One ACK: the stream was replayed once.
      expect(agent.sent.filter((f) => f.type === "cf_agent_stream_resume_ack")).toHaveLength(1);
    } finally {
      chat.dispose();
    }
  });

  it("resumeStream() names the stream this socket receives, and the stream keeps coming", async () => {
    const agent = childMidStream();
    const chat = new ChatSession({ agent, getInitialMessages: null, throttleMs: 0 });
    try {
      agent.open();
      agent.deliver();
      agent.read();
      agent.deliver();
      const asked = chat.resumeStream();
      let answered: string | undefined | null = null;
      void asked.then((id) => {
        answered = id;
      });
      agent.read();
      agent.deliver();
      agent.chunk({ type: "text-delta", id: "t1", delta: "now." });
      agent.deliver();
      expect(answerText(chat)).toBe("Researching now.");
      // The resume lasts until the stream it found ends, as upstream's (issue 30 §1).
      await Promise.resolve();
      expect(answered).toBeNull();
      agent.end();
      agent.deliver();
      await expect(asked).resolves.toBe("child-turn");
    } finally {
      chat.dispose();
    }
  });

  it("a probe sent before the ACK is answered with the offer already ACKed: one ACK, the stream keeps coming", async () => {
    const agent = childMidStream();
    const chat = new ChatSession({ agent, getInitialMessages: null, throttleMs: 0 });
    try {
      // The mount probe goes out on the socket before the connect offer has arrived (a fast client).
      await until(() => agent.sent.some((f) => f.type === "cf_agent_stream_resume_request"), "the probe");
      agent.open();
      agent.deliver(); // the connect offer: ACK
      agent.read(); // the probe (a second offer), then the ACK (the replay)
      agent.deliver();
      agent.chunk({ type: "text-delta", id: "t1", delta: "now." });
      agent.deliver();
      expect(answerText(chat)).toBe("Researching now.");
      expect(agent.sent.filter((f) => f.type === "cf_agent_stream_resume_ack")).toHaveLength(1);
    } finally {
      chat.dispose();
    }
  });
});
