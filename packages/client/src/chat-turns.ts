/**
 * The request side of the chat store: user messages and regenerates sent as chat requests (with the app's
 * `body`, `prepareSendMessagesRequest` and client tool schemas), the `experimental_queue`, stopping,
 * clearing and replacing the history, and what follows a response (the next queued message, or
 * `sendAutomaticallyWhen`).
 */
import { encodeChatClear, encodeChatMessages, encodeChatRequest } from "@runboard/protocol";
import type { FileUIPart, UIMessage } from "ai";
import { type ChatCore, nanoid } from "./chat-core.ts";
import { isBusy, isRequesting } from "./chat-status.ts";
import type { ChatAgentLike, ChatRequestOptions, SendMessageInput } from "./chat-types.ts";
import { extractClientToolSchemas } from "./client-tools.ts";

type Trigger = "submit-message" | "regenerate-message";
const INVALID = "Invalid argument for parameter ";

/**
 * The file parts of `sendMessage({ files })`, as the AI SDK makes them: file parts as they are, a `FileList`
 * read into data URLs (name and media type kept), nothing for no files. Rejects where there is no `FileList`.
 */
async function filePartsOf(files: FileList | FileUIPart[] | undefined): Promise<FileUIPart[]> {
  if (files == null) return [];
  if (Array.isArray(files)) return files;
  if (typeof FileList === "undefined" || !(files instanceof FileList))
    throw new Error("FileList is not supported in the current environment");
  return Promise.all(
    Array.from(files).map(
      (file) =>
        new Promise<FileUIPart>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () =>
            resolve({ type: "file", mediaType: file.type, filename: file.name, url: String(reader.result) });
          reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
          reader.readAsDataURL(file);
        }),
    ),
  );
}

/** The connection id (`_pk`) of our `AgentClient` (`id`) or of the official object (`_pk`). */
function connectionIdOf(agent: ChatAgentLike): string | undefined {
  const a = agent as { _pk?: unknown; id?: unknown };
  if (typeof a._pk === "string") return a._pk;
  return typeof a.id === "string" ? a.id : undefined;
}

/** Turns this tab starts, and the history actions, of one chat store. */
export class ChatTurns<M extends UIMessage = UIMessage> {
  constructor(private readonly c: ChatCore<M>) {}

  /** See `ChatSession.sendMessage`. */
  async sendMessage(message?: SendMessageInput<M>, options: ChatRequestOptions = {}): Promise<void> {
    const { c } = this;
    // As the AI SDK: no message sends the transcript as it is (what follows an approval, say).
    if (message == null) {
      // `messageId` for `prepareSendMessagesRequest`: the answer holding a decided approval, else the last one.
      const ms = c.list.messages;
      let i = ms.length - 1;
      while (i >= 0) {
        const m = ms[i];
        if (m?.role === "assistant" && m.parts.some((p) => "state" in p && p.state === "approval-responded"))
          break;
        i--;
      }
      await this.request("submit-message", options, (ms[i] ?? ms.at(-1))?.id);
      return;
    }
    let draft: Partial<M>;
    if ("text" in message || "files" in message) {
      let files: FileUIPart[];
      // Only a `FileList` is read asynchronously. Without one the message goes in before any await, so the
      // action's synchronous part shows it (`ChatSession.published`), as upstream's shows it in the same batch.
      const given = message.files;
      if (given == null || Array.isArray(given)) files = given ?? [];
      else {
        try {
          files = await filePartsOf(given);
        } catch (e) {
          c.fail(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        if (c.disposed) return;
      }
      const text = "text" in message && message.text != null ? [{ type: "text", text: message.text }] : [];
      draft = { parts: [...files, ...text] } as Partial<M>;
    } else draft = message as Partial<M>;
    const { messageId } = message;
    const made = { ...draft, role: draft.role ?? "user", metadata: message.metadata };
    if (messageId != null) {
      // An edit keeps the id it replaces (unless the new message brings its own), as the AI SDK's.
      await this.edit(messageId, { ...made, id: draft.id ?? messageId } as M, options);
      return;
    }
    const m = { ...made, id: draft.id ?? c.options.generateId?.() ?? `user-${nanoid(10)}` } as M;
    if (c.options.experimental_queue) {
      if (isBusy(c)) {
        c.queue.add(m, options);
        c.changed();
        return;
      }
      c.queue.resume();
    }
    c.list.upsert(m);
    await this.request("submit-message", options);
  }

  /**
   * `sendMessage({ messageId })`: the user message with that id is replaced by `m`, everything after it goes,
   * and the transcript is sent as a new turn. AIChatAgent stores the shorter list; Think rewrites the message in
   * place and keeps what followed (docs/protocol.md#edits); the next transcript it sends shows that.
   */
  private async edit(messageId: string, m: M, options: ChatRequestOptions) {
    const { c } = this;
    this.clearQueueForHistoryChange();
    const i = c.list.messages.findIndex((x) => x.id === messageId);
    const target = c.list.messages[i];
    if (target?.role !== "user") {
      const why = target ? "is not a user message" : "not found";
      // The AI SDK's words (it throws them as an InvalidArgumentError).
      c.fail(new Error(`${INVALID}message.messageId: message with id ${messageId} ${why}`));
      return;
    }
    c.list.truncate(i);
    c.list.upsert(m);
    await this.request("submit-message", options, messageId);
  }

  /** Editing or regenerating drops the queued messages; with `experimental_queue` a running turn stops. */
  private clearQueueForHistoryChange() {
    const { c } = this;
    if (c.options.experimental_queue && isRequesting(c)) this.stop();
    c.queue.clear();
  }

  /** See `ChatSession.experimental_removeQueuedMessage`. */
  removeQueued(id: string): void {
    if (this.c.queue.remove(id)) this.c.changed();
  }

  /** See `ChatSession.experimental_sendQueuedMessageNow`. */
  async sendQueuedNow(id: string): Promise<void> {
    const { c } = this;
    const m = c.queue.take(id);
    if (!m) return;
    if (isRequesting(c)) this.stop();
    c.queue.resume();
    c.list.upsert(m.message);
    await this.request("submit-message", m.options);
  }

  /** See `ChatSession.clearError`. */
  clearError(): void {
    const { c } = this;
    if (!c.error && !c.failed) return;
    c.error = undefined;
    c.failed = false;
    c.changed();
  }

  /**
   * See `ChatSession.regenerate`. As the AI SDK: the message named (the last one without `messageId`) goes if it
   * is an answer, and stays, to be answered again, if it is the user's; everything after it goes. `sent` is
   * told, once the request has its id, which user message's answer is asked for again.
   */
  async regenerate(
    { messageId, ...options }: { messageId?: string } & ChatRequestOptions = {},
    sent?: (userMessageId: string | undefined) => void,
  ): Promise<void> {
    const { c } = this;
    this.clearQueueForHistoryChange();
    const ms = c.list.messages;
    const i = messageId == null ? ms.length - 1 : ms.findIndex((m) => m.id === messageId);
    const target = ms[i];
    if (!target) {
      c.fail(new Error(`${INVALID}messageId: message ${messageId} not found`));
      return;
    }
    const keep = target.role === "assistant" ? i : i + 1;
    let u = keep - 1;
    while (u >= 0 && ms[u]?.role !== "user") u--;
    const user = ms[u]?.id;
    c.list.truncate(keep);
    const request = this.request("regenerate-message", options, messageId);
    // `request` names its id before its first await.
    sent?.(user);
    await request;
  }

  /** Sends the transcript as a new chat request. */
  async request(trigger: Trigger, perCall: ChatRequestOptions = {}, messageId?: string): Promise<void> {
    const { c } = this;
    const id = nanoid(8);
    c.error = undefined;
    c.failed = false;
    c.recoveryGaveUp = undefined;
    c.localRequest = id;
    // As upstream's: `submitted` again until the next content chunk, also when an earlier turn of this tab
    // still streams (the server queues the new one); that turn's next chunk shows `streaming` again.
    c.started.clear();
    c.changed();
    try {
      const { body, prepareSendMessagesRequest, tools } = c.options;
      const extra: Record<string, unknown> = { ...(typeof body === "function" ? await body() : body) };
      const clientTools = extractClientToolSchemas(tools);
      if (clientTools) extra.clientTools = clientTools;
      const messages = c.list.messages as readonly M[];
      if (prepareSendMessagesRequest)
        Object.assign(
          extra,
          (
            await prepareSendMessagesRequest({
              // As upstream: the connection's id (`_pk`).
              id: connectionIdOf(c.options.agent) ?? id,
              messages: messages as M[],
              trigger,
              messageId,
              body: extra,
            })
          ).body,
        );
      // The per-request body wins; its `headers` and `metadata` have no place on the socket, and the official
      // transport drops them too (docs/protocol.md#edits).
      const payload = { messages, trigger, ...extra, ...perCall.body };
      // Only now a stream: a body or prepare callback that fails must not leave one waiting forever.
      if (c.localRequest !== id || c.disposed || c.stopped.has(id)) {
        c.stopped.delete(id);
        c.endLocal(id);
        return;
      }
      c.sides.resume.run(c.rm.handle({ type: "local-request", id }), false);
      c.send(encodeChatRequest(id, payload));
    } catch (e) {
      c.endLocal(id);
      c.fail(e instanceof Error ? e : new Error(String(e)), true);
    }
    c.changed();
  }

  /** See `ChatSession.stop`. */
  stop(): void {
    const { c } = this;
    c.queue.pause();
    // `status` is ready at once, as upstream's; the streams stay open here until the server ends them, so the
    // transcript keeps what the server stores.
    for (const id of c.rm.activeStreams.keys()) c.stopped.add(id);
    if (c.localRequest) c.stopped.add(c.localRequest);
    c.abortOwn();
    c.sides.resume.run(c.rm.handle({ type: "stop" }));
    c.changed();
  }

  /** See `ChatSession.clearHistory`. */
  clearHistory(): void {
    const { c } = this;
    c.queue.clear();
    c.list.replaceAll([]);
    c.sides.resume.run(c.rm.handle({ type: "clear" }));
    c.send(encodeChatClear());
    c.changed();
  }

  /** See `ChatSession.setMessages`. */
  setMessages(next: M[] | ((prev: readonly M[]) => M[])): void {
    const { c } = this;
    const messages = typeof next === "function" ? next(c.list.messages as readonly M[]) : next;
    c.queue.clear();
    c.list.replaceAll(messages);
    if (c.options.syncMessagesToServer !== false) c.send(encodeChatMessages(messages));
    c.changed();
  }

  /** A response ended: the next queued message goes out, or `sendAutomaticallyWhen` may send again. */
  async afterResponse(): Promise<void> {
    const { c } = this;
    if (c.disposed || isBusy(c)) return;
    const next = c.queue.next();
    if (next) {
      c.list.upsert(next.message);
      await this.request("submit-message", next.options);
      return;
    }
    await this.autoSend();
  }

  /** Sends the transcript again when the app's `sendAutomaticallyWhen` says so. */
  async autoSend(): Promise<void> {
    const { c } = this;
    const when = c.options.sendAutomaticallyWhen;
    if (!when || c.disposed || isRequesting(c)) return;
    let send = false;
    try {
      send = await when({ messages: c.list.messages.slice() as M[] });
    } catch (e) {
      c.appFailed("sendAutomaticallyWhen", e);
    }
    if (send) await this.request("submit-message");
  }
}
