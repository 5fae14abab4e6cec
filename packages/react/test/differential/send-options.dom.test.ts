/**
 * The options of `sendMessage` and `regenerate` (AI SDK `Chat`), differential: the same action on the official
 * hook and on ours, comparing the chat request each sends (messages, trigger, body fields), what
 * `prepareSendMessagesRequest` is handed, and the messages an app sees (issue 30 §1).
 */
import type { FileUIPart, UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { assistantText, ServerStream, userMessage } from "./frames.ts";
import { both, type Chat, compare, type Driver, dump, type Script } from "./harness.ts";

const T = { timeout: 60_000 };
const report = (official: Driver, ours: Driver, diffs: string[]) =>
  diffs.length ? `${diffs.join("\n")}\n--- official\n${dump(official)}\n--- ours\n${dump(ours)}` : "";

const history = [
  userMessage("u0", "first question"),
  assistantText("a0", "first answer"),
  userMessage("u1", "second question"),
  assistantText("a1", "second answer"),
];

const dot: FileUIPart = {
  type: "file",
  mediaType: "image/png",
  filename: "dot.png",
  url: "data:image/png;base64,iVBORw0KGgo=",
};

/** A `FileList` as an `<input type="file">` gives one (jsdom cannot construct one): indexed, not an array. */
function fileList(...files: File[]): FileList {
  const props: PropertyDescriptorMap = { length: { value: files.length } };
  files.forEach((f, i) => {
    props[i] = { value: f, enumerable: true };
  });
  return Object.create(FileList.prototype, props) as FileList;
}

/** Mounts on `served`, takes the action, and the server answers the request it sent with a short text. */
const turn =
  (label: string, action: (c: Chat) => unknown, o: { served?: UIMessage[]; options?: object } = {}): Script =>
  async (d) => {
    d.serve(o.served ?? history);
    await d.mount({ ...o.options });
    await d.act(label, action);
    const r = d.lastRequest();
    const s = new ServerStream(r.id);
    await d.push(...s.textTurn("assistant_new", ["New ", "answer"]));
    await d.push(s.done({ messageIds: r.userIds }));
  };

/** The request the hook sent for the action (its parsed body), for the assertions that name the rule. */
const sentBody = (d: Driver) => {
  const f = d.sentOf("cf_agent_use_chat_request").at(-1);
  if (!f) throw new Error(`${d.side}: no chat request sent`);
  return (f.init as { body: Record<string, unknown> }).body;
};
const roles = (d: Driver) => (sentBody(d).messages as UIMessage[]).map((m) => `${m.role}:${m.id}`);

async function same(script: Script) {
  const { official, ours } = await both(script);
  const diffs = compare(official, ours);
  expect(diffs, report(official, ours, diffs)).toEqual([]);
  return { official, ours };
}

describe("sendMessage: files, metadata and messages without an id", () => {
  it("text with files (file parts): the files come first, then the text", T, async () => {
    const { ours } = await same(turn("send", (c) => c.sendMessage({ text: "what is this?", files: [dot] })));
    expect((sentBody(ours).messages as UIMessage[]).at(-1)?.parts).toEqual([
      dot,
      { type: "text", text: "what is this?" },
    ]);
  });

  it("files alone, as a FileList: read as data URLs, and no empty text part", T, async () => {
    const note = () => new File(["hello"], "note.txt", { type: "text/plain" });
    const { ours } = await same(turn("send", (c) => c.sendMessage({ files: fileList(note()) })));
    expect((sentBody(ours).messages as UIMessage[]).at(-1)?.parts).toEqual([
      { type: "file", mediaType: "text/plain", filename: "note.txt", url: "data:text/plain;base64,aGVsbG8=" },
    ]);
  });

  it("metadata goes on the user message", T, async () => {
    const { ours } = await same(
      turn("send", (c) => c.sendMessage({ text: "hi", metadata: { lang: "pt", sentAt: 1 } })),
    );
    expect((sentBody(ours).messages as UIMessage[]).at(-1)?.metadata).toEqual({ lang: "pt", sentAt: 1 });
  });

  it("a message without an id gets one (and one without a role is the user's)", T, async () => {
    const { ours } = await same(async (d) => {
      await turn("send without id", (c) =>
        c.sendMessage({ role: "user", parts: [{ type: "text", text: "no id" }] }),
      )(d);
      await d.act("send without role", (c) => c.sendMessage({ parts: [{ type: "text", text: "no role" }] }));
    });
    const sent = sentBody(ours).messages as UIMessage[];
    expect(sent.slice(-3).map((m) => [m.role, typeof m.id, m.id.length > 0])).toEqual([
      ["user", "string", true],
      ["assistant", "string", true],
      ["user", "string", true],
    ]);
    expect(new Set(sent.map((m) => m.id)).size).toBe(sent.length);
  });

  it("sendMessage() without a message sends the transcript as it is", T, async () => {
    // Only the request is compared: the official hook then writes the reply into the last assistant message
    // (the AI SDK continues it), where the server stores a new one; ours shows what the server stores.
    const { official, ours } = await both(turn("send nothing", (c) => c.sendMessage()));
    const diffs = compare(official, ours, { fields: ["sent", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(sentBody(ours).trigger).toBe("submit-message");
    expect(roles(ours)).toEqual(["user:u0", "assistant:a0", "user:u1", "assistant:a1"]);
  });
});

describe("request options: body, headers, metadata", () => {
  const options = (d: Driver) => ({
    body: { plan: "pro", tz: "UTC" },
    prepareSendMessagesRequest: d.cb("prepareSendMessagesRequest", () => ({ body: { tz: "Europe/Lisbon" } })),
  });

  it(
    "a per-request body wins over the hook's body and prepareSendMessagesRequest; headers and request metadata stay off the socket",
    T,
    async () => {
      const { official, ours } = await both(async (d) => {
        await turn(
          "send",
          (c) =>
            c.sendMessage(
              { text: "hi" },
              { body: { plan: "team", trace: "t1" }, headers: { "x-trace": "t1" }, metadata: { m: 1 } },
            ),
          { options: options(d) },
        )(d);
      });
      const diffs = compare(official, ours, { fields: ["messages", "status", "sent", "errors"] });
      expect(diffs, report(official, ours, diffs)).toEqual([]);
      const { messages: _m, ...fields } = sentBody(ours);
      expect(fields).toEqual({ plan: "team", trace: "t1", tz: "Europe/Lisbon", trigger: "submit-message" });
    },
  );

  it("a message queued with experimental_queue keeps its own request body", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve([]);
      await d.mount({ experimental_queue: true });
      await d.act("send first", (c) => c.sendMessage({ text: "first" }));
      const r = d.lastRequest();
      const s = new ServerStream(r.id);
      await d.push(...s.textTurn("assistant_1", ["One"]).slice(0, 3));
      await d.act("queue second", (c) => c.sendMessage({ text: "second" }, { body: { n: 2 } }));
      await d.push(...s.textTurn("assistant_1", ["One"]).slice(3));
      await d.push(s.done({ messageIds: r.userIds }));
    });
    const diffs = compare(official, ours, { fields: ["messages", "sent", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(sentBody(ours).n).toBe(2);
    expect((sentBody(ours).messages as UIMessage[]).length).toBe(3);
  });
});

describe("edits: sendMessage({ messageId })", () => {
  it("replaces that user message and drops everything after it", T, async () => {
    const { ours } = await same(
      turn("edit", (c) => c.sendMessage({ text: "first question, edited", messageId: "u0" })),
    );
    expect(roles(ours)).toEqual(["user:u0"]);
    expect(ours.last?.messages).toHaveLength(2);
  });

  it("with files and metadata, and prepareSendMessagesRequest is told the message id", T, async () => {
    const { official, ours } = await both(async (d) =>
      turn(
        "edit",
        (c) => c.sendMessage({ text: "again", files: [dot], metadata: { edited: true }, messageId: "u1" }),
        { options: { prepareSendMessagesRequest: d.cb("prepare", () => ({})) } },
      )(d),
    );
    const diffs = compare(official, ours, { fields: ["messages", "status", "sent", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(roles(ours)).toEqual(["user:u0", "assistant:a0", "user:u1"]);
    const told = (d: Driver) =>
      d.callsOf("prepare").map((c) => {
        const a = c.args as Record<string, unknown>;
        return { trigger: a.trigger, messageId: a.messageId };
      });
    expect(told(ours)).toEqual(told(official));
    expect(told(ours)).toEqual([{ trigger: "submit-message", messageId: "u1" }]);
  });

  it("an unknown or non-user message id sends nothing (official: rejects; ours: onError)", T, async () => {
    const { official, ours } = await both(async (d) => {
      d.serve(history);
      await d.mount();
      await d.act("edit unknown", (c) => c.sendMessage({ text: "x", messageId: "nope" }));
      await d.act("edit an answer", (c) => c.sendMessage({ text: "x", messageId: "a0" }));
      await d.act("regenerate unknown", (c) => c.regenerate({ messageId: "nope" }));
    });
    const diffs = compare(official, ours, { fields: ["messages", "status", "sent"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(ours.sentOf("cf_agent_use_chat_request")).toEqual([]);
    const texts = [
      "Invalid argument for parameter message.messageId: message with id nope not found",
      "Invalid argument for parameter message.messageId: message with id a0 is not a user message",
      "Invalid argument for parameter messageId: message nope not found",
    ];
    expect(official.errors.map((e) => e.replace(/^.* rejected: /, ""))).toEqual(texts);
    expect(ours.callsOf("onError").map((c) => (c.args as { error: string }).error)).toEqual(texts);
    expect(ours.errors).toEqual([]);
  });
});

describe("regenerate({ messageId })", () => {
  it("an earlier answer: the transcript up to its user message is sent again", T, async () => {
    const { ours } = await same(turn("regenerate", (c) => c.regenerate({ messageId: "a0" })));
    expect(sentBody(ours).trigger).toBe("regenerate-message");
    expect(roles(ours)).toEqual(["user:u0"]);
  });

  it("a user message: kept, and answered again", T, async () => {
    const { ours } = await same(turn("regenerate", (c) => c.regenerate({ messageId: "u0" })));
    expect(roles(ours)).toEqual(["user:u0"]);
  });

  it("without an id, only the last message goes when it is an answer", T, async () => {
    const served = [...history, assistantText("a2", "a second answer in a row")];
    const { ours } = await same(turn("regenerate", (c) => c.regenerate(), { served }));
    expect(roles(ours)).toEqual(["user:u0", "assistant:a0", "user:u1", "assistant:a1"]);
  });

  it("with a per-request body, and prepareSendMessagesRequest is told the message id", T, async () => {
    const { official, ours } = await both(async (d) =>
      turn("regenerate", (c) => c.regenerate({ messageId: "a1", body: { temperature: 1 } }), {
        options: { prepareSendMessagesRequest: d.cb("prepare", () => ({})) },
      })(d),
    );
    const diffs = compare(official, ours, { fields: ["messages", "status", "sent", "errors"] });
    expect(diffs, report(official, ours, diffs)).toEqual([]);
    expect(sentBody(ours).temperature).toBe(1);
    const told = (d: Driver) => d.callsOf("prepare").map((c) => (c.args as { messageId?: string }).messageId);
    expect(told(ours)).toEqual(told(official));
    expect(told(ours)).toEqual(["a1"]);
  });
});
