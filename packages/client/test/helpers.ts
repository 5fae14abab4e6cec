/** Small helpers the client's tests share. */
import type { UIMessage } from "ai";

/**
 * Polls until `pred` holds; fails naming `what` after `ms`. The limit bounds a hang, never a pace: a busy CI
 * machine (load 12 on 2 cores) took over 15 s for a research turn that takes 2 s when quiet, so no test passes
 * a shorter one. Tests never assert on the time it took.
 */
export async function until(pred: () => boolean, what = "condition", ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The text parts of a message, joined. */
export const textOf = (m: Pick<UIMessage, "parts"> | undefined): string =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => (p as { text: string }).text)
    .join("");

/** A fresh instance name per test, so tests never share an agent. */
export const room = (prefix: string): string => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Counts every read of an element of `array` from now on (the array keeps its identity): what a reader of a
 * published snapshot looked at. Returns the count so far.
 */
export function countReads(array: readonly unknown[]): () => number {
  let reads = 0;
  array.forEach((value, i) => {
    Object.defineProperty(array, i, {
      get: () => {
        reads++;
        return value;
      },
    });
  });
  return () => reads;
}

/** A connection double for the run and chat stores: `deliver` hands a frame to every message listener as text. */
export function frameAgent() {
  const listeners = new Set<(e: { data: unknown }) => void>();
  return {
    addEventListener: (_t: string, fn: EventListenerOrEventListenerObject) =>
      void listeners.add(fn as unknown as (e: { data: unknown }) => void),
    removeEventListener: (_t: string, fn: EventListenerOrEventListenerObject) =>
      void listeners.delete(fn as unknown as (e: { data: unknown }) => void),
    deliver: (f: unknown) => {
      const data = JSON.stringify(f);
      for (const fn of listeners) fn({ data });
    },
  };
}

/**
 * A socket that opens on the next task, records what the client sends, and delivers what the test pushes (a
 * string as it is, anything else as JSON). `FakeWebSocket.last` is the newest one.
 */
export class FakeWebSocket extends EventTarget {
  static last: FakeWebSocket | undefined;
  readyState = 0;
  binaryType = "blob";
  readonly sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeWebSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    });
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  push(frame: unknown) {
    const data = typeof frame === "string" ? frame : JSON.stringify(frame);
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  /** The connection drops (close code 1006). */
  drop() {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code: 1006, reason: "", wasClean: false }));
  }
}
