/**
 * The request side of the chat store: user messages and regenerates sent as chat requests (with the app's
 * `body`, `prepareSendMessagesRequest` and client tool schemas), the `experimental_queue`, stopping,
 * clearing and replacing the history, and what follows a response (the next queued message, or
 * `sendAutomaticallyWhen`).
 */
import { encodeChatClear, encodeChatMessages, encodeChatRequest } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { type ChatCore, nanoid } from "./chat-core.ts";
import { isBusy, isRequesting } from "./chat-status.ts";
import type { ChatAgentLike } from "./chat-types.ts";
import { extractClientToolSchemas } from "./client-tools.ts";

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
  async sendMessage(
    message: { text: string } | M,
    options: { body?: Record<string, unknown> } = {},
  ): Promise<void> {
    const { c } = this;
    const id = c.options.generateId?.() ?? `user-${nanoid(10)}`;
    const m = (
      "role" in message ? message : { id, role: "user", parts: [{ type: "text", text: message.text }] }
    ) as M;
    if (c.options.experimental_queue) {
      if (isBusy(c)) {
        c.queue.add(m);
        c.changed();
        return;
      }
      c.queue.resume();
    }
    c.list.upsert(m);
    await this.request("submit-message", options.body);
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
    c.list.upsert(m);
    await this.request("submit-message");
  }

  /** See `ChatSession.clearError`. */
  clearError(): void {
    const { c } = this;
    if (!c.error && !c.failed) return;
    c.error = undefined;
    c.failed = false;
    c.changed();
  }

  /** See `ChatSession.regenerate`. */
  async regenerate(options: { body?: Record<string, unknown> } = {}): Promise<void> {
    const { c } = this;
    const ms = c.list.messages;
    let i = ms.length - 1;
    while (i >= 0 && ms[i]?.role !== "user") i--;
    c.queue.clear();
    c.list.truncate(i + 1);
    await this.request("regenerate-message", options.body);
  }

  /** Sends the transcript as a new chat request. */
  async request(
    trigger: "submit-message" | "regenerate-message",
    perCall?: Record<string, unknown>,
  ): Promise<void> {
    const { c } = this;
    const id = nanoid(8);
    c.error = undefined;
    c.failed = false;
    c.recoveryGaveUp = undefined;
    c.localRequest = id;
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
              body: extra,
            })
          ).body,
        );
      const payload = { messages, trigger, ...extra, ...perCall };
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
      c.list.upsert(next);
      await this.request("submit-message");
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
