/**
 * `experimental_queue` (AI SDK `Chat`): messages sent while a response is running, or while the assistant
 * waits for a tool result or an approval, wait here and go out one at a time as each response finishes.
 * Stopping, an error or an interrupted response pause the queue until the user sends again; editing the
 * history or regenerating empties it.
 */
import type { UIMessage } from "ai";
import type { ChatRequestOptions } from "./chat-types.ts";

/** A queued message and the request options it was sent with (its own `body`, as the AI SDK keeps them). */
export interface QueuedMessage<M extends UIMessage = UIMessage> {
  /** The user message. */
  message: M;
  /** The options of the `sendMessage` call that queued it. */
  options: ChatRequestOptions;
}

/** The messages `experimental_queue` holds back, and whether the queue is paused. */
export class ChatQueue<M extends UIMessage = UIMessage> {
  private items: QueuedMessage<M>[] = [];
  private list: readonly M[] = [];
  private paused = false;

  /** The queued messages, in sending order; a new array whenever it changes. */
  get messages(): readonly M[] {
    return this.list;
  }

  private set(items: QueuedMessage<M>[]) {
    this.items = items;
    this.list = items.map((x) => x.message);
  }

  /** Queues a message behind the others, with the options it was sent with. */
  add(message: M, options: ChatRequestOptions = {}): void {
    this.set([...this.items, { message, options }]);
  }

  /** Drops a queued message; false when it was not queued. */
  remove(id: string): boolean {
    const next = this.items.filter((x) => x.message.id !== id);
    if (next.length === this.items.length) return false;
    this.set(next);
    return true;
  }

  /** Takes a message out to send it ahead of the others. */
  take(id: string): QueuedMessage<M> | undefined {
    const m = this.items.find((x) => x.message.id === id);
    if (m) this.remove(id);
    return m;
  }

  /** The next message to send after a response ended normally, unless paused. */
  next(): QueuedMessage<M> | undefined {
    if (this.paused || this.items.length === 0) return undefined;
    const [first, ...rest] = this.items;
    this.set(rest);
    return first;
  }

  /** Holds the queue (stop, error, an interrupted response) until the user sends again. */
  pause(): void {
    this.paused = true;
  }

  /** A message the user sent themselves resumes the queue. */
  resume(): void {
    this.paused = false;
  }

  /** Empties the queue (the history was edited or regenerated) and lifts a pause. */
  clear(): void {
    if (this.items.length) this.set([]);
    this.paused = false;
  }
}
